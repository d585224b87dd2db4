//! Running the scenes: both engines, one thread, one process, alternating
//! which goes first from round to round; each step timed on its own.

use crate::circlet_engine::{Circlet, union_mass};
use crate::engine::Engine;
use crate::measure::{log_log_slope, median, quantile};
use crate::rapier_engine::Rapier;
use crate::report::{Report, Row, fmt_value};
use crate::scenes::{self, SceneDef};
use std::time::Instant;

/// How the scaling ball pits hold more balls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// The ball pit's box and grid (100 m, 80 per row): the pile gets deeper.
    Deep,
    /// The 1,000-ball pit side by side: the pile gets wider, as deep at any count.
    Wide,
}

impl Layout {
    /// The pit of `count` balls in this layout.
    pub fn pit(self, count: usize, sleeping: bool, seed: u64) -> SceneDef {
        match self {
            Layout::Deep => scenes::ball_pit(count, sleeping, seed),
            Layout::Wide => scenes::ball_pit_wide(count, sleeping, seed),
        }
    }

    /// Name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Deep => "deep: 100 m box, 80 per row",
            Layout::Wide => "wide: 100 m and 80 per row per 1k balls",
        }
    }
}

/// How much to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Rounds per scene; each round runs both engines once.
    pub rounds: usize,
    /// Steps per run.
    pub steps: usize,
    /// The last `measured` steps of a run are timed into the median.
    pub measured: usize,
    /// The pyramid must hold still from the first to the second step count.
    pub stand_window: (usize, usize),
    /// Number of shots.
    pub shots: usize,
    /// Body counts of the scaling ball pits.
    pub scaling: Vec<usize>,
    /// Sleeping in the scaling pits (and the memory run).
    pub scaling_sleeping: bool,
    /// How the scaling pits grow.
    pub scaling_layout: Layout,
    /// Seed of every generated scene and the shots.
    pub seed: u64,
}

impl Plan {
    /// The full comparison: 600 steps, the last 300 timed.
    pub fn full(rounds: usize, scaling_sleeping: bool, scaling_layout: Layout, seed: u64) -> Plan {
        Plan {
            rounds,
            steps: 600,
            measured: 300,
            stand_window: (100, 500),
            shots: 100_000,
            scaling: vec![1_000, 4_000, 16_000, 32_000],
            scaling_sleeping,
            scaling_layout,
            seed,
        }
    }

    /// A smoke test: one round, 120 steps (the last 60 timed), 10,000 shots.
    pub fn quick(scaling_sleeping: bool, scaling_layout: Layout, seed: u64) -> Plan {
        Plan {
            rounds: 1,
            steps: 120,
            measured: 60,
            stand_window: (20, 100),
            shots: 10_000,
            ..Plan::full(1, scaling_sleeping, scaling_layout, seed)
        }
    }
}

/// What one engine did in one run of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRun {
    /// Time of each measured step (ms).
    pub step_ms: Vec<f64>,
    /// Parallel to `step_ms`: whether the step began with some dynamic
    /// body awake (always, in a scene without sleeping). A step that finds
    /// every body asleep costs next to nothing, so where a pile falls
    /// asleep within the measured steps the median of all of them depends
    /// on when it did; the median of these steps does not.
    pub step_awake: Vec<bool>,
    /// Dynamic body positions after each requested step count.
    pub checkpoints: Vec<Vec<[f32; 2]>>,
    /// Dynamic body positions after the last step.
    pub last: Vec<[f32; 2]>,
    /// Dynamic bodies awake after the last step.
    pub awake: usize,
    /// Dynamic bodies outside the scene's container after the last step.
    pub escaped: usize,
    /// The first step after which every dynamic body slept (and stayed
    /// asleep to the end); `None` if they never all did or sleeping is off.
    pub asleep_from: Option<usize>,
    /// The engine's state hash after the last step, where it has one.
    pub state_hash: Option<u64>,
}

