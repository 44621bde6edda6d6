//! A learned evaluation: a small neural network that estimates how likely a wide beam is to
//! keep a child's line alive, from the board's features, the points the child has over the
//! best state of the depth it came from, and what is known of the pieces to come. The beam
//! lowers a child's key by its logit times a weight: the network is fitted on states a beam
//! kept, so it refines the linear key among plausible children and never has to rank the
//! hopeless ones it has not seen.
//!
//! The network is data (`--value-net FILE`, JSON): inputs standardised by a mean and a scale,
//! one hidden layer of rectified units, one output (a logit; higher is better). It runs on the
//! evaluation's batches of boards, one lane per board, so that each weight is one vector
//! operation for the whole batch. Training data comes from [`crate::search::SurvivalLog`].

use crate::games::tencent::eval::{Features, BATCH, FEATURE_COUNT};
use crate::games::tencent::rules::Kind;
use serde::{Deserialize, Serialize};

/// The network's inputs, in order: the board's [`Features`], then `score_lead` (the child's
/// points over the best state of the depth expanded, in thousands), `next_i` (pieces after
/// this one before the next I, at most [`LOOKAHEAD`]) and `i_coming` (I pieces among the next
/// [`LOOKAHEAD`]).
pub const INPUT_NAMES: &[&str] = &[
    "cells",
    "row_transitions",
    "wall_transitions",
    "column_transitions",
    "holes",
    "hole_rows",
    "shallow_holes",
    "well_sums",
    "bumpiness",
    "max_height",
    "top_cells",
    "landing_height",
    "clean_well",
    "spawn_column",
    "ready_rows",
    "ready_run",
    "flat_pairs",
    "step1_pairs",
    "step3_pairs",
    "score_lead",
    "next_i",
    "i_coming",
];

/// Inputs per board.
pub const INPUTS: usize = FEATURE_COUNT + 3;

const _: () = assert!(INPUT_NAMES.len() == INPUTS);

/// How far ahead `next_i` and `i_coming` look.
pub const LOOKAHEAD: usize = 14;

/// What is known of the pieces after the one a depth places: the same for every state of it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Future {
    pub next_i: f32,
    pub i_coming: f32,
}

impl Future {
    /// The pieces after `sequence[depth]`.
    pub fn at(sequence: &[Kind], depth: usize) -> Future {
        let coming = sequence.iter().skip(depth + 1).take(LOOKAHEAD);
        let next_i = coming.clone().position(|&k| k == Kind::I);
        Future {
            next_i: next_i.unwrap_or(LOOKAHEAD) as f32,
            i_coming: coming.filter(|&&k| k == Kind::I).count() as f32,
        }
    }
}

/// The inputs of one board: `features`, `score` against `reference` (the best score of the
/// depth expanded), and `future`.
pub fn inputs(features: &Features, score: u64, reference: u64, future: Future) -> [f32; INPUTS] {
    let counts = features.to_array();
    let mut x = [0.0; INPUTS];
    for (xi, &c) in x.iter_mut().zip(&counts) {
        *xi = c as f32;
    }
    let n = FEATURE_COUNT;
    x[n] = ((score as f64 - reference as f64) / 1000.0) as f32;
    x[n + 1] = future.next_i;
    x[n + 2] = future.i_coming;
    x
}

/// The network as stored: standardisation, then `hidden` rows of weights (one per unit, one
/// weight per input) with `hidden_bias`, a rectifier, then `output` weights and `output_bias`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetFile {
    pub inputs: Vec<String>,
    pub mean: Vec<f32>,
    pub scale: Vec<f32>,
    pub hidden: Vec<Vec<f32>>,
    pub hidden_bias: Vec<f32>,
    pub output: Vec<f32>,
    pub output_bias: f32,
}

/// The network ready to run: the standardisation folded into the first layer.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueNet {
    file: NetFile,
    /// Per hidden unit, its weights per input on raw inputs.
    w1: Vec<[f32; INPUTS]>,
    b1: Vec<f32>,
}

impl ValueNet {
    /// Reads a network from JSON, refusing inputs other than [`INPUT_NAMES`], shapes that do
    /// not fit, and numbers that are not finite.
    pub fn from_json(text: &str) -> Result<ValueNet, String> {
        let file: NetFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        ValueNet::new(file)
    }

