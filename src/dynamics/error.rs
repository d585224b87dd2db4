//! [`SolverError`]: a constraint that names a body the solver does not have.

/// Building a contact constraint was refused. The solver works on plain
/// arrays indexed by body; a constraint between indices past them has no
/// bodies to act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// A body index is past the solver bodies or their turns.
    #[error(
        "body {side} of the constraint is index {index}, past the {bodies} solver bodies and {turns} turns"
    )]
    BodyIndex {
        /// Which side of the constraint: `"A"` or `"B"`.
        side: &'static str,
        /// The index given.
        index: usize,
        /// How many solver bodies there are.
        bodies: usize,
        /// How many turns there are (one per solver body).
        turns: usize,
    },
}

/// Checks that both sides of a constraint index a body and its turn.
#[inline(always)]
pub(super) fn check_bodies(
    bodies: usize,
    turns: usize,
    body_a: usize,
    body_b: usize,
) -> Result<(), SolverError> {
    let within = bodies.min(turns);
    if body_a < within && body_b < within {
        Ok(())
    } else {
        Err(body_index_error(bodies, turns, body_a, body_b))
    }
}

/// The error of [`check_bodies`], kept out of the hot path.
#[cold]
#[inline(never)]
fn body_index_error(bodies: usize, turns: usize, body_a: usize, body_b: usize) -> SolverError {
    let within = bodies.min(turns);
    let (side, index) = if body_a >= within {
        ("A", body_a)
    } else {
        ("B", body_b)
    };
    SolverError::BodyIndex {
        side,
        index,
        bodies,
        turns,
    }
}
