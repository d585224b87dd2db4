//! A cache hint: [`prefetch`] asks the processor to start loading a value
//! that a loop will read a little later, where the loop's work per element
//! is too long for the processor to run ahead to the next loads by itself
//! (the narrowphase pass reads each contact pair's box, its two colliders'
//! entries and their solver bodies once per step, scattered over memory
//! that no longer fits in cache past a few thousand bodies).
//!
//! Invariant: a hint never changes a result. Its `unsafe` block (the
//! crate's only other one is the solver's row transposes,
//! `dynamics::body_rows`): `_mm_prefetch` is declared with the SSE target feature,
//! which every x86-64 processor has, and a prefetch neither faults nor
//! changes what any load or store sees, whatever the address. On other
//! architectures [`prefetch`] does nothing.

/// Starts loading the cache lines that hold `value`: those of its first
/// byte, its last byte and (past 64 bytes) the byte 64 in, which are all of
/// them for a value of up to 128 bytes (the pair boxes and collider entries
/// are about 100).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let at: *const i8 = (value as *const T).cast();
        let size = std::mem::size_of::<T>();
        // SAFETY: SSE is part of every x86-64 processor, and a prefetch is
        // a hint that never faults, whatever the address (`wrapping_add`
        // makes no claim about the allocation either).
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(at);
            if size > 64 {
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(64));
            }
            if size > 1 {
                _mm_prefetch::<_MM_HINT_T0>(at.wrapping_add(size - 1));
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
