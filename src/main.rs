//! The `circlet` command: open a scene in the debug window, run it headless,
//! or check it.
//!
//! Exit codes: 0 success, 1 a scene with problems (or a run that failed),
//! 2 a usage error. A user's scene file can never make it panic: every
//! problem is reported with `file:line:column`.

mod cli;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// circlet: 2D rigid-body physics on circle trees with continuous collision.
///
/// With no command, opens the built-in showcase scene in a window (or, with
/// no display, runs it headless and writes a PNG).
#[derive(Debug, Parser)]
#[command(name = "circlet", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open a scene in the debug window (press H in the window for keys).
    View {
        /// A scene file, or the name of a built-in scene (showcase, shooter,
        /// minigolf, pyramid, ballpit, nordenfelt, tunnelling, polygons).
        scene: String,
        /// Close the window after this many frames.
        #[arg(long, value_name = "N")]
        frames: Option<u64>,
        /// Save the last frame as a PNG when the window closes.
        #[arg(long, value_name = "FILE")]
        screenshot: Option<PathBuf>,
        /// Window size in pixels.
        #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(64..=8192))]
        width: u32,
        /// Window height in pixels.
        #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(64..=8192))]
        height: u32,
        /// Draw circle trees at this depth (0 is the root), coloured by
        /// level, instead of their leaves; the T key changes it.
        #[arg(long, value_name = "N")]
        tree_depth: Option<u8>,
    },
    /// Run a scene headless and print a summary.
    Run {
        /// A scene file, or the name of a built-in scene.
        scene: String,
        /// Number of steps to run.
        #[arg(long, value_name = "N")]
        steps: u64,
        /// Write a picture of the last step here.
        #[arg(long, value_name = "FILE")]
        png: Option<PathBuf>,
        /// With --png, also write a picture every K steps (FILE-000120.png, ...).
        #[arg(long, value_name = "K", requires = "png", value_parser = clap::value_parser!(u64).range(1..))]
        every: Option<u64>,
        /// Write the summary as JSON here.
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Picture size in pixels.
        #[arg(long, default_value_t = 1280, value_parser = clap::value_parser!(u32).range(16..=8192))]
        width: u32,
        /// Picture height in pixels.
        #[arg(long, default_value_t = 720, value_parser = clap::value_parser!(u32).range(16..=8192))]
        height: u32,
        /// In pictures, draw circle trees at this depth (0 is the root),
        /// coloured by level, instead of their leaves.
        #[arg(long, value_name = "N", requires = "png")]
        tree_depth: Option<u8>,
        /// Time each stage of every step and print their medians (µs) and
        /// shares of the median step.
        #[arg(long)]
        profile: bool,
    },
    /// Check scene files and list every problem (exit 1 if there are any).
    Check {
        /// Scene files or built-in scene names.
        #[arg(required = true)]
        scenes: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => cli::default_scene(),
        Some(Command::View {
            scene,
            frames,
            screenshot,
            width,
            height,
            tree_depth,
        }) => cli::view(
            &scene,
            cli::ViewOptions {
                frames,
                screenshot,
                width,
                height,
                tree_depth,
            },
        ),
        Some(Command::Run {
            scene,
            steps,
            png,
            every,
            json,
            width,
            height,
            tree_depth,
            profile,
        }) => cli::run(cli::RunOptions {
            scene,
            steps,
            png,
            every,
            json,
            width,
            height,
            tree_depth,
            profile,
        }),
        Some(Command::Check { scenes }) => cli::check(&scenes),
    }
}
