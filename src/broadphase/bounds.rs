//! [`Bounds`]: the world-space box the broadphase stores, and the ray–box slab test.

use super::BroadPhaseError;
use crate::math::{Real, Vec2, is_finite_vec, vec2};
use crate::shape::Aabb;

/// A world-space axis-aligned box (metres), closed: its boundary belongs to it.
///
/// Unlike [`Aabb`] (a shape, with strictly positive extents, in a local
/// frame) a `Bounds` may be flat or a single point, which is what a point
/// shape, a segment or a zero-length ray needs. Both corners are finite and
/// `min <= max` on each axis; the constructors check it, so every `Bounds`
/// that exists is valid and the trees never hold a NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    min: Vec2,
    max: Vec2,
}

impl Bounds {
    /// The box from `min` to `max` (world, metres); `min <= max` on each axis.
    ///
    /// # Errors
    /// [`BroadPhaseError::NonFinite`] or [`BroadPhaseError::InvertedBounds`].
    pub fn new(min: Vec2, max: Vec2) -> Result<Self, BroadPhaseError> {
        if !is_finite_vec(min) {
            return Err(BroadPhaseError::NonFinite { field: "min" });
        }
        if !is_finite_vec(max) {
            return Err(BroadPhaseError::NonFinite { field: "max" });
        }
        if !(min.x <= max.x && min.y <= max.y) {
            return Err(BroadPhaseError::InvertedBounds);
        }
        Ok(Bounds { min, max })
    }

    /// The box centred on `center` with `half_extents` (each >= 0), world metres.
    ///
    /// # Errors
    /// [`BroadPhaseError::NonFinite`] or [`BroadPhaseError::InvertedBounds`]
    /// (for a negative half extent).
    pub fn from_center(center: Vec2, half_extents: Vec2) -> Result<Self, BroadPhaseError> {
        if !is_finite_vec(center) {
            return Err(BroadPhaseError::NonFinite { field: "center" });
        }
        if !is_finite_vec(half_extents) {
            return Err(BroadPhaseError::NonFinite {
                field: "half_extents",
            });
        }
        Self::new(center - half_extents, center + half_extents)
    }

    /// The flat box holding the single world point `point`.
    ///
    /// # Errors
    /// [`BroadPhaseError::NonFinite`].
    pub fn from_point(point: Vec2) -> Result<Self, BroadPhaseError> {
        Self::new(point, point)
    }

    /// A box the engine computed from boxes that are already valid.
    pub(super) fn unchecked(min: Vec2, max: Vec2) -> Self {
        Bounds { min, max }
    }

    /// Lower-left corner (world, metres).
    pub fn min(&self) -> Vec2 {
        self.min
    }

    /// Upper-right corner (world, metres).
    pub fn max(&self) -> Vec2 {
        self.max
    }

    /// Centre (world, metres).
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Perimeter (metres): the 2D surface-area-heuristic cost of a node.
    pub fn perimeter(&self) -> Real {
        2.0 * ((self.max.x - self.min.x) + (self.max.y - self.min.y))
    }

    /// The smallest box containing both.
    pub fn union(&self, other: &Bounds) -> Bounds {
        Bounds {
            min: self.min.inf(&other.min),
            max: self.max.sup(&other.max),
        }
    }

