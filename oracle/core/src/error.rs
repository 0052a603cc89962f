//! Errors, and the paths that tie an error to the node of a ruling it is
//! about.
//!
//! Validation and the resolver speak of nodes by [`NodePath`]
//! (`steps[2].do.effect.affects[0]`), which is the same for a YAML ruling and
//! a JSON scenario. Only the loader turns a path into `file:line:col`.

use std::borrow::Cow;
use std::fmt;

use crate::number::Overflow;

/// One step of a [`NodePath`]: a mapping key or a sequence index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A mapping key.
    Key(Cow<'static, str>),
    /// A sequence index, from 0.
    Index(usize),
}

/// Where a node sits in a scenario document, e.g. `steps[1].do.damage.to`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodePath(pub Vec<Seg>);

impl NodePath {
    /// The document's root.
    pub fn root() -> NodePath {
        NodePath(Vec::new())
    }

    /// This path extended by a key.
    pub fn key(&self, key: impl Into<Cow<'static, str>>) -> NodePath {
        let mut p = self.clone();
        p.0.push(Seg::Key(key.into()));
        p
    }

    /// This path extended by an index.
    pub fn index(&self, i: usize) -> NodePath {
        let mut p = self.clone();
        p.0.push(Seg::Index(i));
        p
    }
}

impl fmt::Display for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str(".");
        }
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(k) if i == 0 => write!(f, "{k}")?,
                Seg::Key(k) => write!(f, ".{k}")?,
                Seg::Index(n) => write!(f, "[{n}]")?,
            }
        }
        Ok(())
    }
}

/// A scenario that is well-formed but says something impossible: a reference
/// to an object that does not exist, an effect on an object that has left
/// the battlefield, and so on. Bad input: the loader locates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The node it is about.
    pub path: NodePath,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl ScenarioError {
    /// An error about the node at `path`.
    pub fn new(path: NodePath, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Why the resolver could not finish a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The scenario asks for something impossible (bad input).
    Invalid(ScenarioError),
    /// A game value overflowed at this step (0-based).
    Overflow {
        /// The step, from 0.
        step: usize,
        /// What overflowed.
        overflow: Overflow,
    },
    /// State-based actions and the triggers they caused did not settle.
    NoFixpoint {
        /// The step, from 0.
        step: usize,
    },
}

impl ResolveError {
    /// The short code a ruling names in `expect_error:`.
    pub fn code(&self) -> &'static str {
        match self {
            ResolveError::Invalid(_) => "invalid",
            ResolveError::Overflow { .. } => "overflow",
            ResolveError::NoFixpoint { .. } => "no-fixpoint",
        }
    }
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Invalid(e) => e.fmt(f),
            ResolveError::Overflow { step, overflow } => {
                write!(f, "step {}: {overflow} [107.1]", step + 1)
            }
            ResolveError::NoFixpoint { step } => write!(
                f,
                "step {}: state-based actions and the triggers they cause never settle [704.3]",
                step + 1
            ),
        }
    }
}

impl std::error::Error for ResolveError {}

/// A bad input located in a file: printed as `file:line:col: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file, as given.
    pub file: String,
    /// Line, from 1 (0 when unknown).
    pub line: usize,
    /// Column, from 1 (0 when unknown).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl std::error::Error for LoadError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_read_like_accessors() {
        let p = NodePath::root()
            .key("steps")
            .index(2)
            .key("do")
            .key("effect");
        assert_eq!(p.to_string(), "steps[2].do.effect");
        assert_eq!(NodePath::root().to_string(), ".");
    }
}
