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
    let mut m = Matrix::new(columns(args)?, columns(calibration)?);
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
/// `summary.md`, a badge for each column, the calibration's included
/// ([`Matrix::badge`]) and, for
/// the register's findings not filed upstream, `findings/<id>.md`.
///
/// Every file is first written into a temporary directory inside `dir`,
/// then renamed into place: an error while writing (a full disk, a name
/// the file system refuses) leaves the site that was there intact, never
/// half of a new one. Other files in `dir` are left alone.
pub fn write_site(m: &Matrix, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    let mut files = vec![
        (PathBuf::from("index.html"), html::page(m)),
        (PathBuf::from("matrix.css"), html::CSS.to_string()),
        (PathBuf::from("matrix.js"), html::JS.to_string()),
        (PathBuf::from("summary.md"), markdown::summary(m)),
    ];
    for (i, c) in m.columns.iter().chain(&m.calibration).enumerate() {
        files.push((PathBuf::from(m.badge(i)), markdown::badge(c)));
    }
    for f in m.findings.iter().filter(|f| f.unfiled()) {
        files.push((
            Path::new("findings").join(format!("{}.md", f.id())),
            findings::issue_text(f, &m.root),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    // Inside `dir`, so that the renames below stay on one file system.
    let tmp = dir.join(format!(".matrix-{}.tmp", std::process::id()));
    let staged = stage(&tmp, dir, &files).and_then(|()| {
        let mut written = Vec::new();
        for (name, _) in &files {
            let to = dir.join(name);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| err(parent, e))?;
            }
            std::fs::rename(tmp.join(name), &to).map_err(|e| err(&to, e))?;
            written.push(to);
        }
        Ok(written)
    });
    let _ = std::fs::remove_dir_all(&tmp);
    staged
}

/// Writes `files` (paths relative to the site) into a fresh `tmp`; an
/// error names the file of the site (in `dir`) that could not be written.
fn stage(tmp: &Path, dir: &Path, files: &[(PathBuf, String)]) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(tmp);
    for (name, text) in files {
        let err = |e: std::io::Error| format!("{}: {e}", dir.join(name).display());
        let p = tmp.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(err)?;
        }
        std::fs::write(&p, text).map_err(err)?;
    }
    Ok(())
}
