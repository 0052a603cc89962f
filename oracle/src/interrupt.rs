//! Interruption: Ctrl-C (SIGINT), SIGTERM (what `timeout`, a cancelled CI
//! job and a stopping container send) and SIGHUP (a closed terminal) stop a
//! long command alike: it abandons what it waits for, kills its engines,
//! writes its reports and exits with status 130. A second signal does not
//! wait for the reports: it kills the engines and exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ptoracle::engine::reaper;

/// Installs the handler and returns the flag it sets. The flag is the
/// only thing the command needs to watch.
pub fn install() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&stop);
    // The handler runs on a thread of its own (not in signal context), so
    // it may take locks and kill processes.
    let installed = ctrlc::set_handler(move || {
        if seen.swap(true, Ordering::SeqCst) {
            reaper::kill_all();
            std::process::exit(i32::from(crate::exit::Exit::Interrupted.code()));
        }
    });
    if let Err(e) = installed {
        eprintln!("warning: Ctrl-C, SIGTERM and SIGHUP will not stop this run cleanly: {e}");
    }
    stop
}
