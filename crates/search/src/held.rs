//! Where the beam's states are held, as the one depth loop ([`super::depths`]) sees it: in this
//! process ([`InProcess`]), or spread over the processes of a [`super::Comm`]
//! ([`super::distributed::Spread`]). The loop asks the holder for the phases that differ (the
//! expansion, the selection, the trail's steps); everything else (the widths, the answer's
//! state, the statistics, the end) it does once, in one order.
//!
//! The loop is generic over the holder, so one process pays nothing for an exchange it does not
//! make: its states are built lazily inside the next expansion and never encoded.

use super::candidates::{Candidate, Order};
use super::comm::{Comm, Place, Solo};
use super::expand::{Beam, Last, Node, Step};
use super::game::{Decided, Game};
use super::guided;
use super::select::Picker;
use super::trail::{Best, Trail, TrailEntry};

/// What one depth's expansion did, over every process.
pub(crate) struct Expansion {
    /// States expanded.
    pub(crate) states: u64,
    /// Placements generated and evaluated.
    pub(crate) placements: u64,
    /// Children that did not end the game: none means every line ended before this depth.
    pub(crate) children: u64,
}

/// What one depth's selection chose, over every process.
pub(crate) struct Selection {
    /// States chosen.
    pub(crate) size: usize,
    /// The one order's best of them ([`Order::best`]).
    pub(crate) top: Best,
    /// The guide's state, when one was kept.
    pub(crate) on_guide: Option<Best>,
}

/// What a snapshot holds of a beam, and where it is held.
pub(crate) struct Beamed<'a, S: Copy, C> {
    pub(crate) place: Place,
    /// In one process, the states the last depth expanded; spread, the states it chose.
    pub(crate) parents: &'a [Node<S>],
    /// In one process, the candidates the last selection chose among the parents' children.
    pub(crate) chosen: &'a [Candidate<C>],
    /// Spread, the chosen states' board hashes.
    pub(crate) tags: &'a [u64],
}

/// The phases of a depth that depend on where the states are held; called in this order.
pub(crate) trait Holder<G: Game> {
    /// The processes the states and the trail are spread over ([`Solo`] in one); process 0
    /// answers and reports progress.
    fn comm(&self) -> &dyn Comm;

    /// The width of this depth (`planned` is this process's plan; process 0's counts) and this
    /// process's share of it, for the expansion's estimate of the selection's bound.
    fn width(&mut self, planned: usize) -> (usize, usize);

    /// Expands this depth's states into their children. The states the last selection chose
    /// become this depth's first where that is lazy, with their trail steps (the trail is
    /// closed here then, and its decided placements handed to `decided`).
    fn expand(
        &mut self,
        step: &Step<G>,
        share: usize,
        trail: &mut Trail<G::Code>,
        best: &mut Option<Best>,
        decided: &mut Option<Decided<G::Code>>,
    ) -> Expansion;

    /// Chooses the `width` states that go on (the expansion found children).
    fn select(&mut self, step: &Step<G>, width: usize, depth: usize) -> Selection;

    /// Makes the chosen states this holder's, after the loop chose the answer's state `best`.
    fn advance(
        &mut self,
        at: G::Depth,
        trail: &mut Trail<G::Code>,
        best: &mut Option<Best>,
        decided: &mut Option<Decided<G::Code>>,
    );

    /// After the last depth's selection (when the beam got there): the trail's last level.
    fn finish(&mut self, trail: &mut Trail<G::Code>);

    /// After [`Holder::advance`], what a snapshot holds of the beam: the states the depth
    /// expanded and the candidates its selection chose (None: this holder takes none).
    fn snapshot(&self) -> Option<Beamed<'_, G::State, G::Code>> {
        None
    }
}

/// The beam held in this process, on its threads.
pub(crate) struct InProcess<G: Game> {
    beam: Beam<G::State, G::Code>,
    picker: Picker<G::Code>,
    /// Each parent's board hash, for the ties the one order breaks by it.
    tags: Vec<u64>,
    /// The last depth, whose selection this depth's expansion turns into states.
    last_at: Option<G::Depth>,
    /// Tasks the last expansion ran: the beam's first chunks hold the children.
    tasks: usize,
}

impl<G: Game> InProcess<G> {
    pub(crate) fn new(start: Node<G::State>) -> Self {
        InProcess {
            beam: Beam::new(start),
            picker: Picker::default(),
            tags: Vec::new(),
            last_at: None,
            tasks: 0,
        }
    }
}

