//! `ptoracle fuzz seeds` and `ptoracle fuzz replay`: the fuzz crate's
//! seed corpora, and its inputs replayed without libFuzzer.

use crate::cli::outln;
use crate::exit::Exit;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ptoracle::fuzzing::{self, Target, seeds};

pub fn seeds(rulings: &Path, out: &Path, check: bool) -> ExitCode {
    let files = match seeds::ruling_files(rulings) {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "error: cannot read the rulings in {}: {e}",
                rulings.display()
            );
            return Exit::BadInput.into();
        }
    };
    let made = seeds::seeds(&files);
    let changes = seeds::differences(out, &made, &seeds::dictionaries());
    if check {
        for (path, bytes) in &changes {
            let what = if bytes.is_some() {
                "out of date"
            } else {
                "stale"
            };
            outln!("{what}: {}", path.display());
        }
        if changes.is_empty() {
            outln!("{} seeds and the dictionaries are up to date", made.len());
            return Exit::Pass.into();
        }
        outln!("run `cargo run -- fuzz seeds` to bring them up to date");
        return Exit::Fail.into();
    }
    let (mut written, mut removed) = (0, 0);
    for (path, bytes) in changes {
        let done = match bytes {
            Some(b) => ptoracle::output::write_file(&path, &b).map(|()| written += 1),
            None => std::fs::remove_file(&path).map(|()| removed += 1),
        };
        if let Err(e) = done {
            eprintln!("error: {}: {e}", path.display());
            return Exit::Fail.into();
        }
    }
    outln!(
        "{} seeds from {} ruling files: {written} files written, {removed} removed",
        made.len(),
        files.len()
    );
    Exit::Pass.into()
}

pub fn replay(target: &str, inputs: &[PathBuf], engine: Option<&str>) -> ExitCode {
    let target = match Target::parse(target) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::BadInput.into();
        }
    };
    if target == Target::Differential {
        let named = match engine {
            Some(spec) => fuzzing::engine_named(spec).map(|e| (spec.to_string(), e)),
            None => fuzzing::engine_from_env(),
        };
        match named {
            Ok((spec, e)) => {
                eprintln!("differential engine: {spec}");
                fuzzing::install_engine(e);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Exit::BadInput.into();
            }
        }
    }
    let mut files = Vec::new();
    for p in inputs {
        if p.is_dir() {
            match std::fs::read_dir(p) {
                Ok(entries) => {
                    let mut found: Vec<PathBuf> = entries
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|p| p.is_file())
                        .collect();
                    found.sort();
                    files.extend(found);
                }
                Err(e) => {
                    eprintln!("error: {}: {e}", p.display());
                    return Exit::BadInput.into();
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    let (mut ok, mut failed) = (0, 0);
    for f in &files {
        let data =
            match ptoracle::corpus::read_file(f, ptoracle::corpus::MAX_FILE_BYTES, "fuzz input") {
                Ok(d) => d,
                Err(e) => {
                    eprintln!("error: {}: {e}", f.display());
                    return Exit::BadInput.into();
                }
            };
        match std::panic::catch_unwind(|| target.run(&data)) {
            Ok(Ok(())) => ok += 1,
            Ok(Err(finding)) => {
                failed += 1;
                outln!("FAIL {}: {finding}", f.display());
                if let Some(case) = &finding.case {
                    show_scenario(case);
                }
            }
            Err(_) => {
                failed += 1;
                outln!("PANIC {} (the panic message is above)", f.display());
                if let Some(case) = fuzzing::scenario(&data).filter(|_| target.takes_scenario()) {
                    show_scenario(&case);
                }
            }
        }
    }
    outln!("{ok} passed, {failed} failed ({target})");
    if failed == 0 {
        Exit::Pass.into()
    } else {
        Exit::Fail.into()
    }
}

fn show_scenario(case: &ptoracle::Case) {
    outln!("  the scenario, as a ruling to complete:");
    for line in ptoracle::corpus::to_yaml(case).lines() {
        outln!("    {line}");
    }
}
