//! Training data for a learned evaluation ([`crate::net`]): the inputs of the states a beam
//! keeps, each labelled by whether the beam still holds a descendant of it some pieces later.
//! A network fitted to these labels from a wide beam ranks children as that beam's future
//! would, which a narrower beam cannot see.

use super::expand::Candidate;
use crate::net::INPUTS;
use std::collections::VecDeque;

/// One labelled state: the network's inputs, and whether its line survived the horizon.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub inputs: [f32; INPUTS],
    pub survived: bool,
    /// The depth the state was kept at.
    pub depth: usize,
}

/// Collects [`Sample`]s from a search ([`super::beam_search_logged`]).
#[derive(Debug)]
pub struct SurvivalLog {
    every: usize,
    horizon: usize,
    pub samples: Vec<Sample>,
    /// Depths logged whose horizon is still ahead, with their states' inputs.
    pending: VecDeque<(usize, Vec<[f32; INPUTS]>)>,
    /// Per depth of the last `horizon + 1`: the parent (index among the last depth's states)
    /// of each state kept.
    parents: VecDeque<Vec<u32>>,
}

impl SurvivalLog {
    /// Logs the states of every `every`-th depth, labelled by their survival `horizon` pieces
    /// later (states of the last `horizon` depths are not logged).
    pub fn new(every: usize, horizon: usize) -> SurvivalLog {
        assert!(
            every > 0 && horizon > 0,
            "every and horizon must be positive"
        );
        SurvivalLog {
            every,
            horizon,
            samples: Vec::new(),
            pending: VecDeque::new(),
            parents: VecDeque::new(),
        }
    }

    /// Whether the states of depth `depth` are logged.
    pub fn logs(&self, depth: usize) -> bool {
        depth.is_multiple_of(self.every)
    }

    /// Takes the states depth `depth` kept, and children it did not keep (logged at once as
    /// not surviving, so that the network also sees children the beam drops); `inputs_of`
    /// gives a state's inputs.
    pub(crate) fn after_depth(
        &mut self,
        depth: usize,
        chosen: &[Candidate],
        dropped: &[Candidate],
        inputs_of: impl Fn(&Candidate) -> [f32; INPUTS],
    ) {
        self.parents
            .push_back(chosen.iter().map(|c| c.parent).collect());
        if self.parents.len() > self.horizon + 1 {
            self.parents.pop_front();
        }
        if self.logs(depth) {
            self.pending
                .push_back((depth, chosen.iter().map(&inputs_of).collect()));
            self.samples.extend(dropped.iter().map(|c| Sample {
                inputs: inputs_of(c),
                survived: false,
                depth,
            }));
        }
        while let Some((logged, _)) = self.pending.front() {
            if logged + self.horizon != depth {
                break;
            }
            let (logged, inputs) = self.pending.pop_front().expect("front exists");
            // Back from this depth's states to the logged depth's, marking ancestors.
            let mut alive = vec![true; chosen.len()];
            for level in (1..self.parents.len()).rev() {
                let mut above = vec![false; self.parents[level - 1].len()];
                for (&parent, _) in self.parents[level].iter().zip(&alive).filter(|(_, &a)| a) {
                    above[parent as usize] = true;
                }
                alive = above;
            }
            debug_assert_eq!(alive.len(), inputs.len());
            self.samples.extend(
                inputs
                    .into_iter()
                    .zip(alive)
                    .map(|(inputs, survived)| Sample {
                        inputs,
                        survived,
                        depth: logged,
                    }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(parents: &[u32]) -> Vec<Candidate> {
        parents
            .iter()
            .map(|&parent| Candidate {
                parent,
                ..Candidate::default()
            })
            .collect()
    }

    /// A state survives when some state `horizon` depths later descends from it.
    #[test]
    fn states_are_labelled_by_whether_a_descendant_is_kept_at_the_horizon() {
        let mut log = SurvivalLog::new(2, 2);
        let inputs = |c: &Candidate| {
            let mut x = [0.0; INPUTS];
            x[0] = c.parent as f32;
            x
        };
        // Depth 0: three states; depth 1: from states 0, 0, 2; depth 2: from 1 and 2 of
        // depth 1 (so from 0 and 2 of depth 0).
        log.after_depth(0, &kept(&[0, 0, 0]), &[], inputs);
        log.after_depth(1, &kept(&[0, 0, 2]), &kept(&[1]), inputs);
        assert!(log.samples.is_empty(), "depth 1 is not logged");
        log.after_depth(2, &kept(&[1, 2]), &kept(&[7]), inputs);
        // Depth 2's dropped child at once, then depth 0's states.
        let labels: Vec<(usize, bool)> =
            log.samples.iter().map(|s| (s.depth, s.survived)).collect();
        assert_eq!(labels, [(2, false), (0, true), (0, false), (0, true)]);
        assert_eq!(log.samples[0].inputs[0], 7.0);
        // At depth 4 only the state of depth 3's first parent lives.
        log.after_depth(3, &kept(&[0, 0]), &[], inputs);
        log.after_depth(4, &kept(&[1]), &[], inputs);
        let labels: Vec<bool> = log.samples[4..].iter().map(|s| s.survived).collect();
        assert_eq!(labels, [true, false]);
    }
}
