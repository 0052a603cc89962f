//! The conformance matrix as a person sees it: the site built from the
//! published reports, rendered by headless Chromium, which runs a
//! self-test on load (tables, verdict words, expanding a case, no script
//! errors) and writes its result into the DOM that `--dump-dom` prints.
//! Skipped, saying so, when Chromium is absent, unless
//! PTORACLE_REQUIRE_CHROMIUM=1.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ptoracle");

mod common;
use common::root;

/// The self-test, run after the page's own script.
const SELFTEST: &str = r#"
(function () {
  var out = [];
  function check(ok, what) { if (!ok) out.push("FAIL " + what); }
  check(document.querySelector("table.sections") !== null, "sections table");
  check(document.querySelector("table.rules") !== null, "rules table");
  var eng = document.querySelector("table.engines"), cal = document.querySelector("table.calibration");
  check(eng !== null && cal !== null, "an engines table and a calibration table");
  check(eng !== null && cal !== null && (eng.compareDocumentPosition(cal) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, "the real engines before the calibration");
  check(eng !== null && eng.textContent.indexOf("mutant") < 0 && eng.textContent.indexOf("tiny-engine") < 0, "no mutant or template engine among the engines");
  check(cal !== null && cal.textContent.indexOf("mutant") >= 0 && cal.textContent.indexOf("tiny-engine") >= 0, "the mutants and the template engine in the calibration table");
  check(document.querySelectorAll("td.v-violated").length > 0, "a violated verdict");
  check(document.querySelectorAll("td.v-consistent").length > 0, "a consistent verdict");
  check(document.querySelectorAll("td.v-untested").length > 0, "an untested verdict");
  var d = document.querySelector("details.case");
  check(d !== null && !d.open, "a closed case");
  if (d) {
    d.querySelector("summary").click();
    check(d.open, "a case opens on click");
    check(d.querySelector("table.observed") !== null, "expected vs observed in an opened case");
  }
  var all = document.getElementById("expand-all");
  if (all) { all.click(); }
  check(document.querySelectorAll("details.case:not([open])").length === 0, "expand all");
  (window.__errors || []).forEach(function (e) { out.push("ERROR " + e); });
  var p = document.createElement("pre");
  p.id = "selftest";
  p.textContent = "SELFTEST " + (out.length === 0 ? "ok" : out.join("; ")) + " END";
  document.body.appendChild(p);
})();
"#;

/// Collects script errors from the start of the page.
const ONERROR: &str = "<script>window.__errors=[];window.onerror=function(m){window.__errors.push(String(m));};</script>";

fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        let found = Command::new("which")
            .arg(name)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
        if found.is_some() {
            return found;
        }
    }
    None
}

fn headless(browser: &Path, profile: &Path) -> Command {
    let mut c = Command::new(browser);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .stdin(Stdio::null());
    c
}

#[test]
fn the_matrix_renders_and_works_in_chromium() {
    let Some(browser) = chromium() else {
        if std::env::var("PTORACLE_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("chromium not found and PTORACLE_REQUIRE_CHROMIUM=1");
        }
        eprintln!(
            "SKIP the_matrix_renders_and_works_in_chromium: chromium not found (install it: apt-get install -y chromium)"
        );
        return;
    };
    let dir = common::scratch("browser", "site");
    let site = dir.join("site");
    // Sorted, as regenerate.sh's glob gives them.
    let json = |dir: &str| -> Vec<PathBuf> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .expect(dir)
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        paths.sort();
        paths
    };
    let mut c = Command::new(BIN);
    c.current_dir(root())
        .arg("matrix")
        .arg("--out")
        .arg(&site)
        .args(json("docs/conformance/reports"));
    for r in json("docs/conformance/reports/calibration") {
        c.arg("--calibration").arg(r);
    }
    let out = c.output().expect("ptoracle runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(site.join("index.html")).expect("index.html");
    let test_page = page
        .replacen("<head>", &format!("<head>\n{ONERROR}"), 1)
        .replacen(
            "</body>",
            "<script src=\"selftest.js\"></script>\n</body>",
            1,
        );
    std::fs::write(site.join("selftest.html"), test_page).expect("written");
    std::fs::write(site.join("selftest.js"), SELFTEST).expect("written");
    let url = format!("file://{}", site.join("selftest.html").display());
    let mut c = headless(&browser, &dir.join("profile"));
    c.arg("--dump-dom").arg(&url);
    let out = c.output().expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    let line = dom
        .split("SELFTEST ")
        .nth(1)
        .and_then(|r| r.split(" END").next())
        .unwrap_or("no self-test result in the DOM");
    assert_eq!(
        line,
        "ok",
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shot = dir.join("screenshot.png");
    let mut c = headless(&browser, &dir.join("profile2"));
    c.arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1280,900")
        .arg(format!("file://{}", site.join("index.html").display()));
    let out = c.output().expect("chromium runs");
    assert!(
        out.status.success() && shot.is_file(),
        "screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("screenshot for review: {}", shot.display());
}
