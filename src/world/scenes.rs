//! Headless scene builders shared by tests, benchmarks and examples.
//!
//! Every builder is deterministic (positions come from a fixed integer hash,
//! never a random generator) and returns the world with the handles of the
//! bodies it dropped, in creation order.
//!
//! # Examples
//! ```
//! use circlet::world::WorldSettings;
//! use circlet::world::scenes::ball_pit;
//! let (mut world, balls) = ball_pit(WorldSettings::default(), 200, 0.5, 20.0).unwrap();
//! assert_eq!(balls.len(), 200);
//! for _ in 0..10 {
//!     world.step(1.0 / 60.0).unwrap();
//! }
//! assert!(world.is_finite());
//! ```

use super::{BodyDef, BodyHandle, ColliderDef, World, WorldError, WorldSettings};
use crate::math::{Pose, Real, Vec2, vec2};
use crate::shape::{Aabb, Capsule, Circle, ConvexPolygon, Shape};

/// Thickness of the static walls the builders put around a scene (metres).
pub const WALL_THICKNESS: Real = 1.0;

/// A deterministic value in `[0, 1)` from an integer (a 32-bit mix).
pub fn jitter(seed: u32) -> Real {
    let mut x = seed.wrapping_mul(0x9e37_79b9) ^ 0x85eb_ca6b;
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    (x >> 8) as Real / (1u32 << 24) as Real
}

/// Adds a static box from `min` to `max` (world) and returns its body.
///
/// # Errors
/// As [`World::add_body`] and [`World::add_collider`], or a [`WorldError::Shape`]
/// for an empty box.
pub fn add_static_box(world: &mut World, min: Vec2, max: Vec2) -> Result<BodyHandle, WorldError> {
    let body = world.add_body(BodyDef::fixed(Pose::IDENTITY))?;
    world.add_collider(body, ColliderDef::new(Aabb::new(min, max)?))?;
    Ok(body)
}

/// A floor and two walls around the open-topped region `[-half_width,
/// half_width] × [0, height]` (world, metres).
///
/// # Errors
/// As [`add_static_box`].
pub fn open_box(world: &mut World, half_width: Real, height: Real) -> Result<(), WorldError> {
    let t = WALL_THICKNESS;
    add_static_box(world, vec2(-half_width - t, -t), vec2(half_width + t, 0.0))?;
    add_static_box(world, vec2(-half_width - t, 0.0), vec2(-half_width, height))?;
    add_static_box(world, vec2(half_width, 0.0), vec2(half_width + t, height))?;
    Ok(())
}

/// `count` circles of `radius` dropped in rows into an open box `width`
/// wide (walls tall enough to hold them), on a slightly jittered grid.
///
/// # Errors
/// [`WorldError`] for settings, radius or width the world refuses (e.g. a
/// radius that is not > 0, or a width too small for one ball per row).
pub fn ball_pit(
    settings: WorldSettings,
    count: usize,
    radius: Real,
    width: Real,
) -> Result<(World, Vec<BodyHandle>), WorldError> {
    let mut world = World::new(settings)?;
    let spacing = 2.2 * radius;
    let per_row = ((width - spacing) / spacing).floor().max(0.0) as usize;
    if per_row == 0 {
        return Err(WorldError::OutOfRange {
            field: "width",
            expected: "wide enough for a ball",
            value: width,
        });
    }
    let rows = count.div_ceil(per_row);
    let half = width * 0.5;
    open_box(&mut world, half, rows as Real * spacing + 4.0 * radius)?;
    let disc = Circle::new(Vec2::zeros(), radius)?;
    let mut balls = Vec::new();
    for i in 0..count {
        let (column, row) = (i % per_row, i / per_row);
        let x = -half + spacing * (column as Real + 1.0) + (jitter(i as u32) - 0.5) * 0.1 * radius;
        let y = radius * 1.1 + spacing * row as Real;
        let body = world.add_body(BodyDef::dynamic(Pose::from_translation(vec2(x, y))))?;
        world.add_collider(body, ColliderDef::new(disc))?;
        balls.push(body);
    }
    Ok((world, balls))
}

/// A pyramid of square boxes of side `size` with `base` boxes in the
/// bottom row, standing on a wide static floor.
///
/// # Errors
/// [`WorldError`] for settings or a size the world refuses.
pub fn pyramid(
    settings: WorldSettings,
    base: usize,
    size: Real,
) -> Result<(World, Vec<BodyHandle>), WorldError> {
    let mut world = World::new(settings)?;
    let reach = base as Real * size + 10.0;
    add_static_box(&mut world, vec2(-reach, -WALL_THICKNESS), vec2(reach, 0.0))?;
    let half = size * 0.5;
    let square = ConvexPolygon::rectangle(vec2(-half, -half), vec2(half, half))?;
    let mut boxes = Vec::new();
    for row in 0..base {
        let in_row = base - row;
        for i in 0..in_row {
            let x = (i as Real - in_row as Real * 0.5 + 0.5) * size;
            let y = half + row as Real * size;
            let body = world.add_body(BodyDef::dynamic(Pose::from_translation(vec2(x, y))))?;
            world.add_collider(body, ColliderDef::new(square.clone()))?;
            boxes.push(body);
        }
    }
    Ok((world, boxes))
}

