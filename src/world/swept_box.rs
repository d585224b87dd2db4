//! Swept boxes: the world box a collider's proxy stores after a step (its
//! shape over the whole step, grown by [`SPECULATIVE_DISTANCE`]).
//!
//! Over a sweep the box covers the start and end boxes, and, for a spinning
//! body, the disc every point stays in (the reach of the collider about the
//! centre of mass, along the centre's path). A body that turns by at most
//! half a turn gets the smaller of that box and the start and end boxes
//! grown by the *sagitta* of its turn (see [`arc_growth`]): a box resting in
//! a pile turns by a few millionths of a radian a step, and the disc would
//! give it a proxy as wide as its diagonal. The boxes are built as corner
//! arrays and checked together; a disc collider's box is computed in plain
//! `f32` arithmetic that repeats nalgebra's operations in order, so every box
//! is the same to the bit as one built by `Shape::world_aabb`,
//! `Bounds::new`, `inflated` and `union` (locked by the tests below).
//!
//! [`ShapeBoxes`] remembers, per collider, its shape's bounding radius and
//! the end box of its last sweep with the pose it was built for: when a body
//! starts a step where it ended the last one (the usual case), the start box
//! is that end box, bit for bit, and is not built again.

use super::Collider;
use super::handles::{ColliderKey, key_slot, key_version};
use super::settings::SPECULATIVE_DISTANCE;
use super::sweep::{Sweep, spins_in_place};
use crate::broadphase::Bounds;
use crate::math::{Pose, Real, Vec2};
use crate::shape::Shape;

/// The tight box a proxy stores for `shape` at `pose`: its world box grown
/// by the speculative distance; `None` if it is not finite.
pub(crate) fn proxy_bounds(shape: &Shape, pose: &Pose) -> Option<Bounds> {
    let (min, max) = world_box(shape, pose);
    grown_box(min, max, SPECULATIVE_DISTANCE)
}

/// A collider's swept box of a step and its box at the step's end (both
/// world, grown by the speculative distance): the proxy's new tight box,
/// and where the write-back measures how far the collider may move before
/// its proxy needs a look again (`proxy_keep.rs`). `end` is the box
/// [`proxy_bounds`] builds at the end pose, bit for bit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SweptBox {
    pub bounds: Bounds,
    pub end: Bounds,
}

/// Corners of `shape`'s world box at `pose`: [`Shape::world_aabb`], with
/// circles (the common case) computed inline by the same expressions.
#[inline]
pub(crate) fn world_box(shape: &Shape, pose: &Pose) -> (Vec2, Vec2) {
    match shape {
        Shape::Circle(circle) => {
            // The box of one point grown by the scaled radius. For a NaN
            // centre world_aabb's min/max fold yields an infinite corner
            // where this yields NaN: both are refused by `grown_box`.
            let center = pose.transform_point(circle.center());
            let radius = circle.radius() * pose.scale;
            let reach = Vec2::new(radius, radius);
            (center - reach, center + reach)
        }
        _ => {
            let aabb = shape.world_aabb(pose);
            (aabb.min, aabb.max)
        }
    }
}

/// `Bounds::new(min, max)?.inflated(radius)` for a radius known to be
/// finite and ≥ 0 (see [`Corners`]).
#[inline]
fn grown_box(min: Vec2, max: Vec2, radius: Real) -> Option<Bounds> {
    Corners::grown(min, max, radius).checked(false)
}

/// The smaller of two values as nalgebra's `inf` picks it (`a` on a tie).
#[inline(always)]
fn least(a: Real, b: Real) -> Real {
    if a <= b { a } else { b }
}

/// The larger of two values as nalgebra's `sup` picks it (`a` on a tie).
#[inline(always)]
fn most(a: Real, b: Real) -> Real {
    if a >= b { a } else { b }
}

/// A box as `[min.x, min.y, max.x, max.y]` (world, metres), grown but not
/// yet checked: the sweep builds three and checks them together.
///
/// `Bounds::new(min, max)?.inflated(radius)` succeeds exactly when
/// `min <= max` and the grown corners are finite (a corner that is not
/// finite stays so when grown), which is what [`Corners::grown`] records and
/// [`Corners::checked`] tests.
#[derive(Clone, Copy)]
struct Corners {
    corners: [Real; 4],
    /// `min <= max` on both axes before growing (false for NaN).
    ordered: bool,
}

