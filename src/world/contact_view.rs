//! [`World::contacts`]: read-only views of the contact pairs of the last step,
//! for debug drawing and hit reports. Nothing here changes the world.

use super::World;
use super::handles::ColliderHandle;
use crate::query::Manifold;

/// One contact pair of the last step, as the narrowphase found it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactView<'a> {
    /// The first collider (the pair is ordered by handle).
    pub collider_a: ColliderHandle,
    /// The second collider.
    pub collider_b: ColliderHandle,
    /// Normal from A to B and the points (world, metres); points with
    /// negative depth are speculative (not yet touching).
    pub manifold: &'a Manifold,
    /// True when some point has depth ≥ 0.
    pub touching: bool,
    /// True when either collider is a sensor (reported, never pushed).
    pub sensor: bool,
}

impl World {
    /// The contact pairs of the last step that have a manifold, in handle
    /// order (deterministic).
    pub fn contacts(&self) -> impl Iterator<Item = ContactView<'_>> {
        self.contacts.iter().filter_map(|((a, b), pair)| {
            pair.manifold.as_ref().map(|manifold| ContactView {
                collider_a: *a,
                collider_b: *b,
                manifold,
                touching: pair.touching,
                sensor: pair.sensor,
            })
        })
    }
}
