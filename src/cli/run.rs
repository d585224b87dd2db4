//! `circlet run`: a scene stepped headless, with a progress bar on a
//! terminal, pictures, and a summary on stdout and in JSON.

use super::{problems_exit, report, resolve};
use circlet::render::{Overlays, picture_with};
use circlet::scene::{SceneSource, Simulation};
use circlet::world::StepProfile;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Runs this long or longer get a progress bar (on a terminal only).
const PROGRESS_MIN_STEPS: u64 = 100;

/// What `circlet run` was asked to do.
#[derive(Debug)]
pub struct RunOptions {
    pub scene: String,
    pub steps: u64,
    pub png: Option<PathBuf>,
    pub every: Option<u64>,
    pub json: Option<PathBuf>,
    pub width: u32,
    pub height: u32,
    /// Circle-tree level in pictures (`None`: leaves).
    pub tree_depth: Option<u8>,
    /// Time the stages of every step and print their medians.
    pub profile: bool,
}

/// `FILE.png` with `-000120` before the extension.
fn numbered(path: &Path, step: u64) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_else(|| "png".into());
    path.with_file_name(format!("{stem}-{step:06}.{extension}"))
}

/// Writes a picture of `sim`, circle trees drawn at `tree_depth` (`None`: leaves).
fn save_picture(
    sim: &Simulation,
    name: &str,
    path: &Path,
    (width, height): (u32, u32),
    tree_depth: Option<u8>,
) -> bool {
    let overlays = Overlays {
        tree_depth,
        ..Overlays::default()
    };
    let saved =
        picture_with(sim, name, width, height, &overlays).and_then(|canvas| canvas.save_png(path));
    match saved {
        Ok(()) => true,
        Err(error) => {
            eprintln!("circlet: {error}");
            false
        }
    }
}

