//! Scenes: a RON file format for worlds, with errors that say where.
//!
//! A scene holds settings, bodies (every shape kind, materials, filters,
//! sensors, initial velocity and spin, scale, optional names), tile maps and
//! guns; `docs/scenes.md` documents the format. [`Scene::from_str`] and
//! [`Scene::load`] read a scene and build its [`crate::world::World`];
//! [`Scene::from_world`] writes a world back as a scene; [`Simulation`] runs
//! a loaded scene (stepping, firing guns, counting hits) for the viewer, the
//! command line and tests alike.
//!
//! Invariants:
//! - unknown fields are rejected; `NaN` and `inf` (which RON reads as
//!   numbers) are rejected in every float field; no user text can make the
//!   loader panic;
//! - [`Scene::check`] reports every problem it can find, each with
//!   `file:line:column`, the field path and what was expected. A text that
//!   is not valid RON (syntax, unknown field, wrong type) stops at its first
//!   error, since nothing after it can be read reliably; a text that parses
//!   is checked value by value and every bad value is listed.
//!
//! # Examples
//! ```
//! use circlet::scene::Scene;
//! let text = r#"(
//!     bodies: [
//!         (name: "ground", kind: Static, shape: Box(half_extents: (10, 0.5))),
//!         (name: "ball", position: (0, 3), shape: Circle(radius: 0.5)),
//!     ],
//! )"#;
//! let loaded = Scene::from_str(text, "example.ron").unwrap();
//! assert_eq!(loaded.world.body_count(), 2);
//!
//! let bad = "(bodies: [(shape: Circle(radius: -1))])";
//! let problems = Scene::check(bad, "bad.ron");
//! assert_eq!(problems[0].to_string(),
//!     "bad.ron:1:34: bodies[0].shape.radius: expected a number > 0, found -1");
//! ```

mod build;
mod check;
mod error;
mod format;
mod from_world;
mod guns;
mod locate;
mod mask;
mod sim;
mod source;
mod tilemap;

pub use build::{LoadedScene, MAX_DT, MAX_PULSE_AMPLITUDE, MAX_SUBSTEPS, Pulse};
pub use check::{MAX_MAGNITUDE, MAX_REGULAR_SIDES};
pub use error::{Location, Problem, ProblemKind, SceneError};
pub use format::{
    AimDesc, BodyDesc, ColliderDesc, CornerDesc, FilterDesc, GunDesc, KindDesc, MaterialDesc,
    PulseDesc, Scene, SceneSettings, ShapeDesc, TileMapDesc, TreeMassDesc, TreeNodeDesc, View, Xy,
};
pub use guns::{Aim, Gun, MAX_SHOTS_PER_CALL, MIN_AIM_LENGTH, Shot, lead};
pub use mask::{ImageSource, MAX_MASK_BYTES, MAX_MASK_SIDE};
pub use sim::{
    MIN_SHOT_RADIUS, SHOT_DENSITY, SimStats, Simulation, Trace, USER_GUN, USER_SHOT_LIFETIME,
};
pub use source::SceneSource;
pub use tilemap::MAX_TILES;

use check::{Checker, RawProblem};
use locate::{Node, Pos};
use ron::extensions::Extensions;

/// Largest scene file the loader reads (bytes); a scene is text, not data.
pub const MAX_SCENE_BYTES: u64 = 16 * 1024 * 1024;

/// The file name used in locations for scenes built in code.
pub const CODE_FILE: &str = "<code>";

fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
}

impl Scene {
    /// Parses scene text without checking its values.
    ///
    /// # Errors
    /// [`SceneError::Problems`] with the first syntax error, unknown field,
    /// missing field or wrong type, located in `file`.
    pub fn parse(text: &str, file: &str) -> Result<Scene, SceneError> {
        ron_options()
            .from_str::<Scene>(text)
            .map_err(|error| SceneError::Problems(vec![parse_problem(text, file, &error)]))
    }

    /// Parses, checks and builds a scene from text; `file` names it in errors.
    /// Mask images are read from the current directory (see
    /// [`Scene::from_str_with`]).
    ///
    /// # Errors
    /// [`SceneError::Problems`] listing every problem found.
    pub fn from_str(text: &str, file: &str) -> Result<LoadedScene, SceneError> {
        Scene::from_str_with(text, file, &ImageSource::CurrentDir)
    }

