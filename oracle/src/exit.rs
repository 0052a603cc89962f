//! The exit statuses of every command, in one list, so that a status means
//! the same whatever the command (README.md, "Exit status").

use std::process::ExitCode;

/// How a command ends. The order is the severity: where two outcomes meet,
/// the greater one is the command's status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// 0: everything checked passed (or there was nothing to check).
    Pass,
    /// 1: something checked failed: a case, an invariant, an engine's
    /// reply the expectations do not list, a broken baseline.
    Fail,
    /// 2: bad arguments or input (a corpus, an expectations file, a
    /// report that cannot be read or written).
    BadInput,
    /// 3: the engine could not be used at all (`gate`).
    Unusable,
    /// 130: interrupted (Ctrl-C, SIGTERM, SIGHUP); the reports hold what
    /// was done.
    Interrupted,
}

impl Exit {
    /// The process's exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Pass => 0,
            Exit::Fail => 1,
            Exit::BadInput => 2,
            Exit::Unusable => 3,
            Exit::Interrupted => 130,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}
