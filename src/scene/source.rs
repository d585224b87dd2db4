//! [`SceneSource`]: where a scene's text comes from (a file, or text held
//! in memory such as a scene embedded in a program), so it can be loaded
//! again after an edit.

use super::{ImageSource, LoadedScene, Scene, SceneError, read_scene_file};
use std::path::PathBuf;

/// Where a scene's text comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SceneSource {
    /// A scene file, read again on every load.
    File(PathBuf),
    /// Text in memory under a name (used in error locations); its mask
    /// images are read from the current directory.
    Text {
        /// The name shown in errors and titles.
        name: String,
        /// The RON text.
        text: String,
    },
    /// Text held by the program with the images it names (a built-in scene).
    BuiltIn {
        /// The name shown in errors and titles.
        name: String,
        /// The RON text.
        text: &'static str,
        /// The mask images, by the path the scene writes.
        images: &'static [(&'static str, &'static [u8])],
    },
}

impl SceneSource {
    /// A short name: the file stem, or the text's name.
    pub fn name(&self) -> String {
        match self {
            SceneSource::File(path) => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            SceneSource::Text { name, .. } | SceneSource::BuiltIn { name, .. } => name.clone(),
        }
    }

    /// The scene's text.
    ///
    /// # Errors
    /// [`SceneError::Io`] when a file cannot be read.
    pub fn text(&self) -> Result<String, SceneError> {
        match self {
            SceneSource::File(path) => read_scene_file(path),
            SceneSource::Text { text, .. } => Ok(text.clone()),
            SceneSource::BuiltIn { text, .. } => Ok(text.to_string()),
        }
    }

    /// The name used in error locations: the path as given, or the text's name.
    pub fn file_label(&self) -> String {
        match self {
            SceneSource::File(path) => path.display().to_string(),
            SceneSource::Text { name, .. } | SceneSource::BuiltIn { name, .. } => name.clone(),
        }
    }

    /// Where the scene's mask images are read from: beside the file, from
    /// the current directory for text, from the program for a built-in scene.
    pub fn images(&self) -> ImageSource {
        match self {
            SceneSource::File(path) => ImageSource::beside(path),
            SceneSource::Text { .. } => ImageSource::CurrentDir,
            SceneSource::BuiltIn { images, .. } => ImageSource::Embedded(images),
        }
    }

    /// Reads (again), checks and builds the scene.
    ///
    /// # Errors
    /// As [`Scene::load`] and [`Scene::from_str`].
    pub fn load(&self) -> Result<LoadedScene, SceneError> {
        Scene::from_str_with(&self.text()?, &self.file_label(), &self.images())
    }
}
