//! [`F4`]: four `f32` lanes in a plain array, with the few operations the
//! wide contact solver needs. Every operation is a fixed four-step loop with
//! no branches, which the compiler turns into one SSE instruction (the
//! baseline of x86-64; NEON on aarch64) without any `unsafe` or intrinsics.
//!
//! `max`/`min` are plain comparisons (`a > b ? a : b`), which is what the
//! SIMD instructions do; they differ from `f32::max` only for NaN, which
//! the solver never holds.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Four `f32` lanes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);

/// Four lane flags, the result of a comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct M4(pub [bool; 4]);

impl F4 {
    /// Every lane zero.
    pub const ZERO: F4 = F4([0.0; 4]);
    /// Every lane one.
    pub const ONE: F4 = F4([1.0; 4]);

    /// Every lane `v`.
    #[inline(always)]
    pub fn splat(v: f32) -> F4 {
        F4([v; 4])
    }

    #[inline(always)]
    fn map2(self, other: F4, f: impl Fn(f32, f32) -> f32) -> F4 {
        F4([
            f(self.0[0], other.0[0]),
            f(self.0[1], other.0[1]),
            f(self.0[2], other.0[2]),
            f(self.0[3], other.0[3]),
        ])
    }

    /// Lane-wise larger value.
    #[inline(always)]
    pub fn max(self, other: F4) -> F4 {
        self.map2(other, |a, b| if a > b { a } else { b })
    }

    /// Lane-wise smaller value.
    #[inline(always)]
    pub fn min(self, other: F4) -> F4 {
        self.map2(other, |a, b| if a < b { a } else { b })
    }

    /// Lanes where `self > other`.
    #[inline(always)]
    pub fn gt(self, other: F4) -> M4 {
        M4([
            self.0[0] > other.0[0],
            self.0[1] > other.0[1],
            self.0[2] > other.0[2],
            self.0[3] > other.0[3],
        ])
    }
}

impl F4 {
    /// Lanes where `self <= other`.
    #[inline(always)]
    pub fn le(self, other: F4) -> M4 {
        M4([
            self.0[0] <= other.0[0],
            self.0[1] <= other.0[1],
            self.0[2] <= other.0[2],
            self.0[3] <= other.0[3],
        ])
    }

    /// Lanes that are not zero.
    #[inline(always)]
    pub fn nonzero(self) -> M4 {
        M4([
            self.0[0] != 0.0,
            self.0[1] != 0.0,
            self.0[2] != 0.0,
            self.0[3] != 0.0,
        ])
    }
}

impl M4 {
    /// Lanes flagged in both.
    #[inline(always)]
    pub fn and(self, other: M4) -> M4 {
        M4([
            self.0[0] && other.0[0],
            self.0[1] && other.0[1],
            self.0[2] && other.0[2],
            self.0[3] && other.0[3],
        ])
    }

    /// Some lane is flagged.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().any(|&f| f)
    }

    /// `yes` in the flagged lanes, `no` elsewhere.
    #[inline(always)]
    pub fn select(self, yes: F4, no: F4) -> F4 {
        F4([
            if self.0[0] { yes.0[0] } else { no.0[0] },
            if self.0[1] { yes.0[1] } else { no.0[1] },
            if self.0[2] { yes.0[2] } else { no.0[2] },
            if self.0[3] { yes.0[3] } else { no.0[3] },
        ])
    }
}

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, other: F4) -> F4 {
        self.map2(other, |a, b| a + b)
    }
}

impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, other: F4) -> F4 {
        self.map2(other, |a, b| a - b)
    }
}

impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, other: F4) -> F4 {
        self.map2(other, |a, b| a * b)
    }
}

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4([-self.0[0], -self.0[1], -self.0[2], -self.0[3]])
    }
}

impl AddAssign for F4 {
    #[inline(always)]
    fn add_assign(&mut self, other: F4) {
        *self = *self + other;
    }
}

impl SubAssign for F4 {
    #[inline(always)]
    fn sub_assign(&mut self, other: F4) {
        *self = *self - other;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_independent() {
        let a = F4([1.0, -2.0, 3.0, 0.0]);
        let b = F4([0.5, 4.0, -1.0, 0.0]);
        assert_eq!(a + b, F4([1.5, 2.0, 2.0, 0.0]));
        assert_eq!(a - b, F4([0.5, -6.0, 4.0, 0.0]));
        assert_eq!(a * b, F4([0.5, -8.0, -3.0, 0.0]));
        assert_eq!(a.max(b), F4([1.0, 4.0, 3.0, 0.0]));
        assert_eq!(a.min(b), F4([0.5, -2.0, -1.0, 0.0]));
        assert_eq!(-a, F4([-1.0, 2.0, -3.0, -0.0]));
        let m = a.gt(b);
        assert_eq!(m, M4([true, false, true, false]));
        assert_eq!(m.select(a, b), F4([1.0, 4.0, 3.0, 0.0]));
    }
}