    /// As [`Scene::from_str`], reading mask images from `images`.
    ///
    /// # Errors
    /// [`SceneError::Problems`] listing every problem found.
    pub fn from_str_with(
        text: &str,
        file: &str,
        images: &ImageSource,
    ) -> Result<LoadedScene, SceneError> {
        let scene = Scene::parse(text, file)?;
        let mut checker = Checker {
            images: images.clone(),
            ..Checker::default()
        };
        match build::build(&scene, &mut checker) {
            Some(loaded) if checker.problems.is_empty() => Ok(loaded),
            _ => Err(SceneError::Problems(locate_all(
                text,
                file,
                checker.problems,
            ))),
        }
    }

    /// Reads, checks and builds the scene in a file; its mask images are
    /// read from the file's directory.
    ///
    /// # Errors
    /// [`SceneError::Io`] if the file cannot be read (or is larger than
    /// [`MAX_SCENE_BYTES`] or not UTF-8), else as [`Scene::from_str`].
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<LoadedScene, SceneError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = read_scene_file(path)?;
        Scene::from_str_with(&text, &file, &ImageSource::beside(path))
    }

    /// Every problem of a scene text, in file order; empty when it loads.
    pub fn check(text: &str, file: &str) -> Vec<Problem> {
        match Scene::from_str(text, file) {
            Ok(_) => Vec::new(),
            Err(error) => error.problems().to_vec(),
        }
    }

    /// Checks and builds a scene made in code. Problems name fields but
    /// have no line (their file is [`CODE_FILE`], line and column 0). Mask
    /// images are read from the current directory (see [`Scene::build_with`]).
    ///
    /// # Errors
    /// [`SceneError::Problems`] listing every problem found.
    pub fn build(&self) -> Result<LoadedScene, SceneError> {
        self.build_with(&ImageSource::CurrentDir)
    }

    /// As [`Scene::build`], reading mask images from `images`.
    ///
    /// # Errors
    /// [`SceneError::Problems`] listing every problem found.
    pub fn build_with(&self, images: &ImageSource) -> Result<LoadedScene, SceneError> {
        let mut checker = Checker {
            images: images.clone(),
            ..Checker::default()
        };
        match build::build(self, &mut checker) {
            Some(loaded) if checker.problems.is_empty() => Ok(loaded),
            _ => Err(SceneError::Problems(
                checker
                    .problems
                    .into_iter()
                    .map(|raw| Problem {
                        location: Location {
                            file: CODE_FILE.to_string(),
                            line: 0,
                            column: 0,
                        },
                        field: raw.path.to_string(),
                        kind: raw.kind,
                        message: raw.message,
                    })
                    .collect(),
            )),
        }
    }

    /// The scene as pretty RON text that [`Scene::from_str`] reads back.
    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::new().extensions(Extensions::IMPLICIT_SOME);
        // Serializing plain structs of numbers, strings and lists cannot fail;
        // the fallback keeps this function total all the same.
        ron_options()
            .to_string_pretty(self, config)
            .unwrap_or_else(|error| format!("// cannot write scene: {error}\n"))
    }
}

