//! [`Quad`]: four `f32` lanes in one SSE register (on x86-64; a plain
//! array elsewhere), with the operations the lane solver's passes need.
//!
//! A batch of the lane solver holds eight lanes ([`F8`]); its passes work
//! through it four lanes at a time, one register a value. Eight lanes at
//! once need two registers a value, more than the sixteen there are for
//! the two bodies of a contact and its impulses: the compiler then spilt
//! half the values to the stack and, in the warm start, split the lanes
//! into pairs. Four at a time, the same arithmetic takes half the
//! instructions.
//!
//! Every operation is the IEEE operation of each lane on its own, as in
//! [`F8`]: `max`/`min` are `a > b ? a : b` and `a < b ? a : b` (what
//! `maxps`/`minps` do), comparisons give all-ones or all-zeros lanes
//! ([`QuadMask`]), negation flips the sign bit. So a pass written with
//! quads gives bit for bit what the same pass gives with [`F8`] (a test
//! checks every operation against the plain lanes).

use super::lanes::F8;

#[cfg(target_arch = "x86_64")]
mod imp {
    use std::arch::x86_64::{
        __m128, _mm_add_ps, _mm_and_ps, _mm_andnot_ps, _mm_cmpgt_ps, _mm_cmple_ps, _mm_cmpneq_ps,
        _mm_div_ps, _mm_load_ps, _mm_max_ps, _mm_min_ps, _mm_movemask_ps, _mm_mul_ps, _mm_or_ps,
        _mm_set1_ps, _mm_setzero_ps, _mm_store_ps, _mm_sub_ps, _mm_xor_ps,
    };

    // SAFETY (every `unsafe` block of this module): SSE is part of every
    // x86-64 processor, and these intrinsics only compute on registers,
    // except the aligned loads and stores, whose pointers are checked where
    // they are made.

    /// Four `f32` lanes in one register.
    #[derive(Clone, Copy, Debug)]
    pub struct Quad(pub(in crate::dynamics) __m128);

    /// Four lane flags, each all ones or all zeros.
    #[derive(Clone, Copy, Debug)]
    pub struct QuadMask(pub(super) __m128);

    impl Quad {
        /// Every lane `v`.
        #[inline(always)]
        pub fn splat(v: f32) -> Quad {
            Quad(unsafe { _mm_set1_ps(v) })
        }

        /// Every lane zero.
        #[inline(always)]
        pub fn zero() -> Quad {
            Quad(unsafe { _mm_setzero_ps() })
        }

        /// Lanes `4 h .. 4 h + 4` of `lanes` (`h` is 0 or 1).
        #[inline(always)]
        pub fn half(lanes: &super::F8, h: usize) -> Quad {
            let quarter: &[f32; 4] = super::half_of(lanes, h);
            // `F8` is 32-byte aligned, so each half is 16-byte aligned.
            Quad(unsafe { _mm_load_ps(quarter.as_ptr()) })
        }

        /// Writes the lanes into lanes `4 h .. 4 h + 4` of `lanes`.
        #[inline(always)]
        pub fn put(self, lanes: &mut super::F8, h: usize) {
            let quarter: &mut [f32; 4] = super::half_of_mut(lanes, h);
            unsafe { _mm_store_ps(quarter.as_mut_ptr(), self.0) }
        }

