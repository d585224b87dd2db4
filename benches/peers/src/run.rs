//! Running the scenes: both engines, one thread, one process, alternating
//! which goes first from round to round; each step timed on its own.

use crate::circlet_engine::{Circlet, union_mass};
use crate::engine::{CastKind, Engine};
use crate::measure::{log_log_slope, median};
use crate::rapier_engine::Rapier;
use crate::report::{Report, Row, fmt_value};
use crate::scenes::{self, SHOT_LENGTH, SceneDef, ShotDef};
use std::time::Instant;

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
    /// Seed of every generated scene and the shots.
    pub seed: u64,
}

impl Plan {
    /// The full comparison: 600 steps, the last 300 timed.
    pub fn full(rounds: usize, scaling_sleeping: bool, seed: u64) -> Plan {
        Plan {
            rounds,
            steps: 600,
            measured: 300,
            stand_window: (100, 500),
            shots: 100_000,
            scaling: vec![1_000, 4_000, 16_000, 32_000],
            scaling_sleeping,
            seed,
        }
    }

    /// A smoke test: one round, 120 steps (the last 60 timed), 10,000 shots.
    pub fn quick(scaling_sleeping: bool, seed: u64) -> Plan {
        Plan {
            rounds: 1,
            steps: 120,
            measured: 60,
            stand_window: (20, 100),
            shots: 10_000,
            ..Plan::full(1, scaling_sleeping, seed)
        }
    }
}

/// What one engine did in one run of a scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRun {
    /// Time of each measured step (ms).
    pub step_ms: Vec<f64>,
    /// Dynamic body positions after each requested step count.
    pub checkpoints: Vec<Vec<[f32; 2]>>,
    /// Dynamic body positions after the last step.
    pub last: Vec<[f32; 2]>,
    /// Dynamic bodies awake after the last step.
    pub awake: usize,
    /// Dynamic bodies outside the scene's container after the last step.
    pub escaped: usize,
}

/// Builds `scene` in `E`, runs `steps` steps and times the last `measured`.
pub fn run_steps<E: Engine>(
    scene: &SceneDef,
    steps: usize,
    measured: usize,
    checkpoints: &[usize],
) -> StepRun {
    let mut engine = E::build(scene);
    assert_eq!(
        engine.body_count(),
        scene.bodies.len(),
        "{} builds every body of the scene",
        E::NAME
    );
    let mut step_ms = Vec::with_capacity(measured);
    let mut snaps = Vec::new();
    for step in 1..=steps {
        let start = Instant::now();
        engine.step();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        if step + measured > steps {
            step_ms.push(ms);
        }
        if checkpoints.contains(&step) {
            snaps.push(engine.positions());
        }
    }
    let last = engine.positions();
    let c = scene.container;
    let escaped = last
        .iter()
        .filter(|p| !(p[0] >= c[0] && p[0] <= c[2] && p[1] >= c[1] && p[1] <= c[3]))
        .count();
    StepRun {
        step_ms,
        checkpoints: snaps,
        last,
        awake: engine.awake_count(),
        escaped,
    }
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
    let (c, r) = alternate(
        plan.rounds,
        name,
        || run_steps::<Circlet>(scene, plan.steps, plan.measured, checkpoints),
        || run_steps::<Rapier>(scene, plan.steps, plan.measured, checkpoints),
    );
    let row = Row {
        scene: format!("{name} (ms/step)"),
        circlet: median_ms(&c),
        rapier: median_ms(&r),
        target,
        condition: None,
    };
    eprintln!(
        "{name}: circlet {} ms/step, rapier2d {} ms/step",
        fmt_value(row.circlet),
        fmt_value(row.rapier)
    );
    report.rows.push(row);
    let (c0, r0) = (c.into_iter().next(), r.into_iter().next());
    (c0.expect("one round"), r0.expect("one round"))
}

