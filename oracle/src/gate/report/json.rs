//! The JSON report (`--json`, also what `baseline` compares), written
//! one record a line.

use super::*;

impl Report {
    /// Calls `f` with every record as compact JSON, in plan order.
    fn for_each_json(&self, f: &mut dyn FnMut(&str) -> io::Result<()>) -> io::Result<()> {
        match &self.spill {
            None => self
                .cases
                .iter()
                .try_for_each(|c| f(&serde_json::to_string(c).map_err(io::Error::other)?)),
            Some(spill) => spill.lines(f),
        }
    }

    /// Writes the JSON report: its header fields indented, then `cases`,
    /// one record a line (compact: a report may hold tens of thousands),
    /// written one after the other rather than made whole first.
    pub fn write_json(&self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut head = serde_json::to_value(self.clone_head()).map_err(std::io::Error::other)?;
        if let Some(m) = head.as_object_mut() {
            m.remove("cases");
        }
        let head = serde_json::to_string_pretty(&head).map_err(std::io::Error::other)?;
        // The header object without its closing brace, then the cases.
        let open = head.trim_end().strip_suffix('}').unwrap_or("{").trim_end();
        let comma = if open.ends_with('{') { "" } else { "," };
        write!(w, "{open}{comma}\n  \"cases\": [")?;
        let mut first = true;
        self.for_each_json(&mut |json| {
            w.write_all(if first { b"\n    " } else { b",\n    " })?;
            first = false;
            w.write_all(json.as_bytes())
        })?;
        w.write_all(if first { b"]\n}\n" } else { b"\n  ]\n}\n" })
    }

    /// The report without its cases.
    fn clone_head(&self) -> Report {
        Report {
            report_version: self.report_version,
            ptoracle: self.ptoracle.clone(),
            protocol: self.protocol,
            engine: self.engine.clone(),
            features: self.features.clone(),
            unobserved: self.unobserved.clone(),
            edition: self.edition.clone(),
            generated: self.generated,
            jobs: self.jobs,
            elapsed_ms: self.elapsed_ms,
            interrupted: self.interrupted,
            stopped: self.stopped.clone(),
            summary: self.summary,
            cases: Vec::new(),
            spill: None,
            unplayed_expectations: Vec::new(),
            none_played_allowed: self.none_played_allowed,
            reach: None,
        }
    }
}
