//! [`clear_of`]: two world boxes that prove a contact pair has no contact,
//! so the narrowphase can pass over it without the shapes' query.
//!
//! A pair lives while its broadphase boxes overlap, and those are fat (a
//! margin, a stretch along the last motion, and slack before they shrink),
//! so a pair can outlast its contact by a long way: in a settled pyramid
//! of boxes two pairs in five are apart by half a metre. Each collider's
//! box from its last sweep (or its stored box) tells those apart with a
//! few comparisons.
//!
//! Invariant: [`clear_of`] is true only where the contact query with the
//! same margin returns nothing, so passing over changes no result (a test
//! checks it over boxes, polygons, capsules and discs at every scale).

use super::colliders_now::ColliderNow;
use super::handles::ColliderKey;
use super::pair_map::PairKey;
use super::swept_box::ShapeBoxes;
use crate::math::{Real, Vec2};

/// [`clear_of`] for a contact pair: each collider's world box from its last
/// sweep where the sweep ended at its pose now ([`ShapeBoxes::box_at`]),
/// else its proxy's stored box, which holds the shape too; false when a
/// collider has neither.
#[inline]
pub(crate) fn pair_is_clear(
    shape_boxes: &ShapeBoxes,
    (key_a, key_b): &PairKey,
    a: &ColliderNow,
    b: &ColliderNow,
    margin: Real,
) -> bool {
    let reach = |key: ColliderKey, now: &ColliderNow| {
        shape_boxes
            .box_at(key, &now.pose)
            .or_else(|| now.fat().map(|fat| (fat.min(), fat.max())))
    };
    match (reach(key_a.key, a), reach(key_b.key, b)) {
        (Some(box_a), Some(box_b)) => clear_of(box_a, box_b, margin),
        _ => false,
    }
}

/// Relative rounding allowed for in [`clear_of`]: twice the 1e-5 of the
/// coordinates that the box contact's closed form allows for its own.
const CLEAR_ROUNDING: Real = 2e-5;

/// True when two shapes whose world boxes are `a` and `b` (corners; any
/// boxes holding the shapes) are certainly farther apart than `margin`, so
/// a contact query with that margin finds nothing: the boxes are apart by
/// more than `margin` plus [`CLEAR_ROUNDING`] times their largest
/// coordinate, which covers the rounding of the boxes and of the queries'
/// own decisions. A NaN coordinate makes no gap.
#[inline(always)]
pub(crate) fn clear_of(a: (Vec2, Vec2), b: (Vec2, Vec2), margin: Real) -> bool {
    let ((a_min, a_max), (b_min, b_max)) = (a, b);
    // Most pairs asked are touching: within the margin on both axes.
    let within = b_min.x - a_max.x <= margin
        && a_min.x - b_max.x <= margin
        && b_min.y - a_max.y <= margin
        && a_min.y - b_max.y <= margin;
    !within && clear_beyond_rounding(a, b, margin)
}

