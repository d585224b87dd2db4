//! Soft-step sequential impulses for contacts (after Catto's Solver2D "soft
//! step" and Box2D v3): each substep warm starts, solves with a soft position
//! bias, integrates positions, then relaxes without bias; restitution is
//! applied once after the substeps.
//!
//! Invariants:
//! - accumulated normal impulses are ≥ 0 and friction impulses stay within
//!   the Coulomb cone `|λt| ≤ μ·λn` after every solve;
//! - static bodies (inverse mass and inertia 0) are never changed;
//! - the result depends only on the order of the constraints given, so a
//!   deterministic order gives bit-identical steps.
//!
//! Frames: anchors are world offsets from each body's centre of mass at the
//! start of the step; body deltas (`delta_position`, `delta_rotation`) track
//! the motion within the step so the current separation is recomputed each
//! substep without re-running collision.

use super::error::{SolverError, check_bodies};
use super::softness::Softness;
use crate::math::{Real, Rot2, Vec2, cross, perp};
use crate::query::{ContactPoint, FeatureId, Manifold};

/// Per-body state the solver passes read and write.
///
/// `repr(C)`, 32 bytes and as aligned: the velocity row `[v.x, v.y, ω, 1/m]`
/// and the motion row `[Δp.x, Δp.y, cos, sin]`, which the lane solver loads
/// and stores whole (`body_rows`, which asserts the offsets); two bodies to
/// a cache line, none across two. What the passes do not read is each
/// body's [`BodyTurn`] (inverse inertia and accumulated turn), in a slice
/// parallel to the bodies; a constraint copies the inverse inertias of its
/// two bodies when it is built. The passes gather the bodies of every
/// constraint several times a substep, so the array's size is what large
/// scenes pay for: a 32,000-ball pit steps 7–9% faster than with the
/// 48-byte body that held both.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(32))]
pub struct SolverBody {
    /// Linear velocity of the centre of mass (m/s, world).
    pub linear_velocity: Vec2,
    /// Angular velocity (rad/s, counter-clockwise).
    pub angular_velocity: Real,
    /// 1 / mass (1/kg); 0 for static and kinematic bodies.
    pub inv_mass: Real,
    /// Displacement of the centre of mass since the start of the step (m, world).
    pub delta_position: Vec2,
    /// Rotation since the start of the step.
    pub delta_rotation: Rot2,
}

const _: () = assert!(std::mem::size_of::<SolverBody>() == 32);

impl SolverBody {
    /// A body that never moves (inverse mass and inertia 0).
    pub const FIXED: SolverBody = SolverBody {
        linear_velocity: Vec2::new(0.0, 0.0),
        angular_velocity: 0.0,
        delta_position: Vec2::new(0.0, 0.0),
        delta_rotation: Rot2::new_unchecked(nalgebra::Complex { re: 1.0, im: 0.0 }),
        inv_mass: 0.0,
    };
}

/// A body that cannot move: inverse mass and inverse inertia 0 (static,
/// kinematic, or the solver's fixed stand-in).
#[inline]
pub fn is_fixed(inv_mass: Real, inv_inertia: Real) -> bool {
    inv_mass == 0.0 && inv_inertia == 0.0
}

/// Tuning of the contact solver; every value is in SI units.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactSettings {
    /// Contact spring stiffness (Hz). 35 by default, a little above Box2D's
    /// 30: a pyramid 100 boxes high (60 Hz steps, 4 substeps) sags 0.54 m
    /// by step 100, and its top box then sways by at most 2.4 cm over the
    /// next 400 steps (12 cm at 30 Hz). Capped at a quarter of the substep
    /// rate.
    pub hertz: Real,
    /// Contact damping ratio; well over-damped (10) so contacts do not bounce.
    pub damping_ratio: Real,
    /// Largest velocity (m/s) the position bias may add to push bodies apart,
    /// so deep overlaps resolve without explosive separation.
    pub max_push_velocity: Real,
    /// Approach speed (m/s) below which restitution is ignored, so resting
    /// bodies do not jitter.
    pub restitution_threshold: Real,
}

