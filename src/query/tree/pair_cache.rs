//! [`TreePairCache`]: the leaf pairs of two trees that may touch, kept from
//! one contact query to the next while the trees move little relative to
//! each other. The same cache serves a tree and a shape that is not a
//! tree, keeping the leaves that may touch it (`pair_cache_shape.rs`).
//!
//! A descent ([`super::frame_descent`]) run with its tests widened by
//! [`CACHE_REACH`] records every leaf pair that passes: the *candidates*,
//! and how far beyond that widening the nearest pruned circles lie, so that
//! every other leaf pair is known to be at least that far apart. Later
//! queries, as long as no leaf of B can have moved by more than that room
//! in A's frame, test only the candidates; the first query after the
//! relative motion used it up runs a new descent.
//!
//! A pair found apart is apart by more than the margin plus some room:
//! every leaf pair that is not a candidate by the room left of the
//! descent's widening, every candidate by its own distance beyond the
//! pad. Given a *motion stamp* (a number that grows by at least how far
//! any point of either tree moves), [`TreePairCache::quiet_until`] says up
//! to which stamp the answer stays `None` without asking: the world uses
//! it to pass over such pairs without opening them. Two leaves come
//! nearer by at most how far a point of each moved, so no leaf pair can
//! come within the margin before the stamp has grown by the least room.
//!
//! # Why the answer is exact
//! The leaf contacts of a pair are the leaf pairs whose exact world-frame
//! test passes. Each of them passes the pruning test of the current poses
//! (the descent is conservative, see `frame_descent`), so its circles are
//! within `pad` of each other in A's frame, where `pad` is the margin plus
//! the rounding slack. A leaf centre of B sits at `M p + t` in A's frame;
//! between the poses of the descent (`M₀`, `t₀`) and now (`M₁`, `t₁`) it
//! moves by at most `|t₁ − t₀| + ‖M₁ − M₀‖ · |p|`, and `|p|` is at most
//! B's root reach. While that bound plus today's pad and slack fit in the
//! pad the candidates were gathered with, every contact of today was a
//! candidate: testing the candidates with the same exact kernel finds the
//! same contacts, bit for bit, and the reduction sorts them canonically.
//! The cache is rebuilt when either scale or the margin changes, so world
//! distances and A's units keep their ratio.

#[path = "pair_cache_shape.rs"]
mod shape;

use super::contact_tree_tree::contact_tree_tree_in;
use super::frame_descent::{BInA, descend, leaf_pair, local_reach, near, pair_slack};
use super::reduce::reduce_leaf_pairs_into;
use super::{LeafContact, TreeQueryStats};
use crate::math::{Pose, Real, Vec2};
use crate::query::Manifold;
use crate::shape::CircleTree;
use smallvec::SmallVec;

/// Candidate leaf pairs a cache holds without allocating: a hull resting
/// on another has a few to a dozen (in the peer comparison's trees, 99% of
/// the descents find at most 12). Twelve keep a cache in two cache lines.
const INLINE_CANDIDATES: usize = 12;

/// How much wider than the contact margin the candidates are gathered
/// (world metres): a pair is answered from the cache until the trees have
/// moved about this much relative to each other. A pile that is still
/// settling moves a few millimetres per step at 60 Hz, so the cache lasts
/// several steps; wider would test more candidates per query.
pub const CACHE_REACH: Real = 0.05;

/// What a descent was run with.
#[derive(Clone, Copy, Debug)]
struct Gathered {
    /// B's frame in A's at the descent.
    frame: BInA,
    scale_a: Real,
    scale_b: Real,
    margin: Real,
    /// Every leaf pair that is not a candidate lies farther apart than
    /// this (A's units): the descent's widened pad and the room measured
    /// beyond it.
    pad: Real,
    /// Node counts of both trees (a guard against a cache handed other
    /// trees), at most 2^16 each (larger trees are not cached); 32 bits
    /// keep the cache in two cache lines.
    nodes: (u32, u32),
}

/// The node count of `tree` as [`Gathered::nodes`] records it (saturated:
/// a tree too large to be cached never matches a recorded count).
#[inline(always)]
fn node_count(tree: &CircleTree) -> u32 {
    u32::try_from(tree.nodes().len()).unwrap_or(u32::MAX)
}