fn awake_note(report: &mut Report, name: &str, c: &StepRun, r: &StepRun, bodies: usize) {
    report.notes.push(format!(
        "{name}: after the last step {} (circlet) and {} (rapier2d) of {bodies} bodies awake, \
         {} and {} outside the box",
        c.awake, r.awake, c.escaped, r.escaped
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

/// How the pyramid held: (top box displacement, largest sideways slide of
/// any box) between two snapshots (m).
pub fn pyramid_motion(before: &[[f32; 2]], after: &[[f32; 2]]) -> (f32, f32) {
    let (Some(b), Some(a)) = (before.last(), after.last()) else {
        return (f32::NAN, f32::NAN);
    };
    let top = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt();
    let slide = before
        .iter()
        .zip(after)
        .map(|(b, a)| (a[0] - b[0]).abs())
        .fold(0.0, f32::max);
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
    let (c, r) = stepping_scene(plan, report, "pyramid 5050", &scene, Some(1.0), &[from, to]);
    let mut stood = Vec::new();
    for (name, run) in [("circlet", &c), ("rapier2d", &r)] {
        let (top, slide) = pyramid_motion(&run.checkpoints[0], &run.checkpoints[1]);
        let sag = top_y - run.last.last().expect("boxes")[1];
        let ok = stands(top, slide);
        stood.push(ok);
        report.notes.push(format!(
            "pyramid, {name}: {} (steps {from}–{to}: top box moved {:.4} m, largest sideways \
             slide {:.4} m); settled sag of the top box {:.4} m",
            if ok { "stands" } else { "DOES NOT STAND" },
            top,
            slide,
            sag
        ));
    }
    if let Some(row) = report.rows.last_mut() {
        row.condition = Some(stood[0]);
    }
}

/// Hit statistics of one cast kind.
fn hits(out: &[Option<f32>]) -> usize {
    out.iter().filter(|h| h.is_some()).count()
}

/// Shots where `a` hits and `b` does not.
fn only_in(a: &[Option<f32>], b: &[Option<f32>]) -> usize {
    a.iter()
        .zip(b)
        .filter(|(a, b)| a.is_some() && b.is_none())
        .count()
}

/// Shots both hit whose first-hit distances differ by more than `tolerance`
/// (m): their indices and the largest difference (m).
fn distance_mismatches(a: &[Option<f32>], b: &[Option<f32>], tolerance: f32) -> (Vec<usize>, f32) {
    let mut largest = 0.0f32;
    let mut found = Vec::new();
    for (i, pair) in a.iter().zip(b).enumerate() {
        if let (Some(x), Some(y)) = pair {
            let d = (x - y).abs() * SHOT_LENGTH;
            if d > tolerance {
                found.push(i);
                largest = largest.max(d);
            }
        }
    }
    (found, largest)
}

/// How many of `shots` (indices) first hit, at fraction `hit`, a point on
/// one of the pile's balls rather than the floor or a wall.
fn on_balls(indices: &[usize], shots: &[ShotDef], hit: &[Option<f32>], pile: &[[f32; 2]]) -> usize {
    // The shot's centre is a shot radius off the surface; 2 cm of slack.
    let reach = scenes::PIT_RADIUS + scenes::SHOT_RADIUS + 0.02;
    indices
        .iter()
        .filter(|&&i| {
            let (s, f) = (shots[i], hit[i].unwrap_or(0.0) * SHOT_LENGTH);
            let p = [s.origin[0] + s.dir[0] * f, s.origin[1] + s.dir[1] * f];
            pile.iter()
                .any(|b| (b[0] - p[0]).powi(2) + (b[1] - p[1]).powi(2) <= reach * reach)
        })
        .count()
}

/// Largest share of shots on which two casts of the same shape may
/// disagree (hit or miss): grazing contacts decided by f32 rounding.
pub const GRAZING_SHARE: f64 = 1.0e-3;
/// Two engines' first-hit distances for the same shot agree within this (m).
pub const DISTANCE_TOLERANCE: f32 = 1.0e-3;

/// Times `kind` in `engine` for every round; returns (ns per shot per round,
/// the last results).
fn time_casts<E: Engine>(engine: &E, shots: &[ShotDef], kind: CastKind) -> (f64, Vec<Option<f32>>) {
    let mut out = Vec::with_capacity(shots.len());
    let start = Instant::now();
    engine.cast(shots, kind, &mut out);
    let ns = start.elapsed().as_secs_f64() * 1e9 / shots.len() as f64;
    (ns, out)
}

/// `shots`: thick shots and ray casts into the settled pile, rebuilt from
/// `pile` in both engines so both answer against the same geometry.
pub fn shots(plan: &Plan, report: &mut Report, pile: &[[f32; 2]]) {
    let scene = scenes::settled_pit(pile, true);
    let shots = scenes::shots(pile, plan.shots, plan.seed ^ 0x5407);
    let circlet = Circlet::build(&scene);
    let mut rapier = Rapier::build(&scene);
    rapier.prepare_queries();
    type Times = Vec<(CastKind, f64, Vec<Option<f32>>)>;
    let (c, r): (Vec<Times>, Vec<Times>) = alternate(
        plan.rounds,
        "shots",
        || {
            Circlet::cast_kinds()
                .iter()
                .map(|&k| {
                    let (ns, out) = time_casts(&circlet, &shots, k);
                    (k, ns, out)
                })
                .collect()
        },
        || {
            Rapier::cast_kinds()
                .iter()
                .map(|&k| {
                    let (ns, out) = time_casts(&rapier, &shots, k);
                    (k, ns, out)
                })
                .collect()
        },
    );
    let ns = |rounds: &[Times], kind: CastKind| {
        let all: Vec<f64> = rounds
            .iter()
            .flat_map(|t| t.iter().filter(|e| e.0 == kind).map(|e| e.1))
            .collect();
        median(&all)
    };
    let out = |rounds: &[Times], kind: CastKind| -> Vec<Option<f32>> {
        rounds[0]
            .iter()
            .find(|e| e.0 == kind)
            .map(|e| e.2.clone())
            .expect("kind cast")
    };
    let thick = out(&c, CastKind::Thick);
    let c_ray = out(&c, CastKind::Ray);
    let r_ray = out(&r, CastKind::Ray);
    let r_shape = out(&r, CastKind::ShapeCast);
    let n = shots.len();
    let grazing = (GRAZING_SHARE * n as f64).ceil() as usize;
    // The thick shot covers the ray; it agrees with rapier's ball cast and
    // circlet's ray with rapier's ray, up to grazing hits.
    let ray_not_thick = only_in(&r_ray, &thick);
    let thick_vs_shape = only_in(&thick, &r_shape) + only_in(&r_shape, &thick);
    let ray_vs_ray = only_in(&c_ray, &r_ray) + only_in(&r_ray, &c_ray);
    let agree = ray_not_thick <= grazing && thick_vs_shape <= grazing && ray_vs_ray <= grazing;
    let thick_ns = ns(&c, CastKind::Thick);
    report.rows.push(Row {
        scene: "shots: thick vs ray (ns/shot)".into(),
        circlet: thick_ns,
        rapier: ns(&r, CastKind::Ray),
        target: Some(0.3),
        condition: Some(agree),
    });
    report.rows.push(Row {
        scene: "shots: thick vs ball cast (ns/shot)".into(),
        circlet: thick_ns,
        rapier: ns(&r, CastKind::ShapeCast),
        target: None,
        condition: None,
    });
    report.rows.push(Row {
        scene: "shots: ray vs ray (ns/shot)".into(),
        circlet: ns(&c, CastKind::Ray),
        rapier: ns(&r, CastKind::Ray),
        target: None,
        condition: None,
    });
    let starts_inside = thick.iter().filter(|h| **h == Some(0.0)).count();
    report.notes.push(format!(
        "shots ({n}, radius {}, {} m): hits circlet thick {}, circlet ray {}, rapier2d ray {}, \
         rapier2d ball cast {}; {} start inside a ball; rapier2d ray + normal {} ns/shot",
        scenes::SHOT_RADIUS,
        SHOT_LENGTH,
        hits(&thick),
        hits(&c_ray),
        hits(&r_ray),
        hits(&r_shape),
        starts_inside,
        fmt_value(ns(&r, CastKind::RayNormal)),
    ));
    let (far, largest) = distance_mismatches(&thick, &r_shape, DISTANCE_TOLERANCE);
    let (far_rays, largest_ray) = distance_mismatches(&c_ray, &r_ray, DISTANCE_TOLERANCE);
    report.notes.push(format!(
        "shots agree: {} ({} thick-only hits are the thickness; rapier2d ray hits the thick shot \
         missed {ray_not_thick}; thick vs ball cast differ on {thick_vs_shape}, ray vs ray on \
         {ray_vs_ray}, allowed {grazing} each)",
        if agree { "yes" } else { "NO" },
        only_in(&thick, &r_ray),
    ));
    report.notes.push(format!(
        "shots, first-hit distance differs by > {DISTANCE_TOLERANCE} m: thick vs ball cast on {} \
         shots (largest {largest:.4} m; {} of them on a ball, the rest on the floor or a wall), \
         ray vs ray on {} (largest {largest_ray:.4} m)",
        far.len(),
        on_balls(&far, &shots, &thick, pile),
        far_rays.len(),
    ));
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
pub fn scaling(plan: &Plan, report: &mut Report) {
    let (mut c_pts, mut r_pts) = (Vec::new(), Vec::new());
    let first = report.rows.len();
    for &count in &plan.scaling {
        let scene = scenes::ball_pit(count, plan.scaling_sleeping, plan.seed);
        let name = format!("scaling {}k", count / 1_000);
        let (c, r) = stepping_scene(plan, report, &name, &scene, None, &[]);
        let row = report.rows.last().expect("row just added");
        c_pts.push((count as f64, row.circlet));
        r_pts.push((count as f64, row.rapier));
        if c.escaped + r.escaped > 0 {
            awake_note(report, &name, &c, &r, count);
        }
    }
    let (cs, rs) = (log_log_slope(&c_pts), log_log_slope(&r_pts));
    let ok = cs <= 1.1;
    report.notes.push(format!(
        "scaling exponent (log-log slope of ms/step vs bodies, {}–{} bodies, sleeping {}): \
         circlet {cs:.3}, rapier2d {rs:.3} (target ≤ 1.1 for circlet: {})",
        plan.scaling.first().copied().unwrap_or(0),
        plan.scaling.last().copied().unwrap_or(0),
        if plan.scaling_sleeping { "on" } else { "off" },
        if ok { "yes" } else { "NO" }
    ));
    for row in &mut report.rows[first..] {
        row.condition = Some(ok);
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
    fn casts_agree_on_a_small_pile() {
        let scene = scenes::ball_pit(400, true, 1);
        let shots = scenes::shots(&scene.dynamic_positions(), 2_000, 9);
        let c = Circlet::build(&scene);
        let mut r = Rapier::build(&scene);
        r.prepare_queries();
        let (mut thick, mut c_ray, mut r_ray, mut r_ball) = (vec![], vec![], vec![], vec![]);
        c.cast(&shots, CastKind::Thick, &mut thick);
        c.cast(&shots, CastKind::Ray, &mut c_ray);
        r.cast(&shots, CastKind::Ray, &mut r_ray);
        r.cast(&shots, CastKind::ShapeCast, &mut r_ball);
        assert!(hits(&r_ray) > 500, "the pile is hit");
        assert!(only_in(&r_ray, &thick) <= 2);
        assert!(only_in(&thick, &r_ball) + only_in(&r_ball, &thick) <= 2);
        assert!(only_in(&c_ray, &r_ray) + only_in(&r_ray, &c_ray) <= 2);
        assert!(hits(&thick) >= hits(&c_ray));
    }

    #[test]
    fn pyramid_motion_and_stands() {
        let before = vec![[0.0, 0.5], [1.0, 0.5], [0.5, 1.5]];
        let after = vec![[0.0, 0.5], [1.05, 0.5], [0.5, 1.49]];
        let (top, slide) = pyramid_motion(&before, &after);
        assert!((top - 0.01).abs() < 1e-5 && (slide - 0.05).abs() < 1e-5);
        assert!(stands(top, slide));
        assert!(!stands(0.03, 0.0) && !stands(0.0, 0.2));
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
