//! [`RoundBatch`]'s warm start and solve with all eight lanes at once in
//! AVX registers (see `wide_oct.rs`): the formulas of `wide_round.rs`, in
//! the same order, so the same results bit for bit.

use super::RoundBatch;
use crate::dynamics::body_rows::Bodies;
use crate::dynamics::wide_oct::{Oct, OctBody, OctSoftness, relative_speed};

/// Applies the linear part of impulse (`jx`, `jy`) to B and its opposite
/// to A, in every lane.
#[inline]
#[target_feature(enable = "avx")]
fn push_linear(a: &mut OctBody, b: &mut OctBody, jx: Oct, jy: Oct) {
    a.vx = a.vx.sub(jx.mul(a.inv_mass));
    a.vy = a.vy.sub(jy.mul(a.inv_mass));
    b.vx = b.vx.add(jx.mul(b.inv_mass));
    b.vy = b.vy.add(jy.mul(b.inv_mass));
}

impl RoundBatch {
    /// The bodies of both sides.
    #[inline]
    #[target_feature(enable = "avx")]
    fn gather_oct<B: Bodies + ?Sized>(&self, bodies: &B) -> (OctBody, OctBody) {
        (
            OctBody::gather(bodies, &self.body_a, None, &self.inv_inertia_a),
            OctBody::gather(bodies, &self.body_b, None, &self.inv_inertia_b),
        )
    }

    /// [`RoundBatch::warm_start`], eight lanes at once.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(in crate::dynamics) fn warm_start_oct<B: Bodies + ?Sized>(&self, bodies: &mut B) {
        let (mut a, mut b) = self.gather_oct(bodies);
        let (nx, ny) = (Oct::load(&self.normal_x), Oct::load(&self.normal_y));
        let normal = Oct::load(&self.normal_impulse);
        let tangent = Oct::load(&self.tangent_impulse);
        let jx = nx.mul(normal).add(ny.mul(tangent));
        let jy = ny.mul(normal).sub(nx.mul(tangent));
        push_linear(&mut a, &mut b, jx, jy);
        a.w =
            a.w.add(a.inv_inertia.mul(Oct::load(&self.arm_a).mul(tangent)));
        b.w =
            b.w.sub(b.inv_inertia.mul(Oct::load(&self.arm_b).mul(tangent)));
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }

    /// [`RoundBatch::solve`], eight lanes at once.
    #[inline]
    #[target_feature(enable = "avx")]
    pub(in crate::dynamics) fn solve_oct<const BIAS: bool, B: Bodies + ?Sized>(
        &mut self,
        bodies: &mut B,
        soft: &OctSoftness,
    ) {
        let (mut a, mut b) = self.gather_oct(bodies);
        let (nx, ny) = (Oct::load(&self.normal_x), Oct::load(&self.normal_y));
        let (arm_a, arm_b) = (Oct::load(&self.arm_a), Oct::load(&self.arm_b));
        let separation = b
            .dpx
            .sub(a.dpx)
            .mul(nx)
            .add(b.dpy.sub(a.dpy).mul(ny))
            .add(Oct::load(&self.base_separation));
        let sides = BIAS.then(|| soft.sides(&a, &b));
        let (bias, mass_scale, impulse_scale) = soft.terms(sides.as_ref(), separation);
        let normal_speed = relative_speed(&a, &b, nx, ny);
        let normal_impulse = Oct::load(&self.normal_impulse);
        let impulse = Oct::load(&self.normal_mass)
            .mul(mass_scale)
            .mul(normal_speed.add(bias))
            .neg()
            .sub(impulse_scale.mul(normal_impulse));
        let accumulated = normal_impulse.add(impulse).max(Oct::zero());
        let applied = accumulated.sub(normal_impulse);
        accumulated.put(&mut self.normal_impulse);
        Oct::load(&self.max_normal_impulse)
            .max(applied)
            .put(&mut self.max_normal_impulse);
        push_linear(&mut a, &mut b, nx.mul(applied), ny.mul(applied));

        let (tx, ty) = (ny, nx.neg());
        let tangent_speed = relative_speed(&a, &b, tx, ty).add(a.w.mul(arm_a).sub(b.w.mul(arm_b)));
        let impulse = Oct::load(&self.tangent_mass).mul(tangent_speed).neg();
        let limit = Oct::load(&self.friction).mul(accumulated);
        let tangent_impulse = Oct::load(&self.tangent_impulse);
        let accumulated = tangent_impulse.add(impulse).max(limit.neg()).min(limit);
        let applied = accumulated.sub(tangent_impulse);
        accumulated.put(&mut self.tangent_impulse);
        push_linear(&mut a, &mut b, tx.mul(applied), ty.mul(applied));
        a.w = a.w.add(a.inv_inertia.mul(arm_a.mul(applied)));
        b.w = b.w.sub(b.inv_inertia.mul(arm_b.mul(applied)));
        a.scatter(bodies, &self.body_a);
        b.scatter(bodies, &self.body_b);
    }
}