    /// Checks `file` and folds its standardisation into the first layer.
    pub fn new(file: NetFile) -> Result<ValueNet, String> {
        if file.inputs != INPUT_NAMES {
            return Err(format!(
                "inputs must be {INPUT_NAMES:?} in that order, not {:?}",
                file.inputs
            ));
        }
        let units = file.hidden.len();
        if units == 0 {
            return Err("hidden must hold at least one unit".to_string());
        }
        for (name, len) in [
            ("mean", file.mean.len()),
            ("scale", file.scale.len()),
            ("hidden_bias", file.hidden_bias.len()),
            ("output", file.output.len()),
        ] {
            let want = if name == "mean" || name == "scale" {
                INPUTS
            } else {
                units
            };
            if len != want {
                return Err(format!("{name} has {len} values where {want} are needed"));
            }
        }
        if let Some(i) = file.hidden.iter().position(|row| row.len() != INPUTS) {
            return Err(format!(
                "hidden unit {i} has {} weights, not {INPUTS}",
                file.hidden[i].len()
            ));
        }
        let finite = file
            .mean
            .iter()
            .chain(&file.scale)
            .chain(file.hidden.iter().flatten())
            .chain(&file.hidden_bias)
            .chain(&file.output)
            .chain([&file.output_bias])
            .all(|v| v.is_finite());
        if !finite {
            return Err("every number must be finite".to_string());
        }
        let mut w1 = Vec::with_capacity(units);
        let mut b1 = Vec::with_capacity(units);
        for (row, &bias) in file.hidden.iter().zip(&file.hidden_bias) {
            let mut w = [0.0; INPUTS];
            let mut b = bias;
            for i in 0..INPUTS {
                w[i] = row[i] * file.scale[i];
                b -= w[i] * file.mean[i];
            }
            w1.push(w);
            b1.push(b);
        }
        Ok(ValueNet { file, w1, b1 })
    }

    /// The stored form.
    pub fn file(&self) -> &NetFile {
        &self.file
    }

    /// The logit of one board's inputs (higher is better).
    pub fn logit(&self, x: &[f32; INPUTS]) -> f32 {
        let mut lanes = [[0.0; BATCH]; INPUTS];
        for (lane, &v) in lanes.iter_mut().zip(x) {
            lane[0] = v;
        }
        self.logits(&lanes)[0]
    }

    /// The logits of a batch given input by input, one lane per board.
    #[inline]
    pub fn logits(&self, x: &[[f32; BATCH]; INPUTS]) -> [f32; BATCH] {
        let mut out = [self.file.output_bias; BATCH];
        for ((w, &b), &v) in self.w1.iter().zip(&self.b1).zip(&self.file.output) {
            let mut h = [b; BATCH];
            for (wi, xi) in w.iter().zip(x) {
                for (hl, &xl) in h.iter_mut().zip(xi) {
                    *hl += wi * xl;
                }
            }
            for (o, hl) in out.iter_mut().zip(h) {
                *o += v * hl.max(0.0);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(units: usize) -> NetFile {
        NetFile {
            inputs: INPUT_NAMES.iter().map(|s| s.to_string()).collect(),
            mean: (0..INPUTS).map(|i| i as f32).collect(),
            scale: (0..INPUTS).map(|i| 1.0 / (1.0 + i as f32)).collect(),
            hidden: (0..units)
                .map(|u| {
                    (0..INPUTS)
                        .map(|i| ((u * 7 + i) % 5) as f32 - 2.0)
                        .collect()
                })
                .collect(),
            hidden_bias: (0..units).map(|u| u as f32 * 0.1).collect(),
            output: (0..units).map(|u| 1.0 - u as f32 * 0.3).collect(),
            output_bias: 0.5,
        }
    }

    /// The folded first layer gives what the stored network says, lane by lane.
    #[test]
    fn the_batched_network_computes_the_stored_definition() {
        let f = file(5);
        let net = ValueNet::new(f.clone()).unwrap();
        let x: [f32; INPUTS] = std::array::from_fn(|i| (i * i) as f32 * 0.25 - 3.0);
        let mut plain = f.output_bias;
        for u in 0..5 {
            let standard = x
                .iter()
                .zip(&f.mean)
                .zip(&f.scale)
                .map(|((x, m), s)| (x - m) * s);
            let h = f.hidden_bias[u]
                + f.hidden[u]
                    .iter()
                    .zip(standard)
                    .map(|(w, v)| w * v)
                    .sum::<f32>();
            plain += f.output[u] * h.max(0.0);
        }
        assert!((net.logit(&x) - plain).abs() < 1e-3 * plain.abs().max(1.0));
    }

    #[test]
    fn networks_that_do_not_fit_are_refused_with_the_reason() {
        let mut f = file(3);
        f.output.pop();
        assert!(ValueNet::new(f)
            .unwrap_err()
            .contains("output has 2 values"));
        let mut f = file(3);
        f.hidden[1].push(0.0);
        assert!(ValueNet::new(f).unwrap_err().contains("hidden unit 1"));
        let mut f = file(3);
        f.inputs.swap(0, 1);
        assert!(ValueNet::new(f).unwrap_err().contains("inputs must be"));
        let mut f = file(3);
        f.scale[4] = f32::NAN;
        assert!(ValueNet::new(f).unwrap_err().contains("finite"));
        assert!(ValueNet::new(file(0))
            .unwrap_err()
            .contains("at least one unit"));
    }

    #[test]
    fn the_future_counts_the_i_pieces_after_the_current_one() {
        use Kind::*;
        let sequence = [I, O, T, I, S, I];
        assert_eq!(
            Future::at(&sequence, 0),
            Future {
                next_i: 2.0,
                i_coming: 2.0
            }
        );
        let none = Future::at(&sequence, 5);
        assert_eq!((none.next_i, none.i_coming), (LOOKAHEAD as f32, 0.0));
    }
}
