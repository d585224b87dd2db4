//! Shared by the continuous-collision tests: the f64 oracle, the generators,
//! and the checks of a reported contact against the oracle.
#![allow(dead_code)] // each test file uses a different subset

pub mod generate;
pub mod oracle;

use circlet::math::{Pose, Vec2};
use circlet::query::ClosestPoints;
use oracle::{OBody, OShape, P, Part, p};

/// Samples of the motion per case (the acceptance floor is 2,000).
pub const SAMPLES: usize = 2_000;

/// How far f32 results may be off, in ulps of the largest coordinate or
/// displacement involved (positions up to ~50 m plus motions up to 1,000
/// sizes per step): the inputs themselves are only known to about 1 ulp.
pub const NOISE_ULPS: f64 = 16.0;

/// The query's own relative tolerance: conservative advancement stops 1e-4
/// of the smaller size before contact; the closed forms are exact.
pub const RELATIVE_TOLERANCE: f64 = 1e-4;

/// The tolerances a case is judged with.
#[derive(Clone, Copy, Debug)]
pub struct Tolerance {
    /// f32 noise of a distance between the bodies (metres).
    pub noise: f64,
    /// Allowed distance between the shapes at a reported contact (metres):
    /// the relative tolerance of the smaller shape's size plus the noise.
    pub distance: f64,
    /// `distance` as a fraction of the step at the fastest relative speed.
    pub time: f64,
}

/// The tolerances for closed forms: [`RELATIVE_TOLERANCE`] of the smaller
/// size plus the f32 noise.
pub fn tolerance(a: &OBody, b: &OBody) -> Tolerance {
    let size = (a.shape.size() * a.scale).min(b.shape.size() * b.scale);
    tolerance_with(a, b, RELATIVE_TOLERANCE * size)
}

/// The tolerances for a query that declares its own stopping distance
/// (metres), plus the f32 noise.
pub fn tolerance_with(a: &OBody, b: &OBody, declared: f64) -> Tolerance {
    let magnitude = |body: &OBody| {
        body.translation.x.abs().max(body.translation.y.abs()) + body.reach + body.linear.norm()
    };
    let noise = NOISE_ULPS * f32::EPSILON as f64 * magnitude(a).max(magnitude(b));
    let distance = declared + noise;
    // Lipschitz bound of the signed distance in t.
    let speed =
        a.linear.sub(b.linear).norm() + a.angular.abs() * a.reach + b.angular.abs() * b.reach;
    Tolerance {
        noise,
        distance,
        time: distance / speed.max(1e-12),
    }
}