    /// True if the boxes overlap or touch.
    pub fn overlaps(&self, other: &Bounds) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// True if `other` lies inside this box (boundaries may touch).
    pub fn contains(&self, other: &Bounds) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }

    /// True if the world point is inside or on the boundary (false for NaN).
    pub fn contains_point(&self, point: Vec2) -> bool {
        self.min.x <= point.x
            && point.x <= self.max.x
            && self.min.y <= point.y
            && point.y <= self.max.y
    }

    /// This box grown by `radius` metres on every side.
    ///
    /// # Errors
    /// [`BroadPhaseError::NonFinite`] for a NaN or infinite radius (or a box
    /// that would overflow), [`BroadPhaseError::NegativeRadius`] for `radius < 0`.
    pub fn inflated(&self, radius: Real) -> Result<Bounds, BroadPhaseError> {
        if !radius.is_finite() {
            return Err(BroadPhaseError::NonFinite { field: "radius" });
        }
        if radius < 0.0 {
            return Err(BroadPhaseError::NegativeRadius { value: radius });
        }
        let grown = self.inflated_unchecked(radius);
        if !(is_finite_vec(grown.min) && is_finite_vec(grown.max)) {
            return Err(BroadPhaseError::NonFinite { field: "radius" });
        }
        Ok(grown)
    }

    /// Grown by a radius already known to be finite and >= 0.
    #[inline]
    pub(super) fn inflated_unchecked(&self, radius: Real) -> Bounds {
        let r = vec2(radius, radius);
        Bounds {
            min: self.min - r,
            max: self.max + r,
        }
    }

    /// The fraction `t` in `[0, max_fraction]` at which the segment
    /// `origin + t * translation` (world) first touches this box, or `None`
    /// if it misses it. `Some(0.0)` when the origin is inside.
    ///
    /// This is the test the trees prune with, so the trees' ray casts report
    /// exactly the boxes for which it returns `Some`. Non-finite input or a
    /// negative `max_fraction` is a miss.
    ///
    /// # Examples
    /// ```
    /// use circlet::broadphase::Bounds;
    /// use circlet::math::vec2;
    /// let unit = Bounds::new(vec2(1.0, -1.0), vec2(2.0, 1.0)).unwrap();
    /// assert_eq!(unit.ray_fraction(vec2(0.0, 0.0), vec2(4.0, 0.0), 1.0), Some(0.25));
    /// assert_eq!(unit.ray_fraction(vec2(0.0, 0.0), vec2(4.0, 0.0), 0.2), None);
    /// ```
    pub fn ray_fraction(
        &self,
        origin: Vec2,
        translation: Vec2,
        max_fraction: Real,
    ) -> Option<Real> {
        let ray = Ray::new(origin, translation, max_fraction).ok()?;
        ray.entry(self.min, self.max, max_fraction)
    }
}

impl TryFrom<Aabb> for Bounds {
    type Error = BroadPhaseError;

    /// Checks the box again: an `Aabb`'s fields are public and engine-computed
    /// world boxes (e.g. of a shape under a NaN pose) are not validated.
    fn try_from(aabb: Aabb) -> Result<Bounds, BroadPhaseError> {
        Bounds::new(aabb.min, aabb.max)
    }
}

/// A validated segment `origin + t * translation`, ready for slab tests.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ray {
    origin: Vec2,
    /// `1 / translation` per axis; meaningless where `parallel` is set.
    inverse: Vec2,
    /// Axes along which the ray does not move (|component| too small to invert).
    parallel: [bool; 2],
}

impl Ray {
    /// Checks the input: finite origin and translation, `max_fraction` finite and >= 0.
    pub(super) fn new(
        origin: Vec2,
        translation: Vec2,
        max_fraction: Real,
    ) -> Result<Ray, BroadPhaseError> {
        if !is_finite_vec(origin) {
            return Err(BroadPhaseError::NonFinite { field: "origin" });
        }
        if !is_finite_vec(translation) {
            return Err(BroadPhaseError::NonFinite {
                field: "translation",
            });
        }
        if !max_fraction.is_finite() {
            return Err(BroadPhaseError::NonFinite {
                field: "max_fraction",
            });
        }
        if max_fraction < 0.0 {
            return Err(BroadPhaseError::NegativeFraction {
                value: max_fraction,
            });
        }
        let inverse = vec2(1.0 / translation.x, 1.0 / translation.y);
        // A component so small that its inverse overflows (zero or subnormal)
        // is treated as no motion along that axis: the ray then only meets the
        // slab if the origin already lies in it.
        let parallel = [!inverse.x.is_finite(), !inverse.y.is_finite()];
        Ok(Ray {
            origin,
            inverse,
            parallel,
        })
    }

    /// Entry fraction into the closed box `min..max`, if it is <= `max_fraction`.
    ///
    /// Slab method: along each axis the ray is inside the slab for
    /// `t in [(min - o) / d, (max - o) / d]` (swapped when d < 0); the box is
    /// hit when the latest entry is not after the earliest exit.
    #[inline]
    pub(super) fn entry(&self, min: Vec2, max: Vec2, max_fraction: Real) -> Option<Real> {
        let mut enter: Real = 0.0;
        let mut exit = max_fraction;
        for axis in 0..2 {
            let o = self.origin[axis];
            if self.parallel[axis] {
                if o < min[axis] || o > max[axis] {
                    return None;
                }
            } else {
                // inverse is finite and non-zero and the corners are finite, so
                // no product below is NaN (at worst it overflows to +-inf).
                let inv = self.inverse[axis];
                let t_min = (min[axis] - o) * inv;
                let t_max = (max[axis] - o) * inv;
                let (near, far) = if inv >= 0.0 {
                    (t_min, t_max)
                } else {
                    (t_max, t_min)
                };
                enter = enter.max(near);
                exit = exit.min(far);
            }
        }
        (enter <= exit).then_some(enter)
    }

