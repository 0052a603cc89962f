//! JSON details of the protocol: integers only (107.1a), and one canonical
//! text per value.

use serde_json::Value;

/// Checks that every number in `value` is an integer that fits in 64 bits
/// (107.1a: the game uses only integers). The error names the first
/// offending number by its path, e.g. `steps[0].objects.ogre.power`.
///
/// ```
/// use ptoracle::protocol::integers_only;
/// let v: serde_json::Value = serde_json::from_str(r#"{"a":[1,{"b":2.5}]}"#).unwrap();
/// let e = integers_only(&v).unwrap_err();
/// assert!(e.contains("a[1].b"), "{e}");
/// assert!(integers_only(&serde_json::json!({"a": -3})).is_ok());
/// ```
pub fn integers_only(value: &Value) -> Result<(), String> {
    let mut path = String::new();
    walk(value, &mut path)
}

fn walk(value: &Value, path: &mut String) -> Result<(), String> {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            let what = if f.fract() != 0.0 || !f.is_finite() {
                "not an integer"
            } else if f.abs() >= 9.2e18 {
                "an integer too large for 64 bits"
            } else {
                "written as a float"
            };
            Err(format!(
                "`{}` is {n}: {what}; every number in the protocol is a 64-bit integer (107.1a)",
                if path.is_empty() { "." } else { path }
            ))
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(v, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        Value::Object(map) => {
            for (k, v) in map {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(k);
                walk(v, path)?;
                path.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The canonical JSON text of a value: no whitespace, object keys sorted
/// by their bytes, numbers as integers. The same value always gives the
/// same bytes, so exported files can be compared with `diff` or a hash.
///
/// ```
/// let v = serde_json::json!({"b": 1, "a": [true, null, "x"]});
/// assert_eq!(ptoracle::protocol::canonical(&v), r#"{"a":[true,null,"x"],"b":1}"#);
/// ```
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}
