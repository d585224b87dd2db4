//! [`SceneError`] and [`Problem`]: what is wrong with a scene file, and where.
//!
//! Every problem names the file, the line and column (1-based, counted in
//! characters, as an editor shows them), the field as a path from the top of
//! the scene (`bodies[2].shape.radius`), what was expected and what was found.

use std::fmt;

/// A place in a scene file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// The file name as given to the loader (or `<scene>` for text).
    pub file: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What kind of problem a [`Problem`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProblemKind {
    /// The text is not valid RON (unclosed bracket, missing comma, ...).
    Syntax,
    /// A field that the format does not have.
    UnknownField,
    /// A required field is absent.
    MissingField,
    /// A value of the wrong type (a string where a number belongs, ...).
    WrongType,
    /// A number is NaN or infinite.
    NotFinite,
    /// A number is outside its allowed range (a negative radius, ...).
    OutOfRange,
    /// A shape's geometry is invalid (self-intersecting, not convex, ...).
    BadShape,
    /// A name is used twice, or a name that is used does not exist.
    BadName,
    /// A tile map holds a character that is not a tile.
    BadTile,
    /// A mask image is missing, unreadable, not a PNG, too large, or has no
    /// pixel at its threshold.
    BadImage,
}

/// One thing wrong with a scene.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where in the file.
    pub location: Location,
    /// The field as a path from the top of the scene, e.g. `bodies[2].shape.radius`
    /// (empty for problems with the file as a whole).
    pub field: String,
    /// The kind of problem.
    pub kind: ProblemKind,
    /// What was expected and what was found, in words.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.location, self.message)
        } else {
            write!(f, "{}: {}: {}", self.location, self.field, self.message)
        }
    }
}

/// A scene could not be read or loaded.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneError {
    /// The file could not be read.
    #[error("{file}: cannot read: {message}")]
    Io {
        /// The file name.
        file: String,
        /// The system's reason.
        message: String,
    },
    /// The scene has problems; every one found is listed, in file order.
    #[error("{}", list(.0))]
    Problems(Vec<Problem>),
}

impl SceneError {
    /// The problems of the scene (empty for an I/O error).
    pub fn problems(&self) -> &[Problem] {
        match self {
            SceneError::Io { .. } => &[],
            SceneError::Problems(problems) => problems,
        }
    }
}

fn list(problems: &[Problem]) -> String {
    let lines: Vec<String> = problems.iter().map(Problem::to_string).collect();
    lines.join("\n")
}
