//! The commands of the `circlet` binary (not part of the library).
//!
//! Standard output goes through [`say!`]: a reader that stops early (`circlet
//! run … | head`) ends the output quietly instead of a panic on the broken
//! pipe.

/// `println!` that never panics: a closed standard output (the reader went
/// away) drops the line instead.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), $($arg)*);
    }};
}

mod run;

pub use run::{RunOptions, run};

use circlet::scene::{SceneError, SceneSource};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The scenes built into the binary, so `circlet` works from any directory.
pub const BUILT_IN: [(&str, &str); 8] = [
    ("showcase", include_str!("../../scenes/showcase.ron")),
    ("shooter", include_str!("../../scenes/shooter.ron")),
    ("minigolf", include_str!("../../scenes/minigolf.ron")),
    ("pyramid", include_str!("../../scenes/pyramid.ron")),
    ("ballpit", include_str!("../../scenes/ballpit.ron")),
    ("nordenfelt", include_str!("../../scenes/nordenfelt.ron")),
    ("tunnelling", include_str!("../../scenes/tunnelling.ron")),
    ("polygons", include_str!("../../scenes/polygons.ron")),
];

/// The mask images the built-in scenes name, by the path they write.
pub const BUILT_IN_IMAGES: [(&str, &[u8]); 1] =
    [("raider.png", include_bytes!("../../scenes/raider.png"))];

/// Exit code for a scene with problems or a failed run.
pub fn problems_exit() -> ExitCode {
    ExitCode::from(1)
}

/// A built-in scene by name.
pub fn built_in(name: &str) -> Option<SceneSource> {
    BUILT_IN
        .iter()
        .find(|(built, _)| *built == name)
        .map(|(built, text)| SceneSource::BuiltIn {
            name: format!("{built} (built in)"),
            text,
            images: &BUILT_IN_IMAGES,
        })
}

/// A scene argument: an existing file, else a built-in scene's name, else
/// the file (which will then report that it cannot be read).
pub fn resolve(scene: &str) -> SceneSource {
    let path = Path::new(scene);
    if path.exists() {
        return SceneSource::File(PathBuf::from(scene));
    }
    built_in(scene).unwrap_or_else(|| SceneSource::File(PathBuf::from(scene)))
}

/// Prints a scene error to stderr, one problem per line.
pub fn report(error: &SceneError) {
    match error {
        SceneError::Io { .. } => {
            eprintln!("circlet: {error}");
            let names: Vec<&str> = BUILT_IN.iter().map(|(name, _)| *name).collect();
            eprintln!("circlet: built-in scenes: {}", names.join(", "));
        }
        SceneError::Problems(problems) => {
            for problem in problems {
                eprintln!("{problem}");
            }
            let count = problems.len();
            eprintln!(
                "circlet: {count} problem{} found",
                if count == 1 { "" } else { "s" }
            );
        }
    }
}

/// `circlet check SCENE...`: every problem of every scene.
pub fn check(scenes: &[String]) -> ExitCode {
    let mut bad = 0;
    for scene in scenes {
        let source = resolve(scene);
        match source.load() {
            Ok(loaded) => say!(
                "{}: ok ({} bodies, {} guns)",
                source.file_label(),
                loaded.world.body_count(),
                loaded.guns.len()
            ),
            Err(error) => {
                bad += 1;
                report(&error);
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        problems_exit()
    }
}

/// What `circlet view` was asked to do, beyond the scene.
#[derive(Debug)]
// Read only by the window, which a build without `viewer` does not have.
#[cfg_attr(not(feature = "viewer"), allow(dead_code))]
pub struct ViewOptions {
    pub frames: Option<u64>,
    pub screenshot: Option<PathBuf>,
    pub width: u32,
    pub height: u32,
    pub tree_depth: Option<u8>,
}

/// `circlet view SCENE`: the window.
#[cfg(feature = "viewer")]
pub fn view(scene: &str, options: ViewOptions) -> ExitCode {
    use circlet::viewer::{ViewerError, ViewerOptions};
    let ViewOptions {
        frames,
        screenshot,
        width,
        height,
        tree_depth,
    } = options;
    let options = ViewerOptions {
        source: resolve(scene),
        frames,
        screenshot,
        width: width as usize,
        height: height as usize,
        tree_depth,
    };
    match circlet::viewer::run(options) {
        Ok(report) => {
            if let Some(path) = report.screenshot {
                say!(
                    "circlet: {} frames, {} steps; screenshot {}",
                    report.frames,
                    report.steps,
                    path.display()
                );
            }
            ExitCode::SUCCESS
        }
        Err(ViewerError::Scene(error)) => {
            report(&error);
            problems_exit()
        }
        Err(error) => {
            eprintln!("circlet: {error}");
            eprintln!(
                "circlet: without a display, run it under a virtual one: xvfb-run -a circlet view {scene}"
            );
            eprintln!("circlet: or headless: circlet run {scene} --steps 600 --png out.png");
            problems_exit()
        }
    }
}

/// `circlet view SCENE` in a build without the window.
#[cfg(not(feature = "viewer"))]
pub fn view(scene: &str, _options: ViewOptions) -> ExitCode {
    eprintln!("circlet: this build has no window (built without the `viewer` feature)");
    eprintln!("circlet: run it headless instead: circlet run {scene} --steps 600 --png out.png");
    // A usage error, like clap's.
    ExitCode::from(2)
}

/// Steps the showcase runs headless when there is no display.
const HEADLESS_STEPS: u64 = 180;

/// `circlet` with no command: the showcase in a window, or headless.
pub fn default_scene() -> ExitCode {
    let Some(source) = built_in("showcase") else {
        return problems_exit();
    };
    #[cfg(feature = "viewer")]
    {
        use circlet::viewer::{ViewerError, ViewerOptions, has_display};
        if has_display() {
            let options = ViewerOptions {
                source: source.clone(),
                frames: None,
                screenshot: None,
                width: 1280,
                height: 720,
                tree_depth: None,
            };
            match circlet::viewer::run(options) {
                Ok(_) => return ExitCode::SUCCESS,
                Err(ViewerError::NoWindow(reason)) => {
                    eprintln!("circlet: cannot open a window ({reason}); running headless instead");
                }
                Err(error) => {
                    eprintln!("circlet: {error}");
                    return problems_exit();
                }
            }
        }
    }
    run::headless_showcase(source, HEADLESS_STEPS)
}