/// One engine stepping one scene, timed step by step: built by
/// [`Stepper::new`], advanced in any number of pieces, read out by
/// [`Stepper::finish`].
pub struct Stepper<'s, E: Engine> {
    engine: E,
    scene: &'s SceneDef,
    steps: usize,
    measured: usize,
    checkpoints: &'s [usize],
    done: usize,
    step_ms: Vec<f64>,
    step_awake: Vec<bool>,
    /// Some dynamic body is awake now (after the last step run).
    awake_now: bool,
    snaps: Vec<Vec<[f32; 2]>>,
    asleep_from: Option<usize>,
}

impl<'s, E: Engine> Stepper<'s, E> {
    /// Builds `scene` in `E`, to run `steps` steps and time the last
    /// `measured`, keeping the positions after each step of `checkpoints`.
    pub fn new(
        scene: &'s SceneDef,
        steps: usize,
        measured: usize,
        checkpoints: &'s [usize],
    ) -> Self {
        let engine = E::build(scene);
        assert_eq!(
            engine.body_count(),
            scene.bodies.len(),
            "{} builds every body of the scene",
            E::NAME
        );
        Stepper {
            engine,
            scene,
            steps,
            measured,
            checkpoints,
            done: 0,
            step_ms: Vec::with_capacity(measured),
            step_awake: Vec::with_capacity(measured),
            awake_now: true,
            snaps: Vec::new(),
            asleep_from: None,
        }
    }

    /// True once every step has run.
    pub fn finished(&self) -> bool {
        self.done >= self.steps
    }

    /// Runs up to `count` more steps (fewer at the end).
    pub fn advance(&mut self, count: usize) {
        let until = (self.done + count).min(self.steps);
        while self.done < until {
            self.done += 1;
            let step = self.done;
            let start = Instant::now();
            self.engine.step();
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let began_awake = self.awake_now;
            if self.scene.sleeping {
                let asleep = self.engine.awake_count() == 0;
                self.awake_now = !asleep;
                self.asleep_from = match (asleep, self.asleep_from) {
                    (true, None) => Some(step),
                    (true, since) => since,
                    (false, _) => None,
                };
            }
            if step + self.measured > self.steps {
                self.step_ms.push(ms);
                self.step_awake.push(began_awake);
            }
            if self.checkpoints.contains(&step) {
                self.snaps.push(self.engine.positions());
            }
        }
    }

    /// The run's times and end state.
    pub fn finish(self) -> StepRun {
        let last = self.engine.positions();
        let c = self.scene.container;
        let escaped = last
            .iter()
            .filter(|p| !(p[0] >= c[0] && p[0] <= c[2] && p[1] >= c[1] && p[1] <= c[3]))
            .count();
        StepRun {
            step_ms: self.step_ms,
            step_awake: self.step_awake,
            checkpoints: self.snaps,
            last,
            awake: self.engine.awake_count(),
            escaped,
            asleep_from: self.asleep_from,
            state_hash: self.engine.state_hash(),
        }
    }
}

/// Builds `scene` in `E`, runs `steps` steps and times the last `measured`.
pub fn run_steps<E: Engine>(
    scene: &SceneDef,
    steps: usize,
    measured: usize,
    checkpoints: &[usize],
) -> StepRun {
    let mut stepper = Stepper::<E>::new(scene, steps, measured, checkpoints);
    stepper.advance(steps);
    stepper.finish()
}

/// Steps each engine runs before the other takes its turn in
/// [`run_interleaved`]: short next to the spells in which a shared
/// machine's other load slows everything down (seconds), long enough that
/// the first step of a turn, which finds the caches holding the other
/// engine's data, is a small share of the steps timed.
pub const TURN_STEPS: usize = 20;

