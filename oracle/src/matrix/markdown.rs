//! `summary.md` and the shields.io endpoint badges.

use std::fmt::Write as _;

use super::model::{Column, Matrix};

/// The Markdown summary: engines and their scores, then the cases apart.
pub fn summary(m: &Matrix) -> String {
    let mut s = String::from("# ptoracle conformance matrix\n\n");
    table(&mut s, &m.columns);
    let (lonely, shared) = m.lonely_and_shared();
    s.push_str("\n## Cases only one engine fails\n\n");
    for (id, col) in &lonely {
        let who = m.columns.get(*col).map(|c| c.title()).unwrap_or_default();
        let _ = writeln!(s, "- `{}`: {}", md(id), md(&who));
    }
    s.push_str("\n## Cases every engine fails\n\n");
    for id in &shared {
        let _ = writeln!(s, "- `{}`", md(id));
    }
    if !m.calibration.is_empty() {
        s.push_str("\n## Calibration\n\nMutants of the reference and the template engine: the gate must fail the first and pass the second; they are in none of the lists above.\n\n");
        table(&mut s, &m.calibration);
    }
    s
}

/// The table of `columns`: engine, edition and counts.
fn table(s: &mut String, columns: &[Column]) {
    s.push_str(
        "| engine | edition | passed | failed | errors | skipped |\n|---|---|---|---|---|---|\n",
    );
    for c in columns {
        let _ = write!(s, "| {} | {} |", md(&c.title()), md(&c.report.edition));
        for n in c.counts() {
            let _ = write!(s, " {n} |");
        }
        s.push('\n');
    }
}

/// `s` with Markdown table and inline markup characters neutralised.
fn md(s: &str) -> String {
    s.replace('|', "\\|")
        .replace('`', "'")
        .replace(['\n', '\r'], " ")
}

/// The shields.io endpoint JSON of a column: `ptoracle: passed/cases`,
/// every case of the run counted, skipped ones too; colored by that share.
pub fn badge(c: &Column) -> String {
    let (p, t) = c.score();
    let color = match p.saturating_mul(100).checked_div(t) {
        None => "lightgrey",
        Some(100) => "brightgreen",
        Some(90..=99) => "green",
        Some(70..=89) => "yellow",
        Some(40..=69) => "orange",
        Some(_) => "red",
    };
    let v = serde_json::json!({
        "schemaVersion": 1,
        "label": "ptoracle",
        "message": format!("{p}/{t}"),
        "color": color,
    });
    format!("{v}\n")
}