/// Today's poses of a pair and the pad of the exact test: what a candidate
/// leaf pair is checked against, from the cache or during a descent.
#[derive(Clone, Copy)]
struct Today<'a> {
    tree_a: &'a CircleTree,
    pose_a: &'a Pose,
    tree_b: &'a CircleTree,
    pose_b: &'a Pose,
    frame: BInA,
    pad: Real,
    margin: Real,
}

impl Today<'_> {
    /// Appends the contact of leaves `a` and `b` (B's centre `center_b`
    /// already in A's frame) to `buffer` when they are within the pad and
    /// then within the margin in the world. A node index past either tree
    /// (a cache handed other trees) is passed over.
    #[inline(always)]
    fn test(&self, a: u32, b: u32, center_b: Vec2, buffer: &mut Vec<LeafContact>) {
        let (Some(leaf_a), Some(leaf_b)) = (
            self.tree_a.nodes().get(a as usize),
            self.tree_b.nodes().get(b as usize),
        ) else {
            return;
        };
        let radius_b = self.frame.scale(leaf_b.radius());
        if near(
            leaf_a.center(),
            leaf_a.radius(),
            center_b,
            radius_b,
            self.pad,
        ) {
            let (tree_a, pose_a, tree_b, pose_b) =
                (self.tree_a, self.pose_a, self.tree_b, self.pose_b);
            leaf_pair(tree_a, pose_a, a, tree_b, pose_b, b, self.margin, buffer);
        }
    }
}

/// The candidate leaf pairs of two trees, reused between contact queries
/// (see the module docs). A cache belongs to one pair of trees in one
/// order: hand it the same two trees on every call, or [`clear`](Self::clear)
/// it first. It holds no simulated state: a cleared cache gives the same
/// answers.
///
/// # Examples
/// ```
/// use circlet::math::{Pose, vec2};
/// use circlet::query::tree::{TreePairCache, contact_tree_tree_with_margin};
/// use circlet::shape::TreeBuilder;
/// let (tree, _) = TreeBuilder::node(vec2(0.0, 0.0), 1.0)
///     .child(TreeBuilder::node(vec2(-0.5, 0.0), 0.5))
///     .child(TreeBuilder::node(vec2(0.5, 0.0), 0.5))
///     .build()
///     .unwrap();
/// let mut cache = TreePairCache::default();
/// for step in 0..10 {
///     let pose_b = Pose::from_translation(vec2(1.9 - 0.002 * step as f32, 0.3));
///     let cached = cache.contact(&tree, &Pose::IDENTITY, &tree, &pose_b, 0.02);
///     let fresh = contact_tree_tree_with_margin(&tree, &Pose::IDENTITY, &tree, &pose_b, 0.02);
///     assert_eq!(cached, fresh);
/// }
/// assert_eq!(cache.descents(), 1); // one descent, nine answers from the candidates
/// ```
///
/// A cache is two cache lines, aligned to them: a pair's query reads both
/// lines and no others.
#[derive(Clone, Debug)]
#[repr(align(64))]
pub struct TreePairCache {
    gathered: Option<Gathered>,
    /// Leaf pairs (node of A, node of B) in ascending order, held in the
    /// cache itself up to [`INLINE_CANDIDATES`]: a pair's query then reads
    /// no other memory than its own.
    candidates: SmallVec<[[u16; 2]; INLINE_CANDIDATES]>,
    /// Descents run since the cache was made.
    descents: u64,
    /// See [`Self::quiet_until`].
    quiet_until: f64,
}

impl Default for TreePairCache {
    fn default() -> Self {
        TreePairCache {
            gathered: None,
            candidates: SmallVec::new(),
            descents: 0,
            quiet_until: f64::NEG_INFINITY,
        }
    }
}

impl TreePairCache {
    /// An empty cache that says it has run `descents` descents: a label
    /// the tests of the world's pair map follow through moves.
    #[cfg(test)]
    pub(crate) fn with_descents(descents: u64) -> Self {
        TreePairCache {
            descents,
            ..TreePairCache::default()
        }
    }

    /// Forgets the candidates: the next query descends.
    pub fn clear(&mut self) {
        self.gathered = None;
        self.candidates.clear();
        self.quiet_until = f64::NEG_INFINITY;
    }

