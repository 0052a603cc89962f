//! The Markdown report (`--markdown`), for a pull-request comment.

use super::*;

impl Report {
    /// A Markdown report for a pull-request comment.
    pub fn markdown(&self) -> String {
        let mut out = Vec::new();
        let _ = self.write_markdown(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Writes the Markdown report (see [`Report::markdown`]).
    pub fn write_markdown(&self, w: &mut dyn io::Write) -> io::Result<()> {
        // The first failures, their shrunk rulings and the fixed cases
        // (no more than the expectations file lists): read in one pass.
        const ROWS: usize = 50;
        const RULINGS: usize = 10;
        let (mut bad, mut rows, mut rulings, mut fixed) =
            (0usize, String::new(), String::new(), String::new());
        self.for_each(&mut |c| {
            if c.outcome.kind().bad() && c.expectation != Some(Expectation::Known) {
                if bad < ROWS {
                    let _ = writeln!(
                        rows,
                        "| `{}` | {} | {} | {} |",
                        markdown_code(&c.id),
                        c.outcome.kind().name(),
                        markdown_text(&c.outcome.summary()),
                        markdown_text(&c.verdict_rules().join(", "))
                    );
                }
                if let (true, Some(text)) = (bad < RULINGS, &c.ruling_text) {
                    let _ = writeln!(
                        rulings,
                        "<details><summary>Shrunk ruling for <code>{}</code></summary>\n\n```yaml\n{}```\n</details>\n",
                        escape_html(&c.id),
                        text
                    );
                }
                bad += 1;
            }
            if c.expectation == Some(Expectation::Fixed) {
                let _ = writeln!(fixed, "- `{}`", markdown_code(&c.id));
            }
            Ok(())
        })?;
        let mut out = String::new();
        let s = &self.summary;
        let engine = self.engine.as_ref().map_or(
            "an engine that never completed a handshake".to_string(),
            |e| markdown_text(&format!("{} {}", e.name, e.version)),
        );
        let icon = if self.gate_fails(false) { "❌" } else { "✅" };
        let _ = writeln!(out, "## {icon} ptoracle gate: {engine}\n");
        let _ = writeln!(
            out,
            "Edition {} · protocol {} · ptoracle {}{}\n",
            self.edition,
            self.protocol,
            self.ptoracle,
            self.generated.map_or(String::new(), |g| format!(
                " · {} generated cases (seed {})",
                g.cases, g.seed
            ))
        );
        let _ = writeln!(out, "| passed | failed | flaky | errored | skipped |");
        let _ = writeln!(out, "|---:|---:|---:|---:|---:|");
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |\n",
            s.passed, s.failed, s.flaky, s.errored, s.skipped
        );
        if s.known + s.fixed + s.changed > 0 {
            let _ = writeln!(
                out,
                "Expectations: {} known, **{} fixed**, {} changed, **{} unexpected**.\n",
                s.known, s.fixed, s.changed, s.unexpected
            );
        }
        for note in self.run_notes() {
            let _ = writeln!(out, "**{}**\n", markdown_text(&note));
        }
        if bad > 0 {
            let _ = writeln!(out, "### Failures and errors\n");
            let _ = writeln!(out, "| case | verdict | first difference | rules |");
            let _ = writeln!(out, "|---|---|---|---|");
            out.push_str(&rows);
            if bad > ROWS {
                let _ = writeln!(out, "\n… and {} more (see the JSON report).", bad - ROWS);
            }
            let _ = writeln!(out);
            out.push_str(&rulings);
        }
        if !fixed.is_empty() {
            let _ = writeln!(out, "### Fixed (remove from the expectations file)\n");
            out.push_str(&fixed);
            let _ = writeln!(out);
        }
        let _ = writeln!(out, "`{}`", self.counts_line());
        w.write_all(out.as_bytes())
    }
}
