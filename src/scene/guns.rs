//! Guns: projectile emitters of a scene, and the shots they fire.
//!
//! A gun fires `rate` shots per second from `start` on, at a fixed direction
//! or at a named body. Aiming at a body leads it: the shot is sent where a
//! projectile of the gun's speed meets the target if the target keeps its
//! current velocity (|p + v·t − o| = s·t, the smaller positive root), or
//! straight at it when no such time exists. Each shot is turned by a
//! pseudo-random angle in ±`spread` drawn from the gun's own seeded sequence,
//! so runs are repeatable.
//!
//! A gun may ride on a body (its *mount*): its position is then in the
//! mount's local frame (pose, scale included), a fixed aim turns with the
//! mount, and its shots never hit the mount. A gun whose mount is gone stops
//! firing.
//!
//! Guns only say *what* to fire; [`crate::scene::Simulation::fire`] is the
//! one place that turns a [`Shot`] into a projectile of the world.

use crate::math::{Real, Rot2, Vec2};
use crate::world::{BodyHandle, World};

/// Most shots one gun may fire in one call of [`Gun::shots_until`], so a huge
/// rate or a long pause cannot flood the world in one step.
pub const MAX_SHOTS_PER_CALL: usize = 256;

/// Shortest offset (m) that still gives a direction to fire in: a target
/// closer to the muzzle than this has no meaningful bearing.
pub const MIN_AIM_LENGTH: Real = 1e-6;

/// Where a gun points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aim {
    /// A fixed unit direction (world).
    Direction(Vec2),
    /// A body, led by its velocity.
    Target(BodyHandle),
}

/// A projectile emitter, ready to fire.
#[derive(Clone, Debug, PartialEq)]
pub struct Gun {
    /// Name used in reports.
    pub name: Option<String>,
    /// Muzzle position (m): world, or local to the mount when there is one.
    pub position: Vec2,
    /// Direction or target; a direction is local to the mount when there is one.
    pub aim: Aim,
    /// The body the gun rides on, which its shots never hit.
    pub mount: Option<BodyHandle>,
    /// Shots per second (> 0).
    pub rate: Real,
    /// Muzzle speed (m/s, > 0).
    pub speed: Real,
    /// Largest deviation from the aim (rad).
    pub spread: Real,
    /// Shot diameter (m, ≥ 0).
    pub thickness: Real,
    /// Bodies a shot may pass through before it stops.
    pub pierce: u32,
    /// Time of the first shot (s).
    pub start: Real,
    /// Life of a shot (s).
    pub lifetime: Real,
    /// State of the spread sequence.
    rng: u64,
    /// Shots fired so far.
    fired: u64,
}

/// One shot to fire now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// Index of the gun in the scene's list, or `None` for a shot from the user.
    pub gun: Option<usize>,
    /// Where it starts (m, world).
    pub origin: Vec2,
    /// Its velocity (m/s, world).
    pub velocity: Vec2,
    /// Diameter (m, ≥ 0).
    pub thickness: Real,
    /// Bodies it may pass through before it stops.
    pub pierce: u32,
    /// How long it lives (s).
    pub lifetime: Real,
    /// A body it never hits (the gun's mount).
    pub owner: Option<BodyHandle>,
}

impl Gun {
    /// A gun; `seed` starts its spread sequence.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: Option<String>,
        position: Vec2,
        aim: Aim,
        rate: Real,
        speed: Real,
        spread: Real,
        thickness: Real,
        pierce: u32,
        start: Real,
        lifetime: Real,
        seed: u64,
    ) -> Gun {
        Gun {
            name,
            position,
            aim,
            mount: None,
            rate,
            speed,
            spread,
            thickness,
            pierce,
            start,
            lifetime,
            rng: seed,
            fired: 0,
        }
    }

    /// This gun riding on `mount` (see the module docs).
    pub fn with_mount(mut self, mount: BodyHandle) -> Gun {
        self.mount = Some(mount);
        self
    }

    /// Shots fired so far.
    pub fn fired(&self) -> u64 {
        self.fired
    }

    /// The muzzle's world position now, or `None` when the mount is gone.
    pub fn muzzle(&self, world: &World) -> Option<Vec2> {
        match self.mount {
            None => Some(self.position),
            Some(mount) => Some(world.body(mount)?.pose().transform_point(self.position)),
        }
    }

    /// The unit world direction the gun points in now (at the target's
    /// current position, not led), or `None` when its mount or target is gone
    /// or the target sits on the muzzle.
    pub fn pointing(&self, world: &World) -> Option<Vec2> {
        let muzzle = self.muzzle(world)?;
        match self.aim {
            Aim::Direction(direction) => self.turned(world, direction),
            Aim::Target(body) => unit(world.body(body)?.center_of_mass() - muzzle),
        }
    }

    /// Appends to `out` every shot due by `time` (s since the start of the
    /// scene) that was not fired yet, at most [`MAX_SHOTS_PER_CALL`]; `gun`
    /// is this gun's index, recorded in each shot.
    pub fn shots_until(&mut self, gun: usize, time: f64, world: &World, out: &mut Vec<Shot>) {
        let period = 1.0 / self.rate as f64;
        for _ in 0..MAX_SHOTS_PER_CALL {
            let due = self.start as f64 + self.fired as f64 * period;
            if due > time || !due.is_finite() {
                return;
            }
            let (Some(origin), Some(direction)) = (self.muzzle(world), self.direction(world))
            else {
                return;
            };
            let deviation = (self.next_unit() * 2.0 - 1.0) * self.spread;
            let direction = Rot2::new(deviation) * direction;
            out.push(Shot {
                gun: Some(gun),
                origin,
                velocity: direction * self.speed,
                thickness: self.thickness,
                pierce: self.pierce,
                lifetime: self.lifetime,
                owner: self.mount,
            });
            self.fired += 1;
        }
    }

    /// The unit world direction to fire in now, or `None` if the mount or
    /// the target is gone or the target sits on the muzzle.
    fn direction(&self, world: &World) -> Option<Vec2> {
        match self.aim {
            Aim::Direction(direction) => self.turned(world, direction),
            Aim::Target(body) => {
                let muzzle = self.muzzle(world)?;
                let body = world.body(body)?;
                let aim_point = lead(
                    muzzle,
                    self.speed,
                    body.center_of_mass(),
                    body.linear_velocity(),
                );
                unit(aim_point - muzzle)
            }
        }
    }

    /// A fixed aim turned into the world by the mount's rotation.
    fn turned(&self, world: &World, direction: Vec2) -> Option<Vec2> {
        match self.mount {
            None => Some(direction),
            Some(mount) => unit(world.body(mount)?.pose().rotate(direction)),
        }
    }

    /// A number in [0, 1) from the gun's sequence (splitmix64).
    fn next_unit(&mut self) -> Real {
        self.rng = self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // The top 24 bits fill an f32 mantissa exactly.
        (z >> 40) as Real / (1u64 << 24) as Real
    }
}

