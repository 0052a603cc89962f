//! The static page: `index.html`, with [`CSS`] and [`JS`] beside it; no
//! server, no network, works from `file://`.

use std::fmt::Write as _;

use super::model::{Column, Counts, Matrix, RuleVerdict};
use crate::gate::Record;

/// `s` safe in HTML text and in attribute values (quoted either way):
/// `&`, `<`, `>`, `"` and `'` become entities.
pub use crate::printable::escape_html as escape;

/// The stylesheet, `matrix.css`.
pub const CSS: &str = include_str!("matrix.css");

/// The script, `matrix.js`: expand / collapse all cases, and a filter.
pub const JS: &str = include_str!("matrix.js");

/// An element id for case `id`.
fn anchor(id: &str) -> String {
    let mut a = String::from("case-");
    for c in id.chars() {
        a.push(if c.is_ascii_alphanumeric() { c } else { '-' });
    }
    a
}

/// The class of a cell on the color scale: by the share passed of those
/// played.
fn scale(c: &Counts) -> &'static str {
    let tested = c.tested();
    if tested == 0 {
        return "s-none";
    }
    let pct = c.pass.saturating_mul(100) / tested;
    match pct {
        100 => "s-100",
        90..=99 => "s-90",
        70..=89 => "s-70",
        40..=69 => "s-40",
        _ => "s-0",
    }
}

/// The whole page.
pub fn page(m: &Matrix) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ptoracle conformance matrix</title>\n<link rel=\"stylesheet\" href=\"matrix.css\">\n</head>\n<body>\n<h1>ptoracle conformance matrix</h1>\n");
    let badges = m.badges();
    let (ours, apart_badges) = badges.split_at(m.columns.len().min(badges.len()));
    engines(&mut h, &m.columns, ours, "engines", "Engines");
    sections(&mut h, m);
    rules(&mut h, m);
    apart(&mut h, m);
    history(&mut h, m);
    calibration(&mut h, m, apart_badges);
    cases(&mut h, m);
    register(&mut h, m);
    h.push_str("<script src=\"matrix.js\"></script>\n</body>\n</html>\n");
    h
}

/// The table of `columns` (their badges' file names `badges`), under a
/// heading with element id `id`.
fn engines(h: &mut String, columns: &[Column], badges: &[String], id: &str, heading: &str) {
    let _ = write!(
        h,
        "<h2 id=\"{id}\">{heading}</h2>\n<table class=\"{id}\">\n<tr><th>engine</th><th>edition</th><th>passed</th><th>failed</th><th>errors</th><th>skipped</th><th>badge</th></tr>\n"
    );
    for (c, badge) in columns.iter().zip(badges) {
        let (p, t) = c.score();
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td>",
            escape(&c.title()),
            escape(&c.report().edition)
        );
        for n in c.counts() {
            let _ = write!(h, "<td>{n}</td>");
        }
        let _ = writeln!(h, "<td><a href=\"{}\">{p}/{t}</a></td></tr>", escape(badge));
    }
    h.push_str("</table>\n");
}

fn header(h: &mut String, m: &Matrix, first: &str) {
    let _ = write!(h, "<tr><th>{first}</th>");
    for c in &m.columns {
        let _ = write!(h, "<th>{}</th>", escape(&c.title()));
    }
    h.push_str("</tr>\n");
}