/// The rest of [`clear_of`], for boxes apart by more than `margin` (or
/// with a NaN coordinate, which makes no gap).
#[inline(never)]
fn clear_beyond_rounding(a: (Vec2, Vec2), b: (Vec2, Vec2), margin: Real) -> bool {
    let ((a_min, a_max), (b_min, b_max)) = (a, b);
    let gaps = [
        b_min.x - a_max.x,
        a_min.x - b_max.x,
        b_min.y - a_max.y,
        a_min.y - b_max.y,
    ];
    let gap = gaps
        .into_iter()
        .fold(0.0, |g: Real, x| if x > g { x } else { g });
    let magnitude = [a_min, a_max, b_min, b_max]
        .iter()
        .fold(0.0, |m: Real, p| m.max(p.x.abs()).max(p.y.abs()));
    gap > margin + CLEAR_ROUNDING * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Pose, vec2};
    use crate::query::contact_with_margin;
    use crate::shape::{Capsule, Circle, ConvexPolygon, OrientedRect, Shape};
    use crate::world::settings::SPECULATIVE_DISTANCE;
    use crate::world::swept_box::world_box;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    /// Boxes, polygons, capsules and discs of 1 cm to 10 m.
    fn shape() -> impl Strategy<Value = Shape> {
        let size = || (-2.0f32..1.0).prop_map(|e| 10f32.powf(e));
        (0..4usize, size(), size(), 3..9usize).prop_map(|(kind, w, h, n)| match kind {
            0 => Shape::from(OrientedRect::new(vec2(0.0, 0.0), vec2(w, h), 0.3).unwrap()),
            1 => {
                let corners: Vec<Vec2> = (0..n)
                    .map(|k| {
                        let t = k as Real * std::f32::consts::TAU / n as Real;
                        vec2(w * t.cos(), h * t.sin())
                    })
                    .collect();
                Shape::from(ConvexPolygon::new(&corners).unwrap())
            }
            2 => Shape::from(Capsule::new(vec2(-w, 0.0), vec2(w, 0.0), h).unwrap()),
            _ => Shape::from(Circle::new(vec2(0.0, 0.0), w).unwrap()),
        })
    }

    /// Wherever `clear_of` passes over a pair, the contact query with the
    /// same margin (the speculative distance, or 0 for sensors) finds
    /// nothing, from the origin to 100 km out; and it passes over a fair
    /// share of the pairs (B is placed within a few sizes of A).
    #[test]
    fn clear_of_passes_over_no_contact() {
        let far = prop_oneof![Just(0.0f32), 1.0f32..5.0].prop_map(|e| 10f32.powf(e));
        let case = (
            (shape(), shape()),
            (far, -1.0f32..1.0, -1.0f32..1.0),
            (-3.0f32..3.0, -3.0f32..3.0),
            (-3.2f32..3.2, -3.2f32..3.2),
            prop_oneof![Just(SPECULATIVE_DISTANCE), Just(0.0)],
        );
        let mut runner = TestRunner::deterministic();
        let (mut clear, cases) = (0, 20_000);
        for _ in 0..cases {
            let ((a, b), (far, ux, uy), (dx, dy), (angle_a, angle_b), margin) =
                case.new_tree(&mut runner).unwrap().current();
            let origin = vec2(ux, uy) * far;
            let reach = a.bounding_radius() + b.bounding_radius();
            let pose_a = Pose::new(origin, angle_a);
            let pose_b = Pose::new(origin + vec2(dx, dy) * reach, angle_b);
            if clear_of(world_box(&a, &pose_a), world_box(&b, &pose_b), margin) {
                clear += 1;
                let contact = contact_with_margin(&a, &pose_a, &b, &pose_b, margin);
                assert!(
                    contact.is_none(),
                    "{a:?} at {pose_a:?}, {b:?} at {pose_b:?}"
                );
            }
        }
        assert!(clear > cases / 4, "{clear} of {cases} clear");
    }

    #[test]
    fn boxes_within_the_margin_or_with_nan_are_not_clear() {
        let unit = (vec2(0.0, 0.0), vec2(1.0, 1.0));
        let at = |x: Real| (vec2(x, 0.0), vec2(x + 1.0, 1.0));
        assert!(!clear_of(unit, at(1.01), 0.02));
        assert!(clear_of(unit, at(1.03), 0.02));
        assert!(!clear_of(unit, at(0.5), 0.0));
        assert!(!clear_of(unit, at(Real::NAN), 0.02));
        // 1e5 m out, the rounding allowed is 2 m.
        let far = |x: Real| (vec2(1e5 + x, 0.0), vec2(1e5 + x + 1.0, 1.0));
        assert!(!clear_of(far(0.0), far(1.03), 0.02));
        assert!(!clear_of(far(0.0), far(2.5), 0.02));
        assert!(clear_of(far(0.0), far(4.0), 0.02));
    }
}
