//! [`Shot`], [`CastHit`] and [`CastError`]: the input, output and errors of [`super::cast`].

use crate::math::{PoseError, Real, Vec2, is_finite_vec};
use crate::shape::PartId;

/// Largest accepted shot coordinate (metres). Squared lengths of differences
/// of such coordinates stay far inside the f32 range (~3.4e38), so no
/// intermediate of a cast can overflow; the design range is ~1e4 m.
pub const MAX_SHOT_COORDINATE: Real = 1.0e9;

/// A circle of radius `radius` swept in a straight line from `start` to `end`
/// over one step: a bullet of thickness `2 * radius`. `radius == 0` is a ray.
///
/// World coordinates, metres. Always valid: every constructor checks its
/// input, so a cast with a `Shot` can only fail on the target's pose.
///
/// # Examples
/// ```
/// use circlet::math::vec2;
/// use circlet::query::cast::{CastError, Shot};
/// let bullet = Shot::thick(vec2(0.0, 0.0), vec2(10.0, 0.0), 0.02).unwrap();
/// assert_eq!(bullet.radius(), 0.01);
/// assert!(matches!(Shot::new(vec2(0.0, 0.0), vec2(1.0, 0.0), -1.0), Err(CastError::InvalidRadius { .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    start: Vec2,
    end: Vec2,
    radius: Real,
    range: [Real; 2],
}

impl Shot {
    /// A circle of `radius` (metres, >= 0) swept from `start` to `end` (world).
    /// `start == end` is a valid, motionless shot.
    ///
    /// # Errors
    /// [`CastError::NonFinite`] for NaN or infinite coordinates,
    /// [`CastError::OutOfRange`] beyond [`MAX_SHOT_COORDINATE`],
    /// [`CastError::InvalidRadius`] for a negative, NaN or infinite radius.
    pub fn new(start: Vec2, end: Vec2, radius: Real) -> Result<Self, CastError> {
        check_point("start", start)?;
        check_point("end", end)?;
        if !(0.0..=MAX_SHOT_COORDINATE).contains(&radius) {
            return Err(CastError::InvalidRadius { radius });
        }
        Ok(Shot {
            start,
            end,
            radius,
            range: [0.0, 1.0],
        })
    }

    /// A ray (radius 0) from `start` to `end` (world).
    ///
    /// # Errors
    /// As [`Shot::new`].
    pub fn ray(start: Vec2, end: Vec2) -> Result<Self, CastError> {
        Self::new(start, end, 0.0)
    }

    /// A bullet of full `thickness` (metres, >= 0) from `start` to `end` (world).
    ///
    /// # Errors
    /// As [`Shot::new`]; the error reports the radius, `thickness / 2`.
    pub fn thick(start: Vec2, end: Vec2, thickness: Real) -> Result<Self, CastError> {
        Self::new(start, end, thickness * 0.5)
    }

    /// This shot restricted to the fractions `min..=max` of its sweep: only
    /// hits in that range are reported, and "starts inside" refers to the
    /// position at `min`. Fractions stay relative to the whole shot.
    ///
    /// # Errors
    /// [`CastError::InvalidRange`] unless `0 <= min <= max <= 1`.
    pub fn with_range(mut self, min: Real, max: Real) -> Result<Self, CastError> {
        if !(0.0 <= min && min <= max && max <= 1.0) {
            return Err(CastError::InvalidRange { min, max });
        }
        self.range = [min, max];
        Ok(self)
    }

    /// Where the shot's centre starts (world).
    pub fn start(&self) -> Vec2 {
        self.start
    }

    /// Where the shot's centre ends (world).
    pub fn end(&self) -> Vec2 {
        self.end
    }

    /// Radius of the swept circle (metres), half the thickness.
    pub fn radius(&self) -> Real {
        self.radius
    }

    /// The range of fractions searched, `[min, max]` within `[0, 1]`.
    pub fn range(&self) -> [Real; 2] {
        self.range
    }

    /// `end - start` (world, metres).
    pub fn delta(&self) -> Vec2 {
        self.end - self.start
    }

    /// The shot's centre at `fraction` of the sweep (world).
    pub fn point_at(&self, fraction: Real) -> Vec2 {
        self.start + self.delta() * fraction
    }