        #[inline(always)]
        pub fn add(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_add_ps(self.0, other.0) })
        }

        #[inline(always)]
        pub fn sub(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_sub_ps(self.0, other.0) })
        }

        #[inline(always)]
        pub fn mul(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_mul_ps(self.0, other.0) })
        }

        #[inline(always)]
        pub fn div(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_div_ps(self.0, other.0) })
        }

        #[inline(always)]
        pub fn neg(self) -> Quad {
            Quad(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
        }

        /// Lane-wise `f32::abs` (the sign bit cleared).
        #[inline(always)]
        pub fn abs(self) -> Quad {
            Quad(unsafe { _mm_andnot_ps(_mm_set1_ps(-0.0), self.0) })
        }

        /// Lane-wise `f32::copysign(self, sign)`.
        #[inline(always)]
        pub fn copysign(self, sign: Quad) -> Quad {
            unsafe {
                let bit = _mm_set1_ps(-0.0);
                Quad(_mm_or_ps(
                    _mm_andnot_ps(bit, self.0),
                    _mm_and_ps(bit, sign.0),
                ))
            }
        }

        /// Lane-wise `self > other ? self : other`.
        #[inline(always)]
        pub fn max(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_max_ps(self.0, other.0) })
        }

        /// Lane-wise `self < other ? self : other`.
        #[inline(always)]
        pub fn min(self, other: Quad) -> Quad {
            Quad(unsafe { _mm_min_ps(self.0, other.0) })
        }

        /// Lanes where `self > other`.
        #[inline(always)]
        pub fn gt(self, other: Quad) -> QuadMask {
            QuadMask(unsafe { _mm_cmpgt_ps(self.0, other.0) })
        }

        /// Lanes where `self <= other`.
        #[inline(always)]
        pub fn le(self, other: Quad) -> QuadMask {
            QuadMask(unsafe { _mm_cmple_ps(self.0, other.0) })
        }

        /// Lanes that are not zero (NaN is not zero).
        #[inline(always)]
        pub fn nonzero(self) -> QuadMask {
            QuadMask(unsafe { _mm_cmpneq_ps(self.0, _mm_setzero_ps()) })
        }
    }

    impl QuadMask {
        #[inline(always)]
        pub fn and(self, other: QuadMask) -> QuadMask {
            QuadMask(unsafe { _mm_and_ps(self.0, other.0) })
        }

        #[inline(always)]
        pub fn or(self, other: QuadMask) -> QuadMask {
            QuadMask(unsafe { _mm_or_ps(self.0, other.0) })
        }

        /// `yes` in the flagged lanes, `no` elsewhere (their bits, as they are).
        #[inline(always)]
        pub fn select(self, yes: Quad, no: Quad) -> Quad {
            Quad(unsafe { _mm_or_ps(_mm_and_ps(self.0, yes.0), _mm_andnot_ps(self.0, no.0)) })
        }

        /// Bit `l` set for each flagged lane `l`.
        #[inline(always)]
        pub fn bits(self) -> u32 {
            (unsafe { _mm_movemask_ps(self.0) }) as u32
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
mod imp {
    /// Four `f32` lanes.
    #[derive(Clone, Copy, Debug)]
    #[repr(C, align(16))]
    pub struct Quad(pub(in crate::dynamics) [f32; 4]);

    /// Four lane flags, each all ones or all zeros.
    #[derive(Clone, Copy, Debug)]
    #[repr(C, align(16))]
    pub struct QuadMask(pub(super) [u32; 4]);

    impl Quad {
        #[inline(always)]
        fn map2(self, other: Quad, f: impl Fn(f32, f32) -> f32) -> Quad {
            Quad(std::array::from_fn(|i| f(self.0[i], other.0[i])))
        }

        #[inline(always)]
        fn flags(self, other: Quad, f: impl Fn(f32, f32) -> bool) -> QuadMask {
            QuadMask(std::array::from_fn(|i| {
                if f(self.0[i], other.0[i]) {
                    u32::MAX
                } else {
                    0
                }
            }))
        }

        /// Every lane `v`.
        #[inline(always)]
        pub fn splat(v: f32) -> Quad {
            Quad([v; 4])
        }

        /// Every lane zero.
        #[inline(always)]
        pub fn zero() -> Quad {
            Quad([0.0; 4])
        }

        /// Lanes `4 h .. 4 h + 4` of `lanes` (`h` is 0 or 1).
        #[inline(always)]
        pub fn half(lanes: &super::F8, h: usize) -> Quad {
            Quad(*super::half_of(lanes, h))
        }

        /// Writes the lanes into lanes `4 h .. 4 h + 4` of `lanes`.
        #[inline(always)]
        pub fn put(self, lanes: &mut super::F8, h: usize) {
            *super::half_of_mut(lanes, h) = self.0;
        }

        #[inline(always)]
        pub fn add(self, other: Quad) -> Quad {
            self.map2(other, |a, b| a + b)
        }

        #[inline(always)]
        pub fn sub(self, other: Quad) -> Quad {
            self.map2(other, |a, b| a - b)
        }

        #[inline(always)]
        pub fn mul(self, other: Quad) -> Quad {
            self.map2(other, |a, b| a * b)
        }

        #[inline(always)]
        pub fn div(self, other: Quad) -> Quad {
            self.map2(other, |a, b| a / b)
        }

        #[inline(always)]
        pub fn neg(self) -> Quad {
            Quad(self.0.map(|a| -a))
        }

        /// Lane-wise `f32::abs` (the sign bit cleared).
        #[inline(always)]
        pub fn abs(self) -> Quad {
            Quad(self.0.map(f32::abs))
        }

        /// Lane-wise `f32::copysign(self, sign)`.
        #[inline(always)]
        pub fn copysign(self, sign: Quad) -> Quad {
            self.map2(sign, f32::copysign)
        }

        /// Lane-wise `self > other ? self : other`.
        #[inline(always)]
        pub fn max(self, other: Quad) -> Quad {
            self.map2(other, |a, b| if a > b { a } else { b })
        }

        /// Lane-wise `self < other ? self : other`.
        #[inline(always)]
        pub fn min(self, other: Quad) -> Quad {
            self.map2(other, |a, b| if a < b { a } else { b })
        }

        /// Lanes where `self > other`.
        #[inline(always)]
        pub fn gt(self, other: Quad) -> QuadMask {
            self.flags(other, |a, b| a > b)
        }

        /// Lanes where `self <= other`.
        #[inline(always)]
        pub fn le(self, other: Quad) -> QuadMask {
            self.flags(other, |a, b| a <= b)
        }

        /// Lanes that are not zero (NaN is not zero).
        #[inline(always)]
        pub fn nonzero(self) -> QuadMask {
            self.flags(Quad::zero(), |a, b| a != b)
        }
    }

    impl QuadMask {
        #[inline(always)]
        pub fn and(self, other: QuadMask) -> QuadMask {
            QuadMask(std::array::from_fn(|i| self.0[i] & other.0[i]))
        }

        #[inline(always)]
        pub fn or(self, other: QuadMask) -> QuadMask {
            QuadMask(std::array::from_fn(|i| self.0[i] | other.0[i]))
        }

        /// `yes` in the flagged lanes, `no` elsewhere (their bits, as they are).
        #[inline(always)]
        pub fn select(self, yes: Quad, no: Quad) -> Quad {
            Quad(std::array::from_fn(|i| {
                let m = self.0[i];
                f32::from_bits((yes.0[i].to_bits() & m) | (no.0[i].to_bits() & !m))
            }))
        }

        /// Bit `l` set for each flagged lane `l`.
        #[inline(always)]
        pub fn bits(self) -> u32 {
            (0..4).fold(0, |bits, i| bits | ((self.0[i] >> 31) << i))
        }
    }
}

pub(super) use imp::{Quad, QuadMask};

/// Lanes `4 h .. 4 h + 4` of `lanes` (`h` is 0 or 1).
#[inline(always)]
fn half_of(lanes: &F8, h: usize) -> &[f32; 4] {
    &lanes.0.as_chunks::<4>().0[h]
}

/// Lanes `4 h .. 4 h + 4` of `lanes`, to write (`h` is 0 or 1).
#[inline(always)]
fn half_of_mut(lanes: &mut F8, h: usize) -> &mut [f32; 4] {
    &mut lanes.0.as_chunks_mut::<4>().0[h]
}

impl Quad {
    /// Every lane one.
    #[inline(always)]
    pub fn one() -> Quad {
        Quad::splat(1.0)
    }

    /// The lanes as an array.
    #[cfg(test)]
    fn to_array(self) -> [f32; 4] {
        let mut lanes = F8::ZERO;
        self.put(&mut lanes, 0);
        let mut out = [0.0; 4];
        out.copy_from_slice(&lanes.0[..4]);
        out
    }
}

impl std::ops::Add for Quad {
    type Output = Quad;
    #[inline(always)]
    fn add(self, other: Quad) -> Quad {
        Quad::add(self, other)
    }
}

impl std::ops::Sub for Quad {
    type Output = Quad;
    #[inline(always)]
    fn sub(self, other: Quad) -> Quad {
        Quad::sub(self, other)
    }
}

impl std::ops::Mul for Quad {
    type Output = Quad;
    #[inline(always)]
    fn mul(self, other: Quad) -> Quad {
        Quad::mul(self, other)
    }
}

impl std::ops::Div for Quad {
    type Output = Quad;
    #[inline(always)]
    fn div(self, other: Quad) -> Quad {
        Quad::div(self, other)
    }
}

impl std::ops::Neg for Quad {
    type Output = Quad;
    #[inline(always)]
    fn neg(self) -> Quad {
        Quad::neg(self)
    }
}

impl std::ops::AddAssign for Quad {
    #[inline(always)]
    fn add_assign(&mut self, other: Quad) {
        *self = *self + other;
    }
}

impl std::ops::SubAssign for Quad {
    #[inline(always)]
    fn sub_assign(&mut self, other: Quad) {
        *self = *self - other;
    }
}

impl QuadMask {
    /// Some lane is flagged.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.bits() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad(values: [f32; 4]) -> Quad {
        let mut lanes = F8::ZERO;
        lanes.0[..4].copy_from_slice(&values);
        Quad::half(&lanes, 0)
    }

    fn bits(q: Quad) -> [u32; 4] {
        q.to_array().map(f32::to_bits)
    }

    fn flags(m: QuadMask) -> [bool; 4] {
        std::array::from_fn(|l| m.bits() >> l & 1 == 1)
    }

    /// Each quad operation gives, bit for bit, what the same operation of
    /// `f32` gives in each lane: NaN, infinities, signed zeros and
    /// subnormals included.
    #[test]
    fn every_operation_is_the_scalar_one_in_each_lane() {
        let odd = [
            1.0,
            -2.0,
            f32::NAN,
            -0.0,
            0.0,
            f32::INFINITY,
            f32::from_bits(0x7fc0_1234),
            -7.5e-39,
        ];
        let other = [0.5, -2.0, 3.0, 0.0, -0.0, 1.0, f32::NAN, 2.0];
        for h in 0..2 {
            let (x, y): ([f32; 4], [f32; 4]) = (
                std::array::from_fn(|l| odd[4 * h + l]),
                std::array::from_fn(|l| other[4 * h + l]),
            );
            let (qx, qy) = (quad(x), quad(y));
            let each = |f: fn(f32, f32) -> f32| {
                std::array::from_fn::<u32, 4, _>(|l| f(x[l], y[l]).to_bits())
            };
            let test =
                |f: fn(f32, f32) -> bool| std::array::from_fn::<bool, 4, _>(|l| f(x[l], y[l]));
            assert_eq!(bits(qx + qy), each(|a, b| a + b));
            assert_eq!(bits(qx - qy), each(|a, b| a - b));
            assert_eq!(bits(qx * qy), each(|a, b| a * b));
            assert_eq!(bits(qx / qy), each(|a, b| a / b));
            assert_eq!(bits(-qx), each(|a, _| -a));
            assert_eq!(bits(qx.abs()), each(|a, _| a.abs()));
            assert_eq!(bits(qx.copysign(qy)), each(f32::copysign));
            assert_eq!(bits(qx.max(qy)), each(|a, b| if a > b { a } else { b }));
            assert_eq!(bits(qx.min(qy)), each(|a, b| if a < b { a } else { b }));
            assert_eq!(flags(qx.gt(qy)), test(|a, b| a > b));
            assert_eq!(flags(qx.le(qy)), test(|a, b| a <= b));
            assert_eq!(flags(qx.nonzero()), test(|a, _| a != 0.0));
            assert_eq!(flags(qx.gt(qy).and(qx.le(qy))), [false; 4]);
            assert_eq!(
                flags(qx.gt(qy).or(qx.nonzero())),
                test(|a, b| a > b || a != 0.0)
            );
            // A pick keeps the bits it picks.
            let le = test(|a, b| a <= b);
            assert_eq!(
                bits(qx.le(qy).select(qx, -qx)),
                std::array::from_fn(|l| if le[l] { x[l] } else { -x[l] }.to_bits())
            );
            assert_eq!(qx.gt(qy).any(), test(|a, b| a > b).contains(&true));
        }
        let mut written = F8::ZERO;
        Quad::splat(3.0).put(&mut written, 1);
        assert_eq!(written.0, [0.0, 0.0, 0.0, 0.0, 3.0, 3.0, 3.0, 3.0]);
        assert_eq!(Quad::half(&written, 1).to_array(), [3.0; 4]);
        assert_eq!(bits(Quad::one()), [1.0f32.to_bits(); 4]);
        assert_eq!(bits(Quad::zero()), [0; 4]);
    }
}
