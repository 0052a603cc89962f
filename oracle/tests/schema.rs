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