/// Both engines stepping `scene` in one process, taking turns of
/// `turn` steps (circlet first when `circlet_first`), so that both see the
/// same spells of the machine's other load; the times, states and
/// checkpoints of each are those of a run of its own.
pub fn run_interleaved(
    scene: &SceneDef,
    steps: usize,
    measured: usize,
    checkpoints: &[usize],
    turn: usize,
    circlet_first: bool,
) -> (StepRun, StepRun) {
    let mut c = Stepper::<Circlet>::new(scene, steps, measured, checkpoints);
    let mut r = Stepper::<Rapier>::new(scene, steps, measured, checkpoints);
    let turn = turn.max(1);
    while !(c.finished() && r.finished()) {
        if circlet_first {
            c.advance(turn);
            r.advance(turn);
        } else {
            r.advance(turn);
            c.advance(turn);
        }
    }
    (c.finish(), r.finish())
}

/// Runs `circlet` and `rapier` once per round, circlet first in even
/// rounds and rapier first in odd ones; returns each engine's results in
/// round order.
pub fn alternate<R>(
    rounds: usize,
    label: &str,
    mut circlet: impl FnMut() -> R,
    mut rapier: impl FnMut() -> R,
) -> (Vec<R>, Vec<R>) {
    let (mut c, mut r) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        eprintln!("{label}: round {} of {rounds}", round + 1);
        if round % 2 == 0 {
            c.push(circlet());
            r.push(rapier());
        } else {
            r.push(rapier());
            c.push(circlet());
        }
    }
    (c, r)
}

/// Median ms/step over every measured step of every round.
fn median_ms(runs: &[StepRun]) -> f64 {
    let all: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.step_ms.iter().copied())
        .collect();
    median(&all)
}

/// The times (ms) of the measured steps of `runs` that began with some
/// body awake, every run's in turn.
fn awake_steps_ms(runs: &[StepRun]) -> Vec<f64> {
    runs.iter()
        .flat_map(|r| {
            r.step_ms
                .iter()
                .zip(&r.step_awake)
                .filter(|&(_, &awake)| awake)
                .map(|(&ms, _)| ms)
        })
        .collect()
}

/// Runs one stepping scene in both engines and adds its row; returns the
/// first round's runs (circlet, rapier2d).
fn stepping_scene(
    plan: &Plan,
    report: &mut Report,
    name: &str,
    scene: &SceneDef,
    target: Option<f64>,
    checkpoints: &[usize],
) -> (StepRun, StepRun) {
    // Each round runs both engines side by side, taking turns of a few
    // steps; which one starts swaps from round to round.
    let (mut c, mut r) = (Vec::new(), Vec::new());
    for round in 0..plan.rounds {
        eprintln!("{name}: round {} of {}", round + 1, plan.rounds);
        let (cr, rr) = run_round(plan, scene, checkpoints, round);
        c.push(cr);
        r.push(rr);
    }
    push_row(report, name, &c, &r, target);
    awake_steps_note(report, name, &c, &r);
    let (c0, r0) = (c.into_iter().next(), r.into_iter().next());
    (c0.expect("one round"), r0.expect("one round"))
}

/// Round `round` of `scene`: both engines side by side, taking turns of
/// [`TURN_STEPS`] steps, circlet first in even rounds.
fn run_round(
    plan: &Plan,
    scene: &SceneDef,
    checkpoints: &[usize],
    round: usize,
) -> (StepRun, StepRun) {
    run_interleaved(
        scene,
        plan.steps,
        plan.measured,
        checkpoints,
        TURN_STEPS,
        round.is_multiple_of(2),
    )
}

/// Adds the row of a stepping scene: the median ms/step of every measured
/// step of every round, per engine.
fn push_row(report: &mut Report, name: &str, c: &[StepRun], r: &[StepRun], target: Option<f64>) {
    let row = Row {
        scene: format!("{name} (ms/step)"),
        circlet: median_ms(c),
        rapier: median_ms(r),
        target,
        circlet_target: None,
        condition: None,
    };
    eprintln!(
        "{name}: circlet {} ms/step, rapier2d {} ms/step",
        fmt_value(row.circlet),
        fmt_value(row.rapier)
    );
    report.rows.push(row);
}

