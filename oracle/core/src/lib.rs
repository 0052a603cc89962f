//! # ptoracle-core
//!
//! The rules core of ptoracle: a reference resolver for the power/toughness
//! rules of Magic: The Gathering — the layer system (613), counters (122),
//! damage (120), state-based actions (704) and the number rules (107) —
//! under a selectable [`Edition`] of the Comprehensive Rules, and the
//! comparison of what an engine observes with what the rules say.
//!
//! The core does no I/O, starts no threads and reads no files: a [`Case`]
//! comes in as a value (deserialize it with serde from any format; the
//! `ptoracle` crate reads the YAML ruling files), and a [`Verdict`] or a
//! [`resolver::Run`] goes out. The one entry point for checking a case is
//! [`check`]:
//!
//! ```
//! use ptoracle_core::{Case, Edition, Verdict, check};
//! let case: Case = serde_json::from_str(r#"{
//!   "id": "demo/gray-ogre",
//!   "title": "A setting effect applies under every modification",
//!   "rules": ["613.4b", "613.4c"],
//!   "setup": { "objects": [
//!     { "id": "ogre", "name": "Gray Ogre", "types": ["Creature"], "pt": "2/2",
//!       "counters": { "+1/+1": 1 } } ] },
//!   "steps": [
//!     { "do": { "effect": { "name": "Giant Growth", "affects": ["ogre"],
//!                           "modify": "+3/+3", "until": "end-of-turn" } },
//!       "expect": { "ogre": { "pt": "6/6" } } },
//!     { "do": { "effect": { "name": "Ovinize", "affects": ["ogre"],
//!                           "set": "0/1", "until": "end-of-turn" } },
//!       "expect": { "ogre": { "pt": "4/5", "base_pt": "0/1" } } }
//!   ]
//! }"#).unwrap();
//! assert_eq!(check(&case, Edition::current()), Verdict::Pass);
//! ```
//!
//! See `ARCHITECTURE.md` in the repository for the map of the crates.

#![deny(missing_docs)]

pub mod cost;
pub mod edition;
pub mod error;
pub mod fault;
pub mod number;
pub mod observation;
pub mod resolver;
pub mod scenario;
pub mod terms;
pub mod text;
pub mod verdict;

pub use edition::Edition;
pub use scenario::Case;
pub use verdict::{Verdict, check};