/// `count` bodies of mixed kinds (circles, boxes, capsules, hexagons, and
/// two-collider dumbbells) thrown with jittered velocities and spins into
/// an open box with a static ramp: contacts of every kind pair, rotation,
/// friction and sleeping all take part. Used by the determinism tests.
///
/// # Errors
/// [`WorldError`] for settings the world refuses.
pub fn mixed_pile(
    settings: WorldSettings,
    count: usize,
) -> Result<(World, Vec<BodyHandle>), WorldError> {
    let mut world = World::new(settings)?;
    let width = ((count as Real).sqrt() * 2.0).max(10.0);
    let half = width * 0.5;
    let per_row = (width / 1.5).floor().max(1.0) as usize;
    let rows = count.div_ceil(per_row);
    open_box(&mut world, half, rows as Real * 1.5 + 5.0)?;
    let ramp = world.add_body(BodyDef::fixed(Pose::new(vec2(-half * 0.4, 2.0), -0.3)))?;
    world.add_collider(
        ramp,
        ColliderDef::new(Aabb::new(vec2(-half * 0.3, -0.2), vec2(half * 0.3, 0.2))?),
    )?;
    let shapes: [Shape; 4] = [
        Circle::new(Vec2::zeros(), 0.4)?.into(),
        ConvexPolygon::rectangle(vec2(-0.45, -0.3), vec2(0.45, 0.3))?.into(),
        Capsule::new(vec2(-0.3, 0.0), vec2(0.3, 0.0), 0.2)?.into(),
        ConvexPolygon::regular(6, 0.45, 0.0)?.into(),
    ];
    let mut bodies = Vec::new();
    for i in 0..count {
        let (column, row) = (i % per_row, i / per_row);
        let x = -half + 1.5 * (column as Real + 0.5) + (jitter(3 * i as u32) - 0.5) * 0.2;
        let y = 4.0 + 1.5 * row as Real;
        let velocity = vec2(jitter(3 * i as u32 + 1) - 0.5, 0.0) * 4.0;
        let spin = (jitter(3 * i as u32 + 2) - 0.5) * 6.0;
        let def = BodyDef::dynamic(Pose::new(vec2(x, y), spin)).with_velocity(velocity, spin);
        let body = world.add_body(def)?;
        if i % 5 == 4 {
            // A dumbbell: two discs on one body.
            let disc = Circle::new(Vec2::zeros(), 0.25)?;
            for side in [-0.35, 0.35] {
                world.add_collider(
                    body,
                    ColliderDef::new(disc).at(Pose::from_translation(vec2(side, 0.0))),
                )?;
            }
        } else {
            world.add_collider(body, ColliderDef::new(shapes[i % 5].clone()))?;
        }
        bodies.push(body);
    }
    Ok((world, bodies))
}

/// The ramp of a [`mixed_pile`]: its last fixed body.
#[cfg(test)]
pub(crate) fn mixed_pile_ramp(world: &World) -> BodyHandle {
    world
        .bodies()
        .filter(|(_, b)| !b.is_dynamic())
        .map(|(h, _)| h)
        .last()
        .expect("a mixed pile has a ramp")
}

/// Steps `world` by `dt` until every body sleeps or `max_steps` were
/// taken; returns the number of steps taken.
///
/// # Errors
/// As [`World::step`].
pub fn settle(world: &mut World, dt: Real, max_steps: u64) -> Result<u64, WorldError> {
    for taken in 0..max_steps {
        if world.bodies().all(|(_, body)| !body.is_awake()) {
            return Ok(taken);
        }
        world.step(dt)?;
    }
    Ok(max_steps)
}

/// Wakes every dynamic body (keeping its velocity).
///
/// # Errors
/// None in practice: every handle comes from the world itself.
pub fn wake_all(world: &mut World) -> Result<(), WorldError> {
    let bodies: Vec<(BodyHandle, Vec2, Real)> = world
        .bodies()
        .filter(|(_, body)| body.kind() == super::BodyKind::Dynamic)
        .map(|(handle, body)| (handle, body.linear_velocity(), body.angular_velocity()))
        .collect();
    for (handle, linear, angular) in bodies {
        world.set_velocity(handle, linear, angular)?;
    }
    Ok(())
}