/// A contact as reported by a query, seen as "A meets B".
#[derive(Clone, Copy, Debug)]
pub struct Reported {
    pub fraction: f64,
    /// Unit, from A to B.
    pub normal: P,
    /// World contact point at `fraction`.
    pub point: P,
    pub overlapping_at_start: bool,
    /// A conservative answer that may come early (an iteration cap).
    pub may_be_early: bool,
    /// Whether `point` must lie on A's surface, B's, or both (midway).
    pub point_on: PointOn,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PointOn {
    A,
    B,
    Both,
}

/// Counters of what the property tests exercised (printed by the tests).
#[derive(Default, Debug)]
pub struct Tally {
    pub hits: usize,
    pub misses: usize,
    pub overlapping: usize,
    pub deep: usize,
    pub capped: usize,
    /// Conservative advancement steps, summed over the reported contacts.
    pub iterations: usize,
}

/// Checks a reported contact (or its absence) against the oracle:
/// (a) an overlap deeper than `tol.distance` found by the oracle at `t` means
///     a hit reported no later than `t`; one at the start means "overlapping";
/// (b) at the reported fraction the shapes are within `tol.distance` of
///     touching (not early), and a report of "overlapping at start" is true;
/// (c) at `fraction - tol.time` the shapes are apart, up to f32 noise (not late);
/// plus the normal separates and the point lies on the surface(s).
pub fn check(
    reported: Option<Reported>,
    a: &OBody,
    b: &OBody,
    tol: Tolerance,
    tally: &mut Tally,
) -> Result<(), String> {
    let sweep = oracle::sweep(a, b, SAMPLES, tol.distance);
    let f = |t: f64| oracle::signed_distance(a, b, t, f64::INFINITY);
    if sweep.first_deep.is_some() {
        tally.deep += 1;
    }
    let Some(r) = reported else {
        tally.misses += 1;
        if let Some(deep) = sweep.first_deep {
            return Err(format!(
                "(a) missed: the oracle finds overlap {:.3e} deep at t = {deep}",
                -f(deep)
            ));
        }
        return Ok(());
    };
    if !(r.fraction >= 0.0 && r.fraction <= 1.0) {
        return Err(format!("fraction {} outside [0, 1]", r.fraction));
    }
    let finite = |q: P| q.x.is_finite() && q.y.is_finite();
    if !finite(r.normal) || !finite(r.point) {
        return Err(format!(
            "not finite: normal {:?}, point {:?}",
            r.normal, r.point
        ));
    }
    if (r.normal.norm() - 1.0).abs() > 1e-4 {
        return Err(format!("normal {:?} is not unit", r.normal));
    }
    if r.overlapping_at_start {
        tally.overlapping += 1;
        if r.fraction != 0.0 {
            return Err("overlapping at start with a fraction > 0".into());
        }
        if sweep.start > tol.distance {
            return Err(format!(
                "(b) reports overlapping at start, the oracle has them {:.3e} apart",
                sweep.start
            ));
        }
    } else {
        tally.hits += 1;
        if sweep.start <= -tol.distance {
            return Err(format!(
                "(a) overlap {:.3e} deep at the start, reported as a hit at {}",
                -sweep.start, r.fraction
            ));
        }
        if let Some(deep) = sweep.first_deep
            && r.fraction > deep + tol.time
        {
            return Err(format!(
                "(a) late: hit at {}, the oracle is {:.3e} deep at {deep}",
                r.fraction,
                -f(deep)
            ));
        }
        let at_hit = f(r.fraction);
        if r.may_be_early {
            tally.capped += 1;
            if at_hit <= -tol.noise {
                return Err(format!(
                    "a capped answer must be safe: {:.3e} deep at {}",
                    -at_hit, r.fraction
                ));
            }
        } else if at_hit > tol.distance {
            return Err(format!(
                "(b) early or false hit: {:.3e} apart at t = {} (tolerance {:.3e}; oracle first contact {:?})",
                at_hit, r.fraction, tol.distance, sweep.first_contact
            ));
        }
        let before = r.fraction - tol.time;
        if before > 0.0 && f(before) <= -tol.noise {
            return Err(format!(
                "(c) late: already {:.3e} deep at t - tol = {before} (tolerance {:.3e}; oracle first contact {:?})",
                -f(before),
                tol.noise,
                sweep.first_contact
            ));
        }
    }
    if r.overlapping_at_start {
        return Ok(()); // depth, normal and point of an overlap are the contact query's business
    }
    // The normal separates: B pushed along it moves away from A. Judged by
    // pushing B both ways, which means nothing where B is thinner than the
    // push at the contact: near a sharp vertex of B (interior angle α
    // under 90°), within push / tan α of it, B pushed towards A carries its
    // thin tip through the contact point and out beyond it. A shot from
    // 600 m hitting a tile wedge (α = 1.6°) 4 mm from its tip, where the
    // wedge is 0.1 mm thick, under a push of a millimetre, is such a case.
    let push = 4.0 * tol.distance + 1e-6 * (a.reach + b.reach);
    let near_sharp_vertex = b.shape.parts.iter().any(|part| {
        let n = part.core.len();
        part.radius == 0.0
            && n >= 3
            && (0..n).any(|i| {
                let at = |k: usize| b.world(r.fraction, part.core[k % n]);
                let (vertex, before, after) = (at(i), at(i + n - 1), at(i + 1));
                let (u, v) = (before.sub(vertex), after.sub(vertex));
                let (cos, sin) = (u.dot(v), u.cross(v).abs());
                // Acute (cos > 0), and the contact within push / tan α.
                cos > 0.0 && vertex.sub(r.point).norm() * sin < push * cos
            })
    });
    let shifted = |sign: f64| {
        let mut moved = b.clone();
        moved.translation = moved.translation.add(r.normal.mul(sign * push));
        oracle::signed_distance(a, &moved, r.fraction, f64::INFINITY)
    };
    if !near_sharp_vertex && shifted(1.0) <= shifted(-1.0) {
        return Err(format!("normal {:?} does not separate A from B", r.normal));
    }
    let on_a = oracle::point_distance(a, r.fraction, r.point);
    let on_b = oracle::point_distance(b, r.fraction, r.point);
    // A capped answer may stop well before contact: its point is midway.
    let gap = if r.may_be_early {
        oracle::signed_distance(a, b, r.fraction, f64::INFINITY).max(0.0)
    } else {
        0.0
    };
    let surface_tolerance = 4.0 * tol.distance + gap;
    let wrong = match r.point_on {
        PointOn::A => on_a.abs() > surface_tolerance,
        PointOn::B => on_b.abs() > surface_tolerance,
        PointOn::Both => on_a.abs() > surface_tolerance || on_b.abs() > surface_tolerance,
    };
    if wrong {
        return Err(format!(
            "point {:?} is off the surface: {:.3e} from A, {:.3e} from B",
            r.point, on_a, on_b
        ));
    }
    Ok(())
}

/// The oracle's closest points for two shapes at two f32 poses, as the crate
/// would return them (for driving conservative advancement before the
/// crate's own `closest_points` is merged).
pub fn oracle_closest_points(
    a: &OShape,
    pose_a: &Pose,
    b: &OShape,
    pose_b: &Pose,
) -> Option<ClosestPoints> {
    let still = circlet::query::time_of_impact::Motion::ZERO;
    let body_a = OBody::from_oracle(a.clone(), pose_a, &still);
    let body_b = OBody::from_oracle(b.clone(), pose_b, &still);
    oracle::closest(&body_a, &body_b, 0.0).map(|(distance, pa, pb)| ClosestPoints {
        distance: distance as f32,
        point_a: pa.to_f32(),
        point_b: pb.to_f32(),
    })
}

/// A shot's moving circle as an oracle body.
pub fn shot_body(start: Vec2, end: Vec2, radius: f32) -> OBody {
    let shape = OShape {
        parts: vec![Part {
            core: vec![p(0.0, 0.0)],
            radius: radius as f64,
        }],
    };
    let motion = circlet::query::time_of_impact::Motion::linear(end - start);
    OBody::from_oracle(shape, &Pose::from_translation(start), &motion)
}