fn progress_bar(steps: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() || steps < PROGRESS_MIN_STEPS {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(steps);
    if let Ok(style) = ProgressStyle::with_template(
        "{spinner} [{bar:40}] {pos}/{len} steps  {elapsed_precise}  eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// `circlet run SCENE --steps N ...`.
pub fn run(options: RunOptions) -> ExitCode {
    let source = resolve(&options.scene);
    let loaded = match source.load() {
        Ok(loaded) => loaded,
        Err(error) => {
            report(&error);
            return problems_exit();
        }
    };
    let name = source.name();
    let mut sim = Simulation::new(loaded);
    sim.world_mut().set_profiling(options.profile);
    let mut profiles = Vec::new();
    let bar = progress_bar(options.steps);
    let started = Instant::now();
    for step in 1..=options.steps {
        let stepped = sim.step();
        if options.profile {
            profiles.push(*sim.world().profile());
        }
        if let Err(error) = stepped {
            bar.abandon();
            eprintln!("circlet: {name}: step {step} failed: {error}");
            return problems_exit();
        }
        if !sim.world().is_finite() {
            bar.abandon();
            eprintln!("circlet: {name}: the world holds a NaN after step {step}");
            return problems_exit();
        }
        if let (Some(png), Some(every)) = (&options.png, options.every)
            && step % every == 0
            && !save_picture(
                &sim,
                &name,
                &numbered(png, step),
                (options.width, options.height),
                options.tree_depth,
            )
        {
            bar.abandon();
            return problems_exit();
        }
        bar.inc(1);
    }
    // The finished bar stays on the terminal: steps and rate at a glance.
    bar.finish();
    let seconds = started.elapsed().as_secs_f64();
    let summary = Summary::of(&sim, &name, seconds, StageMedians::of(&profiles));
    summary.print();
    if let Some(png) = &options.png {
        if !save_picture(
            &sim,
            &name,
            png,
            (options.width, options.height),
            options.tree_depth,
        ) {
            return problems_exit();
        }
        say!("picture: {}", png.display());
    }
    if let Some(json) = &options.json {
        if let Err(error) = std::fs::write(json, summary.json()) {
            eprintln!("circlet: cannot write {}: {error}", json.display());
            return problems_exit();
        }
        say!("summary: {}", json.display());
    }
    ExitCode::SUCCESS
}

/// The median time of each stage over the steps profiled, and of the
/// whole step (µs). The medians are taken stage by stage, so they need not
/// add up to the step's.
struct StageMedians {
    steps: usize,
    step: f64,
    stages: [f64; 6],
}

impl StageMedians {
    /// `None` for no steps.
    fn of(profiles: &[StepProfile]) -> Option<StageMedians> {
        let median = |values: &mut Vec<f64>| {
            values.sort_by(f64::total_cmp);
            values.get(values.len() / 2).copied()
        };
        let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
        let step = median(&mut profiles.iter().map(|p| us(p.total())).collect())?;
        let mut stages = [0.0; 6];
        for (k, stage) in stages.iter_mut().enumerate() {
            let mut values: Vec<f64> = profiles.iter().map(|p| us(p.stages()[k])).collect();
            *stage = median(&mut values).unwrap_or(0.0);
        }
        Some(StageMedians {
            steps: profiles.len(),
            step,
            stages,
        })
    }

    /// One line: each stage and its share of the median step.
    fn line(&self) -> String {
        let stages: Vec<String> = StepProfile::STAGE_NAMES
            .iter()
            .zip(self.stages)
            .map(|(name, stage)| {
                format!(
                    "{name} {stage:.1} ({:.0}%)",
                    100.0 * stage / self.step.max(1e-12)
                )
            })
            .collect();
        format!(
            "median step {:.1} µs over {} steps: {}",
            self.step,
            self.steps,
            stages.join(", ")
        )
    }

    /// The medians by name, with the step's as `step` (µs).
    fn json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("step".into(), self.step.into());
        for (name, stage) in StepProfile::STAGE_NAMES.iter().zip(self.stages) {
            map.insert((*name).into(), stage.into());
        }
        serde_json::Value::Object(map)
    }
}

/// What a run did.
struct Summary<'a> {
    scene: &'a str,
    sim: &'a Simulation,
    seconds: f64,
    /// With `--profile`: the stages' medians.
    stages: Option<StageMedians>,
}

impl<'a> Summary<'a> {
    fn of(
        sim: &'a Simulation,
        scene: &'a str,
        seconds: f64,
        stages: Option<StageMedians>,
    ) -> Summary<'a> {
        Summary {
            scene,
            sim,
            seconds,
            stages,
        }
    }

    fn steps_per_second(&self) -> f64 {
        self.sim.stats().steps as f64 / self.seconds.max(1e-9)
    }

    fn print(&self) {
        let stats = self.sim.stats();
        let world = self.sim.world();
        say!(
            "{}: {} steps of {:.2} ms in {:.3} s ({:.0} steps/s, {:.1}x real time)",
            self.scene,
            stats.steps,
            self.sim.dt() * 1000.0,
            self.seconds,
            self.steps_per_second(),
            self.sim.time() / self.seconds.max(1e-9)
        );
        say!(
            "bodies {}, contacts {}, shots {}, hits {}, state hash {:#018x}",
            world.body_count(),
            world.contact_count(),
            stats.shots,
            stats.hits,
            world.state_hash()
        );
        for (label, hits) in [
            ("body", &stats.hits_by_body),
            ("part", &stats.hits_by_part),
            ("gun", &stats.hits_by_gun),
        ] {
            if !hits.is_empty() {
                let hits: Vec<String> = hits
                    .iter()
                    .map(|(name, count)| format!("{name} {count}"))
                    .collect();
                say!("hits by {label}: {}", hits.join(", "));
            }
        }
        if let Some(stages) = &self.stages {
            say!("{}", stages.line());
        }
    }

    fn json(&self) -> String {
        let stats = self.sim.stats();
        let world = self.sim.world();
        let mut value = serde_json::json!({
            "scene": self.scene,
            "steps": stats.steps,
            "dt": self.sim.dt(),
            "simulated_seconds": self.sim.time(),
            "wall_seconds": self.seconds,
            "steps_per_second": self.steps_per_second(),
            "bodies": world.body_count(),
            "contacts": world.contact_count(),
            "shots": stats.shots,
            "shots_in_flight": self.sim.shots_in_flight(),
            "hits": stats.hits,
            "hits_by_body": stats.hits_by_body,
            "hits_by_part": stats.hits_by_part,
            "hits_by_gun": stats.hits_by_gun,
            "state_hash": format!("{:#018x}", world.state_hash()),
            "finite": world.is_finite(),
        });
        if let (Some(stages), Some(map)) = (&self.stages, value.as_object_mut()) {
            map.insert("stage_medians_us".into(), stages.json());
        }
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| "{}".into());
        text.push('\n');
        text
    }
}

/// `circlet` without a display: the showcase run headless, a picture written.
pub fn headless_showcase(source: SceneSource, steps: u64) -> ExitCode {
    let loaded = match source.load() {
        Ok(loaded) => loaded,
        Err(error) => {
            report(&error);
            return problems_exit();
        }
    };
    let mut sim = Simulation::new(loaded);
    for step in 1..=steps {
        if let Err(error) = sim.step() {
            eprintln!("circlet: showcase: step {step} failed: {error}");
            return problems_exit();
        }
    }
    let file = "circlet-showcase.png";
    let mut path = PathBuf::from(file);
    if !save_picture(&sim, "showcase", &path, (1280, 720), None) {
        path = std::env::temp_dir().join(file);
        if !save_picture(&sim, "showcase", &path, (1280, 720), None) {
            return problems_exit();
        }
    }
    say!("circlet: no display, so the showcase scene ran headless for {steps} steps.");
    say!("circlet: picture of the last step: {}", path.display());
    say!("circlet: for a window, run circlet on a desktop, or under a virtual display:");
    say!("circlet:     xvfb-run -a circlet view showcase");
    say!("circlet: other commands: circlet --help");
    ExitCode::SUCCESS
}
