//! Tests of the streaming search: the codes it hands out as decided, then its answer, are the
//! line of the search that keeps its whole trail to the end, whether the beam places every
//! piece, dies, or answers with a state pinned at an earlier depth.
use super::*;

/// A small game of numbers: each state has `children` children, named 0.., whose state is a
/// hash of the parent's and the name's. The key is a hash too (so the beam keeps states
/// regardless of their score, and the best score is often dropped); a child gains 100 points
/// one time in ten, and from depth `deaths_from` on, `death_rate` per mille of the children end
/// the game.
pub(crate) struct Toy {
    pub(crate) children: u16,
    pub(crate) deaths_from: usize,
    pub(crate) death_rate: u64,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn child(state: u64, code: u16) -> u64 {
    mix(state ^ mix(code as u64 + 1))
}

impl Game for Toy {
    type Code = u16;
    type State = u64;
    type Depth = usize;
    type Scratch = ();

    fn depth(&self, depth: usize) -> usize {
        depth
    }

    fn expand(
        &self,
        &depth: &usize,
        &state: &u64,
        score: u64,
        parent: u32,
        _: &mut (),
        out: &mut Sink<u16>,
    ) -> u64 {
        for code in 0..self.children {
            let h = child(state, code);
            if depth >= self.deaths_from && h % 1000 < self.death_rate {
                continue;
            }
            let gain = if (h >> 10).is_multiple_of(10) { 100 } else { 0 };
            let key = ((h >> 20) % 1000) as f64;
            out.push(key, h, score + gain, parent, code);
        }
        self.children as u64
    }

    fn apply(&self, _: &usize, &state: &u64, &code: &u16) -> u64 {
        child(state, code)
    }
}

/// What one search gave: the codes streamed as decided, and its answer.
struct Streamed {
    decided: Vec<u16>,
    line: Line<u16>,
}

/// A whole game of `depths` pieces of the toy game from `seed`.
pub(crate) fn run(seed: u64, depths: usize, objective: Objective) -> Run<u64> {
    Run {
        state: seed,
        score: 0,
        depths,
        planned: depths,
        objective,
    }
}

fn width(beam_width: usize) -> Width {
    Width::fixed(beam_width)
}

fn streamed(game: &Toy, run: &Run<u64>, width: &Width, guide: Option<&Guide>) -> Streamed {
    let mut decided = Vec::new();
    let mut take = |codes: &[u16]| decided.extend_from_slice(codes);
    let options = Options::new(width).guide(guide).decided(&mut take);
    let line = beam_search(game, run, options);
    Streamed { decided, line }
}

/// The search that keeps its whole trail.
fn whole(game: &Toy, run: &Run<u64>, width: &Width, guide: Option<&Guide>) -> Line<u16> {
    let mut held = InProcess::new(start(run));
    depths(game, run, Options::new(width).guide(guide), &mut held, None)
}

/// Over beams that live, die, and die with their best state at an earlier depth: the decided
/// codes then the answer's are the whole-trail search's line, score and all, and
/// `beam_search` answers that line too.
#[test]
fn decided_codes_and_the_answer_make_the_whole_trails_line() {
    let (mut died, mut pinned_earlier, mut decided_some) = (0, 0, 0);
    let mut cases = 0;
    for seed in 0..12u64 {
        for beam_width in [1, 2, 8, 64] {
            for (deaths_from, death_rate) in [(usize::MAX, 0), (150, 450), (40, 600)] {
                for objective in [Objective::Score, Objective::Survive] {
                    let game = Toy {
                        children: 3,
                        deaths_from,
                        death_rate,
                    };
                    let (run, width) = (run(seed, 400, objective), width(beam_width));
                    let plain = whole(&game, &run, &width, None);
                    let s = streamed(&game, &run, &width, None);
                    let joined = [s.decided.clone(), s.line.placements.clone()].concat();
                    let case = format!(
                        "seed {seed} width {beam_width} deaths from {deaths_from} {objective:?}"
                    );
                    assert_eq!(joined, plain.placements, "{case}");
                    assert_eq!(s.line.score, plain.score, "{case}");
                    let wrapped = beam_search(&game, &run, Options::new(&width));
                    assert_eq!(wrapped.placements, plain.placements, "{case}");
                    cases += 1;
                    died += usize::from(plain.stats.pieces < run.depths);
                    pinned_earlier += usize::from(plain.placements.len() < plain.stats.pieces);
                    decided_some += usize::from(s.decided.len() > 100);
                }
            }
        }
    }
    // The cases cover what they are meant to.
    assert!(died > cases / 3, "{died} of {cases} died");
    assert!(
        pinned_earlier > 10,
        "{pinned_earlier} of {cases} pinned earlier"
    );
    assert!(
        decided_some > cases / 2,
        "{decided_some} of {cases} decided"
    );
}

/// A guided search (keeping the line of a wider search in a narrow beam) streams the line it
/// answers too.
#[test]
fn a_guided_search_streams_its_line() {
    let game = Toy {
        children: 4,
        deaths_from: usize::MAX,
        death_rate: 0,
    };
    for seed in 0..4u64 {
        let run = run(seed, 300, Objective::Score);
        let wide = whole(&game, &run, &width(32), None);
        let mut state = seed;
        let mut boards: Vec<u64> = (wide.placements.iter())
            .map(|&code| {
                state = child(state, code);
                state
            })
            .collect();
        for free_end in [false, true] {
            let guide = Guide { boards, free_end };
            let plain = whole(&game, &run, &width(2), Some(&guide));
            let s = streamed(&game, &run, &width(2), Some(&guide));
            assert!(!s.decided.is_empty());
            let joined = [s.decided, s.line.placements].concat();
            assert_eq!(joined, plain.placements, "seed {seed}");
            assert_eq!(s.line.score, plain.score, "seed {seed}");
            boards = guide.boards;
        }
    }
}
