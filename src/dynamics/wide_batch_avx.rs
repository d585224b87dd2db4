//! [`Batch`]'s warm start and solve with all eight lanes at once in AVX
//! registers (see `wide_oct.rs`): the formulas of `wide_batch.rs`, in the
//! same order, so the same results bit for bit.

use super::Batch;
use crate::dynamics::body_rows::Bodies;
use crate::dynamics::wide_oct::{Oct, OctBody, OctSoftness};

impl<const P: usize> Batch<P> {
    /// The bodies of both sides.
    #[inline]
    #[target_feature(enable = "avx")]
    fn gather_oct<B: Bodies + ?Sized>(&self, bodies: &B) -> (OctBody, OctBody) {
        (
            OctBody::gather(
                bodies,
                &self.body_a,
                Some(&self.inv_mass_a),
                &self.inv_inertia_a,
            ),
            OctBody::gather(
                bodies,
                &self.body_b,
                Some(&self.inv_mass_b),
                &self.inv_inertia_b,
            ),
        )
    }

    /// [`Batch::warm_start`], eight lanes at once.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(in crate::dynamics) fn warm_start_oct<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        let (mut a, mut b) = self.gather_oct(bodies);
        let (nx, ny) = (Oct::load(&self.normal_x), Oct::load(&self.normal_y));
        for p in &self.points {
            let normal = Oct::load(&p.normal_impulse);
            let tangent = Oct::load(&p.tangent_impulse);
            // tangent = -perp(n) = (ny, -nx)
            let jx = nx.mul(normal).add(ny.mul(tangent));
            let jy = ny.mul(normal).sub(nx.mul(tangent));
            a.pull(Oct::load(&p.anchor_a_x), Oct::load(&p.anchor_a_y), jx, jy);
            b.push(Oct::load(&p.anchor_b_x), Oct::load(&p.anchor_b_y), jx, jy);
        }
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }

    /// [`Batch::solve`], eight lanes at once.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(in crate::dynamics) fn solve_oct<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        soft: &OctSoftness,
    ) {
        let (mut a, mut b) = self.gather_oct(bodies);
        let sides = BIAS.then(|| soft.sides(&a, &b));
        let (nx, ny) = (Oct::load(&self.normal_x), Oct::load(&self.normal_y));
        for p in &mut self.points {
            let (rax, ray) = (Oct::load(&p.anchor_a_x), Oct::load(&p.anchor_a_y));
            let (rbx, rby) = (Oct::load(&p.anchor_b_x), Oct::load(&p.anchor_b_y));
            // Current separation from the body deltas within the step.
            let (ax, ay) = a.moved(rax, ray);
            let (bx, by) = b.moved(rbx, rby);
            let separation = bx
                .sub(ax)
                .mul(nx)
                .add(by.sub(ay).mul(ny))
                .add(Oct::load(&p.base_separation));
            let (bias, mass_scale, impulse_scale) = soft.terms(sides.as_ref(), separation);
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let normal_speed = vbx.sub(vax).mul(nx).add(vby.sub(vay).mul(ny));
            let normal_impulse = Oct::load(&p.normal_impulse);
            let impulse = Oct::load(&p.normal_mass)
                .mul(mass_scale)
                .mul(normal_speed.add(bias))
                .neg()
                .sub(impulse_scale.mul(normal_impulse));
            let accumulated = normal_impulse.add(impulse).max(Oct::zero());
            let applied = accumulated.sub(normal_impulse);
            accumulated.put(&mut p.normal_impulse);
            Oct::load(&p.max_normal_impulse)
                .max(applied)
                .put(&mut p.max_normal_impulse);
            let (jx, jy) = (nx.mul(applied), ny.mul(applied));
            a.pull(rax, ray, jx, jy);
            b.push(rbx, rby, jx, jy);
        }
        let (tx, ty) = (ny, nx.neg());
        let friction = Oct::load(&self.friction);
        for p in &mut self.points {
            let (rax, ray) = (Oct::load(&p.anchor_a_x), Oct::load(&p.anchor_a_y));
            let (rbx, rby) = (Oct::load(&p.anchor_b_x), Oct::load(&p.anchor_b_y));
            let (vax, vay) = a.point_velocity(rax, ray);
            let (vbx, vby) = b.point_velocity(rbx, rby);
            let tangent_speed = vbx.sub(vax).mul(tx).add(vby.sub(vay).mul(ty));
            let impulse = Oct::load(&p.tangent_mass).mul(tangent_speed).neg();
            let limit = friction.mul(Oct::load(&p.normal_impulse));
            let tangent_impulse = Oct::load(&p.tangent_impulse);
            let accumulated = tangent_impulse.add(impulse).max(limit.neg()).min(limit);
            let applied = accumulated.sub(tangent_impulse);
            accumulated.put(&mut p.tangent_impulse);
            let (jx, jy) = (tx.mul(applied), ty.mul(applied));
            a.pull(rax, ray, jx, jy);
            b.push(rbx, rby, jx, jy);
        }
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }
}