    /// The part of the sweep inside the range, as (start, delta).
    pub(crate) fn ranged(&self) -> (Vec2, Vec2) {
        let delta = self.delta();
        if self.range == [0.0, 1.0] {
            (self.start, delta)
        } else {
            (
                self.start + delta * self.range[0],
                delta * (self.range[1] - self.range[0]),
            )
        }
    }

    /// Maps a fraction of the ranged sweep back to a fraction of the whole shot.
    pub(crate) fn unrange(&self, fraction: Real) -> Real {
        if self.range == [0.0, 1.0] {
            fraction
        } else {
            (self.range[0] + fraction * (self.range[1] - self.range[0]))
                .clamp(self.range[0], self.range[1])
        }
    }
}

fn check_point(field: &'static str, point: Vec2) -> Result<(), CastError> {
    if !is_finite_vec(point) {
        return Err(CastError::NonFinite { field });
    }
    if point.x.abs() > MAX_SHOT_COORDINATE || point.y.abs() > MAX_SHOT_COORDINATE {
        return Err(CastError::OutOfRange { field });
    }
    Ok(())
}

/// Where a shot first meets a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Fraction of the whole sweep, in `[0, 1]`, at which the shot's circle
    /// first touches the target (0 when it starts inside or touching).
    pub fraction: Real,
    /// World point on the target's surface where the shot touches it.
    pub point: Vec2,
    /// World unit normal of the target's surface at `point`, pointing out of
    /// the target towards the shot.
    pub normal: Vec2,
    /// True when the shot already overlapped or touched the target at the
    /// start of its range (then `fraction` is the range's start).
    pub started_inside: bool,
    /// The part of a circle tree that was hit; `None` for plain shapes.
    pub part: Option<PartId>,
}

/// One hit of a piercing shot ([`super::cast_all`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TargetHit {
    /// Index of the target in the list given to [`super::cast_all`].
    pub target: usize,
    /// For a [`crate::shape::SimplePolygon`], the index of the convex piece entered.
    pub piece: Option<usize>,
    /// Where the shot enters this target (or piece).
    pub hit: CastHit,
}

/// Input a cast cannot use.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum CastError {
    /// A shot coordinate is NaN or infinite.
    #[error("shot {field} is not finite")]
    NonFinite {
        /// `start` or `end`.
        field: &'static str,
    },
    /// A shot coordinate is beyond [`MAX_SHOT_COORDINATE`].
    #[error("shot {field} is beyond ±{MAX_SHOT_COORDINATE} m")]
    OutOfRange {
        /// `start` or `end`.
        field: &'static str,
    },
    /// The shot radius (half its thickness) is negative, NaN or too large.
    #[error("shot radius must be >= 0 and finite, got {radius}")]
    InvalidRadius {
        /// The rejected radius.
        radius: Real,
    },
    /// The fraction range is not `0 <= min <= max <= 1`.
    #[error("shot range must satisfy 0 <= min <= max <= 1, got [{min}, {max}]")]
    InvalidRange {
        /// Requested start of the range.
        min: Real,
        /// Requested end of the range.
        max: Real,
    },
    /// The target's pose is not usable.
    #[error("target {index}: {source}")]
    InvalidPose {
        /// Index of the target (0 for a single cast).
        index: usize,
        /// What is wrong with the pose.
        source: PoseError,
    },
    /// The target is so large or so far out that the computation left the f32
    /// range (far outside the design range of ~1e4 m).
    #[error("target {index}: cast overflowed the f32 range")]
    Overflow {
        /// Index of the target (0 for a single cast).
        index: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;

    #[test]
    fn range_maps_fractions_back_to_the_whole_shot() {
        let shot = Shot::ray(vec2(0.0, 0.0), vec2(10.0, 0.0))
            .unwrap()
            .with_range(0.2, 0.6)
            .unwrap();
        let (start, delta) = shot.ranged();
        assert_eq!(start, vec2(2.0, 0.0));
        assert!((delta - vec2(4.0, 0.0)).norm() < 1e-6);
        assert!((shot.unrange(0.5) - 0.4).abs() < 1e-6);
        assert_eq!(shot.unrange(0.0), 0.2);
        assert_eq!(shot.unrange(1.0), 0.6);
        assert_eq!(shot.point_at(0.5), vec2(5.0, 0.0));
    }
}