    /// After a query given the motion stamp `s` (see
    /// [`Self::contact_with_stamp`]) that found the trees apart: the stamp
    /// up to which no leaf pair can come within the margin, that is, while
    /// the stamps of later poses stay at or below it, the answer is still
    /// `None`. `-∞` when they touch, when a leaf pair is too near to
    /// promise anything, or when no stamp was given.
    pub fn quiet_until(&self) -> f64 {
        self.quiet_until
    }

    /// Number of descents this cache has run (queries answered from the
    /// candidates do not count; clearing does not reset it).
    pub fn descents(&self) -> u64 {
        self.descents
    }

    /// Number of candidate leaf pairs held (0 when none may touch soon).
    pub fn candidate_count(&self) -> usize {
        self.candidates.len()
    }

    /// The contact manifold of `tree_a` at `pose_a` and `tree_b` at `pose_b`
    /// within `margin` metres: exactly [`super::contact_tree_tree_with_margin`]
    /// (normal from A to B, world), from the candidates when they still cover
    /// every leaf pair that may touch.
    pub fn contact(
        &mut self,
        tree_a: &CircleTree,
        pose_a: &Pose,
        tree_b: &CircleTree,
        pose_b: &Pose,
        margin: Real,
    ) -> Option<Manifold> {
        self.contact_with_stamp(tree_a, pose_a, tree_b, pose_b, margin, f64::INFINITY)
    }

    /// [`Self::contact`] given a motion stamp: a number that grows with the
    /// motion of both trees, by at least how far any point of either tree
    /// moved (m, world) between two queries, such as the sum of two running
    /// totals of each body's motion bound. Sets [`Self::quiet_until`].
    #[allow(clippy::too_many_arguments)]
    pub fn contact_with_stamp(
        &mut self,
        tree_a: &CircleTree,
        pose_a: &Pose,
        tree_b: &CircleTree,
        pose_b: &Pose,
        margin: Real,
        stamp: f64,
    ) -> Option<Manifold> {
        let (mut buffer, mut out) = (Vec::new(), None);
        self.contact_into(
            tree_a,
            pose_a,
            tree_b,
            pose_b,
            margin,
            stamp,
            &mut buffer,
            &mut out,
        );
        out
    }

