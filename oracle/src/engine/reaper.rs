//! Engine processes and everything they start: no descendant outlives the
//! gate.
//!
//! An engine runs in a process group of its own, and a kill of that group
//! ends what it started, except a descendant that left the group
//! (`setsid(2)`, `setpgid(2)`). So a kill here also walks the engine's
//! descendants (from `/proc`) and kills each, and on Linux the caller may
//! become a *child subreaper* ([`become_subreaper`]): an orphaned
//! descendant is then re-parented to ptoracle instead of to init, and
//! [`sweep`] kills and reaps every child of ptoracle that is not a running
//! engine. Where `/proc` or subreapers do not exist, the process group
//! alone is killed.
//!
//! The engines running now are listed (`spawn` adds, `kill` removes),
//! so that a sweep leaves them alone and a second Ctrl-C can end them all
//! ([`kill_all`]).

use std::process::{Child, Command};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether this process made itself a subreaper: only then are its
/// children that are not engines taken for orphans to sweep.
static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// The pids of the engines running now.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<u32>> {
    RUNNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Starts an engine and lists it as running; the list is held meanwhile,
/// so a concurrent [`sweep`] never takes the new process for an orphan.
pub(crate) fn spawn(command: &mut Command) -> std::io::Result<Child> {
    let mut list = running();
    let child = command.spawn()?;
    list.push(child.id());
    Ok(child)
}

/// Makes this process the reaper of its orphaned descendants (Linux's
/// `PR_SET_CHILD_SUBREAPER`); elsewhere it does nothing. Returns whether
/// it took effect. From then on every child of this process that is not
/// a running engine is taken for an orphan, and killed by [`sweep`]: only
/// a program whose children are all engines (the gate) may call it.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes integers only.
        let done = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 };
        SUBREAPER.store(done, Ordering::SeqCst);
        done
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Kills an engine: its descendants, its process group, then the process
/// itself, which is reaped and no longer listed as running.
pub(crate) fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        let pid = child.id();
        // The tree first: once the engine is dead its descendants are no
        // longer found under it.
        let tree = descendants(pid);
        if let Ok(group) = i32::try_from(pid) {
            // SAFETY: kill(2) with a negative pid signals the process group
            // the child leads (it was spawned with process_group(0)).
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        for p in tree {
            if let Ok(p) = i32::try_from(p) {
                // SAFETY: kill(2) takes integers only; a pid that has
                // exited meanwhile is at worst a zombie not yet reaped by
                // its parent, so the pid cannot have been reused.
                unsafe {
                    libc::kill(p, libc::SIGKILL);
                }
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    running().retain(|&p| p != child.id());
}

/// Kills and reaps every child of this process that is not a running
/// engine: the orphans a subreaper inherits. Returns how many there were.
/// Does nothing unless [`become_subreaper`] took effect.
pub fn sweep() -> usize {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return 0;
    }
    #[cfg(target_os = "linux")]
    {
        let list = running();
        let me = std::process::id();
        let orphans: Vec<u32> = processes()
            .into_iter()
            .filter(|&(pid, parent)| parent == me && !list.contains(&pid))
            .map(|(pid, _)| pid)
            .collect();
        drop(list);
        for &pid in &orphans {
            let Ok(pid) = i32::try_from(pid) else {
                continue;
            };
            let mut status = 0;
            // SAFETY: kill(2) and waitpid(2) on a child of this process,
            // with integers and a pointer to a local.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, &mut status, 0);
            }
        }
        orphans.len()
    }
    #[cfg(not(target_os = "linux"))]
    {
        0
    }
}

/// Kills every running engine and what it started, then sweeps orphans
/// until none is left: what a second Ctrl-C, or the end of the gate, does.
pub fn kill_all() {
    #[cfg(unix)]
    {
        let pids: Vec<u32> = running().drain(..).collect();
        for pid in pids {
            for p in descendants(pid).into_iter().chain([pid]) {
                if let Ok(p) = i32::try_from(p) {
                    // SAFETY: kill(2) takes integers only.
                    unsafe {
                        libc::kill(p, libc::SIGKILL);
                    }
                }
            }
            if let Ok(group) = i32::try_from(pid) {
                // SAFETY: as above, for the engine's process group.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
    }
    // Orphans are re-parented as their parents die: sweep until a sweep
    // finds none (each sweep waits for what it kills).
    while sweep() > 0 {}
}

/// Every process's pid and parent pid, from `/proc` (empty where there is
/// no `/proc`).
fn processes() -> Vec<(u32, u32)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses,
        // so the fields are read after its last ')'.
        let rest = &stat[stat.rfind(')')? + 1..];
        let parent = rest.split_whitespace().nth(1)?.parse().ok()?;
        Some((pid, parent))
    })
    .collect()
}

/// The descendants of `root`, from `/proc` (empty where there is none).
fn descendants(root: u32) -> Vec<u32> {
    let all = processes();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        for &(pid, p) in &all {
            if p == parent && !found.contains(&pid) {
                found.push(pid);
            }
        }
        i += 1;
    }
    found.remove(0);
    found
}

/// Whether the process `pid` has exited (it is a zombie not yet reaped),
/// without reaping it: the engine's exit is seen even while a descendant
/// still holds its output open.
pub(crate) fn has_exited(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let pid: libc::id_t = pid;
        // SAFETY: waitid(2) fills a siginfo_t that lives on this stack
        // frame; WNOWAIT leaves the child to be reaped by its `Child`.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        false
    }
}
