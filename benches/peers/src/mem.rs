//! Peak resident memory per engine, each in a process of its own: the
//! comparison starts itself once per engine with `mem`, which builds the
//! ball pit, steps it and prints what `/proc/self/status` says.

use crate::circlet_engine::Circlet;
use crate::engine::Engine;
use crate::measure::status_bytes;
use crate::rapier_engine::Rapier;
use crate::report::{Report, Row};
use crate::run::{Layout, Plan};
use crate::scenes::SceneDef;
use std::process::Command;

/// What a `mem` run measured (bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemUse {
    /// Resident memory before the scene was built.
    pub baseline: u64,
    /// Peak resident memory of the process (VmHWM) after the run.
    pub peak: u64,
    /// Dynamic bodies in the scene.
    pub bodies: u64,
}

impl MemUse {
    /// Memory the scene added, per body.
    pub fn bytes_per_body(&self) -> f64 {
        self.peak.saturating_sub(self.baseline) as f64 / self.bodies.max(1) as f64
    }

    /// The line a `mem` run prints.
    pub fn line(&self) -> String {
        format!(
            "baseline_bytes={} peak_bytes={} bodies={}",
            self.baseline, self.peak, self.bodies
        )
    }

    /// Reads [`MemUse::line`] back.
    pub fn parse(text: &str) -> Option<MemUse> {
        let field = |name: &str| -> Option<u64> {
            text.split_whitespace()
                .find_map(|w| w.strip_prefix(name)?.strip_prefix('=')?.parse().ok())
        };
        Some(MemUse {
            baseline: field("baseline_bytes")?,
            peak: field("peak_bytes")?,
            bodies: field("bodies")?,
        })
    }
}

fn steps_in<E: Engine>(scene: SceneDef, steps: usize, baseline: u64) -> MemUse {
    let bodies = scene.dynamic_count();
    let mut engine = E::build(&scene);
    drop(scene);
    for _ in 0..steps {
        engine.step();
    }
    std::hint::black_box(engine.positions());
    MemUse {
        baseline,
        peak: status_bytes("VmHWM").unwrap_or(0),
        bodies: bodies as u64,
    }
}

/// The `mem` subcommand: one engine, one scene, in this process. The
/// baseline is read before the engine builds anything (the scene's own
/// description, freed before stepping, is in the baseline).
pub fn measure(engine: &str, scene: SceneDef, steps: usize) -> MemUse {
    let baseline = status_bytes("VmRSS").unwrap_or(0);
    match engine {
        "circlet" => steps_in::<Circlet>(scene, steps, baseline),
        _ => steps_in::<Rapier>(scene, steps, baseline),
    }
}

/// Runs `mem` in a child process of this program for `engine`.
fn child(engine: &str, bodies: usize, plan: &Plan) -> Result<MemUse, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut command = Command::new(exe);
    if !crate::rapier_engine::contact_recycling() {
        command.args(["--rapier-recycling", "off"]);
    }
    command.args([
        "mem",
        "--engine",
        engine,
        "--bodies",
        &bodies.to_string(),
        "--steps",
        &plan.steps.to_string(),
        "--seed",
        &plan.seed.to_string(),
    ]);
    if plan.scaling_sleeping {
        command.arg("--sleeping");
    }
    command.args([
        "--layout",
        match plan.scaling_layout {
            Layout::Deep => "deep",
            Layout::Wide => "wide",
        },
    ]);
    let output = command.output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&output.stdout);
    MemUse::parse(&text).ok_or_else(|| {
        format!(
            "mem run of {engine} printed no measurement: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// `memory`: peak resident memory of the ball pit at `bodies`, each engine
/// in its own process.
pub fn memory(plan: &Plan, report: &mut Report, bodies: usize) {
    eprintln!("memory: {bodies} bodies, one process per engine");
    let (c, r) = match (
        child("circlet", bodies, plan),
        child("rapier", bodies, plan),
    ) {
        (Ok(c), Ok(r)) => (c, r),
        (c, r) => {
            for e in [c.err(), r.err()].into_iter().flatten() {
                report.notes.push(format!("memory: {e}"));
            }
            return;
        }
    };
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    report.rows.push(Row {
        scene: format!("memory {}k peak RSS (MiB)", bodies / 1_000),
        circlet: mib(c.peak),
        rapier: mib(r.peak),
        target: Some(1.0),
        circlet_target: None,
        condition: None,
    });
    report.notes.push(format!(
        "memory, ball pit of {bodies} ({}) after {} steps: circlet {:.0} bytes/body, rapier2d {:.0} \
         bytes/body (peak − baseline; baselines {:.1} and {:.1} MiB)",
        plan.scaling_layout.name(),
        plan.steps,
        c.bytes_per_body(),
        r.bytes_per_body(),
        mib(c.baseline),
        mib(r.baseline)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_round_trips() {
        let m = MemUse {
            baseline: 10,
            peak: 1_010,
            bodies: 4,
        };
        assert_eq!(MemUse::parse(&m.line()), Some(m));
        assert_eq!(m.bytes_per_body(), 250.0);
        assert_eq!(MemUse::parse("peak_bytes=3"), None);
    }

    #[test]
    fn a_small_pit_raises_the_peak() {
        let m = measure("circlet", crate::scenes::ball_pit(500, true, 1), 5);
        assert!(m.peak >= m.baseline && m.baseline > 0);
    }
}
