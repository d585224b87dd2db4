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
pub(super) fn check_bodies(
    bodies: usize,
    turns: usize,
    body_a: usize,
    body_b: usize,
) -> Result<(), SolverError> {
    for (side, index) in [("A", body_a), ("B", body_b)] {
        if index >= bodies || index >= turns {
            return Err(SolverError::BodyIndex {
                side,
                index,
                bodies,
                turns,
            });
        }
    }
    Ok(())
}
