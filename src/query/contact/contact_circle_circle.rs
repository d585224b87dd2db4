//! Contact between two discs (a point is a disc of radius 0).

use super::clip::{sanitize_margin, unit, vertex_feature};
use super::convex_manifold::{ConvexManifold, point_manifold};
use super::{ContactPoint, FeatureId, Manifold};
use crate::math::{Real, Vec2, vec2};

/// The contact between disc A (world centre `center_a`, radius `radius_a` in
/// metres) and disc B, if their surfaces are at most `margin` metres apart.
///
/// The normal runs from centre A to centre B; when the centres coincide it is
/// `+x` (any direction is a minimum translation then). One point, feature ids
/// `(vertex 0, vertex 0)`. Radii may be 0 (points).
pub fn contact_circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<Manifold> {
    circle_circle(center_a, radius_a, center_b, radius_b, margin).map(|m| m.into_manifold())
}

/// The one point of [`contact_circle_circle`] and its normal (world), if
/// the discs are within `margin`: the same values, without a manifold.
#[inline(always)]
pub(crate) fn contact_circle_circle_point(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<(Vec2, ContactPoint)> {
    circle_circle(center_a, radius_a, center_b, radius_b, margin)
        .map(|m| (m.normal, m.points()[0].expand()))
}

/// Relative rounding slack of [`apart_room`]: times the magnitude of the
/// discs (how far from the world origin they reach, and the margin). The
/// distance of two centres, each placed in the world with a few ulps of
/// that magnitude, and the difference with the radii round by a few ulps
/// more: 1e-5 covers them a hundred times over.
const ROOM_SLACK: Real = 1e-5;

/// How much nearer discs A and B, found apart by [`contact_circle_circle`]
/// with `margin`, may come (metres, the sum of both centres' and radii's
/// changes) before they can come within the margin, less a slack for the
/// rounding of the distance then and now: while they have come nearer by
/// at most this, the contact is still `None`. Negative (no promise) when
/// they are within the margin or a value is not a number.
#[inline]
pub(crate) fn apart_room(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Real {
    let margin = sanitize_margin(margin);
    let gap = (center_b - center_a).norm() - radius_a - radius_b;
    let magnitude = center_a.x.abs()
        + center_a.y.abs()
        + center_b.x.abs()
        + center_b.y.abs()
        + radius_a
        + radius_b
        + margin;
    let room = gap - margin - ROOM_SLACK * magnitude;
    // NaN anywhere: no promise.
    if room >= 0.0 { room } else { -1.0 }
}

/// The share of the reach (radii plus margin) by which the centres'
/// distance must clear it for [`circle_circle`] to decide from the squared
/// distance. The exact test, `ra + rb − √d² < −margin`, rounds the root and
/// the difference by an ulp each, the squared bound its product and square
/// by a few more: a few parts in 10⁷ of the reach, which this covers thirty
/// times over, so both give the same answer.
const DECIDED_SHARE: Real = 1e-5;

/// Reaches whose squared bounds are normal numbers, neither flushed towards
/// zero nor overflowing: outside, and for a reach that is not a number, the
/// exact test alone decides.
const MIN_DECIDED_REACH: Real = 1e-15;
const MAX_DECIDED_REACH: Real = 1e15;

#[inline(always)]
fn square(x: Real) -> Real {
    x * x
}

#[inline(always)]
fn circle_circle(
    center_a: Vec2,
    radius_a: Real,
    center_b: Vec2,
    radius_b: Real,
    margin: Real,
) -> Option<ConvexManifold> {
    let margin = sanitize_margin(margin);
    let offset = center_b - center_a;
    let squared = offset.norm_squared();
    // Decided from the squared distance when it is clear of the reach:
    // the answer of the test below, without waiting for the root.
    let reach = radius_a + radius_b + margin;
    let decides = (MIN_DECIDED_REACH..=MAX_DECIDED_REACH).contains(&reach);
    if decides && squared > square(reach * (1.0 + DECIDED_SHARE)) {
        return None;
    }
    let distance = squared.sqrt();
    let clearly_near = decides && squared < square(reach * (1.0 - DECIDED_SHARE));
    if !clearly_near && radius_a + radius_b - distance < -margin {
        return None;
    }
    let normal = unit(offset).unwrap_or(vec2(1.0, 0.0));
    let id = FeatureId::new(vertex_feature(0), vertex_feature(0));
    Some(point_manifold(
        normal, center_a, radius_a, center_b, radius_b, distance, id,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A unit vector at `angle` (radians).
    fn toward(angle: Real) -> Vec2 {
        vec2(angle.cos(), angle.sin())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]

        /// Discs found apart stay apart while their centres and radii
        /// change by no more than the room in all: moved straight at each
        /// other and grown (the worst case), or by a share of the room in
        /// any direction. The room is the gap beyond the margin, less a
        /// slack that is small beside it.
        #[test]
        fn discs_stay_apart_within_their_room(
            center_a in (-3000.0f32..3000.0, -3000.0f32..3000.0),
            radii in (0.0f32..5.0, 0.0f32..5.0),
            angle in 0.0f32..std::f32::consts::TAU,
            beyond in 0.0f32..0.5,
            margin in 0.0f32..0.1,
            shares in (0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0, 0.0f32..1.0),
            turns in (0.0f32..std::f32::consts::TAU, 0.0f32..std::f32::consts::TAU),
        ) {
            let (radius_a, radius_b) = radii;
            let center_a = vec2(center_a.0, center_a.1);
            let axis = toward(angle);
            let center_b = center_a + axis * (radius_a + radius_b + margin + beyond);
            prop_assume!(contact_circle_circle(center_a, radius_a, center_b, radius_b, margin).is_none());
            let room = apart_room(center_a, radius_a, center_b, radius_b, margin);
            let magnitude = center_a.abs().sum() + center_b.abs().sum() + radius_a + radius_b + margin;
            // Not much less than the gap beyond the margin.
            let measured = (center_b - center_a).norm() - radius_a - radius_b - margin;
            prop_assert!(room <= measured);
            if measured > 3.0 * ROOM_SLACK * magnitude {
                prop_assert!(room >= measured - 2.0 * ROOM_SLACK * magnitude, "room {} of {}", room, measured);
            }
            if room < 0.0 {
                // No promise to check (far from the origin the slack may
                // exceed a thin gap).
                return Ok(());
            }
            // Straight at each other, and both grown, the room split four ways.
            let (s0, s1, s2, s3) = shares;
            let total = (s0 + s1 + s2 + s3).max(1e-6);
            let part = |s: Real| room * s / total;
            let (a, b) = (center_a + axis * part(s0), center_b - axis * part(s1));
            let (ra, rb) = (radius_a + part(s2), radius_b + part(s3));
            prop_assert!(contact_circle_circle(a, ra, b, rb, margin).is_none(), "worst case");
            // Any directions, a share of the room each.
            let (a, b) = (center_a + toward(turns.0) * part(s0), center_b + toward(turns.1) * part(s1));
            let (ra, rb) = (radius_a - part(s2).min(radius_a), radius_b + part(s3));
            prop_assert!(contact_circle_circle(a, ra, b, rb, margin).is_none(), "any directions");
        }
    }

    /// The test the squared distance stands in for, written out alone:
    /// the root first, then `ra + rb − distance < −margin`.
    fn circle_circle_by_root(
        center_a: Vec2,
        radius_a: Real,
        center_b: Vec2,
        radius_b: Real,
        margin: Real,
    ) -> Option<Manifold> {
        let margin = sanitize_margin(margin);
        let offset = center_b - center_a;
        let distance = offset.norm();
        if radius_a + radius_b - distance < -margin {
            return None;
        }
        let normal = unit(offset).unwrap_or(vec2(1.0, 0.0));
        let id = FeatureId::new(vertex_feature(0), vertex_feature(0));
        Some(
            point_manifold(normal, center_a, radius_a, center_b, radius_b, distance, id)
                .into_manifold(),
        )
    }

    /// Both answers, bit for bit (NaN included).
    fn same_bits(found: Option<Manifold>, want: Option<Manifold>) -> bool {
        format!("{found:?}") == format!("{want:?}")
            && found.zip(want).is_none_or(|(f, w)| {
                let bits = |m: &Manifold| {
                    let p = &m.points[0];
                    [m.normal.x, m.normal.y, p.point.x, p.point.y, p.depth].map(Real::to_bits)
                };
                bits(&f) == bits(&w)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Centres placed at the reach give or take a few parts in a
        /// million (both sides of the band the squared distance leaves to
        /// the root, and inside it), and anywhere: the same answer as the
        /// root's test, at every scale the squared bounds cover and beyond.
        #[test]
        fn the_squared_distance_decides_as_the_root_does(
            center_a in (-1.0e4f32..1.0e4, -1.0e4f32..1.0e4),
            radii in (0.0f32..1.0, 0.0f32..1.0),
            margin in prop_oneof![Just(0.0f32), 0.0f32..0.5],
            scale_exponent in -22i32..22,
            angle in 0.0f32..std::f32::consts::TAU,
            off in prop_oneof![-3.0e-5f32..3.0e-5, -1.0e-6f32..1.0e-6, -1.0f32..1.0],
        ) {
            let scale = (2.0 as Real).powi(scale_exponent);
            let (radius_a, radius_b) = (radii.0 * scale, radii.1 * scale);
            let margin = margin * scale;
            let center_a = vec2(center_a.0, center_a.1) * scale.min(1.0);
            let reach = radius_a + radius_b + margin;
            let center_b = center_a + toward(angle) * (reach * (1.0 + off));
            let found = contact_circle_circle(center_a, radius_a, center_b, radius_b, margin);
            let want = circle_circle_by_root(center_a, radius_a, center_b, radius_b, margin);
            prop_assert!(same_bits(found.clone(), want.clone()), "{:?} against {:?}", found, want);
        }
    }

    #[test]
    fn extreme_and_not_a_number_inputs_decide_as_the_root_does() {
        let o = vec2(0.0, 0.0);
        let cases = [
            (o, 1.0, vec2(Real::NAN, 0.0), 1.0, 0.0),
            (o, Real::NAN, vec2(1.0, 0.0), 1.0, 0.0),
            (o, 1.0, vec2(1.0, 0.0), 1.0, Real::NAN),
            (o, 1.0, vec2(Real::INFINITY, 0.0), 1.0, 0.0),
            (o, Real::INFINITY, vec2(3.0, 0.0), 1.0, 0.0),
            (o, 1.0, vec2(3.0, 0.0), 1.0, Real::INFINITY),
            (o, 1e-30, vec2(1e-30, 0.0), 1e-30, 0.0),
            (o, 1e-30, vec2(3e-30, 0.0), 1e-30, 0.0),
            (o, 0.0, vec2(1e-40, 0.0), 0.0, 0.0),
            (o, 0.0, o, 0.0, 0.0),
            (o, 1e20, vec2(3e20, 0.0), 1e20, 0.0),
            (o, 1e20, vec2(1.5e20, 0.0), 1e20, 0.0),
            (vec2(-3e38, 0.0), 1.0, vec2(3e38, 0.0), 1.0, 0.0),
        ];
        for (a, ra, b, rb, m) in cases {
            let found = contact_circle_circle(a, ra, b, rb, m);
            let want = circle_circle_by_root(a, ra, b, rb, m);
            assert!(
                same_bits(found.clone(), want.clone()),
                "{a:?} {ra} {b:?} {rb} {m}: {found:?} against {want:?}"
            );
        }
    }

    #[test]
    fn discs_within_the_margin_or_not_a_number_have_no_room() {
        let origin = vec2(0.0, 0.0);
        assert!(apart_room(origin, 1.0, vec2(2.01, 0.0), 1.0, 0.02) < 0.0);
        assert!(apart_room(origin, 1.0, vec2(1.5, 0.0), 1.0, 0.02) < 0.0);
        assert!(apart_room(origin, Real::NAN, vec2(3.0, 0.0), 1.0, 0.02) < 0.0);
        assert!(apart_room(vec2(Real::NAN, 0.0), 1.0, vec2(3.0, 0.0), 1.0, 0.02) < 0.0);
        let room = apart_room(origin, 1.0, vec2(3.0, 0.0), 1.0, 0.02);
        assert!(room > 0.979 && room <= 0.98, "{room}");
    }

    #[test]
    fn overlapping_discs_touch_midway() {
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(0.0, 1.5), 1.0, 0.0).unwrap();
        assert!((m.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert_eq!(m.points.len(), 1);
        assert!((m.points[0].depth - 0.5).abs() < 1e-6);
        // Surfaces at y = 1 (A) and y = 0.5 (B): midway is 0.75.
        assert!((m.points[0].point - vec2(0.0, 0.75)).norm() < 1e-6);
    }

    #[test]
    fn touching_counts_and_margin_reaches_apart_pairs() {
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.0, 0.0), 2.0, 0.0).unwrap();
        assert_eq!(m.depth(), 0.0);
        assert!(contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, 0.0).is_none());
        let m = contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, 0.5).unwrap();
        assert!((m.depth() + 0.5).abs() < 1e-6);
        assert!(
            contact_circle_circle(vec2(0.0, 0.0), 1.0, vec2(3.5, 0.0), 2.0, f32::NAN).is_none()
        );
    }

    #[test]
    fn coincident_centres_push_along_x_without_nan() {
        let m = contact_circle_circle(vec2(2.0, -1.0), 0.5, vec2(2.0, -1.0), 0.25, 0.0).unwrap();
        assert_eq!(m.normal, vec2(1.0, 0.0));
        assert!((m.depth() - 0.75).abs() < 1e-6);
        assert!(m.points[0].point.x.is_finite() && m.points[0].point.y.is_finite());
        // Two coincident points touch with depth 0.
        let m = contact_circle_circle(vec2(1.0, 1.0), 0.0, vec2(1.0, 1.0), 0.0, 0.0).unwrap();
        assert_eq!(m.depth(), 0.0);
    }
}
