//! `shots`: thick shots and rays fired into the settled ball pit, timed per
//! shot, with the hit counts of every cast compared shot by shot.

use crate::circlet_engine::Circlet;
use crate::engine::{CastKind, Engine};
use crate::measure::median;
use crate::rapier_engine::Rapier;
use crate::report::{Report, Row, fmt_value};
use crate::run::{Plan, alternate};
use crate::scenes::{self, SHOT_LENGTH, ShotDef};
use std::time::Instant;

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
/// Shots cast untimed right before each timed batch.
pub const WARM_UP: usize = 10_000;
/// Two engines' first-hit distances for the same shot agree within this (m).
pub const DISTANCE_TOLERANCE: f32 = 1.0e-3;

/// Times `kind` in `engine` for every round; returns (ns per shot per round,
/// the last results).
fn time_casts<E: Engine>(engine: &E, shots: &[ShotDef], kind: CastKind) -> (f64, Vec<Option<f32>>) {
    let mut out = Vec::with_capacity(shots.len());
    // An untimed pass over the first shots: no cast is timed with cold
    // caches because it happens to follow the other engine.
    engine.cast(&shots[..shots.len().min(WARM_UP)], kind, &mut out);
    let start = Instant::now();
    engine.cast(shots, kind, &mut out);
    let ns = start.elapsed().as_secs_f64() * 1e9 / shots.len() as f64;
    (ns, out)
}

/// `shots`: thick shots and ray casts into the settled pile, rebuilt from
/// `pile` in both engines so both answer against the same geometry.
pub fn run(plan: &Plan, report: &mut Report, pile: &[[f32; 2]]) {
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
        circlet_target: None,
        condition: Some(agree),
    });
    report.rows.push(Row {
        scene: "shots: thick vs ball cast (ns/shot)".into(),
        circlet: thick_ns,
        rapier: ns(&r, CastKind::ShapeCast),
        target: None,
        circlet_target: None,
        condition: None,
    });
    report.rows.push(Row {
        scene: "shots: ray vs ray (ns/shot)".into(),
        circlet: ns(&c, CastKind::Ray),
        rapier: ns(&r, CastKind::Ray),
        target: None,
        circlet_target: None,
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
