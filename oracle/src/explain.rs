//! `ptoracle explain`: a case played step by step, as a judge would tell it.

use std::fmt::Write;

use ptoracle_core::edition::Edition;
use ptoracle_core::resolver::{self, Line, Options};
use ptoracle_core::scenario::Case;
use ptoracle_core::verdict::{Verdict, compare};

/// The explanation of a case under `edition`, as text.
///
/// ```
/// # let case: ptoracle::Case = serde_json::from_str(r#"{
/// #   "id": "demo/bear", "title": "A bear", "rules": ["208.1"],
/// #   "setup": { "objects": [ { "id": "bear", "name": "Grizzly Bears", "types": ["Creature"], "pt": "2/2" } ] },
/// #   "steps": [ { "do": "state_based_actions", "expect": { "bear": { "pt": "2/2" } } } ] }"#).unwrap();
/// let text = ptoracle::explain::explain(&case, ptoracle::Edition::current());
/// assert!(text.contains("Grizzly Bears (bear) is 2/2"));
/// assert!(text.contains("printed 2/2 [208.1"));
/// ```
pub fn explain(case: &Case, edition: Edition) -> String {
    let mut out = String::new();
    let run = resolver::resolve(
        case,
        edition,
        Options {
            explain: true,
            ..Options::default()
        },
    );
    let rules: Vec<&str> = case.rules.iter().map(|r| r.as_str()).collect();
    let _ = writeln!(out, "{} — {}", case.id, case.title);
    let _ = writeln!(
        out,
        "rules: {}; edition {} ({})",
        rules.join(", "),
        edition.id(),
        edition.name()
    );
    if let Some(d) = &case.description {
        for l in d.trim().lines() {
            let _ = writeln!(out, "  {}", l.trim());
        }
    }
    let _ = writeln!(out, "\nsetup:");
    write_lines(&mut out, &run.setup, 1);
    let verdict = compare(case, edition, &run);
    let mismatches = match &verdict {
        Verdict::Fail(m) => m.clone(),
        _ => Vec::new(),
    };
    for (i, step) in case.steps.iter().enumerate() {
        let _ = write!(
            out,
            "\nstep {}: {}",
            i + 1,
            step.action.key().replace('_', " ")
        );
        match &step.note {
            Some(n) => {
                let _ = writeln!(out, " — {n}");
            }
            None => out.push('\n'),
        }
        let Some(outcome) = run.steps.get(i) else {
            if let Some(e) = &run.error {
                let _ = writeln!(out, "  stops: {e}");
            }
            break;
        };
        write_lines(&mut out, &outcome.explanation, 0);
        let expect = step.expect_for(edition);
        if !expect.is_empty() {
            let mine: Vec<_> = mismatches.iter().filter(|m| m.step == i).collect();
            let expected = serde_json::to_value(expect).unwrap_or_default();
            let _ = writeln!(out, "  expected: {}", compact(&expected));
            if mine.is_empty() {
                let _ = writeln!(out, "  ✓ holds");
            }
            for m in mine {
                let _ = writeln!(
                    out,
                    "  ✗ {}: expected {}, got {}",
                    m.field, m.expected, m.got
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "\nverdict: {}",
        match &verdict {
            Verdict::Pass => "pass".to_string(),
            Verdict::Fail(m) => format!(
                "fail ({} mismatch{})",
                m.len(),
                if m.len() == 1 { "" } else { "es" }
            ),
            Verdict::Error(e) => format!("error: {e}"),
            Verdict::Skip(why) => format!("skip: {why}"),
        }
    );
    out
}

fn write_lines(out: &mut String, lines: &[Line], base: usize) {
    for l in lines {
        let _ = writeln!(out, "{}{}", "  ".repeat(base + l.depth as usize), l.text);
    }
}

/// A JSON value as compact YAML-like text: `ogre: {pt: 5/8}`.
fn compact(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => {
            let parts: Vec<String> = m
                .iter()
                .map(|(k, v)| format!("{k}: {}", compact(v)))
                .collect();
            format!("{{{}}}", parts.join(", "))
        }
        serde_json::Value::Array(a) => {
            let parts: Vec<String> = a.iter().map(compact).collect();
            format!("[{}]", parts.join(", "))
        }
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The rules that explanation lines cite (in their `[...]` brackets), in
/// order of first citation: CR numbers such as `613.4c`, and the 1999
/// rulings summary's `K.10.2`.
///
/// ```
/// use ptoracle::resolver::Line;
/// let lines = [Line { depth: 0, text: "7c: +1/+1 → 3/3 [613.4c, 122.1a]; then [K.10.2]".into() }];
/// assert_eq!(ptoracle::explain::rules_cited(&lines), ["613.4c", "122.1a", "K.10.2"]);
/// ```
pub fn rules_cited<'a>(lines: impl IntoIterator<Item = &'a Line>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        let mut rest = line.text.as_str();
        while let Some(open) = rest.find('[') {
            let Some(close) = rest[open..].find(']') else {
                break;
            };
            for part in rest[open + 1..open + close].split([',', ';']) {
                let r = part.trim();
                let numbered =
                    r.chars().next().is_some_and(|c| c.is_ascii_digit()) || r.starts_with("K.");
                let is_rule = numbered && r.chars().all(|c| c.is_ascii_alphanumeric() || c == '.');
                if is_rule && !out.iter().any(|o| o == r) {
                    out.push(r.to_string());
                }
            }
            rest = &rest[open + close + 1..];
        }
    }
    out
}
