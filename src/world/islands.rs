//! Islands and sleeping.
//!
//! An island is a set of dynamic bodies connected by touching, non-sensor
//! contacts (static bodies do not join islands). A body's sleep timer grows
//! while its speed stays under `sleep_velocity` (angular speed counted at the
//! body's size) and resets otherwise; an island falls asleep when every body
//! in it has slept-timer ≥ `time_to_sleep`. A sleeping body is woken by any
//! setter, force or impulse, and by a touching contact with an awake moving
//! body; waking one body wakes its whole island at the next step.
//!
//! Union–find runs over bodies in handle order, so the result is deterministic.

use super::handles::BodyKey;
use super::{BodyKind, World};
use crate::math::Real;
use slotmap::SecondaryMap;

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

impl World {
    /// Largest distance from the body origin to any point of its colliders (m).
    pub(crate) fn body_radius(&self, key: BodyKey) -> Real {
        let Some(body) = self.bodies.get(key) else {
            return 0.0;
        };
        body.colliders
            .iter()
            .filter_map(|c| self.colliders.get(c.key))
            .map(|c| {
                (c.shape.bounding_radius() * c.local_pose.scale + c.local_pose.translation.norm())
                    * body.pose.scale
            })
            .fold(0.0, Real::max)
    }

    /// Updates sleep timers, puts resting islands to sleep and wakes islands
    /// touched by moving bodies. Returns (bodies put to sleep, bodies woken).
    pub(crate) fn update_sleep(&mut self, dt: Real) -> (Vec<BodyKey>, Vec<BodyKey>) {
        let settings = self.settings;
        let mut index: SecondaryMap<BodyKey, usize> = SecondaryMap::new();
        let mut keys = Vec::new();
        for (key, body) in &self.bodies {
            if body.kind == BodyKind::Dynamic {
                index.insert(key, keys.len());
                keys.push(key);
            }
        }
        let mut parent: Vec<usize> = (0..keys.len()).collect();
        let mut woken = Vec::new();
        for ((a, b), pair) in self.contacts.iter() {
            if !pair.touching || pair.sensor {
                continue;
            }
            let (Some(ca), Some(cb)) = (self.colliders.get(a.key), self.colliders.get(b.key))
            else {
                continue;
            };
            let (ka, kb) = (ca.body.key, cb.body.key);
            if let (Some(&ia), Some(&ib)) = (index.get(ka), index.get(kb)) {
                let (ra, rb) = (find(&mut parent, ia), find(&mut parent, ib));
                if ra != rb {
                    parent[ra.max(rb)] = ra.min(rb);
                }
            }
            // A sleeping body touched by an awake moving one wakes up.
            for (sleeper, other) in [(ka, kb), (kb, ka)] {
                let (Some(s), Some(o)) = (self.bodies.get(sleeper), self.bodies.get(other)) else {
                    continue;
                };
                if s.kind == BodyKind::Dynamic && !s.awake && o.awake && o.kind != BodyKind::Static
                {
                    woken.push(sleeper);
                }
            }
        }
        let mut island_ready = vec![true; keys.len()];
        let mut island_awake = vec![false; keys.len()];
        for (i, key) in keys.iter().enumerate() {
            let radius = self.body_radius(*key);
            let body = &mut self.bodies[*key];
            let slow = body.linear_velocity.norm() <= settings.sleep_velocity
                && body.angular_velocity.abs() * radius <= settings.sleep_velocity;
            if !body.can_sleep || !slow || !settings.sleeping {
                body.sleep_time = 0.0;
            } else if body.awake {
                body.sleep_time += dt;
            }
            let root = find(&mut parent, i);
            if body.sleep_time < settings.time_to_sleep {
                island_ready[root] = false;
            }
            if body.awake {
                island_awake[root] = true;
            }
        }
        for key in &woken {
            if let Some(&i) = index.get(*key) {
                let root = find(&mut parent, i);
                island_ready[root] = false;
                island_awake[root] = true;
            }
        }
        let mut slept = Vec::new();
        let mut woke = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let root = find(&mut parent, i);
            let body = &mut self.bodies[*key];
            if island_ready[root] && body.awake && settings.sleeping {
                body.awake = false;
                body.linear_velocity = crate::math::Vec2::zeros();
                body.angular_velocity = 0.0;
                slept.push(*key);
            } else if !island_ready[root] && island_awake[root] && !body.awake {
                body.awake = true;
                body.sleep_time = 0.0;
                woke.push(*key);
            }
        }
        (slept, woke)
    }
}
