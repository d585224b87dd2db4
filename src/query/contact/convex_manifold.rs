//! The manifold the convex pair functions compute: at most two points,
//! no circle-tree parts, in fixed slots. At 56 bytes it moves through the
//! pair functions, the frame change and the flip in registers or a few
//! stores; it becomes a [`Manifold`] once, when it is returned.

use super::{ContactPoint, FeatureId, Manifold};
use crate::math::{Real, Rot2, Vec2, is_finite_vec};
use smallvec::SmallVec;

/// One point of a [`ConvexManifold`]: [`ContactPoint`] without the parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ConvexPoint {
    /// Point midway between the two surfaces (frame coordinates, metres).
    pub point: Vec2,
    /// Penetration along the normal (metres); negative when apart.
    pub depth: Real,
    /// Which features touch.
    pub id: FeatureId,
}

/// A contact manifold of one or two points between convex cores, in the
/// frame the pair function ran in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ConvexManifold {
    /// Unit normal from A to B (frame coordinates).
    pub normal: Vec2,
    points: [ConvexPoint; 2],
    len: usize,
}

impl ConvexManifold {
    /// A manifold of `first` and, if given, `second`.
    pub(super) fn new(normal: Vec2, first: ConvexPoint, second: Option<ConvexPoint>) -> Self {
        ConvexManifold {
            normal,
            points: [first, second.unwrap_or(first)],
            len: if second.is_some() { 2 } else { 1 },
        }
    }

    /// The points, one or two.
    pub(super) fn points(&self) -> &[ConvexPoint] {
        &self.points[..self.len.min(2)]
    }

    /// The same manifold seen with A and B swapped (as [`Manifold::flipped`]).
    pub(super) fn flip(&mut self) {
        self.normal = -self.normal;
        for point in &mut self.points {
            point.id = point.id.flipped();
        }
    }

    /// Rotates the manifold by `rotation` and moves it by `translation`:
    /// from a rigid frame to the world.
    #[inline]
    pub(super) fn transform(&mut self, rotation: &Rot2, translation: Vec2) {
        self.normal = rotation * self.normal;
        for point in &mut self.points {
            point.point = translation + rotation * point.point;
        }
    }

    /// True when the normal and every point and depth are finite.
    pub(super) fn is_finite(&self) -> bool {
        is_finite_vec(self.normal)
            && self
                .points()
                .iter()
                .all(|p| is_finite_vec(p.point) && p.depth.is_finite())
    }

    /// The public form, built in place (no heap: its two points fill the
    /// inline slots).
    pub(super) fn into_manifold(self) -> Manifold {
        let first = self.points[0].expand();
        let second = self.points[1].expand();
        Manifold {
            normal: self.normal,
            points: SmallVec::from_buf_and_len([first, second], self.len.min(2)),
        }
    }

    /// Makes `out` the manifold [`Self::into_manifold`] gives (equal to it),
    /// rewriting an existing one in place rather than moving a whole new
    /// one in.
    pub(super) fn write_into(self, out: &mut Option<Manifold>) {
        let Some(manifold) = out else {
            *out = Some(self.into_manifold());
            return;
        };
        manifold.normal = self.normal;
        let points = &self.points[..self.len.min(2)];
        // As many points as before (a resting pair, the common case): each
        // is overwritten where it is, without the vector's length checks.
        if manifold.points.len() == points.len() {
            for (slot, p) in manifold.points.iter_mut().zip(points) {
                *slot = p.expand();
            }
            return;
        }
        manifold.points.clear();
        for p in points {
            manifold.points.push(p.expand());
        }
    }
}

impl ConvexPoint {
    /// The public form of the point (convex shapes have no parts).
    #[inline]
    pub(super) fn expand(&self) -> ContactPoint {
        ContactPoint {
            point: self.point,
            depth: self.depth,
            id: self.id,
            part_a: None,
            part_b: None,
        }
    }
}

/// A one-point manifold between core point `core_a` (radius `radius_a`) and
/// core point `core_b` (radius `radius_b`) whose cores are `separation` apart
/// along the unit `normal` (A to B).
pub(super) fn point_manifold(
    normal: Vec2,
    core_a: Vec2,
    radius_a: Real,
    core_b: Vec2,
    radius_b: Real,
    separation: Real,
    id: FeatureId,
) -> ConvexManifold {
    let surface_a = core_a + normal * radius_a;
    let surface_b = core_b - normal * radius_b;
    let point = ConvexPoint {
        point: (surface_a + surface_b) * 0.5,
        depth: radius_a + radius_b - separation,
        id,
    };
    ConvexManifold::new(normal, point, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn becomes_the_manifold_it_stands_for() {
        let point = |x: Real, id: u32| ConvexPoint {
            point: vec2(x, 1.0),
            depth: 0.25 * x,
            id: FeatureId(id),
        };
        let two = ConvexManifold::new(vec2(0.0, 1.0), point(1.0, 7), Some(point(2.0, 9)));
        let manifold = two.into_manifold();
        assert_eq!(manifold.points.len(), 2);
        assert!(!manifold.points.spilled());
        assert_eq!(manifold.points[1].point, vec2(2.0, 1.0));
        assert_eq!(manifold.points[1].id, FeatureId(9));
        let mut flipped = two;
        flipped.flip();
        assert_eq!(flipped.into_manifold(), two.into_manifold().flipped());
        let one = ConvexManifold::new(vec2(1.0, 0.0), point(3.0, 1), None);
        assert_eq!(one.into_manifold().points.len(), 1);
        let mut moved = one;
        moved.transform(&Rot2::new(std::f32::consts::FRAC_PI_2), vec2(10.0, 0.0));
        assert!((moved.normal - vec2(0.0, 1.0)).norm() < 1e-6);
        assert!((moved.points()[0].point - vec2(9.0, 3.0)).norm() < 1e-6);
    }

    #[test]
    fn written_in_place_it_is_the_same_manifold() {
        let point = |x: Real, id: u32| ConvexPoint {
            point: vec2(x, 1.0),
            depth: 0.25 * x,
            id: FeatureId(id),
        };
        let two = ConvexManifold::new(vec2(0.0, 1.0), point(1.0, 7), Some(point(2.0, 9)));
        let one = ConvexManifold::new(vec2(1.0, 0.0), point(3.0, 1), None);
        // Into nothing, over a longer one, over a shorter one, over one
        // with parts and four points (past the inline room, on the heap).
        let mut four = two.into_manifold();
        four.points.extend(four.points.clone());
        for p in &mut four.points {
            p.part_a = Some(crate::shape::PartId(3));
        }
        for (before, new) in [
            (None, two),
            (Some(two.into_manifold()), one),
            (Some(one.into_manifold()), two),
            (Some(four), one),
        ] {
            let mut out = before;
            new.write_into(&mut out);
            assert_eq!(out, Some(new.into_manifold()));
        }
    }
}