/// The note of a stepping scene's measured steps that began with some
/// body awake (see [`StepRun::step_awake`]; every step, without sleeping),
/// per engine: how many a run, their median and their 95th percentile,
/// the slow steps a frame budget must allow for.
fn awake_steps_note(report: &mut Report, name: &str, c: &[StepRun], r: &[StepRun]) {
    let (c_ms, r_ms) = (awake_steps_ms(c), awake_steps_ms(r));
    let per_run = |ms: &[f64], runs: &[StepRun]| ms.len() as f64 / runs.len().max(1) as f64;
    let (c_median, r_median) = (median(&c_ms), median(&r_ms));
    let (c_p95, r_p95) = (quantile(&c_ms, 0.95), quantile(&r_ms, 0.95));
    report.notes.push(format!(
        "{name}, measured steps that began with a body awake ({:.0} a run in circlet, {:.0} in \
         rapier2d): median {} / {} = {:.2}, 95th percentile {} / {} = {:.2} ms/step",
        per_run(&c_ms, c),
        per_run(&r_ms, r),
        fmt_value(c_median),
        fmt_value(r_median),
        c_median / r_median,
        fmt_value(c_p95),
        fmt_value(r_p95),
        c_p95 / r_p95
    ));
}

/// The order in which round `round` visits `sizes` scenes: first to last
/// in even rounds, last to first in odd ones, so that over the rounds
/// every size is timed early and late in the run.
pub fn size_order(round: usize, sizes: usize) -> Vec<usize> {
    if round.is_multiple_of(2) {
        (0..sizes).collect()
    } else {
        (0..sizes).rev().collect()
    }
}

fn awake_note(report: &mut Report, name: &str, c: &StepRun, r: &StepRun, bodies: usize) {
    let since = |run: &StepRun| {
        run.asleep_from.map_or("never all asleep".to_string(), |s| {
            format!("all asleep from step {s}")
        })
    };
    report.notes.push(format!(
        "{name}: after the last step {} (circlet) and {} (rapier2d) of {bodies} bodies awake \
         ({}; {}), {} and {} outside the box",
        c.awake,
        r.awake,
        since(c),
        since(r),
        c.escaped,
        r.escaped
    ));
}

/// `ballpit`: 5,000 balls dropped into the box; returns circlet's settled
/// positions (the pile the shots are fired into).
pub fn ballpit(plan: &Plan, report: &mut Report) -> Vec<[f32; 2]> {
    let scene = scenes::ball_pit(5_000, true, plan.seed);
    let (c, r) = stepping_scene(plan, report, "ballpit 5k", &scene, Some(0.4), &[]);
    awake_note(report, "ballpit", &c, &r, 5_000);
    c.last
}

/// Steps between the pyramid's position samples in the stand window.
pub const STAND_SAMPLE: usize = 10;

/// How the pyramid held over a series of snapshots: (largest displacement
/// of the top box, largest sideways slide of any box), both from the first
/// snapshot (m). The top box is the last body.
pub fn pyramid_motion(snapshots: &[Vec<[f32; 2]>]) -> (f32, f32) {
    let Some(first) = snapshots.first().filter(|s| !s.is_empty()) else {
        return (f32::NAN, f32::NAN);
    };
    let (mut top, mut slide) = (0.0f32, 0.0f32);
    for snap in &snapshots[1..] {
        if let (Some(b), Some(a)) = (first.last(), snap.last()) {
            top = top.max(((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt());
        }
        for (b, a) in first.iter().zip(snap) {
            slide = slide.max((a[0] - b[0]).abs());
        }
    }
    (top, slide)
}

/// The pyramid stands: the top box moves less than 0.02 m and no box
/// slides sideways more than 0.1 m over the window.
pub fn stands(top: f32, slide: f32) -> bool {
    top < 0.02 && slide < 0.1
}

/// `pyramid`: 5,050 boxes, sleeping off; whether it stands, and the sag.
pub fn pyramid(plan: &Plan, report: &mut Report) {
    let scene = scenes::pyramid(100);
    let top_y = scene.dynamic_positions().last().expect("boxes")[1];
    let (from, to) = plan.stand_window;
    let samples: Vec<usize> = (from..=to).step_by(STAND_SAMPLE).collect();
    let (c, r) = stepping_scene(plan, report, "pyramid 5050", &scene, Some(1.0), &samples);
    let mut stood = Vec::new();
    for (name, run) in [("circlet", &c), ("rapier2d", &r)] {
        let (top, slide) = pyramid_motion(&run.checkpoints);
        let tops: Vec<[f32; 2]> = run
            .checkpoints
            .iter()
            .filter_map(|s| s.last().copied())
            .collect();
        let range = |k: usize| {
            let (lo, hi) = tops
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p[k]), hi.max(p[k]))
                });
            hi - lo
        };
        let sag = top_y - run.last.last().expect("boxes")[1];
        let ok = stands(top, slide);
        stood.push(ok);
        report.notes.push(format!(
            "pyramid, {name}: {} (steps {from}–{to}, every {STAND_SAMPLE}: top box moved up to \
             {top:.4} m, its x spanned {:.4} m and its y {:.4} m; largest sideways slide of any \
             box {slide:.4} m); settled sag of the top box {sag:.4} m",
            if ok { "stands" } else { "DOES NOT STAND" },
            range(0),
            range(1),
        ));
    }
    if let Some(row) = report.rows.last_mut() {
        row.condition = Some(stood[0]);
    }
}

