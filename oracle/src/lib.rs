//! # ptoracle
//!
//! A conformance oracle for the power/toughness rules of Magic: The
//! Gathering: a reference resolver for the layer system (613), counters
//! (122), damage (120), state-based actions (704) and the number rules
//! (107), under a selectable [`Edition`] of the Comprehensive Rules, and a
//! corpus of rulings to check engines against.
//!
//! The one entry point for checking a case is [`check`]:
//!
//! ```
//! use ptoracle::{Edition, Verdict, check, corpus};
//! let text = r#"
//! id: demo/gray-ogre
//! title: A setting effect applies under every modification
//! rules: ["613.4b", "613.4c"]
//! setup:
//!   objects:
//!     - { id: ogre, name: Gray Ogre, types: [Creature], pt: 2/2, counters: { +1/+1: 1 } }
//! steps:
//!   - do: { effect: { name: Giant Growth, affects: [ogre], modify: +3/+3, until: end-of-turn } }
//!     expect: { ogre: { pt: 6/6 } }
//!   - do: { effect: { name: Ovinize, affects: [ogre], set: 0/1, until: end-of-turn } }
//!     expect: { ogre: { pt: 4/5, base_pt: 0/1 } }
//! "#;
//! let cases = corpus::parse_str("demo.yaml", text).unwrap();
//! assert_eq!(check(&cases[0].case, Edition::current()), Verdict::Pass);
//! ```
//!
//! See `ARCHITECTURE.md` for the map of the crate.

#![deny(missing_docs)]

pub mod corpus;
pub mod coverage;
pub mod diff;
pub mod engine;
pub mod explain;
pub mod explore;
pub mod export;
pub mod fuzzing;
pub mod gate;
pub mod in_process;
pub mod matrix;
pub mod output;
pub mod printable;
mod ruling;
pub mod schema;
pub mod serve;
mod yaml;

// The rules core and the protocol are crates of their own (no I/O in the
// core, wire types apart from core types); the tool re-exports them under
// the paths it always had.
pub use ptoracle_core::{
    cost, edition, error, fault, number, observation, resolver, scenario, terms, verdict,
};
pub use ptoracle_protocol as protocol;

pub use edition::Edition;
pub use scenario::Case;
pub use verdict::{Verdict, check};
