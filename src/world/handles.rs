//! Handles for bodies, colliders and projectiles.
//!
//! A handle is a generational slotmap key plus the id of the world that made
//! it. A handle of a removed object is refused (the slot's generation moved
//! on) and so is a handle of another world (its world id differs), so neither
//! can be mistaken for a live object that happens to reuse the slot.

use std::sync::atomic::{AtomicU32, Ordering};

slotmap::new_key_type! {
    pub(crate) struct BodyKey;
    pub(crate) struct ColliderKey;
    pub(crate) struct ProjectileKey;
}

/// Identifies one `World` instance; never part of the simulated state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct WorldId(u32);

impl WorldId {
    pub(crate) fn fresh() -> WorldId {
        static NEXT: AtomicU32 = AtomicU32::new(1);
        WorldId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $key:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub struct $name {
            pub(crate) key: $key,
            pub(crate) world: WorldId,
        }
    };
}

handle!(
    /// Names a body of one world.
    BodyHandle,
    BodyKey
);
handle!(
    /// Names a collider of one world.
    ColliderHandle,
    ColliderKey
);
handle!(
    /// Names a projectile of one world.
    ProjectileHandle,
    ProjectileKey
);

/// A slotmap key as one integer that orders like the key itself (slot
/// index, then version): comparing two of these is one integer compare.
#[inline]
pub(crate) fn key_order<K: slotmap::Key>(key: K) -> u64 {
    // `as_ffi` is `version << 32 | index`; swap the halves.
    key.data().as_ffi().rotate_left(32)
}

/// The slot index of a slotmap key: dense, below the map's slot count.
#[inline]
pub(crate) fn key_slot<K: slotmap::Key>(key: K) -> usize {
    key.data().as_ffi() as u32 as usize
}

/// The version of a slotmap key (odd, never 0).
#[inline]
pub(crate) fn key_version<K: slotmap::Key>(key: K) -> u32 {
    (key.data().as_ffi() >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    #[test]
    fn key_order_orders_like_the_keys() {
        let mut map: SlotMap<ColliderKey, u32> = SlotMap::with_key();
        let mut keys: Vec<ColliderKey> = (0..20).map(|i| map.insert(i)).collect();
        // Free and refill some slots so versions differ.
        for key in keys.drain(3..9) {
            map.remove(key);
        }
        keys.extend((0..10).map(|i| map.insert(100 + i)));
        for &a in &keys {
            assert!(key_slot(a) <= 24, "slots are dense");
            assert_eq!(key_version(a) % 2, 1, "live versions are odd");
            for &b in &keys {
                assert_eq!(key_order(a).cmp(&key_order(b)), a.cmp(&b));
            }
        }
    }
}
