//! Snapshots: the whole simulated state, restorable bit for bit.
//!
//! A restored world continues exactly as the original did from the moment of
//! the snapshot (same bodies, contacts, warm-starting impulses, sleep timers
//! and step count), which is what rollback networking needs. Handles stay
//! valid across a restore into the same world.

use super::World;

/// A copy of a world's simulated state.
#[derive(Clone, Debug)]
pub struct Snapshot {
    state: World,
}

impl World {
    /// Captures the simulated state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.clone(),
        }
    }

    /// Restores a captured state. This world keeps its identity, so handles
    /// it issued before the snapshot stay valid; handles issued by the world
    /// the snapshot came from (if another) are refused afterwards.
    pub fn restore(&mut self, snapshot: &Snapshot) {
        let id = self.id;
        *self = snapshot.state.clone();
        self.id = id;
    }
}