impl Corners {
    #[inline(always)]
    fn grown(min: Vec2, max: Vec2, radius: Real) -> Corners {
        Corners {
            corners: [
                min.x - radius,
                min.y - radius,
                max.x + radius,
                max.y + radius,
            ],
            ordered: min.x <= max.x && min.y <= max.y,
        }
    }

    /// This box grown by `radius` on every side (finite and ≥ 0).
    #[inline(always)]
    fn grown_by(&self, radius: Real) -> Corners {
        let c = &self.corners;
        Corners {
            corners: [c[0] - radius, c[1] - radius, c[2] + radius, c[3] + radius],
            ordered: self.ordered,
        }
    }

    /// The box both contain, given that both contain a common box (so that
    /// it is ordered when they are).
    #[inline(always)]
    fn intersection(&self, other: &Corners) -> Corners {
        self.merged(other, most, least)
    }

    /// The corners picked one by one from `self` and `other`: the lower
    /// ones by `lower`, the upper ones by `upper`.
    #[inline(always)]
    fn merged(
        &self,
        other: &Corners,
        lower: fn(Real, Real) -> Real,
        upper: fn(Real, Real) -> Real,
    ) -> Corners {
        let (a, b) = (&self.corners, &other.corners);
        Corners {
            corners: [
                lower(a[0], b[0]),
                lower(a[1], b[1]),
                upper(a[2], b[2]),
                upper(a[3], b[3]),
            ],
            ordered: self.ordered && other.ordered,
        }
    }

    /// Ordered, and every corner finite.
    #[inline(always)]
    fn valid(&self) -> bool {
        self.ordered && self.corners.iter().all(|c| c.is_finite())
    }

    /// The box both cover, as [`Bounds::union`] computes it (`self` first).
    #[inline(always)]
    fn union(&self, other: &Corners) -> Corners {
        self.merged(other, least, most)
    }

    /// The box, given that every box merged into it was valid (`valid` or
    /// `assume_valid`).
    #[inline(always)]
    fn checked(&self, assume_valid: bool) -> Option<Bounds> {
        if !(assume_valid || self.valid()) {
            return None;
        }
        let c = &self.corners;
        Bounds::new(Vec2::new(c[0], c[1]), Vec2::new(c[2], c[3])).ok()
    }
}

/// The box covering `collider` over a body's sweep (world, grown by the
/// speculative distance); `None` if it is not finite.
pub(crate) fn swept_bounds(collider: &Collider, sweep: &Sweep) -> Option<Bounds> {
    let start = world_box(&collider.shape, &sweep.start.compose(&collider.local_pose));
    let end = world_box(&collider.shape, &sweep.end.compose(&collider.local_pose));
    swept_from_boxes(
        collider,
        sweep,
        start,
        end,
        bounding_radius(&collider.shape),
    )
    .map(|swept| swept.bounds)
}

/// `Shape::bounding_radius`, a disc's inline.
#[inline]
pub(crate) fn bounding_radius(shape: &Shape) -> Real {
    match shape {
        Shape::Circle(circle) => circle.center().norm() + circle.radius(),
        shape => shape.bounding_radius(),
    }
}

/// [`swept_bounds`] given the corners of the collider's world boxes at the
/// start and the end of the sweep (not grown yet) and its shape's bounding
/// radius (local units).
#[inline]
fn swept_from_boxes(
    collider: &Collider,
    sweep: &Sweep,
    start: (Vec2, Vec2),
    end: (Vec2, Vec2),
    bounding_radius: Real,
) -> Option<SweptBox> {
    let start = Corners::grown(start.0, start.1, SPECULATIVE_DISTANCE);
    let end = Corners::grown(end.0, end.1, SPECULATIVE_DISTANCE);
    swept_box(collider, sweep, bounding_radius, start, end)
}

/// The swept box and end box from the start and end boxes (grown by the
/// speculative distance), `None` when either is not a valid box.
#[inline(always)]
fn swept_box(
    collider: &Collider,
    sweep: &Sweep,
    bounding_radius: Real,
    start: Corners,
    end: Corners,
) -> Option<SweptBox> {
    if !(start.valid() && end.valid()) {
        return None;
    }
    Some(SweptBox {
        bounds: spun(collider, sweep, bounding_radius, start, end)?,
        end: end.checked(true)?,
    })
}

