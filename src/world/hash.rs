//! [`World::state_hash`]: a 64-bit FNV-1a hash of the simulated state's exact bits.

use super::World;

struct Fnv(u64);

impl Fnv {
    fn write_u32(&mut self, value: u32) {
        for byte in value.to_le_bytes() {
            self.0 ^= byte as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_f32(&mut self, value: f32) {
        self.write_u32(value.to_bits());
    }
}

impl World {
    /// A hash of the simulated state: every body's pose, velocities and sleep
    /// flag, and every projectile's position, velocity, lifetime and counts,
    /// bit for bit, in handle order. Equal hashes after equal inputs are the
    /// determinism check; the world's identity is not part of it.
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.write_u32(self.bodies.len() as u32);
        for (_, body) in &self.bodies {
            let c = body.pose.rotation.complex();
            for v in [
                body.pose.translation.x,
                body.pose.translation.y,
                c.re,
                c.im,
                body.pose.scale,
                body.linear_velocity.x,
                body.linear_velocity.y,
                body.angular_velocity,
            ] {
                h.write_f32(v);
            }
            h.write_u32(body.awake as u32);
        }
        h.write_u32(self.projectiles.len() as u32);
        for (_, projectile) in self.projectiles_in_order() {
            for v in [
                projectile.position.x,
                projectile.position.y,
                projectile.velocity.x,
                projectile.velocity.y,
                projectile.lifetime,
            ] {
                h.write_f32(v);
            }
            h.write_u32(projectile.pierce_left);
            h.write_u32(projectile.ricochets_left);
        }
        h.0
    }
}
