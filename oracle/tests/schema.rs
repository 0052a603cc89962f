//! The JSON Schema in `rulings/schema.json`: it is what `ptoracle schema`
//! prints, and every ruling document as written validates against it (so
//! editors never flag a valid ruling), and so does every case as the
//! library writes it (what `export` and the shrinker produce).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn checked_in_schema_is_current() {
    let path = root().join("rulings/schema.json");
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == ptoracle::schema::ruling_schema(),
        "rulings/schema.json is stale: run `cargo run -- schema > rulings/schema.json`"
    );
}

#[test]
fn checked_in_protocol_schemas_are_current() {
    for (name, text) in ptoracle::schema::protocol_schemas() {
        let path = root().join("docs/protocol").join(name);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == text,
            "docs/protocol/{name} is stale: run `cargo run -- schema --protocol docs/protocol`"
        );
    }
}

/// Every message `serve` writes validates against the protocol's schemas.
#[test]
fn serve_replies_validate_against_the_protocol_schemas() {
    let schemas: Vec<(&str, serde_json::Value)> = ptoracle::schema::protocol_schemas()
        .into_iter()
        .map(|(n, t)| (n, serde_json::from_str(&t).unwrap()))
        .collect();
    let schema = |name: &str| schemas.iter().find(|(n, _)| *n == name).unwrap().1.clone();
    let mut compiler = boon::Compiler::new();
    let mut sch = boon::Schemas::new();
    for name in [
        "engine-hello.schema.json",
        "reply.schema.json",
        "request.schema.json",
    ] {
        compiler.add_resource(name, schema(name)).unwrap();
    }
    let hello = compiler
        .compile("engine-hello.schema.json", &mut sch)
        .unwrap();
    let reply = compiler.compile("reply.schema.json", &mut sch).unwrap();
    let request = compiler.compile("request.schema.json", &mut sch).unwrap();
    let corpus = ptoracle::corpus::load(&[root().join("rulings")]);
    let mut input = serde_json::to_string(&ptoracle::protocol::hello()).unwrap() + "\n";
    for (i, c) in corpus.cases.iter().enumerate() {
        let r = ptoracle::protocol::Request::Run {
            seq: i as u64 + 1,
            edition: ptoracle::Edition::current().id().into(),
            case: Box::new(ptoracle::protocol::without_expectations(&c.case)),
        };
        let v = serde_json::to_value(&r).unwrap();
        assert!(
            sch.validate(&v, request).is_ok(),
            "request for {}",
            c.case.id
        );
        input += &(serde_json::to_string(&r).unwrap() + "\n");
    }
    let mut out = Vec::new();
    ptoracle::serve::serve(input.as_bytes(), &mut out, None).unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(sch.validate(&lines[0], hello).is_ok());
    for l in &lines[1..] {
        if let Err(e) = sch.validate(l, reply) {
            panic!("{e}");
        }
    }
    assert_eq!(lines.len(), corpus.cases.len() + 1);
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

#[test]
fn every_ruling_validates_against_the_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&ptoracle::schema::ruling_schema()).expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("ruling.json", schema)
        .expect("the schema loads");
    let index = compiler
        .compile("ruling.json", &mut schemas)
        .expect("the schema compiles as draft-07");

    let mut files = Vec::new();
    yaml_files(&root().join("rulings"), &mut files);
    assert!(!files.is_empty());
    let mut problems = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(&f).expect("readable");
        for (i, doc) in ptoracle::corpus::documents_as_json(&name, &text)
            .expect("valid YAML")
            .iter()
            .enumerate()
        {
            if let Err(e) = schemas.validate(doc, index) {
                problems.push(format!("{name} document {i} as written: {e:#}"));
            }
        }
        for c in ptoracle::corpus::parse_str(&name, &text).unwrap_or_default() {
            let written = serde_json::to_value(&c.case).expect("a case serializes");
            if let Err(e) = schemas.validate(&written, index) {
                problems.push(format!(
                    "{name} case {} as the library writes it: {e:#}",
                    c.case.id
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_schema_rejects_what_the_loader_rejects() {
    let schema: serde_json::Value =
        serde_json::from_str(&ptoracle::schema::ruling_schema()).expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource("ruling.json", schema)
        .expect("the schema loads");
    let index = compiler
        .compile("ruling.json", &mut schemas)
        .expect("the schema compiles");
    let good = r#"
id: x/good
title: t
rules: ["208.1"]
setup: { objects: [ { id: c, types: [Creature], pt: 2/2, counters: { +1/+1: 1 } } ] }
steps:
  - do: { effect: { affects: [c], modify: +1/+1, until: end-of-turn } }
    expect: { c: { pt: 4/4 } }
"#;
    let docs = ptoracle::corpus::documents_as_json("good", good).expect("YAML");
    assert!(schemas.validate(&docs[0], index).is_ok());
    for bad in [
        good.replace("pt: 2/2", "pt: 3/x"),
        good.replace("types: [Creature]", "colour: red, types: [Creature]"),
        good.replace("modify: +1/+1", "modify: 1/1"),
        good.replace("+1/+1: 1 }", "+1/+1: -1 }"),
        good.replace("do: { effect:", "do: { pump:"),
        good.replace("rules: [\"208.1\"]", "rules: [\"K.10\"]"),
    ] {
        let docs = ptoracle::corpus::documents_as_json("bad", &bad).expect("YAML");
        assert!(
            schemas.validate(&docs[0], index).is_err(),
            "the schema accepts:\n{bad}"
        );
        assert!(
            ptoracle::corpus::parse_str("bad", &bad).is_err(),
            "the loader accepts:\n{bad}"
        );
    }
}

/// docs/protocol.md names every feature and every observation field.
#[test]
fn the_protocol_document_lists_every_feature_and_field() {
    let doc = std::fs::read_to_string(root().join("docs/protocol.md")).unwrap();
    for f in ptoracle::protocol::Feature::ALL {
        assert!(
            doc.contains(&format!("| `{}` |", f.name())),
            "docs/protocol.md lacks feature {}",
            f.name()
        );
    }
    for o in ptoracle::protocol::Observable::ALL {
        assert!(
            doc.contains(&format!("`{}`", o.name())),
            "docs/protocol.md lacks field {}",
            o.name()
        );
    }
    for k in ptoracle::engine::FaultKind::VERDICTS {
        let k = k.name();
        assert!(
            doc.contains(&format!("| `{k}` |")),
            "docs/protocol.md lacks error kind {k}"
        );
    }
}

/// `serve` declares pipelining only when ptoracle's hello offers it (an
/// older ptoracle refuses a field it does not know), and a declaration of
/// 0 is refused.
#[test]
fn serve_declares_pipelining_only_when_offered() {
    use ptoracle::protocol::{decode_engine_hello, hello, hello_offering};
    let answer = |h: ptoracle::protocol::Hello| {
        let input = serde_json::to_string(&h).unwrap() + "\n";
        let mut out = Vec::new();
        ptoracle::serve::serve(input.as_bytes(), &mut out, None).unwrap();
        out
    };
    let plain = answer(hello());
    assert!(!String::from_utf8_lossy(&plain).contains("pipeline"));
    assert_eq!(decode_engine_hello(plain.trim_ascii()).unwrap().pipeline, 0);
    assert!(
        !serde_json::to_string(&hello_offering(1))
            .unwrap()
            .contains("pipeline")
    );
    let offered = answer(hello_offering(16));
    let caps = decode_engine_hello(offered.trim_ascii()).unwrap();
    assert_eq!(caps.pipeline, ptoracle::serve::PIPELINE);
    let zero = String::from_utf8(offered).unwrap().replace(
        &format!("\"pipeline\":{}", ptoracle::serve::PIPELINE),
        "\"pipeline\":0",
    );
    assert!(decode_engine_hello(zero.trim().as_bytes()).is_err());
}

/// rulings/README.md and the schema say the same of every key: the keys of
/// each action (`{ key, key?, key = V }`: required, optional, optional with
/// the default V), of players, objects and effects (their tables: a default
/// cell `required`, a meaning that starts with `required`), and the
/// defaults the schema states (`(default V)` in a key's description). An
/// adapter written from the README must read every case the schema allows.
#[test]
fn the_rulings_readme_agrees_with_the_schema() {
    let readme = std::fs::read_to_string(root().join("rulings/README.md")).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(&ptoracle::schema::ruling_schema()).unwrap();
    let defs = &schema["definitions"];
    let mut problems = Vec::new();

    // Actions: one row each, its keys marked as the schema has them.
    let mut actions = std::collections::BTreeMap::new();
    for v in defs["Action"]["oneOf"].as_array().unwrap() {
        match (v["const"].as_str(), v["properties"].as_object()) {
            (Some(name), _) => actions.insert(name.to_string(), None),
            (None, Some(p)) if p.len() == 1 => {
                let (name, body) = p.iter().next().unwrap();
                actions.insert(name.clone(), Some(body.clone()))
            }
            _ => panic!("an action of an unexpected shape: {v}"),
        };
    }
    let rows = table_rows(&readme, "## Actions (`do:`)");
    let mut documented = std::collections::BTreeSet::new();
    for row in &rows {
        let Some(code) = row[0].strip_prefix('`').and_then(|c| c.strip_suffix('`')) else {
            continue;
        };
        let (name, shape) = code.split_once(": ").unwrap_or((code, ""));
        documented.insert(name.to_string());
        let Some(body) = actions.get(name) else {
            problems.push(format!("README action `{name}` is not in the schema"));
            continue;
        };
        let shape = shape.trim();
        let inner = shape
            .strip_prefix("[{")
            .and_then(|s| s.strip_suffix("}, ...]"))
            .or_else(|| shape.strip_prefix('{').and_then(|s| s.strip_suffix('}')));
        let Some(inner) = inner else {
            // `h`, `p`, `<effect>`: no keys of its own here.
            continue;
        };
        let Some(body) = body else {
            problems.push(format!(
                "README action `{name}` has keys; the schema's has none"
            ));
            continue;
        };
        let object = resolve(defs, body);
        let object = if object["type"] == "array" {
            resolve(defs, &object["items"])
        } else {
            object
        };
        let keys = marked_keys(inner);
        check_keys(&format!("action `{name}`"), &keys, object, &mut problems);
    }
    for name in actions.keys() {
        if !documented.contains(name) {
            problems.push(format!("schema action `{name}` has no row in the README"));
        }
    }

    // Players and objects: a default column.
    for (title, def) in [("### Players", "PlayerSpec"), ("### Objects", "ObjectSpec")] {
        let mut keys = Vec::new();
        for row in table_rows(&readme, title) {
            let default = row.last().unwrap().trim_matches('`').to_string();
            for key in code_words(&row[0]) {
                let mark = if default == "required" {
                    Mark::Required
                } else {
                    Mark::Default(default.clone())
                };
                keys.push((key, mark));
            }
        }
        check_keys(title, &keys, &defs[def], &mut problems);
    }

    // Effects: required where the meaning says so first.
    let mut keys = Vec::new();
    for row in table_rows(&readme, "## Effects") {
        let required = row.last().unwrap().starts_with("required");
        for key in code_words(&row[0]) {
            keys.push((
                key,
                if required {
                    Mark::Required
                } else {
                    Mark::Optional
                },
            ));
        }
    }
    check_keys("effect", &keys, &defs["EffectSpec"], &mut problems);

    assert!(
        problems.is_empty(),
        "rulings/README.md and rulings/schema.json disagree:\n{}",
        problems.join("\n")
    );
}

/// How a README shows a key.
#[derive(Debug)]
enum Mark {
    Required,
    Optional,
    /// Optional, taking this value when left out (a table's default cell,
    /// or `= V` in an action's keys).
    Default(String),
}

/// The rows of the first table after the line `heading`, as cells.
fn table_rows(text: &str, heading: &str) -> Vec<Vec<String>> {
    let after = text
        .split_once(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("rulings/README.md has no `{heading}`"))
        .1;
    after
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            // A `|` inside a cell is written `\|`.
            let l = l.trim().trim_matches('|').replace("\\|", "\u{1}");
            l.split('|')
                .map(|c| c.trim().replace('\u{1}', "|"))
                .collect()
        })
        .collect()
}

/// The `code` words of a cell, each a key: `` `damage`, `tapped` ``.
fn code_words(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

/// The keys of `key, key?, key = V, key: example`, split at the commas
/// outside brackets and quotes.
fn marked_keys(inner: &str) -> Vec<(String, Mark)> {
    let mut items = vec![String::new()];
    let (mut depth, mut quoted) = (0i32, false);
    for c in inner.chars() {
        match c {
            '"' => quoted = !quoted,
            '[' | '{' if !quoted => depth += 1,
            ']' | '}' if !quoted => depth -= 1,
            ',' if depth == 0 && !quoted => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().unwrap().push(c);
    }
    items
        .iter()
        .map(|item| {
            let item = item.trim();
            let key: String = item
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            let rest = item[key.len()..].trim();
            let mark = if rest.starts_with('?') {
                Mark::Optional
            } else if let Some(v) = rest.strip_prefix('=') {
                Mark::Default(v.trim().to_string())
            } else {
                Mark::Required
            };
            (key, mark)
        })
        .collect()
}

/// A schema with its `$ref`s (and a lone `allOf`) followed.
fn resolve<'a>(defs: &'a serde_json::Value, s: &'a serde_json::Value) -> &'a serde_json::Value {
    if let Some(r) = s["$ref"].as_str() {
        return resolve(defs, &defs[r.rsplit('/').next().unwrap()]);
    }
    match s["allOf"].as_array() {
        Some(all) if all.len() == 1 => resolve(defs, &all[0]),
        _ => s,
    }
}

/// The default a key's description states: `(default 1)`, `(default: the
/// first player; ...)`, up to the first `)` or `;`.
fn stated_default(description: &str) -> Option<String> {
    let at = description.find("(default")? + "(default".len();
    let rest = description[at..].trim_start_matches(':').trim_start();
    let end = rest.find([')', ';']).unwrap_or(rest.len());
    Some(rest[..end].trim().replace('\n', " "))
}

/// Holds `keys`, as a README shows them, against the object schema
/// `object`: the same keys, the same required ones, the same defaults
/// where the schema states one (for an action's key: a number).
fn check_keys(
    what: &str,
    keys: &[(String, Mark)],
    object: &serde_json::Value,
    problems: &mut Vec<String>,
) {
    let props = object["properties"]
        .as_object()
        .cloned()
        .unwrap_or_default();
    let required: Vec<&str> = object["required"]
        .as_array()
        .map(|r| r.iter().filter_map(|k| k.as_str()).collect())
        .unwrap_or_default();
    for (key, mark) in keys {
        let Some(p) = props.get(key) else {
            problems.push(format!("{what}: README key `{key}` is not in the schema"));
            continue;
        };
        let is_required = required.contains(&key.as_str());
        let stated = p["description"].as_str().and_then(stated_default);
        match mark {
            Mark::Required if !is_required => problems.push(format!(
                "{what}: README shows `{key}` as required; the schema does not require it{}",
                stated
                    .as_ref()
                    .map_or(String::new(), |d| format!(" (default {d})"))
            )),
            Mark::Optional | Mark::Default(_) if is_required => problems.push(format!(
                "{what}: the schema requires `{key}`; the README shows it as optional"
            )),
            _ => {}
        }
        let numeric = stated
            .as_deref()
            .and_then(|d| d.split([' ', ':']).next())
            .filter(|d| d.parse::<i64>().is_ok());
        match (mark, &stated) {
            (Mark::Default(shown), Some(d)) if shown != d && numeric.is_none_or(|n| n != shown) => {
                problems.push(format!(
                    "{what}: README gives `{key}` the default `{shown}`, the schema `{d}`"
                ))
            }
            (Mark::Default(shown), None) if what.starts_with("action") => problems.push(format!(
                "{what}: README gives `{key}` the default `{shown}`; the schema states none"
            )),
            (Mark::Optional, Some(_)) if numeric.is_some() => problems.push(format!(
                "{what}: `{key}` defaults to {} in the schema: write `{key} = {}`",
                numeric.unwrap_or_default(),
                numeric.unwrap_or_default()
            )),
            _ => {}
        }
    }
    for key in props.keys() {
        if !keys.iter().any(|(k, _)| k == key) {
            problems.push(format!("{what}: schema key `{key}` is not in the README"));
        }
    }
}
