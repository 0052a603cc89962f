//! The JSON Schema (draft-07) of the ruling format, for editors
//! (yaml-language-server) and for engines that build scenarios.

use schemars::generate::SchemaSettings;

use ptoracle_core::scenario::Case;

/// The JSON Schema of one ruling document, pretty-printed, ending with a
/// newline. `rulings/schema.json` holds this text.
///
/// ```
/// let s = ptoracle::schema::ruling_schema();
/// assert!(s.contains("\"$schema\": \"http://json-schema.org/draft-07/schema#\""));
/// ```
pub fn ruling_schema() -> String {
    let generator = SchemaSettings::draft07().into_generator();
    let mut schema = generator.into_root_schema_for::<Case>();
    schema.insert("title".into(), "ptoracle ruling".into());
    schema.insert(
        "description".into(),
        "One case of the ptoracle corpus: a small game state, steps, and what must hold after them. See rulings/README.md.".into(),
    );
    // Serializing a JSON value to a string can't fail.
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// The JSON Schemas (draft-07) of the protocol's messages, by file name,
/// pretty-printed and ending with a newline: what `docs/protocol/` holds.
///
/// ```
/// let names: Vec<&str> = ptoracle::schema::protocol_schemas().iter().map(|(n, _)| *n).collect();
/// assert_eq!(names, ["hello.schema.json", "engine-hello.schema.json", "request.schema.json", "reply.schema.json"]);
/// ```
pub fn protocol_schemas() -> Vec<(&'static str, String)> {
    protocol_schema_values()
        .into_iter()
        .map(|(name, v)| {
            let mut text = serde_json::to_string_pretty(&v).unwrap_or_default();
            text.push('\n');
            (name, text)
        })
        .collect()
}

fn protocol_schema_values() -> Vec<(&'static str, serde_json::Value)> {
    use ptoracle_protocol::{EngineHello, Hello, Reply, Request};
    let generator = || SchemaSettings::draft07().into_generator();
    vec![
        (
            "hello.schema.json",
            generator().into_root_schema_for::<Hello>().to_value(),
        ),
        (
            "engine-hello.schema.json",
            generator().into_root_schema_for::<EngineHello>().to_value(),
        ),
        (
            "request.schema.json",
            generator().into_root_schema_for::<Request>().to_value(),
        ),
        (
            "reply.schema.json",
            generator().into_root_schema_for::<Reply>().to_value(),
        ),
    ]
}