    /// [`Self::contact_with_stamp`] with the leaf contacts gathered in
    /// `buffer` and the manifold written into `out` (its points reused).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn contact_into(
        &mut self,
        tree_a: &CircleTree,
        pose_a: &Pose,
        tree_b: &CircleTree,
        pose_b: &Pose,
        margin: Real,
        stamp: f64,
        buffer: &mut Vec<LeafContact>,
        out: &mut Option<Manifold>,
    ) {
        self.quiet_until = f64::NEG_INFINITY;
        // As every contact function: a negative or NaN margin acts as 0.
        let margin = margin.max(0.0);
        buffer.clear();
        let slack = pair_slack(tree_a, pose_a, tree_b, pose_b, margin);
        let pad = margin / pose_a.scale + slack;
        let Some(frame) = BInA::new(pose_a, pose_b).filter(|_| pad.is_finite()) else {
            self.clear();
            *out = contact_tree_tree_in(tree_a, pose_a, tree_b, pose_b, margin, buffer)
                .filter(Manifold::is_finite);
            return;
        };
        let nodes = (node_count(tree_a), node_count(tree_b));
        // What is left of the descent's pad after today's pad, the motion
        // since the descent and a slack for the rounding of both (A's units).
        let left = self.gathered.filter(|g| {
            g.scale_a == pose_a.scale
                && g.scale_b == pose_b.scale
                && g.margin == margin
                && g.nodes == nodes
        });
        let left = left.map_or(Real::NEG_INFINITY, |g| {
            g.pad - (pad + frame.moved_from(&g.frame, local_reach(tree_b)) + slack)
        });
        let today = Today {
            tree_a,
            pose_a,
            tree_b,
            pose_b,
            frame,
            pad,
            margin,
        };
        // How far (A's units) every leaf pair that is not a candidate lies
        // beyond today's pad, less a slack for the rounding.
        let rest = if left >= 0.0 {
            if self.candidates.is_empty() {
                // Every leaf pair is more than `left` beyond today's pad.
                self.quiet_from(stamp, left * pose_a.scale);
                *out = None;
                return;
            }
            let nodes_b = tree_b.nodes();
            for &[a, b] in &self.candidates {
                let (a, b) = (u32::from(a), u32::from(b));
                if let Some(leaf_b) = nodes_b.get(b as usize) {
                    today.test(a, b, frame.map(leaf_b.center()), buffer);
                }
            }
            left
        } else {
            // After a descent: all of its reach beyond today's pad.
            self.gather(&today, buffer) - pad - slack
        };
        if buffer.is_empty() {
            // Apart: no leaf pair comes within the margin before the trees
            // have used up the room of the nearest candidate or of the
            // rest, whichever is less.
            let room = rest.min(self.candidate_room(&today, slack));
            self.quiet_from(stamp, room * pose_a.scale);
        }
        reduce_leaf_pairs_into(buffer, out);
    }

    /// How far (A's units) beyond today's pad the nearest candidate leaf
    /// pair lies, less `slack` for the rounding of its distance: `+∞` with
    /// no candidate, `-∞` when a distance is not a number or a candidate
    /// names a node past either tree. A leaf pair comes within the margin
    /// only once its distance in A's frame is within the pad of that day
    /// (the pruning is conservative, see `frame_descent`), so it must first
    /// move by this much relative to the other tree.
    fn candidate_room(&self, today: &Today, slack: Real) -> Real {
        let (nodes_a, nodes_b) = (today.tree_a.nodes(), today.tree_b.nodes());
        let mut nearest = Real::INFINITY;
        for &[a, b] in &self.candidates {
            let (Some(leaf_a), Some(leaf_b)) =
                (nodes_a.get(usize::from(a)), nodes_b.get(usize::from(b)))
            else {
                return Real::NEG_INFINITY;
            };
            let gap = (today.frame.map(leaf_b.center()) - leaf_a.center()).norm()
                - leaf_a.radius()
                - today.frame.scale(leaf_b.radius());
            if gap.is_nan() {
                return Real::NEG_INFINITY;
            }
            nearest = nearest.min(gap);
        }
        nearest - today.pad - slack
    }

    /// No leaf pair can reach the margin before the trees' points have
    /// moved `room` metres (world) from where `stamp` was read.
    fn quiet_from(&mut self, stamp: f64, room: Real) {
        if stamp.is_finite() && room >= 0.0 {
            self.quiet_until = stamp + f64::from(room);
        }
    }

    /// Runs the widened descent: records the candidates and appends the
    /// contacts of today's poses to `buffer`.
    fn gather(&mut self, today: &Today, buffer: &mut Vec<LeafContact>) -> Real {
        let Today {
            tree_a,
            pose_a,
            tree_b,
            pose_b,
            frame,
            pad,
            margin,
        } = *today;
        self.descents += 1;
        let wide = pad + CACHE_REACH / pose_a.scale;
        self.candidates.clear();
        // Node indices are kept in 16 bits: larger trees are not cached.
        let compact = tree_a.nodes().len() <= 1 << 16 && tree_b.nodes().len() <= 1 << 16;
        let candidates = &mut self.candidates;
        let mut stats = TreeQueryStats::default();
        let beyond = descend::<true>(
            tree_a,
            tree_b,
            &frame,
            wide,
            &mut stats,
            |a, b, center_b| {
                if compact {
                    candidates.push([a as u16, b as u16]);
                }
                today.test(a, b, center_b, buffer);
            },
        );
        if !compact {
            self.clear();
            return Real::NEG_INFINITY;
        }
        self.candidates.sort_unstable();
        // Every leaf pair that is not a candidate lies at least `beyond`
        // farther out than `wide` (the slack of the later checks covers the
        // rounding of that distance).
        let reach = wide + beyond.max(0.0);
        self.gathered = Some(Gathered {
            frame,
            scale_a: pose_a.scale,
            scale_b: pose_b.scale,
            margin,
            pad: reach,
            nodes: (node_count(tree_a), node_count(tree_b)),
        });
        reach
    }
}

#[cfg(test)]
mod tests {
    use super::TreePairCache;

    #[test]
    fn a_cache_is_two_aligned_cache_lines() {
        assert_eq!(std::mem::size_of::<TreePairCache>(), 128);
        assert_eq!(std::mem::align_of::<TreePairCache>(), 64);
    }
}