/// Reads a scene file as text, refusing huge or non-UTF-8 files.
pub fn read_scene_file(path: &std::path::Path) -> Result<String, SceneError> {
    let file = path.display().to_string();
    let io = |message: String| SceneError::Io {
        file: file.clone(),
        message,
    };
    let size = std::fs::metadata(path)
        .map_err(|e| io(e.to_string()))?
        .len();
    if size > MAX_SCENE_BYTES {
        return Err(io(format!(
            "{size} bytes is more than the {MAX_SCENE_BYTES} a scene may have"
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| io(format!("not UTF-8 text: {e}")))
}

fn location(file: &str, pos: Pos) -> Location {
    Location {
        file: file.to_string(),
        line: pos.line,
        column: pos.column,
    }
}

/// Gives every raw problem its place in the text, in file order.
fn locate_all(text: &str, file: &str, raw: Vec<RawProblem>) -> Vec<Problem> {
    let root = Node::parse(text);
    let mut problems: Vec<Problem> = raw
        .into_iter()
        .map(|raw| {
            let pos = match raw.char_index {
                Some(index) => root.locate_in_string(&raw.path, index),
                None => root.locate(&raw.path),
            };
            Problem {
                location: location(file, pos),
                field: raw.path.to_string(),
                kind: raw.kind,
                message: raw.message,
            }
        })
        .collect();
    problems.sort_by(|a, b| {
        (a.location.line, a.location.column).cmp(&(b.location.line, b.location.column))
    });
    problems
}

/// A RON error as a problem with the field path it happened in.
fn parse_problem(text: &str, file: &str, error: &ron::error::SpannedError) -> Problem {
    use ron::Error as E;
    let start = skip_blanks(
        text,
        Pos {
            line: error.span.start.line,
            column: error.span.start.col,
        },
    );
    let root = Node::parse(text);
    let mut path = root.path_at(start);
    if matches!(error.code, ron::Error::MissingStructField { .. }) {
        // The error sits at the end of the struct, inside its last field.
        if matches!(path.0.last(), Some(locate::Seg::Field(_))) {
            path.0.pop();
        }
    }
    let field = path.to_string();
    let found = token_at(text, start);
    let one_of = |expected: &[&str]| {
        let names: Vec<String> = expected.iter().map(|n| format!("`{n}`")).collect();
        names.join(", ")
    };
    let (kind, message) = match &error.code {
        E::NoSuchStructField {
            expected, found, ..
        } => (
            ProblemKind::UnknownField,
            format!(
                "unknown field `{found}`, expected one of {}",
                one_of(expected)
            ),
        ),
        E::MissingStructField { field, outer } => (
            ProblemKind::MissingField,
            match outer {
                Some(outer) => format!("missing field `{field}` in `{outer}`"),
                None => format!("missing field `{field}`"),
            },
        ),
        E::NoSuchEnumVariant {
            expected, found, ..
        } => (
            ProblemKind::WrongType,
            format!(
                "unknown kind `{found}`, expected one of {}",
                one_of(expected)
            ),
        ),
        E::InvalidValueForType { expected, found } => (
            ProblemKind::WrongType,
            format!("expected {expected}, found {found}"),
        ),
        E::ExpectedFloat => (
            ProblemKind::WrongType,
            format!("expected a number, found {found}"),
        ),
        E::ExpectedInteger => (
            ProblemKind::WrongType,
            format!("expected a whole number, found {found}"),
        ),
        E::ExpectedString | E::ExpectedStringEnd => (
            ProblemKind::WrongType,
            format!("expected a string in double quotes, found {found}"),
        ),
        E::ExpectedBoolean => (
            ProblemKind::WrongType,
            format!("expected true or false, found {found}"),
        ),
        E::ExpectedArray
        | E::ExpectedStructLike
        | E::ExpectedNamedStructLike(_)
        | E::ExpectedDifferentLength { .. }
        | E::ExpectedOption
        | E::ExpectedChar
        | E::IntegerOutOfBounds
        | E::ExpectedDifferentStructName { .. } => (
            ProblemKind::WrongType,
            format!("{}, found {found}", lower_first(&error.code.to_string())),
        ),
        other => (ProblemKind::Syntax, lower_first(&other.to_string())),
    };
    Problem {
        location: location(file, start),
        field,
        kind,
        message,
    }
}

/// The first position at or after `pos` that is not whitespace (RON
/// reports some errors at the blank before the value they are about).
fn skip_blanks(text: &str, pos: Pos) -> Pos {
    let mut current = pos;
    let Some(line) = text.lines().nth(pos.line.saturating_sub(1)) else {
        return pos;
    };
    for c in line.chars().skip(pos.column.saturating_sub(1)) {
        if !c.is_whitespace() {
            return current;
        }
        current.column += 1;
    }
    // Only blanks left on the line: keep RON's position.
    pos
}

/// The token at `pos` (up to 24 characters), quoted for a message.
fn token_at(text: &str, pos: Pos) -> String {
    let Some(line) = text.lines().nth(pos.line.saturating_sub(1)) else {
        return "the end of the file".to_string();
    };
    let rest: String = line.chars().skip(pos.column.saturating_sub(1)).collect();
    let rest = rest.trim_start();
    if rest.is_empty() {
        return "the end of the line".to_string();
    }
    let token: String = if let Some(quoted) = rest.strip_prefix('"') {
        let inner: String = quoted.chars().take_while(|&c| c != '"').collect();
        format!("\"{inner}\"")
    } else {
        rest.chars()
            .take_while(|&c| c.is_alphanumeric() || matches!(c, '_' | '.' | '+' | '-'))
            .collect()
    };
    let token = if token.is_empty() {
        rest.chars().take(1).collect()
    } else {
        token
    };
    let short: String = token.chars().take(24).collect();
    format!("`{short}`")
}

fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