/// The swept box from the start and end boxes (grown by the speculative
/// distance, valid): their union, and for a spinning body the smaller of
/// that union with the disc every point stays in ([`spin_disc`]) and, for
/// a turn of at most half a turn, the union grown by [`arc_growth`]. A
/// disc centred on the centre of mass turns in place: its path is its
/// centre's, and the union covers it as it covers a body that does not
/// turn. `None` if it is not finite.
#[inline(always)]
fn spun(
    collider: &Collider,
    sweep: &Sweep,
    bounding_radius: Real,
    start: Corners,
    end: Corners,
) -> Option<Bounds> {
    let ends = start.union(&end);
    if sweep.angle == 0.0 || spins_in_place(collider, sweep.local_center) {
        return ends.checked(true);
    }
    let reach = sweep.reach_with(collider, bounding_radius);
    let around = spin_disc(sweep, reach)?.union(&start).union(&end);
    match arc_growth(sweep.angle, reach) {
        // Both contain the start box, so the intersection is ordered, and
        // the finite disc box bounds any corner the growth overflowed; it
        // is checked all the same.
        Some(sagitta) => ends.grown_by(sagitta).intersection(&around).checked(false),
        None => around.checked(true),
    }
}

/// Spinning: every point of the collider stays within `reach` (its reach
/// about the centre of mass, m) of the centre of mass, which moves on the
/// segment center0 → center1. The box of that, grown by the speculative
/// distance; `None` if it is not finite.
#[inline(always)]
fn spin_disc(sweep: &Sweep, reach: Real) -> Option<Corners> {
    let grow = reach + SPECULATIVE_DISTANCE;
    if grow.is_nan() || grow < 0.0 {
        return None; // (an infinite one fails below)
    }
    let low = sweep.center0.inf(&sweep.center1);
    let high = sweep.center0.sup(&sweep.center1);
    let disc = Corners::grown(low, high, grow);
    disc.valid().then_some(disc)
}

/// Relative widening of the sagitta bound, for the rounding of its own
/// three products (about 10⁴ ulps: far more than needed). The rounding of
/// the poses along the sweep is not the sagitta's to cover: like every
/// swept box, this one is grown by the speculative distance, of which
/// that rounding takes a few micrometres at the coordinates of a scene.
const SAGITTA_SLACK: Real = 1.0e-3;

/// How far (m) any point of a collider within `reach` of its centre of
/// mass strays from the straight segment between its start and end
/// positions while the body turns by `angle` (|angle| ≤ π) and its centre
/// moves on a straight segment at a constant rate; `None` for a larger
/// turn, a NaN, or a bound that is not finite and ≥ 0.
///
/// Write a point's position at fraction `t` of the step as the centre's
/// `c(t)` plus its offset `a(t)` from the centre, which turns at a constant
/// rate on a circle of radius `r ≤ reach`. Both `c` and the chord point
/// `(1 − t) p(0) + t p(1)` move linearly in `t`, so the centre's motion
/// cancels: the point's distance from the same fraction of its chord is
/// that of `a(t)` from `(1 − t) a(0) + t a(1)`. For a turn of at most π
/// that distance is largest half way, where it is the sagitta
/// `r (1 − cos(|angle| / 2))`, itself at most `r angle² / 8` (as
/// `1 − cos x ≤ x² / 2`: the same for small turns, a quarter more at half
/// a turn, with no cancellation and no transcendental function). The
/// chord lies in the union of the start and end boxes, which hold both of
/// its ends.
#[inline(always)]
pub(crate) fn arc_growth(angle: Real, reach: Real) -> Option<Real> {
    let turn = angle.abs();
    // NaN is no turn of at most π either.
    if turn.is_nan() || turn > std::f32::consts::PI {
        return None;
    }
    let sagitta = 0.125 * reach * turn * turn * (1.0 + SAGITTA_SLACK);
    (sagitta >= 0.0 && sagitta.is_finite()).then_some(sagitta)
}

/// What [`ShapeBoxes`] keeps for one collider.
#[derive(Clone, Copy, Debug)]
struct ShapeBox {
    /// Version of the collider key it is for (0: an empty slot).
    version: u32,
    /// `Shape::bounding_radius` of the collider's shape (local units).
    bounding_radius: Real,
    /// The collider's world pose at the end of its last sweep and its world
    /// box there (corners, not grown).
    end: Option<(Pose, Vec2, Vec2)>,
}

/// Per collider (by key slot): its shape's bounding radius and its last end
/// box, kept from step to step. Not part of the state; an empty one (a
/// clone's) only means building the boxes again.
#[derive(Debug, Default)]
pub(crate) struct ShapeBoxes {
    entries: Vec<ShapeBox>,
}