    /// Origin along `axis` (0 = x, 1 = y).
    #[inline(always)]
    pub(super) fn origin(&self, axis: usize) -> Real {
        self.origin[axis]
    }

    /// `1 / translation` along `axis`; meaningless for a parallel axis.
    #[inline(always)]
    pub(super) fn inverse(&self, axis: usize) -> Real {
        self.inverse[axis]
    }

    /// True if the ray does not move along `axis`.
    #[inline(always)]
    pub(super) fn is_parallel(&self, axis: usize) -> bool {
        self.parallel[axis]
    }

    /// [`Ray::entry`] into `bounds` grown by `radius` (finite, >= 0), with
    /// the same arithmetic (so the same fractions) and no branch on the
    /// data: the trees' casts run this for every node they test.
    #[inline(always)]
    pub(super) fn entry_grown(
        &self,
        bounds: &Bounds,
        radius: Real,
        max_fraction: Real,
    ) -> Option<Real> {
        let (x, y) = (
            self.slab(0, bounds.min.x - radius, bounds.max.x + radius),
            self.slab(1, bounds.min.y - radius, bounds.max.y + radius),
        );
        // max / min without NaN handling: no operand is NaN (see `slab`).
        let enter = if x.0 > y.0 { x.0 } else { y.0 };
        let exit = if x.1 < y.1 { x.1 } else { y.1 };
        let enter = if enter > 0.0 { enter } else { 0.0 };
        let exit = if exit < max_fraction {
            exit
        } else {
            max_fraction
        };
        (enter <= exit).then_some(enter)
    }

