//! The findings register (`ci/findings.yaml`): confirmed engine bugs, and
//! the ready-to-file issue text of each one not filed yet.

use std::fmt::Write as _;
use std::path::Path;

use serde::Deserialize;

/// One confirmed engine bug.
#[derive(Clone, Debug, Deserialize)]
pub struct Finding {
    /// The engine.
    pub engine: String,
    /// The versions affected.
    pub versions: String,
    /// The minimal ruling (a path from the repository root).
    pub ruling: String,
    /// What is wrong, in one line.
    pub title: String,
    /// The CR rules it breaks.
    #[serde(default)]
    pub rules: Vec<String>,
    /// The upstream issue, once filed.
    #[serde(default)]
    pub upstream: Option<String>,
    /// `not filed`, `filed` or `fixed in VERSION`.
    pub status: String,
    /// The standalone program in the engine's own language that reproduces
    /// it (a path from the repository root), run by CI against every
    /// pinned version.
    #[serde(default)]
    pub reproduction: Option<String>,
    /// What it breaks in games: `changes the outcome of ordinary games`,
    /// `rare interaction` or `state nothing reads`.
    #[serde(default)]
    pub severity: Option<String>,
}

impl Finding {
    /// Its id: the ruling file's stem.
    pub fn id(&self) -> String {
        Path::new(&self.ruling)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Whether it is still to be filed upstream.
    pub fn unfiled(&self) -> bool {
        self.status == "not filed"
    }
}

#[derive(Deserialize)]
struct Register {
    findings: Vec<Finding>,
}

/// Reads the register at `path`.
pub fn load(path: &Path) -> Result<Vec<Finding>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_yaml::from_str::<Register>(&text)
        .map(|r| r.findings)
        .map_err(|e| format!("{}: not a findings register: {e}", path.display()))
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
