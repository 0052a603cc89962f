//! Text from an engine (its name, messages, reasons, stderr) made safe to
//! show a person: on a terminal, in Markdown, in XML.

use std::borrow::Cow;
use std::fmt::Write as _;

/// `text` with every control character (newlines, NUL, the escape that
/// starts an ANSI sequence, C1 codes) and every invisible formatting
/// character (bidirectional overrides, zero-width ones) written as an
/// escape, so that an engine's words can neither paint a terminal, nor
/// start a line of their own, nor make XML ill-formed. The one escaping
/// helper of every human-readable report; JSON escapes on its own.
///
/// ```
/// use ptoracle::printable::printable;
/// assert_eq!(printable("a\u{1b}[31mred\0\nPASS"), r"a\u{1b}[31mred\0\nPASS");
/// assert_eq!(printable("plain — text"), "plain — text");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// [`printable`], line by line: the lines of `text` stay lines.
pub fn printable_lines(text: &str) -> String {
    let lines: Vec<Cow<'_, str>> = text.lines().map(printable).collect();
    lines.join("\n")
}

fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{fffe}' | '\u{ffff}')
}