impl<G: Game> InProcess<G> {
    /// The beam a snapshot held after depth `done - 1` ([`Holder::snapshot`]), made at `at`.
    pub(crate) fn resumed(
        parents: Vec<Node<G::State>>,
        chosen: Vec<Candidate<G::Code>>,
        at: G::Depth,
    ) -> Self {
        let mut held = InProcess::new(Node::default());
        held.beam.parents = parents;
        held.picker.chosen = chosen;
        held.last_at = Some(at);
        held
    }
}

impl<G: Game> Holder<G> for InProcess<G> {
    fn comm(&self) -> &dyn Comm {
        &Solo
    }

    fn width(&mut self, planned: usize) -> (usize, usize) {
        (planned, planned)
    }

    fn expand(
        &mut self,
        step: &Step<G>,
        share: usize,
        trail: &mut Trail<G::Code>,
        best: &mut Option<Best>,
        decided: &mut Option<Decided<G::Code>>,
    ) -> Expansion {
        // The last depth's selection becomes this depth's states inside the expansion, which
        // drops it then (the next selection makes a new one).
        let last = self.last_at.as_ref().map(|at| Last {
            chosen: std::mem::take(&mut self.picker.chosen),
            at,
        });
        // Each parent's board hash (the start's is never compared: it is the only parent).
        self.tags.clear();
        match &last {
            Some(l) => self.tags.extend(l.chosen.iter().map(|c| c.hash)),
            None => self.tags.push(0),
        }
        let states = last
            .as_ref()
            .map_or(self.beam.parents.len(), |l| l.chosen.len());
        // The steps of the states the expansion builds (none before the first piece).
        let level = if last.is_some() {
            trail.open_part(states, 0, states)
        } else {
            &mut []
        };
        let lazy = last.is_some();
        let expanded = self.beam.expand(last, step, level, share);
        if lazy && trail.close(&mut self.beam.frontier, |n| &mut n.trail, best, &Solo) {
            if let Some(decided) = decided.as_mut() {
                trail.take_decided(*best, *decided, &Solo);
            }
        }
        self.tasks = expanded.tasks;
        let chunks = &self.beam.chunks[..expanded.tasks];
        Expansion {
            states: expanded.states as u64,
            placements: expanded.placements,
            children: chunks.iter().map(|c| c.generated as u64).sum(),
        }
    }

    fn select(&mut self, step: &Step<G>, width: usize, depth: usize) -> Selection {
        let tasks = self.tasks;
        // A selection that needs children the expansion's bound dropped gets them (rarely:
        // when duplicates crowd the shortlist, or the bound was estimated too low).
        while let Err(refill) =
            (self.picker).select(&mut self.beam.chunks[..tasks], width, &self.tags)
        {
            self.beam.expand_again(step, refill.bound);
        }
        let chosen = &mut self.picker.chosen;
        let on_guide = step.guide_board.and_then(|board| {
            guided::keep_board(&self.beam.chunks[..tasks], board, chosen, &self.tags)
        });
        let at = |i: usize| Best {
            depth,
            index: i as u32,
            score: chosen[i].score,
        };
        Selection {
            size: chosen.len(),
            top: at(top(chosen)),
            on_guide: on_guide.map(at),
        }
    }

    fn advance(
        &mut self,
        at: G::Depth,
        _trail: &mut Trail<G::Code>,
        _best: &mut Option<Best>,
        _decided: &mut Option<Decided<G::Code>>,
    ) {
        // The children are chosen from: their memory goes before the next depth's, whose
        // probe tasks keep every child they make for a while.
        for chunk in &mut self.beam.chunks[..self.tasks] {
            chunk.release();
        }
        // The states this depth expanded are those its selection refers to.
        if self.last_at.is_some() {
            std::mem::swap(&mut self.beam.parents, &mut self.beam.frontier);
        }
        self.last_at = Some(at);
    }

    fn finish(&mut self, trail: &mut Trail<G::Code>) {
        // The last selection's states are never expanded; only their steps are needed.
        let parents = &self.beam.parents;
        let level = self.picker.chosen.iter().map(|c| TrailEntry {
            parent: parents[c.parent as usize].trail,
            placement: c.placement,
        });
        trail.push_last(level);
    }

    fn snapshot(&self) -> Option<Beamed<'_, G::State, G::Code>> {
        Some(Beamed {
            place: Place::ONE,
            parents: &self.beam.parents,
            chosen: &self.picker.chosen,
            tags: &[],
        })
    }
}

/// The index of the one order's best of `chosen` (which is not empty).
fn top<C>(chosen: &[Candidate<C>]) -> usize {
    (chosen.iter().enumerate())
        .min_by_key(|(_, c)| Order::best(c.score, c.key, c.hash))
        .expect("a selection from candidates is not empty")
        .0
}
