//! The reference resolver behind the protocol, in this process: every case
//! is written as a request line, answered by `ptoracle serve`'s own code,
//! and the reply read back as the gate reads any engine's.

use super::{Answer, Engine, EngineFault, FaultKind, Reference, answer_from_reply};
use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::Mutant;
use ptoracle_core::scenario::Case;
use ptoracle_protocol::{self as protocol, Capabilities, Request};

/// `ptoracle serve` (with a mutant, if given) as an engine, without a
/// process or pipes: the differential fuzz target's default engine, which
/// puts both sides of the protocol's encoding and decoding in every run.
///
/// ```
/// use ptoracle::engine::{Engine, Served};
/// use ptoracle::engine::check_engine;
/// use ptoracle::verdict::Verdict;
/// use ptoracle::explore::{case_at, playable};
/// // The first generated case of seed 1 whose first step can be played.
/// let (case, _) = (0..100)
///     .find_map(|i| playable(case_at(1, i)?, ptoracle::Edition::current()))
///     .unwrap();
/// let mut served = Served::new(None);
/// let caps = served.capabilities().unwrap();
/// let checked = check_engine(&case, ptoracle::Edition::current(), &mut served, &caps, None);
/// assert_eq!(checked.verdict, Verdict::Pass);
/// ```
#[derive(Clone, Debug)]
pub struct Served {
    reference: Reference,
    caps: Option<Capabilities>,
    seq: u64,
}

impl Served {
    /// The reference, or a mutant of it, behind the protocol.
    pub fn new(mutant: Option<Mutant>) -> Served {
        Served {
            reference: Reference::new(mutant),
            caps: None,
            seq: 0,
        }
    }

    fn exchange(&mut self, line: &[u8]) -> Result<Vec<u8>, EngineFault> {
        crate::serve::answer(line, &mut self.reference).ok_or_else(|| {
            EngineFault::new(
                FaultKind::Crash,
                "serve ended the session instead of answering",
            )
        })
    }
}

impl Engine for Served {
    fn capabilities(&mut self) -> Result<Capabilities, EngineFault> {
        if let Some(caps) = &self.caps {
            return Ok(caps.clone());
        }
        let line = self.exchange(&protocol::encode(&protocol::hello()))?;
        let caps = protocol::decode_engine_hello(&line).map_err(|e| {
            EngineFault::new(
                FaultKind::Handshake,
                format!("serve's hello: {}", e.message),
            )
        })?;
        self.caps = Some(caps.clone());
        Ok(caps)
    }

    fn run(&mut self, case: &Case, edition: Edition) -> Answer {
        let caps = match self.capabilities() {
            Ok(c) => c,
            Err(f) => return Answer::Fault(f),
        };
        self.seq += 1;
        let request = Request::Run {
            seq: self.seq,
            edition: edition.id().to_string(),
            case: Box::new(protocol::without_expectations(case)),
        };
        let line = match self.exchange(&protocol::encode(&request)) {
            Ok(l) => l,
            Err(f) => return Answer::Fault(f),
        };
        match protocol::decode_reply(&line, &caps.unobserved) {
            Ok(reply) => answer_from_reply(reply, self.seq, case.steps.len()),
            Err(e) => Answer::Fault(e.into()),
        }
    }
}