impl Default for ContactSettings {
    fn default() -> Self {
        ContactSettings {
            hertz: 35.0,
            damping_ratio: 10.0,
            max_push_velocity: 3.0,
            restitution_threshold: 1.0,
        }
    }
}

/// One solved contact point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstraintPoint {
    /// Offset of the contact point from body A's centre of mass (world, m).
    pub anchor_a: Vec2,
    /// Offset of the contact point from body B's centre of mass (world, m).
    pub anchor_b: Vec2,
    /// Separation at the start of the step minus the anchors' normal offset (m).
    pub base_separation: Real,
    /// Accumulated normal impulse (N·s).
    pub normal_impulse: Real,
    /// Accumulated friction impulse (N·s).
    pub tangent_impulse: Real,
    /// Largest normal impulse seen in the step (restitution uses it).
    pub max_normal_impulse: Real,
    /// Effective mass along the normal.
    pub normal_mass: Real,
    /// Effective mass along the tangent.
    pub tangent_mass: Real,
    /// Normal relative velocity at the start of the step (m/s; < 0 approaching).
    pub relative_velocity: Real,
    /// Of a round constraint (see [`ContactConstraint::round`]): the
    /// anchors' offsets along the normal (m). A round circle's anchor is
    /// its arm times the normal; the arm of a side that does not move only
    /// ever meets its zero velocities. 0 for other constraints.
    pub arm_a: Real,
    /// As `arm_a`, for body B.
    pub arm_b: Real,
    /// Feature id, for matching impulses across steps.
    pub id: FeatureId,
}

/// A contact between two bodies with up to four points sharing one normal.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactConstraint {
    /// Index of body A in the solver body array.
    pub body_a: usize,
    /// Index of body B in the solver body array.
    pub body_b: usize,
    /// Unit normal from A to B (world).
    pub normal: Vec2,
    /// Coulomb friction coefficient.
    pub friction: Real,
    /// Restitution (bounciness) in [0, 1].
    pub restitution: Real,
    /// The inverse inertias of bodies A and B (1/(kg·m²)), as given when
    /// the constraint was built.
    pub inv_inertia: [Real; 2],
    /// One side cannot move, as built: solved with the stiffer static
    /// softness. The passes decide it again from what the constraint names
    /// ([`solved_against_fixed`]), so a constraint whose bodies or inverse
    /// inertias were changed after it was built is solved as what it now
    /// names, the same in the scalar passes and in the lanes.
    pub against_fixed: bool,
    /// Both sides are round at the constraint's single point: each is a
    /// circle centred on its body's centre of mass, or a body that does not
    /// move in this step (the fixed stand-in of the solver bodies, for
    /// static and sleeping bodies). Its anchors then lie along the normal, so the
    /// normal has no angular part and the separation does not depend on
    /// rotation, exactly as for two circles; the point keeps only its arms
    /// along the normal (see [`ConstraintPoint::arm_a`]). Ignored for a
    /// constraint of more than one point.
    pub round: bool,
    /// The points (1 to 4).
    pub points: smallvec::SmallVec<[ConstraintPoint; 4]>,
}