/// `trees`: 1,000 bodies of 16-leaf circle trees (rapier2d: compounds of
/// the same 16 balls, with the same mass).
pub fn trees(plan: &Plan, report: &mut Report) {
    let mass = union_mass(&scenes::hull_balls());
    let scene = scenes::trees(mass, plan.seed);
    let (c, r) = stepping_scene(plan, report, "trees 1k×16", &scene, Some(0.5), &[]);
    awake_note(report, "trees", &c, &r, scenes::TREE_BODIES);
}

/// `scaling`: ball pits of each size in `plan.scaling`; one row per size
/// and the log-log slope of ms/step against bodies per engine.
///
/// Each round times every size once, in turn (see [`size_order`]), rather
/// than all rounds of one size before the next: the slope compares sizes,
/// so a slow spell of a shared machine must not fall on one size alone.
pub fn scaling(plan: &Plan, report: &mut Report) {
    let scenes: Vec<SceneDef> = plan
        .scaling
        .iter()
        .map(|&count| {
            plan.scaling_layout
                .pit(count, plan.scaling_sleeping, plan.seed)
        })
        .collect();
    let name = |count: usize| format!("scaling {}k", count / 1_000);
    let mut runs: Vec<(Vec<StepRun>, Vec<StepRun>)> = vec![(Vec::new(), Vec::new()); scenes.len()];
    for round in 0..plan.rounds {
        for i in size_order(round, scenes.len()) {
            eprintln!(
                "{}: round {} of {}",
                name(plan.scaling[i]),
                round + 1,
                plan.rounds
            );
            let (c, r) = run_round(plan, &scenes[i], &[], round);
            runs[i].0.push(c);
            runs[i].1.push(r);
        }
    }
    let (mut c_pts, mut r_pts) = (Vec::new(), Vec::new());
    for (&count, (c, r)) in plan.scaling.iter().zip(&runs) {
        push_row(report, &name(count), c, r, None);
        let row = report.rows.last().expect("row just added");
        c_pts.push((count as f64, row.circlet));
        r_pts.push((count as f64, row.rapier));
        if c[0].escaped + r[0].escaped > 0 {
            awake_note(report, &name(count), &c[0], &r[0], count);
        }
    }
    let (cs, rs) = (log_log_slope(&c_pts), log_log_slope(&r_pts));
    report.rows.push(Row {
        scene: format!(
            "scaling exponent {}k→{}k",
            plan.scaling.first().copied().unwrap_or(0) / 1_000,
            plan.scaling.last().copied().unwrap_or(0) / 1_000
        ),
        circlet: cs,
        rapier: rs,
        target: None,
        circlet_target: Some(1.1),
        condition: None,
    });
    // The table rounds the slope; the bar is decided on the value itself.
    report.notes.push(format!(
        "scaling: log-log slope of ms/step vs bodies over {:?} bodies, {}, sleeping {}; \
         unrounded: circlet {cs:.3}, rapier2d {rs:.3}",
        plan.scaling,
        plan.scaling_layout.name(),
        if plan.scaling_sleeping { "on" } else { "off" },
    ));
}