fn sections(h: &mut String, m: &Matrix) {
    h.push_str("<h2 id=\"sections\">Engines × CR sections</h2>\n<p>Each cell: passed / failed / errors / skipped, and the share of cases actually tested.</p>\n<table class=\"sections\">\n");
    header(h, m, "CR section");
    for (sec, row) in m.sections() {
        let _ = write!(h, "<tr><th>{}</th>", escape(&sec));
        for c in &row {
            let share = c
                .tested()
                .saturating_mul(100)
                .checked_div(c.total())
                .unwrap_or(0);
            let _ = write!(
                h,
                "<td class=\"{}\"><span class=\"p\">{}</span> / <span class=\"f\">{}</span> / <span class=\"e\">{}</span> / <span class=\"k\">{}</span><br><small>{share}% tested</small></td>",
                scale(c),
                c.pass,
                c.fail,
                c.error,
                c.skip
            );
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

fn rules(h: &mut String, m: &Matrix) {
    h.push_str("<h2 id=\"rules\">Per CR rule</h2>\n<table class=\"rules\">\n");
    header(h, m, "rule");
    for rule in m.rules() {
        let _ = write!(h, "<tr><th>{}</th>", escape(&rule));
        for i in 0..m.columns.len() {
            let v = m.verdict(i, &rule);
            let detail = match &v {
                RuleVerdict::Violated(id) => {
                    format!(" <a href=\"#{}\">{}</a>", anchor(id), escape(id))
                }
                RuleVerdict::Consistent(n) => format!(" <small>({n} pass)</small>"),
                RuleVerdict::Untested => String::new(),
            };
            let _ = write!(h, "<td class=\"v-{w}\">{w}{detail}</td>", w = v.word());
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</table>\n");
}

fn apart(h: &mut String, m: &Matrix) {
    let (lonely, shared) = m.lonely_and_shared();
    h.push_str("<h2 id=\"lonely\">Cases only one engine fails</h2>\n<ul class=\"lonely\">\n");
    for (id, col) in &lonely {
        let who = m.columns.get(*col).map(|c| c.title()).unwrap_or_default();
        let _ = writeln!(
            h,
            "<li><a href=\"#{}\">{}</a>: {}</li>",
            anchor(id),
            escape(id),
            escape(&who)
        );
    }
    h.push_str("</ul>\n<h2 id=\"shared\">Cases every engine fails (check the ruling first)</h2>\n<ul class=\"shared\">\n");
    for id in &shared {
        let _ = writeln!(h, "<li><a href=\"#{}\">{}</a></li>", anchor(id), escape(id));
    }
    h.push_str("</ul>\n");
}

fn observed(o: &Option<impl serde::Serialize>) -> String {
    match o {
        Some(o) => serde_json::to_string_pretty(o).unwrap_or_default(),
        None => "—".into(),
    }
}

/// Per engine with two reports or more (in the order given, oldest
/// first): each case some version fails, as a row of squares (red fails,
/// green passes, grey not played), with the version it first failed in
/// and the version that fixed it.
fn history(h: &mut String, m: &Matrix) {
    let mut engines: Vec<&str> = m.columns.iter().map(|c| c.engine.as_str()).collect();
    engines.dedup();
    engines.sort_unstable();
    engines.dedup();
    h.push_str("<h2 id=\"history\">History across versions</h2>\n");
    for engine in engines {
        let cols: Vec<usize> = (0..m.columns.len())
            .filter(|&i| m.columns.get(i).is_some_and(|c| c.engine == engine))
            .collect();
        if cols.len() < 2 {
            continue;
        }
        let failing: Vec<String> = m
            .case_ids()
            .into_iter()
            .filter(|id| cols.iter().any(|&i| m.fails(i, id) == Some(true)))
            .collect();
        let _ = writeln!(h, "<h3>{}</h3>", escape(engine));
        if failing.is_empty() {
            let _ = writeln!(
                h,
                "<p>No case failed in any of its {} versions.</p>",
                cols.len()
            );
            continue;
        }
        const CELL: usize = 14;
        let width = cols.len().saturating_mul(CELL).saturating_add(4);
        h.push_str("<table class=\"history\"><tr><th>case</th><th>versions</th><th>first failed</th><th>fixed in</th></tr>\n");
        for id in &failing {
            let mut svg = format!("<svg width=\"{width}\" height=\"{CELL}\" role=\"img\">");
            let (mut first, mut fixed) = (None, None);
            for (x, &i) in cols.iter().enumerate() {
                let state = m.fails(i, id);
                let color = match state {
                    Some(true) => "#c03030",
                    Some(false) => "#30a030",
                    None => "#bbb",
                };
                let title = m
                    .columns
                    .get(i)
                    .map(|c| c.version.clone())
                    .unwrap_or_default();
                if state == Some(true) && first.is_none() {
                    first = Some(title.clone());
                    fixed = None;
                }
                if state == Some(false) && first.is_some() && fixed.is_none() {
                    fixed = Some(title.clone());
                }
                let _ = write!(
                    svg,
                    "<rect x=\"{}\" y=\"1\" width=\"{}\" height=\"{}\" fill=\"{color}\"><title>{}</title></rect>",
                    x.saturating_mul(CELL),
                    CELL.saturating_sub(2),
                    CELL.saturating_sub(2),
                    escape(&title)
                );
            }
            svg.push_str("</svg>");
            let _ = writeln!(
                h,
                "<tr><td><a href=\"#{}\">{}</a></td><td>{svg}</td><td>{}</td><td>{}</td></tr>",
                anchor(id),
                escape(id),
                escape(first.as_deref().unwrap_or("")),
                escape(fixed.as_deref().unwrap_or("not yet"))
            );
        }
        h.push_str("</table>\n");
    }
}

/// The calibration engines, apart: what the gate says of deliberate bugs
/// and of the template engine, to show it catches the one and passes the
/// other, not a verdict on an engine anyone plays.
fn calibration(h: &mut String, m: &Matrix, badges: &[String]) {
    if m.calibration.is_empty() {
        return;
    }
    engines(h, &m.calibration, badges, "calibration", "Calibration");
    h.push_str("<p>Mutants of the reference (<code>ptoracle serve --mutant NAME</code>, each with one deliberate rules bug) and the template engine: the gate must fail the first and pass the second. They are in none of the verdicts above, and their cases are not listed below.</p>\n");
}

/// The `ptoracle explain` text of every case of the embedded corpus, by id.
fn explanations() -> std::collections::HashMap<String, String> {
    let corpus = crate::corpus::load_from(crate::corpus::Source::Embedded(crate::corpus::EMBEDDED));
    corpus
        .cases
        .iter()
        .map(|l| {
            (
                l.case.id.to_string(),
                crate::explain::explain(&l.case, ptoracle_core::Edition::current()),
            )
        })
        .collect()
}

fn cases(h: &mut String, m: &Matrix) {
    let explained = explanations();
    h.push_str("<h2 id=\"cases\">Cases</h2>\n<p><button type=\"button\" id=\"expand-all\">expand all</button> <button type=\"button\" id=\"collapse-all\">collapse all</button> <input id=\"filter\" placeholder=\"filter cases\"></p>\n<div class=\"cases\">\n");
    for id in m.case_ids() {
        let recs: Vec<Option<&Record>> = m.columns.iter().map(|c| c.record(&id)).collect();
        let _ = write!(
            h,
            "<details class=\"case\" id=\"{}\"><summary><code>{}</code>",
            anchor(&id),
            escape(&id)
        );
        for r in &recs {
            let k = r.map(|r| format!("{:?}", r.outcome.kind()).to_lowercase());
            let k = k.as_deref().unwrap_or("absent");
            let _ = write!(h, " <span class=\"k-{k}\">{k}</span>");
        }
        h.push_str("</summary>\n");
        if let Some(r) = recs.iter().flatten().next() {
            let _ = writeln!(h, "<p>rules: {}</p>", escape(&r.rules.join(", ")));
            if let Some(t) = explained.get(&id).or(r.ruling_text.as_ref()) {
                let _ = writeln!(h, "<pre class=\"explain\">{}</pre>", escape(t));
            }
        }
        h.push_str("<table class=\"observed\"><tr><th>engine</th><th>verdict</th><th>expected</th><th>observed</th></tr>\n");
        for (c, r) in m.columns.iter().zip(&recs) {
            let Some(r) = r else { continue };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td><pre>{}</pre></td><td><pre>{}</pre></td></tr>",
                escape(&c.title()),
                escape(&serde_json::to_string(&r.outcome).unwrap_or_default()),
                escape(&observed(&r.expected)),
                escape(&observed(&r.got)),
            );
        }
        h.push_str("</table></details>\n");
    }
    h.push_str("</div>\n");
}

fn register(h: &mut String, m: &Matrix) {
    if m.findings.is_empty() {
        return;
    }
    h.push_str("<h2 id=\"findings\">Findings register</h2>\n<table class=\"findings\"><tr><th>engine</th><th>versions</th><th>finding</th><th>rules</th><th>status</th></tr>\n");
    for f in &m.findings {
        let status = match &f.upstream {
            Some(u) => format!("<a href=\"{}\">{}</a>", escape(u), escape(&f.status)),
            None if f.unfiled() => format!(
                "{} (<a href=\"findings/{}.md\">issue text</a>)",
                escape(&f.status),
                escape(&f.id())
            ),
            None => escape(&f.status),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}<br><code>{}</code></td><td>{}</td><td>{status}</td></tr>",
            escape(&f.engine),
            escape(&f.versions),
            escape(&f.title),
            escape(&f.ruling),
            escape(&f.rules.join(", "))
        );
    }
    h.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escape_defuses_hostile_input() {
        let hostile = "<script>alert(\"x\" & 'y')</script>";
        let e = escape(hostile);
        assert_eq!(
            e,
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert!(!e.contains('<') && !e.contains('"') && !e.contains('\''));
        assert_eq!(escape("&amp;"), "&amp;amp;");
    }
}