impl ConstraintPoint {
    /// The constraint point of manifold point `point` between bodies `a` and
    /// `b`, each with its inverse inertia (centres of mass `center_a`,
    /// `center_b`, world) along the unit `normal`, starting from the stored
    /// impulses `warm` (normal, tangent).
    #[inline]
    pub fn new(
        (a, inv_inertia_a): (&SolverBody, Real),
        (b, inv_inertia_b): (&SolverBody, Real),
        center_a: Vec2,
        center_b: Vec2,
        normal: Vec2,
        point: &ContactPoint,
        warm: (Real, Real),
    ) -> ConstraintPoint {
        let tangent = -perp(normal);
        let anchor_a = point.point - center_a;
        let anchor_b = point.point - center_b;
        let rn_a = cross(anchor_a, normal);
        let rn_b = cross(anchor_b, normal);
        let k_normal =
            a.inv_mass + b.inv_mass + inv_inertia_a * rn_a * rn_a + inv_inertia_b * rn_b * rn_b;
        let rt_a = cross(anchor_a, tangent);
        let rt_b = cross(anchor_b, tangent);
        let k_tangent =
            a.inv_mass + b.inv_mass + inv_inertia_a * rt_a * rt_a + inv_inertia_b * rt_b * rt_b;
        let velocity_a = a.linear_velocity + perp(anchor_a) * a.angular_velocity;
        let velocity_b = b.linear_velocity + perp(anchor_b) * b.angular_velocity;
        let (normal_impulse, tangent_impulse) = warm;
        ConstraintPoint {
            anchor_a,
            anchor_b,
            // separation = -depth; remove the anchors' current normal offset
            // so that s = dot(d, n) + base_separation in the substeps.
            base_separation: -point.depth - (anchor_b - anchor_a).dot(&normal),
            normal_impulse,
            tangent_impulse,
            max_normal_impulse: 0.0,
            normal_mass: effective_mass(k_normal),
            tangent_mass: effective_mass(k_tangent),
            relative_velocity: (velocity_b - velocity_a).dot(&normal),
            arm_a: 0.0,
            arm_b: 0.0,
            id: point.id,
        }
    }

    /// The point of a round constraint (see [`ContactConstraint::round`]),
    /// with the same arguments as [`Self::new`]: the anchors' arms along
    /// the normal replace their angular parts, which are zero for round
    /// sides. The anchors are kept as they are, for reading only.
    #[inline]
    pub fn new_round(
        (a, inv_inertia_a): (&SolverBody, Real),
        (b, inv_inertia_b): (&SolverBody, Real),
        center_a: Vec2,
        center_b: Vec2,
        normal: Vec2,
        point: &ContactPoint,
        warm: (Real, Real),
    ) -> ConstraintPoint {
        let anchor_a = point.point - center_a;
        let anchor_b = point.point - center_b;
        let arm_a = anchor_a.dot(&normal);
        let arm_b = anchor_b.dot(&normal);
        let k_normal = a.inv_mass + b.inv_mass;
        let k_tangent = k_normal + inv_inertia_a * arm_a * arm_a + inv_inertia_b * arm_b * arm_b;
        let (normal_impulse, tangent_impulse) = warm;
        ConstraintPoint {
            anchor_a,
            anchor_b,
            // A round side's surface does not move as it turns: the
            // separation changes only with the centres.
            base_separation: -point.depth,
            normal_impulse,
            tangent_impulse,
            max_normal_impulse: 0.0,
            normal_mass: effective_mass(k_normal),
            tangent_mass: effective_mass(k_tangent),
            relative_velocity: (b.linear_velocity - a.linear_velocity).dot(&normal),
            arm_a,
            arm_b,
            id: point.id,
        }
    }
}

/// The effective mass `1 / k` of a constraint direction whose inverse
/// mass is `k`; 0 where nothing can move along it (`k` is 0).
#[inline]
fn effective_mass(k: Real) -> Real {
    if k > 0.0 { 1.0 / k } else { 0.0 }
}

impl ContactConstraint {
    /// Builds a constraint from a manifold. `turns` is parallel to `bodies`
    /// (only their inverse inertias are read); `center_a`/`center_b` are the
    /// bodies' centres of mass (world) and `warm` returns the impulses
    /// stored last step for a feature id (normal, tangent), or zeros. With
    /// `round` (both sides round, see [`Self::round`]) a one-point manifold
    /// makes a round constraint.
    ///
    /// # Errors
    /// [`SolverError::BodyIndex`] when `body_a` or `body_b` is past `bodies`
    /// or `turns`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        bodies: &[SolverBody],
        turns: &[BodyTurn],
        body_a: usize,
        body_b: usize,
        center_a: Vec2,
        center_b: Vec2,
        manifold: &Manifold,
        friction: Real,
        restitution: Real,
        round: bool,
        warm: impl Fn(FeatureId) -> (Real, Real),
    ) -> Result<ContactConstraint, SolverError> {
        check_bodies(bodies.len(), turns.len(), body_a, body_b)?;
        let a = (&bodies[body_a], turns[body_a].inv_inertia);
        let b = (&bodies[body_b], turns[body_b].inv_inertia);
        let normal = manifold.normal;
        let round = round && manifold.points.len() == 1;
        let point = if round {
            ConstraintPoint::new_round
        } else {
            ConstraintPoint::new
        };
        let points = manifold
            .points
            .iter()
            .map(|p| point(a, b, center_a, center_b, normal, p, warm(p.id)))
            .collect();
        Ok(ContactConstraint {
            body_a,
            body_b,
            normal,
            friction,
            restitution,
            inv_inertia: [a.1, b.1],
            against_fixed: is_fixed(a.0.inv_mass, a.1) || is_fixed(b.0.inv_mass, b.1),
            round,
            points,
        })
    }

    /// Solved by the round formulas: [`Self::round`] with one point.
    #[inline]
    pub fn is_round(&self) -> bool {
        self.round && self.points.len() == 1
    }
}

