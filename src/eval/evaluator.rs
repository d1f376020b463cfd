//! The evaluator a search holds: the hand terms and the learned patterns,
//! and where one is loaded a network fitted on top of both (see
//! [`network`](super::network)). The search asks it for every static
//! score, handing it the worker's kept network state.

use std::fmt;
use std::sync::Arc;

use super::network::{network_checksum, Accumulators, Network};
use super::{evaluate_learned, Patterns};
use crate::rules::{Position, Rules, VariantKind};

/// What a search's static scores come from.
#[derive(Clone)]
pub struct Evaluator {
    patterns: Arc<Patterns>,
    network: Option<Arc<Network>>,
}

impl fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Evaluator")
            .field("layout", &self.patterns.layout())
            .field(
                "network",
                &self.network.as_ref().map(|n| (n.hidden, n.dense)),
            )
            .finish()
    }
}

impl Evaluator {
    /// Hand terms and `patterns`, no network.
    pub fn of_patterns(patterns: Arc<Patterns>) -> Evaluator {
        Evaluator {
            patterns,
            network: None,
        }
    }

    /// Hand terms, `patterns` and `network` for variant `kind`: refused
    /// when the network was fitted for another variant or on top of other
    /// pattern weights (its scores would be meaningless beside them).
    pub fn with_network(
        kind: VariantKind,
        patterns: Arc<Patterns>,
        network: Arc<Network>,
    ) -> Result<Evaluator, String> {
        if network.variant != kind {
            return Err(format!(
                "the network is for {}, not {kind} (train it with --variant {kind})",
                network.variant
            ));
        }
        if network.base != network_checksum(&patterns) {
            return Err(
                "the network was fitted on top of other pattern weights than this tempo's \
                 built-in ones (fit it again with this tempo)"
                    .to_string(),
            );
        }
        Ok(Evaluator {
            patterns,
            network: Some(network),
        })
    }

    /// The pattern weights.
    pub fn patterns(&self) -> &Arc<Patterns> {
        &self.patterns
    }

    /// The network, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Whether `other` is this same evaluator (the same weights in memory,
    /// so the same score for every position).
    pub fn is_same(&self, other: &Evaluator) -> bool {
        Arc::ptr_eq(&self.patterns, &other.patterns)
            && match (&self.network, &other.network) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }

    /// Kept network state that fits this evaluator, for `plies` plies
    /// (empty without a network).
    pub fn accumulators(&self, plies: usize) -> Accumulators {
        match &self.network {
            Some(net) => Accumulators::new(net.hidden, plies),
            None => Accumulators::default(),
        }
    }

    /// The static score of `pos` from the side to move's view, the network
    /// kept in `kept` at `ply` (which must fit: see
    /// [`Evaluator::accumulators`]).
    #[inline(always)]
    pub fn score<R: Rules>(&self, pos: &Position<R>, kept: &mut Accumulators, ply: usize) -> i32 {
        let base = evaluate_learned(pos, &self.patterns);
        match &self.network {
            None => base,
            Some(net) => base + kept.score(net, pos, ply),
        }
    }

    /// The static score of `pos` from the side to move's view, worked out
    /// afresh.
    pub fn score_afresh<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let base = evaluate_learned(pos, &self.patterns);
        match &self.network {
            None => base,
            Some(net) => base + net.score(pos),
        }
    }
}