    /// The fractions `(near, far)` at which the ray is inside the slab
    /// `lo..=hi` along `axis`: `(-inf, +inf)` for a parallel ray inside it,
    /// `(+inf, -inf)` (empty) for one outside.
    #[inline(always)]
    fn slab(&self, axis: usize, lo: Real, hi: Real) -> (Real, Real) {
        let o = self.origin[axis];
        if self.parallel[axis] {
            if o < lo || o > hi {
                (Real::INFINITY, Real::NEG_INFINITY)
            } else {
                (Real::NEG_INFINITY, Real::INFINITY)
            }
        } else {
            // As in `entry`: finite corners and a finite, non-zero inverse,
            // so no product is NaN.
            let inv = self.inverse[axis];
            let t_lo = (lo - o) * inv;
            let t_hi = (hi - o) * inv;
            if inv >= 0.0 {
                (t_lo, t_hi)
            } else {
                (t_hi, t_lo)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x0: Real, y0: Real, x1: Real, y1: Real) -> Bounds {
        Bounds::new(vec2(x0, y0), vec2(x1, y1)).unwrap()
    }

    #[test]
    fn constructors_reject_bad_input() {
        assert_eq!(
            Bounds::new(vec2(Real::NAN, 0.0), vec2(1.0, 1.0)),
            Err(BroadPhaseError::NonFinite { field: "min" })
        );
        assert_eq!(
            Bounds::new(vec2(0.0, 0.0), vec2(1.0, Real::INFINITY)),
            Err(BroadPhaseError::NonFinite { field: "max" })
        );
        assert_eq!(
            Bounds::new(vec2(0.0, 2.0), vec2(1.0, 1.0)),
            Err(BroadPhaseError::InvertedBounds)
        );
        assert_eq!(
            Bounds::from_center(vec2(0.0, 0.0), vec2(-1.0, 1.0)),
            Err(BroadPhaseError::InvertedBounds)
        );
        assert!(Bounds::from_point(vec2(3.0, 4.0)).is_ok());
        let unit = b(0.0, 0.0, 1.0, 1.0);
        assert!(unit.inflated(-0.5).is_err());
        assert!(unit.inflated(Real::NAN).is_err());
        assert!(b(0.0, 0.0, Real::MAX, 1.0).inflated(Real::MAX).is_err());
        assert_eq!(unit.inflated(0.5).unwrap(), b(-0.5, -0.5, 1.5, 1.5));
    }

    #[test]
    fn shape_boxes_convert_only_when_valid() {
        let shape_box = Aabb::new(vec2(0.0, 1.0), vec2(2.0, 3.0)).unwrap();
        assert_eq!(Bounds::try_from(shape_box), Ok(b(0.0, 1.0, 2.0, 3.0)));
        let forged = Aabb {
            min: vec2(Real::NAN, 0.0),
            max: vec2(1.0, 1.0),
        };
        assert!(Bounds::try_from(forged).is_err());
    }

    #[test]
    fn touching_boxes_overlap_and_contain() {
        let a = b(0.0, 0.0, 1.0, 1.0);
        assert!(a.overlaps(&b(1.0, 1.0, 2.0, 2.0)));
        assert!(!a.overlaps(&b(1.0 + 1e-6, 0.0, 2.0, 1.0)));
        assert!(a.contains(&a));
        assert!(a.contains(&b(0.0, 0.5, 1.0, 0.5)));
        assert!(a.contains_point(vec2(1.0, 0.0)));
        assert!(!a.contains_point(vec2(Real::NAN, 0.5)));
        assert_eq!(a.perimeter(), 4.0);
        assert_eq!(a.union(&b(2.0, -1.0, 3.0, 0.5)), b(0.0, -1.0, 3.0, 1.0));
    }

    #[test]
    fn slab_test_hand_cases() {
        let unit = b(1.0, 1.0, 2.0, 2.0);
        // Diagonal entry through the corner region.
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 0.0), vec2(4.0, 4.0), 1.0),
            Some(0.25)
        );
        // Axis-parallel ray inside the slab, and just outside it.
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 1.5), vec2(2.0, 0.0), 1.0),
            Some(0.5)
        );
        assert_eq!(unit.ray_fraction(vec2(0.0, 2.5), vec2(2.0, 0.0), 1.0), None);
        // Grazing the top edge counts (closed box).
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 2.0), vec2(2.0, 0.0), 1.0),
            Some(0.5)
        );
        // Pointing away, and starting inside.
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 1.5), vec2(-2.0, 0.0), 1.0),
            None
        );
        assert_eq!(
            unit.ray_fraction(vec2(1.5, 1.5), vec2(-2.0, 0.3), 1.0),
            Some(0.0)
        );
        // Zero translation: a point test.
        assert_eq!(
            unit.ray_fraction(vec2(1.5, 1.5), vec2(0.0, 0.0), 1.0),
            Some(0.0)
        );
        assert_eq!(unit.ray_fraction(vec2(0.5, 1.5), vec2(0.0, 0.0), 1.0), None);
        // A subnormal component counts as parallel and produces no NaN.
        assert_eq!(
            unit.ray_fraction(vec2(1.0, 0.0), vec2(1e-42, 4.0), 1.0),
            Some(0.25)
        );
        // Bad input is a miss.
        assert_eq!(
            unit.ray_fraction(vec2(Real::NAN, 1.5), vec2(2.0, 0.0), 1.0),
            None
        );
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 1.5), vec2(2.0, 0.0), -1.0),
            None
        );
        assert_eq!(
            unit.ray_fraction(vec2(0.0, 1.5), vec2(2.0, 0.0), Real::NAN),
            None
        );
    }

    #[test]
    fn slab_test_matches_sampling_along_the_ray() {
        // Deterministic sweep of directions: the reported entry lies on the box
        // boundary (or is 0 with the origin inside), and the point a little
        // before it is outside.
        let boxed = b(-1.0, -0.5, 2.0, 1.5);
        for i in 0..360 {
            let angle = (i as Real).to_radians();
            let origin = vec2(-3.0, -2.0) + vec2(0.01 * i as Real, 0.0);
            let translation = vec2(angle.cos(), angle.sin()) * 10.0;
            if let Some(t) = boxed.ray_fraction(origin, translation, 1.0) {
                let hit = origin + translation * t;
                assert!(boxed.inflated(1e-4).unwrap().contains_point(hit), "{i}");
                if t > 1e-3 {
                    let before = origin + translation * (t - 1e-3);
                    assert!(!boxed.contains_point(before), "{i}");
                }
            } else {
                let shrunk = b(-1.0 + 1e-3, -0.5 + 1e-3, 2.0 - 1e-3, 1.5 - 1e-3);
                for k in 0..=1000 {
                    let p = origin + translation * (k as Real / 1000.0);
                    assert!(!shrunk.contains_point(p), "{i} {k}");
                }
            }
        }
    }
}