/// Applies `impulse` at `anchor` to body `index`; a body past the array
/// stands for one that does not move and is left alone.
fn apply(bodies: &mut [SolverBody], index: usize, inv_inertia: Real, impulse: Vec2, anchor: Vec2) {
    let Some(body) = bodies.get_mut(index) else {
        return;
    };
    body.linear_velocity += impulse * body.inv_mass;
    body.angular_velocity += inv_inertia * cross(anchor, impulse);
}

/// The velocities of a constraint's two bodies while its points are solved:
/// read once, changed point by point, written back once (only to bodies that
/// can move, so fixed bodies stay untouched).
pub(super) struct PairVelocities {
    pub(super) a: SolverBody,
    pub(super) b: SolverBody,
    /// The constraint's inverse inertias of A and B.
    pub(super) inv_inertia: [Real; 2],
}

impl PairVelocities {
    /// A side past the bodies is the fixed body, with no inertia either
    /// (as in the lanes), and is never written back.
    #[inline]
    pub(super) fn load(bodies: &[SolverBody], c: &ContactConstraint) -> Self {
        let side = |index: usize, inv_inertia: Real| {
            bodies
                .get(index)
                .map_or((SolverBody::FIXED, 0.0), |body| (*body, inv_inertia))
        };
        let (a, inv_inertia_a) = side(c.body_a, c.inv_inertia[0]);
        let (b, inv_inertia_b) = side(c.body_b, c.inv_inertia[1]);
        PairVelocities {
            a,
            b,
            inv_inertia: [inv_inertia_a, inv_inertia_b],
        }
    }

    /// Velocity of B's anchor point relative to A's (m/s, world).
    #[inline]
    fn relative(&self, p: &ConstraintPoint) -> Vec2 {
        (self.b.linear_velocity + perp(p.anchor_b) * self.b.angular_velocity)
            - (self.a.linear_velocity + perp(p.anchor_a) * self.a.angular_velocity)
    }

    /// Applies `impulse` to B and its opposite to A at the point's anchors.
    #[inline]
    fn apply(&mut self, p: &ConstraintPoint, impulse: Vec2) {
        let [inv_inertia_a, inv_inertia_b] = self.inv_inertia;
        self.a.linear_velocity -= impulse * self.a.inv_mass;
        self.a.angular_velocity -= inv_inertia_a * cross(p.anchor_a, impulse);
        self.b.linear_velocity += impulse * self.b.inv_mass;
        self.b.angular_velocity += inv_inertia_b * cross(p.anchor_b, impulse);
    }

    #[inline]
    pub(super) fn store(self, bodies: &mut [SolverBody], c: &ContactConstraint) {
        let [inv_inertia_a, inv_inertia_b] = self.inv_inertia;
        for (index, body, inv_inertia) in [
            (c.body_a, self.a, inv_inertia_a),
            (c.body_b, self.b, inv_inertia_b),
        ] {
            if (body.inv_mass > 0.0 || inv_inertia > 0.0)
                && let Some(slot) = bodies.get_mut(index)
            {
                slot.linear_velocity = body.linear_velocity;
                slot.angular_velocity = body.angular_velocity;
            }
        }
    }
}

