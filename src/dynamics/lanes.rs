//! [`F8`]: eight `f32` lanes in a plain array, with the few operations the
//! wide contact solver needs. Every operation is a fixed loop over the
//! lanes with no branches, which the compiler turns into SSE instructions
//! (the baseline of x86-64; NEON on aarch64) without any `unsafe` or
//! intrinsics: two per operation, one for each half of four lanes. The two
//! halves are independent, so the processor runs them side by side: the
//! solver, whose every step waits on the one before it, keeps twice the
//! work in flight (about an eighth less time than four lanes for the trees
//! of the peer comparison; on the ballpit, four lanes take 1.10 times as
//! long and sixteen 1.07 times). Bodies are moved into and out of lanes by
//! `body_rows`.
//!
//! `max`/`min` are plain comparisons (`a > b ? a : b`), which is what the
//! SIMD instructions do; they differ from `f32::max` only for NaN, which
//! the solver never holds.
//!
//! A comparison gives [`M8`], each lane all ones or all zeros: what an SSE
//! comparison leaves in a register, so flags are combined with bitwise
//! instructions and `select` picks with and / and-not / or, with nothing
//! to convert. Flags kept as `bool`s cost a pack after every comparison
//! and an unpack before every pick.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

macro_rules! lanes {
    ($(#[$doc:meta])* $name:ident, $(#[$mask_doc:meta])* $mask:ident, $n:literal, $align:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        #[repr(C, align($align))]
        pub struct $name(pub [f32; $n]);

        $(#[$mask_doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        #[repr(C, align($align))]
        pub struct $mask([u32; $n]);

        impl $name {
            /// Every lane zero.
            pub const ZERO: $name = $name([0.0; $n]);
            /// Every lane one.
            pub const ONE: $name = $name([1.0; $n]);

            /// Every lane `v`.
            #[inline(always)]
            pub fn splat(v: f32) -> $name {
                $name([v; $n])
            }

            #[inline(always)]
            fn map2(self, other: $name, f: impl Fn(f32, f32) -> f32) -> $name {
                let mut out = [0.0; $n];
                for i in 0..$n {
                    out[i] = f(self.0[i], other.0[i]);
                }
                $name(out)
            }

            /// Lane-wise larger value.
            #[inline(always)]
            pub fn max(self, other: $name) -> $name {
                self.map2(other, |a, b| if a > b { a } else { b })
            }

            /// Lane-wise smaller value.
            #[inline(always)]
            pub fn min(self, other: $name) -> $name {
                self.map2(other, |a, b| if a < b { a } else { b })
            }

            /// Lanes where `self > other`.
            #[inline(always)]
            pub fn gt(self, other: $name) -> $mask {
                $mask::from_fn(|i| self.0[i] > other.0[i])
            }

            /// Lanes where `self <= other`.
            #[inline(always)]
            pub fn le(self, other: $name) -> $mask {
                $mask::from_fn(|i| self.0[i] <= other.0[i])
            }

            /// Lanes that are not zero.
            #[inline(always)]
            pub fn nonzero(self) -> $mask {
                $mask::from_fn(|i| self.0[i] != 0.0)
            }
        }

        impl $mask {
            /// Lane `i` flagged where `flag(i)` holds.
            #[inline(always)]
            fn from_fn(flag: impl Fn(usize) -> bool) -> $mask {
                let mut out = [0; $n];
                for i in 0..$n {
                    out[i] = if flag(i) { u32::MAX } else { 0 };
                }
                $mask(out)
            }

            /// The flags as `bool`s.
            #[cfg(test)]
            pub fn flags(self) -> [bool; $n] {
                self.0.map(|m| m != 0)
            }

            /// Lanes flagged in both.
            #[inline(always)]
            pub fn and(self, other: $mask) -> $mask {
                let mut out = [0; $n];
                for i in 0..$n {
                    out[i] = self.0[i] & other.0[i];
                }
                $mask(out)
            }

            /// Lanes flagged in either.
            #[inline(always)]
            pub fn or(self, other: $mask) -> $mask {
                let mut out = [0; $n];
                for i in 0..$n {
                    out[i] = self.0[i] | other.0[i];
                }
                $mask(out)
            }

            /// Some lane is flagged.
            #[inline(always)]
            pub fn any(self) -> bool {
                self.0.iter().fold(0, |all, &m| all | m) != 0
            }

            /// `yes` in the flagged lanes, `no` elsewhere (their bits, as
            /// they are).
            #[inline(always)]
            pub fn select(self, yes: $name, no: $name) -> $name {
                let mut out = [0.0; $n];
                for i in 0..$n {
                    let m = self.0[i];
                    out[i] = f32::from_bits((yes.0[i].to_bits() & m) | (no.0[i].to_bits() & !m));
                }
                $name(out)
            }
        }

        impl Add for $name {
            type Output = $name;
            #[inline(always)]
            fn add(self, other: $name) -> $name {
                self.map2(other, |a, b| a + b)
            }
        }

        impl Sub for $name {
            type Output = $name;
            #[inline(always)]
            fn sub(self, other: $name) -> $name {
                self.map2(other, |a, b| a - b)
            }
        }

        impl Mul for $name {
            type Output = $name;
            #[inline(always)]
            fn mul(self, other: $name) -> $name {
                self.map2(other, |a, b| a * b)
            }
        }

        impl Neg for $name {
            type Output = $name;
            #[inline(always)]
            fn neg(self) -> $name {
                let mut out = [0.0; $n];
                for i in 0..$n {
                    out[i] = -self.0[i];
                }
                $name(out)
            }
        }

        impl AddAssign for $name {
            #[inline(always)]
            fn add_assign(&mut self, other: $name) {
                *self = *self + other;
            }
        }

        impl SubAssign for $name {
            #[inline(always)]
            fn sub_assign(&mut self, other: $name) {
                *self = *self - other;
            }
        }
    };
}

lanes!(
    /// Eight `f32` lanes.
    F8,
    /// Eight lane flags, the result of a comparison.
    M8,
    8,
    32
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_are_independent() {
        let a = F8([1.0, -2.0, 3.0, 0.0, 5.0, -6.0, 7.0, 8.0]);
        let b = F8([0.5, 4.0, -1.0, 0.0, 5.0, 6.0, -7.0, 9.0]);
        assert_eq!(a + b, F8([1.5, 2.0, 2.0, 0.0, 10.0, 0.0, 0.0, 17.0]));
        assert_eq!(a - b, F8([0.5, -6.0, 4.0, 0.0, 0.0, -12.0, 14.0, -1.0]));
        assert_eq!(a * b, F8([0.5, -8.0, -3.0, 0.0, 25.0, -36.0, -49.0, 72.0]));
        assert_eq!(a.max(b), F8([1.0, 4.0, 3.0, 0.0, 5.0, 6.0, 7.0, 9.0]));
        assert_eq!(a.min(b), F8([0.5, -2.0, -1.0, 0.0, 5.0, -6.0, -7.0, 8.0]));
        assert_eq!(-a, F8([-1.0, 2.0, -3.0, -0.0, -5.0, 6.0, -7.0, -8.0]));
        let m = a.gt(b);
        assert_eq!(
            m.flags(),
            [true, false, true, false, false, false, true, false]
        );
        assert_eq!(m.select(a, b), F8([1.0, 4.0, 3.0, 0.0, 5.0, 6.0, 7.0, 9.0]));
        let le = a.le(b);
        assert_eq!(
            le.flags(),
            [false, true, false, true, true, true, false, true]
        );
        assert_eq!(
            a.nonzero().flags(),
            [true, true, true, false, true, true, true, true]
        );
        assert_eq!(m.and(le).flags(), [false; 8]);
        assert_eq!(m.or(le).flags(), [true; 8]);
        assert!(!m.and(le).any() && le.any());
        // A pick keeps the bits it picks: NaN payloads and signed zeros.
        let odd = F8([
            f32::NAN,
            -0.0,
            0.0,
            -0.0,
            f32::from_bits(0x7fc0_1234),
            1.0,
            -1.0,
            0.0,
        ]);
        let picked = le.select(odd, -odd);
        for i in 0..8 {
            let expected = if le.flags()[i] { odd.0[i] } else { -odd.0[i] };
            assert_eq!(picked.0[i].to_bits(), expected.to_bits(), "lane {i}");
        }
        // NaN compares false both ways; -0 is zero.
        let nan = F8::splat(f32::NAN);
        assert!(!nan.gt(F8::ZERO).any() && !nan.le(F8::ZERO).any());
        assert!(!F8::splat(-0.0).nonzero().any());
    }
}