impl ShapeBoxes {
    /// [`swept_bounds`] of the collider with key `key`, whose world pose at
    /// the start of the sweep is `start_pose`: the start box is the last end
    /// box when that was built for the same pose (bit for bit), so it is the
    /// box `world_box` would build. The end box is remembered for the next step.
    pub fn swept_bounds(
        &mut self,
        key: ColliderKey,
        collider: &Collider,
        sweep: &Sweep,
        start_pose: &Pose,
    ) -> Option<SweptBox> {
        let start = self
            .box_at(key, start_pose)
            .unwrap_or_else(|| world_box(&collider.shape, start_pose));
        let slot = key_slot(key);
        if slot >= self.entries.len() {
            let empty = ShapeBox {
                version: 0,
                bounding_radius: 0.0,
                end: None,
            };
            self.entries.resize(slot + 1, empty);
        }
        let entry = &mut self.entries[slot];
        if entry.version != key_version(key) {
            *entry = ShapeBox {
                version: key_version(key),
                bounding_radius: collider.shape.bounding_radius(),
                end: None,
            };
        }
        let end_pose = sweep.end.compose(&collider.local_pose);
        let end = world_box(&collider.shape, &end_pose);
        entry.end = Some((end_pose, end.0, end.1));
        swept_from_boxes(collider, sweep, start, end, entry.bounding_radius)
    }

    /// The world box (corners, not grown) of the collider with key `key` at
    /// world pose `pose`, if its last sweep ended there (bit for bit): the
    /// box `world_box` builds, without building it. `None` otherwise, and
    /// for a collider never swept (static ones and discs).
    #[inline]
    pub fn box_at(&self, key: ColliderKey, pose: &Pose) -> Option<(Vec2, Vec2)> {
        let entry = self.entries.get(key_slot(key))?;
        match entry.end {
            Some((end_pose, min, max))
                if entry.version == key_version(key) && same_bits(&end_pose, pose) =>
            {
                Some((min, max))
            }
            _ => None,
        }
    }
}