/// Applies last step's impulses so the solver starts near the solution.
pub fn warm_start(bodies: &mut [SolverBody], constraints: &[ContactConstraint]) {
    for c in constraints {
        warm_start_constraint(bodies, c);
    }
}

/// Applies one constraint's stored impulses (see [`warm_start`]).
pub fn warm_start_constraint(bodies: &mut [SolverBody], c: &ContactConstraint) {
    if c.is_round() {
        super::round::warm_start_round(bodies, c);
        return;
    }
    let tangent = -perp(c.normal);
    for p in &c.points {
        let impulse = c.normal * p.normal_impulse + tangent * p.tangent_impulse;
        apply(bodies, c.body_a, c.inv_inertia[0], -impulse, p.anchor_a);
        apply(bodies, c.body_b, c.inv_inertia[1], impulse, p.anchor_b);
    }
}

/// Softness of contacts between two moving bodies, and of contacts against a
/// body that cannot move (twice as stiff, as in Box2D v3: the fixed side
/// absorbs nothing, so the pair can take a stiffer spring without ringing).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSoftness {
    /// Between two moving bodies.
    pub moving: Softness,
    /// Against a static or kinematic body.
    pub fixed: Softness,
}

impl ContactSoftness {
    /// Softness for `settings` at substep `h` seconds; the stiffness is capped
    /// at a quarter of the substep rate (beyond it the implicit spring no
    /// longer resolves within a substep and overshoots).
    pub fn new(settings: &ContactSettings, h: Real) -> Self {
        let cap = 0.25 / h;
        ContactSoftness {
            moving: Softness::new(settings.hertz.min(cap), settings.damping_ratio, h),
            fixed: Softness::new((2.0 * settings.hertz).min(cap), settings.damping_ratio, h),
        }
    }
}

/// One sequential-impulse pass over all contacts. With `use_bias`, overlap is
/// pushed out softly; without it (relax), only velocities are corrected.
pub fn solve(
    bodies: &mut [SolverBody],
    constraints: &mut [ContactConstraint],
    settings: &ContactSettings,
    softness: ContactSoftness,
    inv_h: Real,
    use_bias: bool,
) {
    for c in constraints.iter_mut() {
        solve_constraint(bodies, c, settings, softness, inv_h, use_bias);
    }
}

/// One sequential-impulse pass over one constraint (see [`solve`]).
pub fn solve_constraint(
    bodies: &mut [SolverBody],
    c: &mut ContactConstraint,
    settings: &ContactSettings,
    softness: ContactSoftness,
    inv_h: Real,
    use_bias: bool,
) {
    let softness = if solved_against_fixed(bodies, c) {
        softness.fixed
    } else {
        softness.moving
    };
    if c.is_round() {
        super::round::solve_round(bodies, c, settings, softness, inv_h, use_bias);
        return;
    }
    let tangent = -perp(c.normal);
    let mut pair = PairVelocities::load(bodies, c);
    for p in c.points.iter_mut() {
        // Current separation from the body deltas within the step.
        let moved_a = pair.a.delta_position + (pair.a.delta_rotation * p.anchor_a);
        let moved_b = pair.b.delta_position + (pair.b.delta_rotation * p.anchor_b);
        let separation = (moved_b - moved_a).dot(&c.normal) + p.base_separation;
        let (bias, mass_scale, impulse_scale) =
            bias_terms(separation, &softness, settings, inv_h, use_bias);
        let dv = pair.relative(p);
        let normal_speed = dv.dot(&c.normal);
        let impulse =
            -p.normal_mass * mass_scale * (normal_speed + bias) - impulse_scale * p.normal_impulse;
        let accumulated = (p.normal_impulse + impulse).max(0.0);
        let applied = accumulated - p.normal_impulse;
        p.normal_impulse = accumulated;
        p.max_normal_impulse = p.max_normal_impulse.max(applied);
        let j = c.normal * applied;
        pair.apply(p, j);
    }
    for p in c.points.iter_mut() {
        let dv = pair.relative(p);
        let tangent_speed = dv.dot(&tangent);
        let impulse = -p.tangent_mass * tangent_speed;
        let limit = c.friction * p.normal_impulse;
        // max/min rather than clamp: the same for valid input, and no panic path.
        let accumulated = (p.tangent_impulse + impulse).max(-limit).min(limit);
        let applied = accumulated - p.tangent_impulse;
        p.tangent_impulse = accumulated;
        let j = tangent * applied;
        pair.apply(p, j);
    }
    pair.store(bodies, c);
}

