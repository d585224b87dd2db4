//! What the comparison asks of an engine: build a [`SceneDef`], step it,
//! report where its dynamic bodies are, and answer shots.

use crate::scenes::{SceneDef, ShotDef};

/// A scene query both engines can answer for a [`ShotDef`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastKind {
    /// A disc of [`crate::scenes::SHOT_RADIUS`] swept along the segment;
    /// first hit with point and normal (circlet's thick shot).
    Thick,
    /// A ray along the segment, first hit (solid: a start inside counts at 0).
    Ray,
    /// As [`CastKind::Ray`], with the hit's normal.
    RayNormal,
    /// A ball of [`crate::scenes::SHOT_RADIUS`] cast along the segment
    /// (rapier's shape cast), first hit.
    ShapeCast,
}

/// One physics engine behind the comparison's scenes.
pub trait Engine: Sized {
    /// Name in the report.
    const NAME: &'static str;

    /// Builds `scene`: every body and collider, the material, sleeping,
    /// time step and gravity.
    fn build(scene: &SceneDef) -> Self;

    /// Makes scene queries see the bodies where they are now (after `build`
    /// without a step).
    fn prepare_queries(&mut self);

    /// Advances the scene by its time step.
    fn step(&mut self);

    /// Positions of the dynamic bodies' origins (m, world), in scene order.
    fn positions(&self) -> Vec<[f32; 2]>;

    /// Number of bodies (static and dynamic) in the engine.
    fn body_count(&self) -> usize;

    /// Number of dynamic bodies awake.
    fn awake_count(&self) -> usize;

    /// A hash of the whole simulated state, where the engine has one
    /// (circlet's `World::state_hash`): two runs that give the same hash
    /// simulated the same thing bit for bit.
    fn state_hash(&self) -> Option<u64> {
        None
    }

    /// The casts this engine offers, in report order.
    fn cast_kinds() -> &'static [CastKind];

    /// Casts every shot as `kind`; `out[i]` is the first hit's fraction of
    /// the segment (in `[0, 1]`) or `None` for a miss. `out` is cleared first.
    fn cast(&self, shots: &[ShotDef], kind: CastKind, out: &mut Vec<Option<f32>>);
}
