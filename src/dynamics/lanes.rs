//! [`F8`]: eight `f32` lanes in a plain array, one value of every
//! constraint of a batch of the lane solver.
//!
//! A batch stores each of its values as one `F8`, so the values a pass
//! reads together lie side by side: the passes load them four lanes at a
//! time ([`Quad`](super::quad::Quad), one SSE register on x86-64) and
//! compute there; the batch's builders write one lane at a time through
//! the array.

/// Eight `f32` lanes, 32-byte aligned: each half of four is one aligned
/// SSE load.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub struct F8(pub [f32; 8]);

impl F8 {
    /// Every lane zero.
    pub const ZERO: F8 = F8([0.0; 8]);
}
