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

/// `text` as HTML text: `&`, `<`, `>`, `"` and `'` as entities, so that
/// nothing an engine says becomes markup (also valid in an attribute).
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` (an engine's name, a message, an observed value) as Markdown
/// text, also in a table cell: [`printable`] (one line, nothing hidden),
/// the characters Markdown acts on inline (`\`, `` ` ``, `*`, `_`, `[`,
/// `]`, `|`, `~`) escaped with a backslash, and the HTML ones as entities
/// ([`escape_html`]): no raw HTML, link or emphasis passes, and the text
/// reads as it was written once rendered.
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in printable(text).chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~') {
            out.push('\\');
        }
        out.push(c);
    }
    escape_html(&out)
}

/// `text` for the inside of a Markdown code span, also in a table cell:
/// [`printable`], a backquote (which would end the span) as `'`, and `|`
/// as `\|` (which a table reads even inside a span). A code span shows
/// HTML as text, so nothing else is escaped.
pub fn markdown_code(text: &str) -> String {
    printable(text).replace('`', "'").replace('|', "\\|")
}