/// The two poses hold the same bits (so anything computed from them is equal).
#[inline]
fn same_bits(a: &Pose, b: &Pose) -> bool {
    let (ra, rb) = (a.rotation.complex(), b.rotation.complex());
    [ra.re, ra.im, a.translation.x, a.translation.y, a.scale]
        .iter()
        .zip([rb.re, rb.im, b.translation.x, b.translation.y, b.scale])
        .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// [`swept_bounds`] of a disc collider (`circle`) whose world centre and
/// radius at the start of the sweep are known, in plain `f32` arithmetic:
/// every product and sum is the one nalgebra's `UnitComplex` and vector
/// operators perform, in the same order, so the box is the same to the bit
/// (a test holds the two together).
#[inline]
pub(crate) fn circle_swept_bounds(
    collider: &Collider,
    circle: &crate::shape::Circle,
    sweep: &Sweep,
    start_center: Vec2,
    start_radius: Real,
) -> Option<SweptBox> {
    let spec = SPECULATIVE_DISTANCE;
    // The collider's pose at the end: end ∘ local.
    let (end, local) = (&sweep.end, &collider.local_pose);
    let (er, lr) = (end.rotation.complex(), local.rotation.complex());
    let (re, im) = (er.re * lr.re - er.im * lr.im, er.re * lr.im + er.im * lr.re);
    let (vx, vy) = (
        local.translation.x * end.scale,
        local.translation.y * end.scale,
    );
    let tx = end.translation.x + (er.re * vx - er.im * vy);
    let ty = end.translation.y + (er.im * vx + er.re * vy);
    let scale = end.scale * local.scale;
    // Its centre and radius there.
    let (ux, uy) = (circle.center().x * scale, circle.center().y * scale);
    let cx = tx + (re * ux - im * uy);
    let cy = ty + (im * ux + re * uy);
    let radius = circle.radius() * scale;
    let start = Corners::grown(
        Vec2::new(start_center.x - start_radius, start_center.y - start_radius),
        Vec2::new(start_center.x + start_radius, start_center.y + start_radius),
        spec,
    );
    let end = Corners::grown(
        Vec2::new(cx - radius, cy - radius),
        Vec2::new(cx + radius, cy + radius),
        spec,
    );
    swept_box(
        collider,
        sweep,
        bounding_radius(&collider.shape),
        start,
        end,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::shape::Circle;
    use crate::world::scenes::jitter;

    fn bits(v: Vec2) -> (u32, u32) {
        (v.x.to_bits(), v.y.to_bits())
    }

    #[test]
    fn circle_boxes_are_world_aabb_bit_for_bit() {
        for i in 0..5_000u32 {
            let value = |k: u32, range: Real| (jitter(8 * i + k) - 0.5) * range;
            let circle =
                Circle::new(vec2(value(0, 4.0), value(1, 4.0)), 0.01 + jitter(8 * i + 2)).unwrap();
            let scale = 0.1 + 3.0 * jitter(8 * i + 3);
            let pose = Pose::new(vec2(value(4, 2000.0), value(5, 2000.0)), value(6, 20.0))
                .with_scale(scale);
            let shape = Shape::from(circle);
            let (min, max) = world_box(&shape, &pose);
            let aabb = shape.world_aabb(&pose);
            assert_eq!(
                (bits(min), bits(max)),
                (bits(aabb.min), bits(aabb.max)),
                "case {i}"
            );
        }
    }

    /// The swept box as first written: every box through `Bounds::new` and
    /// `inflated`, unions by `Bounds::union`.
    fn reference_swept_bounds(collider: &Collider, sweep: &Sweep) -> Option<Bounds> {
        let proxy = |pose: &Pose| {
            let aabb = collider
                .shape
                .world_aabb(&pose.compose(&collider.local_pose));
            Bounds::new(aabb.min, aabb.max)
                .ok()?
                .inflated(SPECULATIVE_DISTANCE)
                .ok()
        };
        let (start, end) = (proxy(&sweep.start)?, proxy(&sweep.end)?);
        // A disc centred on the centre of mass turns in place.
        if sweep.angle == 0.0 || spins_in_place(collider, sweep.local_center) {
            return Some(start.union(&end));
        }
        let reach = sweep.collider_reach(collider);
        let low = sweep.center0.inf(&sweep.center1);
        let high = sweep.center0.sup(&sweep.center1);
        let disc = Bounds::new(low, high)
            .ok()?
            .inflated(reach + SPECULATIVE_DISTANCE)
            .ok()?;
        let around = disc.union(&start).union(&end);
        let turn = sweep.angle.abs();
        if turn.is_nan() || turn > std::f32::consts::PI {
            return Some(around);
        }
        let sagitta = 0.125 * reach * turn * turn * (1.0 + SAGITTA_SLACK);
        let ends = start.union(&end).inflated(sagitta).ok()?;
        Bounds::new(ends.min().sup(&around.min()), ends.max().inf(&around.max())).ok()
    }

    /// Every swept box holds the shape's world box, grown by the
    /// speculative distance less a rounding allowance of 0.1 mm, at every
    /// pose of the sweep (sampled at 65 fractions): for circles off the
    /// centre of mass and polygons, on scaled local poses of scaled bodies,
    /// turning by up to two turns (the sagitta bound for turns within half
    /// a turn, the disc for larger ones), and for the worst case of the
    /// sagitta: a small disc far off the centre whose arc is symmetric
    /// about an axis, so that its middle sets the box's edge.
    #[test]
    fn swept_boxes_hold_the_shape_all_along_the_sweep() {
        use crate::shape::ConvexPolygon;
        let holds = |case: &str, collider: &Collider, sweep: &Sweep| {
            let swept = swept_bounds(collider, sweep).unwrap();
            for k in 0..=64 {
                let pose = sweep
                    .pose_at(k as Real / 64.0)
                    .compose(&collider.local_pose);
                let aabb = collider.shape.world_aabb(&pose);
                let grown = Bounds::new(aabb.min, aabb.max)
                    .unwrap()
                    .inflated(SPECULATIVE_DISTANCE - 1.0e-4)
                    .unwrap();
                assert!(
                    swept.contains(&grown),
                    "{case} at {k}/64: {swept:?} does not hold {grown:?}"
                );
            }
            swept
        };
        let mut tight = 0;
        for i in 0..4_000u32 {
            let value = |k: u32, range: Real| (jitter(16 * i + k) - 0.5) * range;
            let shape = if i % 2 == 0 {
                Shape::from(ConvexPolygon::rectangle(vec2(-0.5, -0.3), vec2(0.7, 0.4)).unwrap())
            } else {
                Shape::from(Circle::new(vec2(value(0, 2.0), value(1, 2.0)), 0.2).unwrap())
            };
            let local = Pose::new(vec2(value(2, 1.0), value(3, 1.0)), value(4, 6.0))
                .with_scale(0.5 + jitter(16 * i + 14));
            let collider = collider(shape, local);
            let start = Pose::new(vec2(value(5, 50.0), value(6, 50.0)), value(7, 6.0))
                .with_scale(0.5 + jitter(16 * i + 8));
            // Turns from a few millionths of a radian to two turns.
            let angle = match i % 4 {
                0 => value(9, 1.0e-4),
                1 => value(9, 0.5),
                2 => value(9, 2.0 * std::f32::consts::PI),
                _ => value(9, 8.0 * std::f32::consts::PI),
            };
            let local_center = vec2(value(10, 0.6), value(11, 0.6));
            let sweep = sweep_from(
                start,
                local_center,
                angle,
                vec2(value(12, 2.0), value(13, 2.0)),
            );
            let swept = holds(&format!("case {i}"), &collider, &sweep);
            let disc = sweep.collider_reach(&collider) + SPECULATIVE_DISTANCE;
            tight += usize::from(swept.max().x - swept.min().x < 2.0 * disc);
        }
        assert!(
            tight > 1_000,
            "the sagitta bound is tighter than the disc ({tight})"
        );
        let disc = Shape::from(Circle::new(vec2(0.0, 0.0), 0.01).unwrap());
        for offset in [0.5, 1.0, 3.0] {
            let collider = collider(disc.clone(), Pose::from_translation(vec2(offset, 0.0)));
            for turn in [0.25, 1.0, 2.0, 3.0, std::f32::consts::PI] {
                for axis in 0..4 {
                    for sign in [1.0, -1.0] {
                        let middle = axis as Real * std::f32::consts::FRAC_PI_2;
                        let start = Pose::new(vec2(3.0, -2.0), middle - sign * 0.5 * turn);
                        // The centre still or moving across the axis:
                        // nothing but the sagitta widens the box there.
                        let across = vec2(-middle.sin(), middle.cos()) * 0.3;
                        let sweep = sweep_from(start, Vec2::zeros(), sign * turn, across);
                        let case = format!("offset {offset}, turn {}, axis {axis}", sign * turn);
                        holds(&case, &collider, &sweep);
                    }
                }
            }
        }
        // Discs centred on the centre of mass (on scaled, turned and moved
        // local poses) turn in place: the box of their ends holds them.
        for i in 0..2_000u32 {
            let value = |k: u32, range: Real| (jitter(8 * i + k) - 0.5) * range;
            let center = vec2(value(0, 2.0), value(1, 2.0));
            let disc = Shape::from(Circle::new(center, 0.05 + jitter(8 * i + 2)).unwrap());
            let local = Pose::new(vec2(value(3, 1.0), value(4, 1.0)), value(5, 6.0))
                .with_scale(0.5 + jitter(8 * i + 6));
            let collider = collider(disc, local);
            let start = Pose::new(vec2(value(7, 50.0), value(0, 50.0)), value(1, 6.0));
            let angle = value(2, 8.0 * std::f32::consts::PI);
            let sweep = sweep_from(
                start,
                local.transform_point(center),
                angle,
                vec2(value(3, 2.0), value(4, 2.0)),
            );
            holds(&format!("disc in place {i}"), &collider, &sweep);
        }
    }

    /// The corner bits of a swept box, once its end box has been checked
    /// to be [`proxy_bounds`] at the sweep's end, bit for bit.
    fn swept_bits(swept: Option<SweptBox>, collider: &Collider, sweep: &Sweep) -> Option<[u32; 4]> {
        if let Some(swept) = swept {
            let end = proxy_bounds(&collider.shape, &sweep.end.compose(&collider.local_pose));
            assert_eq!(corner_bits(Some(swept.end)), corner_bits(end), "end box");
        }
        corner_bits(swept.map(|swept| swept.bounds))
    }

    fn corner_bits(bounds: Option<Bounds>) -> Option<[u32; 4]> {
        bounds.map(|b| {
            let (min, max) = (bits(b.min()), bits(b.max()));
            [min.0, min.1, max.0, max.1]
        })
    }

    /// A collider of `shape` on no body in particular.
    fn collider(shape: Shape, local_pose: Pose) -> Collider {
        Collider {
            body: crate::world::BodyHandle {
                key: Default::default(),
                world: crate::world::handles::WorldId::fresh(),
            },
            shape: std::sync::Arc::new(shape),
            local_pose,
            material: Default::default(),
            filter: Default::default(),
            sensor: false,
            user_data: 0,
            proxy: None,
        }
    }

    /// A body's sweep from `start`, its centre of mass moving by
    /// `displacement` while it turns by `angle`, as the solver writes it.
    fn sweep_from(start: Pose, local_center: Vec2, angle: Real, displacement: Vec2) -> Sweep {
        let center0 = start.transform_point(local_center);
        let center1 = center0 + displacement;
        let end_rotation = crate::math::Rot2::new(angle) * start.rotation;
        Sweep {
            key: Default::default(),
            start,
            end: Pose {
                rotation: end_rotation,
                translation: center1 - end_rotation * (local_center * start.scale),
                scale: start.scale,
            },
            center0,
            center1,
            angle,
            local_center,
            moving: true,
            velocity0: Vec2::zeros(),
            spin0: 0.0,
        }
    }

    #[test]
    fn swept_boxes_are_the_reference_bit_for_bit() {
        use crate::math::Rot2;
        use crate::shape::ConvexPolygon;
        let mut keys: slotmap::SlotMap<ColliderKey, ()> = slotmap::SlotMap::with_key();
        let (mut spinning, mut in_place) = (0, 0);
        for i in 0..10_000u32 {
            let value = |k: u32, range: Real| (jitter(32 * i + k) - 0.5) * range;
            // Rotations a little off unit length, as stored ones drift.
            let rotation = |k: u32| {
                let (angle, stretch) = (value(k, 20.0), 1.0 + value(k + 1, 1.0e-4));
                Rot2::new_unchecked(nalgebra::Complex {
                    re: angle.cos() * stretch,
                    im: angle.sin() * stretch,
                })
            };
            let scale = 0.2 + 2.0 * jitter(32 * i + 2);
            let local = if i % 3 == 0 {
                Pose::IDENTITY
            } else {
                Pose {
                    rotation: rotation(3),
                    translation: vec2(value(5, 3.0), value(6, 3.0)),
                    scale: 0.5 + jitter(32 * i + 7),
                }
            };
            let circle = Circle::new(
                vec2(value(8, 2.0), value(9, 2.0)),
                0.05 + jitter(32 * i + 10),
            )
            .unwrap();
            let shape = if i % 5 == 4 {
                Shape::from(ConvexPolygon::regular(5, 0.7, value(11, 3.0)).unwrap())
            } else {
                Shape::from(circle)
            };
            let collider = collider(shape, local);
            let local_center = match collider.shape.as_ref() {
                // Some discs centred on the centre of mass: they turn in place.
                Shape::Circle(c) if i % 11 == 1 => local.transform_point(c.center()),
                _ if i % 2 == 0 => Vec2::zeros(),
                _ => vec2(value(12, 2.0), value(13, 2.0)),
            };
            let magnitude = if i % 7 == 0 { 1.0e5 } else { 200.0 };
            let start = Pose {
                rotation: rotation(14),
                translation: vec2(value(16, magnitude), value(17, magnitude)),
                scale,
            };
            // No turn, turns within half a turn, and up to two turns
            // either way (the disc alone).
            let angle = match i % 4 {
                0 => 0.0,
                1 => value(18, 8.0 * std::f32::consts::PI),
                _ => value(18, 2.0),
            };
            let sweep = sweep_from(
                start,
                local_center,
                angle,
                vec2(value(19, 1.0), value(20, 1.0)),
            );
            spinning += usize::from(angle != 0.0);
            in_place += usize::from(angle != 0.0 && i % 11 == 1 && i % 5 != 4);
            let want = corner_bits(reference_swept_bounds(&collider, &sweep));
            assert!(want.is_some(), "case {i}");
            assert_eq!(
                corner_bits(swept_bounds(&collider, &sweep)),
                want,
                "case {i}"
            );
            let placed = start.compose(&local);
            if let Shape::Circle(c) = collider.shape.as_ref() {
                let (center, radius) = (
                    placed.transform_point(c.center()),
                    placed.scale_length(c.radius()),
                );
                let fast = circle_swept_bounds(&collider, c, &sweep, center, radius);
                assert_eq!(swept_bits(fast, &collider, &sweep), want, "circle case {i}");
            } else {
                // Remembered boxes: the first sweep builds both boxes, the
                // next one starts where it ended (its start box is the
                // remembered one), a third one starts elsewhere.
                let mut boxes = ShapeBoxes::default();
                let key = keys.insert(());
                let got = boxes.swept_bounds(key, &collider, &sweep, &placed);
                assert_eq!(swept_bits(got, &collider, &sweep), want, "polygon case {i}");
                let next = sweep_from(
                    sweep.end,
                    local_center,
                    value(21, 2.0),
                    vec2(value(22, 1.0), 0.0),
                );
                let got = boxes.swept_bounds(key, &collider, &next, &next.start.compose(&local));
                let want = corner_bits(reference_swept_bounds(&collider, &next));
                assert_eq!(
                    swept_bits(got, &collider, &next),
                    want,
                    "polygon case {i}, continued"
                );
                let elsewhere = sweep_from(start, local_center, angle, Vec2::zeros());
                let got = boxes.swept_bounds(key, &collider, &elsewhere, &placed);
                let want = corner_bits(reference_swept_bounds(&collider, &elsewhere));
                assert_eq!(
                    swept_bits(got, &collider, &elsewhere),
                    want,
                    "polygon case {i}, moved"
                );
            }
        }
        assert!(spinning > 5_000);
        assert!(in_place > 500, "discs turning in place: {in_place}");
    }

    /// In a standing pyramid every box turns a little every step; its
    /// proxy stays about as wide as the box, so the only pairs kept are
    /// neighbours within the speculative margin (each with a manifold),
    /// not the diagonal neighbours the whole rotation disc reached.
    #[test]
    fn a_standing_pyramid_keeps_only_pairs_in_contact() {
        let settings = crate::world::WorldSettings {
            sleeping: false,
            ..Default::default()
        };
        let (mut world, boxes) = crate::world::scenes::pyramid(settings, 12, 1.0).unwrap();
        for _ in 0..120 {
            world.step(1.0 / 60.0).unwrap();
        }
        let turning = boxes
            .iter()
            .filter(|&&b| world.body(b).unwrap().angular_velocity() != 0.0)
            .count();
        assert!(turning > boxes.len() / 2, "the boxes turn ({turning})");
        let pairs = world.contacts.iter().count();
        let apart = world
            .contacts
            .iter()
            .filter(|(_, pair)| pair.manifold.is_none())
            .count();
        // 78 boxes: 66 stand on two each (132 pairs), 66 pairs side by
        // side, 12 boxes on the floor.
        assert_eq!((pairs, apart), (210, 0));
    }

    #[test]
    fn swept_boxes_that_are_not_finite_are_refused_like_the_reference() {
        let shape = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0).unwrap());
        let collider = collider(shape, Pose::IDENTITY);
        for (start_x, center1_x, angle) in [
            (Real::NAN, 0.0, 0.5),
            (0.0, Real::NAN, 0.5),
            (3.4e38, 0.0, 0.0),
            (0.0, 3.4e38, 0.5),
            (0.0, Real::INFINITY, 0.0),
        ] {
            let start = Pose::from_translation(vec2(start_x, 0.0));
            let sweep = Sweep {
                center1: vec2(center1_x, 0.0),
                end: Pose::from_translation(vec2(center1_x, 0.0)),
                angle,
                ..Sweep::frozen(Default::default(), start, Vec2::zeros())
            };
            let want = corner_bits(reference_swept_bounds(&collider, &sweep));
            assert_eq!(corner_bits(swept_bounds(&collider, &sweep)), want);
            let (center, radius) = (start.transform_point(Vec2::zeros()), start.scale);
            let Shape::Circle(c) = collider.shape.as_ref() else {
                unreachable!()
            };
            let fast = circle_swept_bounds(&collider, c, &sweep, center, radius);
            assert_eq!(swept_bits(fast, &collider, &sweep), want);
        }
    }

    #[test]
    fn boxes_that_overflow_are_refused() {
        let shape = Shape::from(Circle::new(vec2(0.0, 0.0), 1.0e38).unwrap());
        let far = Pose::from_translation(vec2(3.0e38, 0.0));
        assert_eq!(proxy_bounds(&shape, &far), None);
        let near = Pose::from_translation(vec2(1.0e38, 0.0));
        assert!(proxy_bounds(&shape, &near).is_some());
        assert_eq!(
            grown_box(vec2(1.0, 0.0), vec2(0.0, 0.0), 0.5),
            None,
            "inverted"
        );
        assert_eq!(grown_box(vec2(Real::NAN, 0.0), vec2(0.0, 0.0), 0.5), None);
    }
}
