//! The conformance matrix (`ptoracle matrix`): many gate JSON reports
//! (engines, and versions of an engine) on one static page, with a
//! Markdown summary and a shields.io endpoint badge per engine.
//!
//! - [`model`]: the reports read and counted (per engine, per CR
//!   section, per rule);
//! - [`html`]: the static site, and [`html::escape`], through which
//!   everything an engine says passes;
//! - [`markdown`]: `summary.md` and the badges.

pub mod findings;
pub mod html;
pub mod markdown;
pub mod model;

use std::path::{Path, PathBuf};

pub use findings::Finding;
pub use model::{Column, Matrix};

/// Reads the reports named (`path.json` or `LABEL=path.json`) into a
/// [`Matrix`]: `args` are the engines', `calibration` those of the
/// calibration engines (mutants of the reference, the template engine),
/// drawn apart; with the findings register at `register` if given (its
/// paths start from the directory above the register's own, the
/// repository root for `ci/findings.yaml`); the error names the file and
/// what is wrong with it.
pub fn load(
    args: &[String],
    calibration: &[String],
    register: Option<&Path>,
) -> Result<Matrix, String> {
    if args.is_empty() {
        return Err("no engine's report given: ptoracle matrix REPORT.json... --out DIR (calibration reports are drawn beside engines, not alone)".into());
    }
    let mut m = Matrix::new(columns(args)?);
    m.calibration = columns(calibration)?;
    if let Some(r) = register {
        m.findings = findings::load(r)?;
        m.root = r
            .parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
    }
    Ok(m)
}

/// The columns of the reports named, in order.
fn columns(args: &[String]) -> Result<Vec<Column>, String> {
    let mut columns = Vec::new();
    for a in args {
        let (label, path) = match a.split_once('=') {
            Some((l, p)) if !l.is_empty() && !Path::new(a).exists() => {
                (Some(l.to_string()), PathBuf::from(p))
            }
            _ => (None, PathBuf::from(a)),
        };
        let report = crate::gate::baseline::load(&path)?;
        columns.push(Column::new(label, &path, report));
    }
    Ok(columns)
}

/// Writes the site into `dir`: `index.html`, `matrix.css`, `matrix.js`,
/// `summary.md` and `badge-<engine>.json` for each column, the
/// calibration's included.
pub fn write_site(m: &Matrix, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let mut files = vec![
        (dir.join("index.html"), html::page(m)),
        (dir.join("matrix.css"), html::CSS.to_string()),
        (dir.join("matrix.js"), html::JS.to_string()),
        (dir.join("summary.md"), markdown::summary(m)),
    ];
    for c in m.columns.iter().chain(&m.calibration) {
        files.push((
            dir.join(format!("badge-{}.json", c.slug())),
            markdown::badge(c),
        ));
    }
    let mut written = Vec::new();
    for (p, text) in files {
        std::fs::write(&p, text).map_err(|e| err(&p, e))?;
        written.push(p);
    }
    let unfiled: Vec<&Finding> = m.findings.iter().filter(|f| f.unfiled()).collect();
    if !unfiled.is_empty() {
        let fdir = dir.join("findings");
        std::fs::create_dir_all(&fdir).map_err(|e| err(&fdir, e))?;
        for f in unfiled {
            let p = fdir.join(format!("{}.md", f.id()));
            std::fs::write(&p, findings::issue_text(f, &m.root)).map_err(|e| err(&p, e))?;
            written.push(p);
        }
    }
    Ok(written)
}