/// Whether the passes solve `c` against a side that cannot move (with the
/// stiffer static softness): a side past `bodies`, or one with inverse mass
/// and inverse inertia 0. What [`ContactConstraint::new`] sets
/// `against_fixed` to, read again by every pass as the lanes do.
#[inline]
pub fn solved_against_fixed(bodies: &[SolverBody], c: &ContactConstraint) -> bool {
    [(c.body_a, c.inv_inertia[0]), (c.body_b, c.inv_inertia[1])]
        .iter()
        .any(|&(index, inv_inertia)| {
            bodies
                .get(index)
                .is_none_or(|body| is_fixed(body.inv_mass, inv_inertia))
        })
}

/// The bias, mass scale and impulse scale of a point at `separation` (m):
/// apart, it may close exactly the gap this substep (speculative);
/// overlapping, it is pushed out softly with the bias, not at all without.
#[inline(always)]
pub(super) fn bias_terms(
    separation: Real,
    softness: &Softness,
    settings: &ContactSettings,
    inv_h: Real,
    use_bias: bool,
) -> (Real, Real, Real) {
    if separation > 0.0 {
        (separation * inv_h, 1.0, 0.0)
    } else if use_bias {
        (
            (softness.bias_rate * separation).max(-settings.max_push_velocity),
            softness.mass_scale,
            softness.impulse_scale,
        )
    } else {
        (0.0, 1.0, 0.0)
    }
}

/// Restitution, once after the substeps: points that were approaching faster
/// than the threshold and carried load get `-e · v_before` as their normal speed.
pub fn apply_restitution(
    bodies: &mut [SolverBody],
    constraints: &mut [ContactConstraint],
    settings: &ContactSettings,
) {
    for c in constraints.iter_mut() {
        if c.restitution == 0.0 {
            continue;
        }
        if c.is_round() {
            super::round::restitution_round(bodies, c, settings);
            continue;
        }
        let mut pair = PairVelocities::load(bodies, c);
        for p in c.points.iter_mut() {
            if p.relative_velocity > -settings.restitution_threshold || p.max_normal_impulse == 0.0
            {
                continue;
            }
            let dv = pair.relative(p);
            let normal_speed = dv.dot(&c.normal);
            let impulse = -p.normal_mass * (normal_speed + c.restitution * p.relative_velocity);
            let accumulated = (p.normal_impulse + impulse).max(0.0);
            let applied = accumulated - p.normal_impulse;
            p.normal_impulse = accumulated;
            p.max_normal_impulse = p.max_normal_impulse.max(applied);
            let j = c.normal * applied;
            pair.apply(p, j);
        }
        pair.store(bodies, c);
    }
}

/// What a solver body's passes do not read: its inverse inertia and its
/// turn within the step (see [`integrate_positions`](super::integrate_positions)); kept parallel to the
/// solver bodies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct BodyTurn {
    /// 1 / rotational inertia about the centre of mass (1/(kg·m²)); 0 if fixed.
    pub inv_inertia: Real,
    /// The rotation since the start of the step as an accumulated angle
    /// (radians).
    pub delta_angle: Real,
}

/// Largest rotation of a body in one substep (radians), as Box2D's
/// `maxRotation`: a quarter turn at 4 substeps of a 60 Hz step is a spin of
/// 188 rad/s. A single sequential-impulse pass on a contact hit at an
/// extreme speed can leave a wild spin; turned through by more than this
/// within a substep, the contact anchors of the step would no longer mean
/// anything. Kinematic bodies (no inverse mass or inertia) are not capped.
pub const MAX_ROTATION_PER_SUBSTEP: Real = 0.25 * std::f32::consts::PI;