/// The `time` subcommand: `plan.rounds` runs of `scene` in `E` alone; prints
/// each run's median ms/step of its last `plan.measured` steps and the
/// median of those medians.
pub fn time_alone<E: Engine>(plan: &Plan, scene: &SceneDef) {
    let mut medians = Vec::with_capacity(plan.rounds);
    for round in 1..=plan.rounds {
        let run = run_steps::<E>(scene, plan.steps, plan.measured, &[]);
        let ms = median(&run.step_ms);
        let slept = run
            .asleep_from
            .map_or(String::new(), |s| format!(", all asleep from step {s}"));
        let awake = awake_steps_ms(std::slice::from_ref(&run));
        let hash = run
            .state_hash
            .map_or(String::new(), |h| format!("; state hash {h:#018x}"));
        println!(
            "{} run {round} of {}: {} ms/step, {} awake after the last step{slept}; \
             the {} measured steps that began with a body awake: median {}, 95th percentile {}{hash}",
            E::NAME,
            plan.rounds,
            fmt_value(ms),
            run.awake,
            awake.len(),
            fmt_value(median(&awake)),
            fmt_value(quantile(&awake, 0.95))
        );
        medians.push(ms);
    }
    println!(
        "{}: median of runs {} ms/step",
        E::NAME,
        fmt_value(median(&medians))
    );
}

/// `time --engine circlet --stages`: one run of `scene` in circlet with its
/// step profile on; prints the median time of each stage over the last
/// `plan.measured` steps (ms), its share of the median step, and the
/// median step as the profile and as the clock around `step` see it.
pub fn stages_alone(plan: &Plan, scene: &SceneDef) {
    let mut engine = Circlet::build(scene);
    engine.world_mut().set_profiling(true);
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    profiled_run(
        plan,
        &mut engine,
        &circlet::world::StepProfile::STAGE_NAMES,
        |e| {
            let profile = *e.world_mut().profile();
            (ms(profile.total()), profile.stages().map(ms))
        },
    );
}

/// `time --engine rapier --stages` (with the `rapier-profiler` feature):
/// as [`stages_alone`], from rapier2d's own stage timers.
#[cfg(feature = "rapier-profiler")]
pub fn rapier_stages_alone(plan: &Plan, scene: &SceneDef) {
    let mut engine = Rapier::build(scene);
    engine.enable_profile();
    profiled_run(plan, &mut engine, &crate::rapier_engine::STAGE_NAMES, |e| {
        e.stages_ms()
    });
}

/// Steps `engine` through `plan`'s steps and prints its profile over the
/// last `plan.measured` ([`print_stages`]); `read` gives the last step's
/// whole time and the time of each stage of `names`, in ms, as the
/// engine's own profile measured them.
fn profiled_run<E: Engine, const N: usize>(
    plan: &Plan,
    engine: &mut E,
    names: &[&str; N],
    mut read: impl FnMut(&mut E) -> (f64, [f64; N]),
) {
    let mut stages: Vec<Vec<f64>> = vec![Vec::with_capacity(plan.measured); N];
    let (mut totals, mut outside) = (Vec::new(), Vec::new());
    for step in 1..=plan.steps {
        let start = Instant::now();
        engine.step();
        let elapsed = start.elapsed();
        if step + plan.measured > plan.steps {
            let (total, each) = read(engine);
            for (values, stage) in stages.iter_mut().zip(each) {
                values.push(stage);
            }
            totals.push(total);
            outside.push(elapsed.as_secs_f64() * 1e3);
        }
    }
    print_stages(E::NAME, plan, names, &stages, &totals, &outside);
}

