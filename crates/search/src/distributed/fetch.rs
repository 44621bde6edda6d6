//! The states of the chosen children. A child crosses to its board's owner without its state;
//! once the owner has chosen, it asks each process that holds a chosen child's parent for the
//! state, which that process builds from the parent's ([`fetch`]). So a process builds one
//! state per state kept, as the one-process search does, rather than one per child it sends
//! (about two), and a child crosses without the state's bytes.

use super::super::code::Code;
use super::super::comm::{Comm, Parcels};
use super::super::expand::{prefetch, Node, Step};
use super::super::game::Game;
use super::super::trail::TrailEntry;
use super::super::wire::{Reader, Wire};
use rayon::prelude::*;

/// A chosen child as its owner knows it: where its parent is and what it scored.
#[derive(Clone, Copy)]
pub(super) struct Wanted<C> {
    /// The process that holds the parent, and the parent's index in that process's beam.
    pub(super) process: u32,
    pub(super) parent: u32,
    pub(super) score: u64,
    pub(super) code: C,
}

/// The chosen states as nodes without their trail index, and the step that made each (its
/// parent's trail index and its code), in the order chosen.
pub(super) struct Fetched<S: Copy, C: Copy> {
    pub(super) nodes: Vec<Node<S>>,
    pub(super) steps: Vec<TrailEntry<C>>,
}

impl<S: Copy, C: Copy> Default for Fetched<S, C> {
    fn default() -> Self {
        Fetched {
            nodes: Vec::new(),
            steps: Vec::new(),
        }
    }
}

/// Bytes of a request (the parent's index and the code) and of its answer (the state and the
/// parent's trail index).
const fn request_bytes<C: Code>() -> usize {
    4 + C::BYTES
}
const fn answer_bytes<S: Wire>() -> usize {
    S::BYTES + 4
}

/// The states of `wanted` (this process's chosen children, in order), each built by the
/// process that holds its parent. Every process calls it at once, and builds the states the
/// others ask of it from its `parents`.
pub(super) fn fetch<G: Game>(
    comm: &dyn Comm,
    step: &Step<G>,
    parents: &[Node<G::State>],
    wanted: &[Wanted<G::Code>],
) -> Fetched<G::State, G::Code> {
    let processes = comm.size();
    let (ask, answer) = (request_bytes::<G::Code>(), answer_bytes::<G::State>());
    // Each child's place among the requests to its parent's process, which answers in order.
    let mut counts = vec![0usize; processes];
    let places: Vec<u32> = (wanted.iter())
        .map(|w| {
            let count = &mut counts[w.process as usize];
            *count += 1;
            (*count - 1) as u32
        })
        .collect();
    let at_ask = starts(&counts, ask);
    let mut requests = vec![0u8; counts.iter().sum::<usize>() * ask];
    let mut one = Vec::with_capacity(ask.max(answer));
    for (w, &place) in wanted.iter().zip(&places) {
        one.clear();
        w.parent.put(&mut one);
        w.code.put(&mut one);
        let at = at_ask[w.process as usize] + place as usize * ask;
        requests[at..at + ask].copy_from_slice(&one);
    }
    let lens = counts.iter().map(|&n| n * ask).collect();
    let asked = comm.all_to_all(Parcels {
        bytes: requests,
        lens,
    });

    let answers = answers(step, parents, &asked.bytes);
    let lens = asked.lens.iter().map(|&len| len / ask * answer).collect();
    drop(asked);
    let answered = comm.all_to_all(Parcels {
        bytes: answers,
        lens,
    });

    let at_answer = starts(&counts, answer);
    let (nodes, steps) = (wanted.par_iter().zip(&places))
        .map(|(w, &place)| {
            let at = at_answer[w.process as usize] + place as usize * answer;
            let mut r = Reader::new(&answered.bytes[at..at + answer]);
            let node = Node {
                state: r.read(),
                score: w.score,
                trail: 0,
            };
            let entry = TrailEntry {
                parent: r.read(),
                placement: w.code,
            };
            (node, entry)
        })
        .unzip();
    Fetched { nodes, steps }
}

/// The answers to `requests` (the requests other processes sent this one, one after the
/// other), in the order asked: each the state its parent here and its code make, and the
/// parent's trail index. A batch of requests at a time: the batch's parents are asked of the
/// memory before the first is read (they lie far apart in the beam).
fn answers<G: Game>(step: &Step<G>, parents: &[Node<G::State>], requests: &[u8]) -> Vec<u8> {
    const BATCH: usize = 32;
    let (ask, answer) = (request_bytes::<G::Code>(), answer_bytes::<G::State>());
    let mut answers = vec![0u8; requests.len() / ask * answer];
    (answers.par_chunks_mut(BATCH * answer))
        .zip(requests.par_chunks(BATCH * ask))
        .for_each(|(out, requests)| {
            let parent = |request: &[u8]| &parents[Reader::new(request).read::<u32>() as usize];
            for request in requests.chunks_exact(ask) {
                prefetch(parent(request));
            }
            let mut one = Vec::with_capacity(answer);
            for (out, request) in out.chunks_exact_mut(answer).zip(requests.chunks_exact(ask)) {
                let parent = parent(request);
                let (state, trail) = (parent.state, parent.trail);
                one.clear();
                let code = Reader::new(&request[u32::BYTES..]).read();
                step.game.apply(step.at, &state, &code).put(&mut one);
                trail.put(&mut one);
                out.copy_from_slice(&one[..answer]);
            }
        });
    answers
}

/// Where each process's part starts in a buffer of `counts[p]` items of `each` bytes.
fn starts(counts: &[usize], each: usize) -> Vec<usize> {
    (counts.iter())
        .scan(0, |at, &count| {
            *at += count * each;
            Some(*at - count * each)
        })
        .collect()
}