/// `offset` made unit length, or `None` when it is too short to point anywhere.
fn unit(offset: Vec2) -> Option<Vec2> {
    let length = offset.norm();
    (length > MIN_AIM_LENGTH && length.is_finite()).then(|| offset / length)
}

/// The point to aim at so that a shot from `muzzle` at `speed` meets a target
/// now at `target` moving with `velocity`; the target itself when it cannot
/// be caught.
pub fn lead(muzzle: Vec2, speed: Real, target: Vec2, velocity: Vec2) -> Vec2 {
    // |d + v t| = s t with d = target − muzzle:
    // (v·v − s²) t² + 2 (d·v) t + d·d = 0.
    let d = target - muzzle;
    let a = velocity.dot(&velocity) - speed * speed;
    let b = 2.0 * d.dot(&velocity);
    let c = d.dot(&d);
    let time = if a.abs() < 1e-9 {
        // Target as fast as the shot: linear, t = −c / b.
        if b < 0.0 { -c / b } else { -1.0 }
    } else {
        let discriminant = b * b - 4.0 * a * c;
        if discriminant < 0.0 {
            -1.0
        } else {
            let root = discriminant.sqrt();
            let (t0, t1) = ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a));
            let (lo, hi) = (t0.min(t1), t0.max(t1));
            if lo > 0.0 { lo } else { hi }
        }
    };
    if time > 0.0 && time.is_finite() {
        target + velocity * time
    } else {
        target
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::vec2;
    use crate::world::WorldSettings;

    fn gun(rate: Real, spread: Real) -> Gun {
        Gun::new(
            None,
            vec2(0.0, 0.0),
            Aim::Direction(vec2(1.0, 0.0)),
            rate,
            50.0,
            spread,
            0.1,
            0,
            0.5,
            2.0,
            7,
        )
    }

    #[test]
    fn fires_at_its_rate_from_its_start() {
        let world = World::new(WorldSettings::default()).unwrap();
        let mut g = gun(10.0, 0.0);
        let mut shots = Vec::new();
        g.shots_until(0, 0.49, &world, &mut shots);
        assert!(shots.is_empty());
        g.shots_until(0, 1.0, &world, &mut shots);
        // Due at 0.5, 0.6, ..., 1.0: six shots.
        assert_eq!(shots.len(), 6);
        assert_eq!(shots[0].velocity, vec2(50.0, 0.0));
        g.shots_until(0, 1.0, &world, &mut shots);
        assert_eq!(shots.len(), 6, "no shot is fired twice");
    }

    #[test]
    fn spread_stays_within_bounds_and_repeats_with_the_seed() {
        let world = World::new(WorldSettings::default()).unwrap();
        let (mut a, mut b) = (gun(100.0, 0.2), gun(100.0, 0.2));
        let (mut shots_a, mut shots_b) = (Vec::new(), Vec::new());
        a.shots_until(0, 2.0, &world, &mut shots_a);
        b.shots_until(0, 2.0, &world, &mut shots_b);
        assert_eq!(shots_a, shots_b);
        let angles: Vec<Real> = shots_a
            .iter()
            .map(|s| s.velocity.y.atan2(s.velocity.x))
            .collect();
        assert!(angles.iter().all(|a| a.abs() <= 0.2 + 1e-6));
        assert!(angles.iter().any(|a| a.abs() > 0.1), "the spread is used");
    }

    #[test]
    fn a_flood_is_capped_per_call() {
        let world = World::new(WorldSettings::default()).unwrap();
        let mut g = gun(1.0e6, 0.0);
        let mut shots = Vec::new();
        g.shots_until(0, 100.0, &world, &mut shots);
        assert_eq!(shots.len(), MAX_SHOTS_PER_CALL);
    }

    #[test]
    fn leading_meets_a_moving_target() {
        let muzzle = vec2(0.0, 0.0);
        let (target, velocity, speed) = (vec2(10.0, 0.0), vec2(0.0, 3.0), 5.0);
        let aim = lead(muzzle, speed, target, velocity);
        // The shot reaches the aim point when the target does.
        let t_shot = aim.norm() / speed;
        let t_target = (aim - target).norm() / velocity.norm();
        assert!((t_shot - t_target).abs() < 1e-4, "{t_shot} vs {t_target}");
        // A target running away faster than the shot: aim straight at it.
        assert_eq!(lead(muzzle, 1.0, target, vec2(5.0, 0.0)), target);
    }
}
