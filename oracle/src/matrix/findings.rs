//! The findings register (`ci/findings.yaml`): confirmed engine bugs, and
//! the ready-to-file issue text of each one not filed yet.

use std::fmt::Write as _;
use std::path::Path;

/// One confirmed engine bug: the gate's reading of the register serves the
/// matrix too (one struct, one reader).
pub use crate::gate::findings::Finding;

/// Reads the register at `path`, as the gate reads it (signatures checked).
pub fn load(path: &Path) -> Result<Vec<Finding>, String> {
    crate::gate::findings::Register::load(path)
        .map(|r| r.findings)
        .map_err(|e| e.to_string())
}

/// The issue text of `f`, its ruling's YAML read from under `root` (the
/// repository the register's paths start from).
pub fn issue_text(f: &Finding, root: &Path) -> String {
    let ruling = std::fs::read_to_string(root.join(&f.ruling))
        .unwrap_or_else(|e| format!("# could not read {}: {e}", f.ruling));
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", f.title);
    let _ = writeln!(s, "- Engine: {}", f.engine);
    let _ = writeln!(s, "- Version: {}", f.versions);
    let _ = writeln!(s, "- Comprehensive Rules: {}", f.rules.join(", "));
    if let Some(severity) = &f.severity {
        let _ = writeln!(s, "- Severity: {severity}");
    }
    if let Some(program) = &f.reproduction {
        let _ = writeln!(
            s,
            "- Reproduction: `{program}`, a standalone program against the engine alone (it exits 1 while the bug is there)"
        );
    }
    let _ = writeln!(
        s,
        "- Found by: ptoracle, a conformance oracle for the power/toughness rules\n"
    );
    s.push_str("## Minimal scenario\n\nThe ruling below states the scenario, step by step, and the expected power, toughness and state after each step (`expect:`); the engine's observation differs from it.\n\n```yaml\n");
    s.push_str(&ruling);
    if !ruling.ends_with('\n') {
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "```\n\n## Expected vs observed\n\nExpected: the `expect:` values above (CR {}). Observed: replay with\n\n```sh\nptoracle gate --engine ADAPTER {}\n```\n\nwhich prints each field the engine reports differently.",
        f.rules.join(", "),
        f.ruling
    );
    s
}