/// Prints the median step of a profiled run (`totals`, as the engine's
/// profile saw it, and `outside`, as the clock around the call did) and
/// each stage's median and share of the median step (ms).
fn print_stages(
    engine: &str,
    plan: &Plan,
    names: &[&str],
    stages: &[Vec<f64>],
    totals: &[f64],
    outside: &[f64],
) {
    let total = median(totals);
    println!(
        "{engine}, last {} of {} steps: median step {} ms ({} ms around the call)",
        plan.measured,
        plan.steps,
        fmt_value(total),
        fmt_value(median(outside))
    );
    for (name, values) in names.iter().zip(stages) {
        let stage = median(values);
        println!(
            "  {name:<10} {:>8} ms  {:>3.0}%",
            fmt_value(stage),
            100.0 * stage / total.max(1e-12)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_adapters_build_the_same_bodies() {
        let mass = union_mass(&scenes::hull_balls());
        for scene in [
            scenes::ball_pit(300, true, 1),
            scenes::pyramid(10),
            scenes::trees(mass, 1),
        ] {
            let (c, r) = (Circlet::build(&scene), Rapier::build(&scene));
            assert_eq!(c.body_count(), scene.bodies.len());
            assert_eq!(r.body_count(), scene.bodies.len());
            assert_eq!(c.positions(), scene.dynamic_positions());
            let rp = r.positions();
            for (a, b) in rp.iter().zip(scene.dynamic_positions()) {
                assert!((a[0] - b[0]).abs() < 1e-5 && (a[1] - b[1]).abs() < 1e-5);
            }
        }
    }

    #[test]
    fn circlet_runs_report_their_state_hash() {
        // The same scene twice gives the same hash; rapier2d has none.
        let scene = scenes::ball_pit(60, true, 1);
        let first = run_steps::<Circlet>(&scene, 30, 5, &[]);
        let again = run_steps::<Circlet>(&scene, 30, 5, &[]);
        assert!(first.state_hash.is_some());
        assert_eq!(first.state_hash, again.state_hash);
        let longer = run_steps::<Circlet>(&scene, 31, 5, &[]);
        assert_ne!(first.state_hash, longer.state_hash);
        assert_eq!(run_steps::<Rapier>(&scene, 30, 5, &[]).state_hash, None);
    }

    #[test]
    fn both_engines_drop_balls_onto_the_floor() {
        let scene = scenes::ball_pit(160, true, 1);
        for run in [
            run_steps::<Circlet>(&scene, 120, 10, &[60]),
            run_steps::<Rapier>(&scene, 120, 10, &[60]),
        ] {
            assert_eq!(run.step_ms.len(), 10);
            assert_eq!(run.checkpoints.len(), 1);
            assert_eq!(run.escaped, 0);
            // Two rows of balls end up resting low in the box.
            assert!(
                run.last.iter().all(|p| p[1] < 2.5 && p[1] > 0.3),
                "{:?}",
                run.last
            );
        }
    }

    #[test]
    fn steps_after_a_pile_fell_asleep_are_not_awake_steps() {
        // One ball dropped onto the floor comes to rest.
        let scene = scenes::ball_pit(1, true, 1);
        for run in [
            run_steps::<Circlet>(&scene, 200, 200, &[]),
            run_steps::<Rapier>(&scene, 200, 200, &[]),
        ] {
            assert_eq!(run.step_awake.len(), run.step_ms.len());
            let slept = run
                .asleep_from
                .expect("a resting ball falls asleep in 200 steps");
            assert!(slept < 200, "asleep from step {slept}");
            // Step `s` (index s - 1) put the last body to sleep.
            assert!(run.step_awake[0] && run.step_awake[slept - 1]);
            assert!(run.step_awake[slept..].iter().all(|&awake| !awake));
            let awake = awake_steps_ms(std::slice::from_ref(&run));
            assert!(awake.len() >= slept.min(2) && awake.len() <= slept);
        }
        // Without sleeping every step counts.
        let scene = scenes::ball_pit(160, false, 1);
        let run = run_steps::<Circlet>(&scene, 30, 10, &[]);
        assert_eq!(run.step_awake, vec![true; 10]);
    }

    #[test]
    fn awake_steps_are_read_from_every_run() {
        let run = |ms: &[f64], awake: &[bool]| StepRun {
            step_ms: ms.to_vec(),
            step_awake: awake.to_vec(),
            checkpoints: Vec::new(),
            last: Vec::new(),
            awake: 0,
            escaped: 0,
            asleep_from: None,
            state_hash: None,
        };
        let runs = [
            run(&[1.0, 2.0, 0.01], &[true, true, false]),
            run(&[3.0, 0.02], &[true, false]),
        ];
        assert_eq!(awake_steps_ms(&runs), vec![1.0, 2.0, 3.0]);
        let mut report = Report::default();
        awake_steps_note(&mut report, "pit", &runs, &runs[..1]);
        let note = &report.notes[0];
        assert!(
            note.contains("(2 a run in circlet, 2 in rapier2d)"),
            "{note}"
        );
        assert!(note.contains("median 2.00 / 1.50 = 1.33"), "{note}");
        assert!(
            note.contains("95th percentile 3.00 / 2.00 = 1.50"),
            "{note}"
        );
    }

    #[test]
    fn taking_turns_changes_no_engine_s_run() {
        let scene = scenes::ball_pit(160, true, 1);
        let alone = (
            run_steps::<Circlet>(&scene, 120, 10, &[60, 90]),
            run_steps::<Rapier>(&scene, 120, 10, &[60, 90]),
        );
        // Turns that do not divide the steps, either engine first.
        for (turn, circlet_first) in [(7, true), (20, false), (500, true)] {
            let (c, r) = run_interleaved(&scene, 120, 10, &[60, 90], turn, circlet_first);
            for (run, alone) in [(&c, &alone.0), (&r, &alone.1)] {
                assert_eq!(run.step_ms.len(), 10, "turn {turn}");
                assert_eq!(run.checkpoints, alone.checkpoints, "turn {turn}");
                assert_eq!(run.last, alone.last, "turn {turn}");
                assert_eq!(
                    (run.awake, run.escaped, run.asleep_from),
                    (alone.awake, alone.escaped, alone.asleep_from),
                    "turn {turn}"
                );
            }
        }
    }

    #[test]
    fn pyramid_motion_and_stands() {
        let before = vec![[0.0, 0.5], [1.0, 0.5], [0.5, 1.5]];
        let swayed = vec![[0.0, 0.5], [1.05, 0.5], [0.53, 1.5]];
        let after = vec![[0.0, 0.5], [1.05, 0.5], [0.5, 1.49]];
        let (top, slide) = pyramid_motion(&[before.clone(), after.clone()]);
        assert!((top - 0.01).abs() < 1e-5 && (slide - 0.05).abs() < 1e-5);
        assert!(stands(top, slide));
        // A sway in between counts though the top box came back.
        let (top, _) = pyramid_motion(&[before, swayed, after]);
        assert!((top - 0.03).abs() < 1e-5);
        assert!(!stands(top, slide));
        assert!(!stands(0.03, 0.0) && !stands(0.0, 0.2));
    }

    #[test]
    fn every_round_times_every_size_and_the_order_turns() {
        assert_eq!(size_order(0, 4), vec![0, 1, 2, 3]);
        assert_eq!(size_order(1, 4), vec![3, 2, 1, 0]);
        assert_eq!(size_order(2, 4), vec![0, 1, 2, 3]);
        assert!(size_order(5, 0).is_empty());
    }

    #[test]
    fn alternate_swaps_the_order() {
        let order = std::cell::RefCell::new(Vec::new());
        let (c, r) = alternate(
            3,
            "t",
            || order.borrow_mut().push('c'),
            || order.borrow_mut().push('r'),
        );
        assert_eq!((c.len(), r.len()), (3, 3));
        assert_eq!(order.into_inner(), vec!['c', 'r', 'r', 'c', 'c', 'r']);
    }
}
