//! `value-net collect`: runs beams on generated sequences and writes their states, labelled by
//! survival, to a data file. `value-net train`: fits the network `solve --value-net` reads.

use clap::{Parser, Subcommand};
use rayon::prelude::*;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use tetris_opt::games::tencent::rules::Rules;
use tetris_opt::net::{NetFile, ValueNet, INPUTS, INPUT_NAMES};
use tetris_opt::search::{beam_search_logged, Params, SurvivalLog};
use tetris_opt::sequence::{contest_sequence, SplitMix64};
use tetris_opt::tune::ContestStates;

#[derive(Parser)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Beams over generated sequences; their states with survival labels into OUT.
    Collect {
        /// Generator seeds (refused where they run into the contest sequence).
        #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
        seeds: Vec<u64>,
        #[arg(long, default_value_t = 3000)]
        pieces: usize,
        /// The teacher's width.
        #[arg(long, default_value_t = 5000)]
        beam_width: usize,
        /// Log the states of every this many depths.
        #[arg(long, default_value_t = 10)]
        every: usize,
        /// A state survives when the beam holds a descendant this many pieces later.
        #[arg(long, default_value_t = 20)]
        horizon: usize,
        /// The teacher's ranking: a network instead of the default evaluation.
        #[arg(long)]
        value_net: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Fits a network to data files; writes it as JSON.
    Train {
        data: Vec<PathBuf>,
        #[arg(long, default_value_t = 16)]
        hidden: usize,
        #[arg(long, default_value_t = 6)]
        epochs: usize,
        #[arg(long, default_value_t = 0.003)]
        learning_rate: f32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

fn main() {
    let result = match Args::parse().command {
        Command::Collect {
            seeds,
            pieces,
            beam_width,
            every,
            horizon,
            value_net,
            out,
        } => collect(&seeds, pieces, beam_width, every, horizon, value_net, &out),
        Command::Train {
            data,
            hidden,
            epochs,
            learning_rate,
            seed,
            out,
        } => train(&data, hidden, epochs, learning_rate, seed, &out),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// A row of a data file: the inputs, the label (1.0 survived, 0.0 not), and the row's group
/// (seed x 100,000 + depth, so that states of one depth share one), as f32 LE.
const ROW: usize = INPUTS + 2;

fn collect(
    seeds: &[u64],
    pieces: usize,
    beam_width: usize,
    every: usize,
    horizon: usize,
    value_net: Option<PathBuf>,
    out: &PathBuf,
) -> Result<(), String> {
    let contest = ContestStates::default();
    if let Some(&seed) = seeds
        .iter()
        .find(|&&s| contest.overlap(s, pieces).is_some())
    {
        return Err(format!("seed {seed} runs into the contest sequence"));
    }
    let mut params = Params {
        beam_width,
        width_changes: Default::default(),
        time_budget: None,
        score_weight: 0.024,
        weights: Default::default(),
        policy: Default::default(),
        rules: Rules::default(),
        start: Default::default(),
    };
    if let Some(path) = value_net {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        params.policy.value_net = Some(std::sync::Arc::new(ValueNet::from_json(&text)?));
    }
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = BufWriter::new(file);
    for &seed in seeds {
        let sequence = contest_sequence(seed, pieces);
        let mut log = SurvivalLog::new(every, horizon);
        let solution = beam_search_logged(&sequence, &params, &mut log, &mut |_| {});
        let alive = log.samples.iter().filter(|s| s.survived).count();
        eprintln!(
            "seed {seed}: score {}, {} states logged, {:.1}% survived",
            solution.score,
            log.samples.len(),
            100.0 * alive as f64 / log.samples.len().max(1) as f64
        );
        for s in &log.samples {
            let group = (seed * 100_000 + s.depth as u64) as f32;
            let label = f32::from(u8::from(s.survived));
            for v in s.inputs.iter().chain([&label, &group]) {
                w.write_all(&v.to_le_bytes()).map_err(|e| e.to_string())?;
            }
        }
    }
    w.flush().map_err(|e| e.to_string())
}

fn read_rows(paths: &[PathBuf]) -> Result<Vec<[f32; ROW]>, String> {
    let mut rows = Vec::new();
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut bytes = Vec::new();
        BufReader::new(file)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
        if bytes.len() % (4 * ROW) != 0 {
            return Err(format!("{}: not a whole number of rows", path.display()));
        }
        for row in bytes.chunks_exact(4 * ROW) {
            rows.push(std::array::from_fn(|i| {
                f32::from_le_bytes(row[4 * i..4 * i + 4].try_into().expect("4 bytes"))
            }));
        }
    }
    Ok(rows)
}

/// The linear key of the default weights as a function of the inputs, negated (higher is
/// better): its features and score lead (the depth's constant terms drop out of a ranking).
fn linear_value() -> [f32; INPUTS] {
    let weights = tetris_opt::games::tencent::eval::Weights::default().to_vec();
    let names = tetris_opt::games::tencent::eval::Weights::NAMES;
    std::array::from_fn(|i| match names.iter().position(|w| *w == INPUT_NAMES[i]) {
        Some(w) => -weights[w],
        None if INPUT_NAMES[i] == "score_lead" => 0.024 * 1000.0,
        None => 0.0,
    })
}

/// Fits `f(x) = c * linear(x) + net(x)` to rank, within each depth, the states whose line
/// survived above those whose line did not (a logistic loss on pairs of one depth: each
/// survivor against `pairs` others drawn at random), by Adam. Every fifth depth is held out
/// to report. The network is written scaled by `1 / c`, so that the beam's key minus its
/// logit ranks as `f` does.
fn train(
    paths: &[PathBuf],
    hidden: usize,
    epochs: usize,
    learning_rate: f32,
    seed: u64,
    out: &PathBuf,
) -> Result<(), String> {
    let rows = read_rows(paths)?;
    if rows.is_empty() {
        return Err("no rows".to_string());
    }
    let group_of = |r: &[f32; ROW]| r[INPUTS + 1] as u64;
    let mut group_ids: Vec<u64> = rows.iter().map(group_of).collect();
    group_ids.sort_unstable();
    group_ids.dedup();
    let held_groups: std::collections::HashSet<u64> = group_ids
        .iter()
        .copied()
        .enumerate()
        .filter(|(i, _)| i % 5 == 0)
        .map(|(_, g)| g)
        .collect();
    let (held, train): (Vec<&[f32; ROW]>, Vec<&[f32; ROW]>) = rows
        .iter()
        .partition(|r| held_groups.contains(&group_of(r)));
    let n = train.len() as f64;
    let mut mean = [0.0f32; INPUTS];
    let mut scale = [1.0f32; INPUTS];
    for i in 0..INPUTS {
        let m = train.iter().map(|r| r[i] as f64).sum::<f64>() / n;
        let var = train.iter().map(|r| (r[i] as f64 - m).powi(2)).sum::<f64>() / n;
        mean[i] = m as f32;
        scale[i] = if var > 1e-12 {
            (1.0 / var.sqrt()) as f32
        } else {
            0.0
        };
    }
    let linear = linear_value();
    let lin = |r: &[f32; ROW]| (0..INPUTS).map(|i| linear[i] * r[i]).sum::<f32>();
    // Per group: its survivors and the others, as indices into `train`.
    let mut groups: std::collections::BTreeMap<u64, (Vec<usize>, Vec<usize>)> = Default::default();
    for (i, r) in train.iter().enumerate() {
        let g = groups.entry(group_of(r)).or_default();
        if r[INPUTS] > 0.5 {
            g.0.push(i)
        } else {
            g.1.push(i)
        }
    }
    let pairs_per_survivor = 8;
    let lin_spread = {
        let v: Vec<f32> = train.iter().map(|r| lin(r)).collect();
        let m = v.iter().sum::<f32>() / v.len() as f32;
        (v.iter().map(|x| (x - m).powi(2)).sum::<f32>() / v.len() as f32).sqrt()
    };
    eprintln!(
        "{} states in {} depths for training ({:.1}% survived), {} held out",
        train.len(),
        groups.len(),
        100.0 * groups.values().map(|g| g.0.len()).sum::<usize>() as f64 / n,
        held.len()
    );
    let mut rng = SplitMix64::new(seed);
    let mut normal = || {
        (0..12)
            .map(|_| rng.below(1 << 24) as f32 / (1 << 24) as f32)
            .sum::<f32>()
            - 6.0
    };
    let init = (2.0 / INPUTS as f32).sqrt();
    // Layout: w1 (hidden x INPUTS), b1 (hidden), w2 (hidden), b2 (unused by a ranking), c.
    let mut params: Vec<f32> = Vec::new();
    params.extend((0..hidden * INPUTS).map(|_| normal() * init));
    params.extend(std::iter::repeat_n(0.0, hidden));
    params.extend((0..hidden).map(|_| normal() * 0.01));
    params.push(0.0);
    params.push(1.0 / lin_spread.max(1e-6));
    let (b1_at, w2_at, b2_at, c_at) = (
        hidden * INPUTS,
        hidden * INPUTS + hidden,
        hidden * INPUTS + 2 * hidden,
        hidden * INPUTS + 2 * hidden + 1,
    );
    let standard =
        |r: &[f32; ROW]| -> [f32; INPUTS] { std::array::from_fn(|i| (r[i] - mean[i]) * scale[i]) };
    // f and, into `h`, the hidden units' activations before the rectifier.
    let forward = |p: &[f32], r: &[f32; ROW], h: &mut Vec<f32>| -> f32 {
        let x = standard(r);
        h.clear();
        let mut out = p[c_at] * lin(r);
        for u in 0..hidden {
            let w = &p[u * INPUTS..(u + 1) * INPUTS];
            let a = p[b1_at + u] + w.iter().zip(&x).map(|(a, b)| a * b).sum::<f32>();
            h.push(a);
            out += p[w2_at + u] * a.max(0.0);
        }
        out
    };
    // Adds `d` times the gradient of f at `r` to `g`.
    let backward = |p: &[f32], r: &[f32; ROW], h: &[f32], d: f32, g: &mut [f32]| {
        let x = standard(r);
        g[c_at] += d * lin(r);
        for u in 0..hidden {
            if h[u] <= 0.0 {
                continue;
            }
            g[w2_at + u] += d * h[u];
            let da = d * p[w2_at + u];
            g[b1_at + u] += da;
            for (gi, xi) in g[u * INPUTS..(u + 1) * INPUTS].iter_mut().zip(&x) {
                *gi += da * xi;
            }
        }
    };
    let (mut m, mut v) = (vec![0.0f32; params.len()], vec![0.0f32; params.len()]);
    let batch = 512;
    let mut t = 0;
    for epoch in 0..epochs {
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for (survivors, others) in groups.values() {
            if others.is_empty() {
                continue;
            }
            for &s in survivors {
                for _ in 0..pairs_per_survivor {
                    pairs.push((s, others[rng.below(others.len() as u64) as usize]));
                }
            }
        }
        for i in (1..pairs.len()).rev() {
            pairs.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut loss_sum = 0.0f64;
        for chunk in pairs.chunks(batch) {
            let grads: Vec<(Vec<f32>, f64)> = chunk
                .par_chunks(64)
                .map(|part| {
                    let mut g = vec![0.0f32; params.len()];
                    let (mut hp, mut hn) = (Vec::with_capacity(hidden), Vec::with_capacity(hidden));
                    let mut loss = 0.0f64;
                    for &(a, b) in part {
                        let margin = forward(&params, train[a], &mut hp)
                            - forward(&params, train[b], &mut hn);
                        // loss = softplus(-margin); d loss / d margin = -sigmoid(-margin).
                        loss += (1.0 + (-margin as f64).exp()).ln();
                        let d = -1.0 / (1.0 + margin.exp());
                        backward(&params, train[a], &hp, d, &mut g);
                        backward(&params, train[b], &hn, -d, &mut g);
                    }
                    (g, loss)
                })
                .collect();
            t += 1;
            let scale_g = 1.0 / chunk.len() as f32;
            let mut g = vec![0.0f32; params.len()];
            for (part, loss) in &grads {
                loss_sum += loss;
                for (a, b) in g.iter_mut().zip(part) {
                    *a += b * scale_g;
                }
            }
            let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
            for k in 0..params.len() {
                m[k] = b1 * m[k] + (1.0 - b1) * g[k];
                v[k] = b2 * v[k] + (1.0 - b2) * g[k] * g[k];
                let mh = m[k] / (1.0 - b1.powi(t));
                let vh = v[k] / (1.0 - b2.powi(t));
                params[k] -= learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        let f = |r: &[f32; ROW]| forward(&params, r, &mut Vec::new());
        eprintln!(
            "epoch {}: pair loss {:.4}; held-out ranking within a depth (mean AUC): model {:.4}, linear key {:.4}; c = {:.4}",
            epoch + 1,
            loss_sum / pairs.len().max(1) as f64,
            depth_auc(&held, &f),
            depth_auc(&held, &lin),
            params[c_at]
        );
    }
    let c = params[c_at];
    if c <= 0.0 {
        return Err(format!(
            "the fit turned the linear key around (c = {c}); not written"
        ));
    }
    let file = NetFile {
        inputs: INPUT_NAMES.iter().map(|s| s.to_string()).collect(),
        mean: mean.to_vec(),
        scale: scale.to_vec(),
        hidden: (0..hidden)
            .map(|u| params[u * INPUTS..(u + 1) * INPUTS].to_vec())
            .collect(),
        hidden_bias: params[b1_at..w2_at].to_vec(),
        output: params[w2_at..b2_at].iter().map(|w| w / c).collect(),
        output_bias: 0.0,
    };
    ValueNet::new(file.clone())?;
    let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    std::fs::write(out, text + "\n").map_err(|e| format!("{}: {e}", out.display()))
}

/// The mean over groups (depths) with both labels of the AUC of `score` (higher: survives).
fn depth_auc(rows: &[&[f32; ROW]], score: &dyn Fn(&[f32; ROW]) -> f32) -> f64 {
    let mut groups: std::collections::BTreeMap<u64, Vec<(f32, bool)>> = Default::default();
    for r in rows {
        groups
            .entry(r[INPUTS + 1] as u64)
            .or_default()
            .push((score(r), r[INPUTS] > 0.5));
    }
    let mut sum = 0.0;
    let mut count = 0;
    for mut g in groups.into_values() {
        let pos = g.iter().filter(|e| e.1).count();
        let neg = g.len() - pos;
        if pos == 0 || neg == 0 {
            continue;
        }
        g.sort_by(|a, b| a.0.total_cmp(&b.0));
        // Rank sum of the positives (ties get their mean rank).
        let mut rank_sum = 0.0;
        let mut i = 0;
        while i < g.len() {
            let mut j = i;
            while j < g.len() && g[j].0 == g[i].0 {
                j += 1;
            }
            let mean_rank = (i + j + 1) as f64 / 2.0;
            rank_sum += mean_rank * g[i..j].iter().filter(|e| e.1).count() as f64;
            i = j;
        }
        sum += (rank_sum - (pos * (pos + 1)) as f64 / 2.0) / (pos * neg) as f64;
        count += 1;
    }
    sum / count.max(1) as f64
}
