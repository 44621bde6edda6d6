//! A model of the browser game's rules, written apart from the page's script, for the results
//! the page must report: the game played move by move and frame by frame, and a small greedy
//! planner that picks the keys of a good placement so that a game clears lines.

const WIDTH: i32 = 10;
const HEIGHT: i32 = 20;

fn shape(kind: char) -> Vec<Vec<u8>> {
    let rows: &[&[u8]] = match kind {
        'I' => &[&[0, 0, 0, 0], &[1, 1, 1, 1], &[0, 0, 0, 0], &[0, 0, 0, 0]],
        'J' => &[&[1, 0, 0], &[1, 1, 1], &[0, 0, 0]],
        'L' => &[&[0, 0, 1], &[1, 1, 1], &[0, 0, 0]],
        'O' => &[&[1, 1], &[1, 1]],
        'S' => &[&[0, 1, 1], &[1, 1, 0], &[0, 0, 0]],
        'Z' => &[&[1, 1, 0], &[0, 1, 1], &[0, 0, 0]],
        'T' => &[&[0, 1, 0], &[1, 1, 1], &[0, 0, 0]],
        _ => panic!("no piece {kind}"),
    };
    rows.iter().map(|r| r.to_vec()).collect()
}

#[derive(Clone, Debug)]
struct Falling {
    kind: char,
    matrix: Vec<Vec<u8>>,
    x: i32,
    y: i32,
}

impl Falling {
    fn cells(&self) -> Vec<(i32, i32)> {
        let mut cells = Vec::new();
        for (r, row) in self.matrix.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                if v != 0 {
                    cells.push((self.x + c as i32, self.y + r as i32));
                }
            }
        }
        cells
    }
}

/// The browser game played move by move and frame by frame, as the rules say.
#[derive(Clone, Debug)]
pub(super) struct Model {
    sequence: Vec<char>,
    field: Vec<[bool; WIDTH as usize]>,
    index: usize,
    pub(super) points: u64,
    pub(super) lines: u64,
    pub(super) placed: usize,
    pub(super) over: bool,
    counter: u32,
    piece: Option<Falling>,
    moves: Vec<char>,
    record_lines: Vec<String>,
    /// The points after each piece locked (`scores[k]`: after k pieces).
    pub(super) scores: Vec<u64>,
}

impl Model {
    pub(super) fn new(sequence: &[char]) -> Model {
        let mut model = Model {
            sequence: sequence.to_vec(),
            field: vec![[false; WIDTH as usize]; HEIGHT as usize],
            index: 0,
            points: 0,
            lines: 0,
            placed: 0,
            over: false,
            counter: 0,
            piece: None,
            moves: Vec::new(),
            record_lines: Vec::new(),
            scores: vec![0],
        };
        model.spawn();
        model
    }

    fn level(&self) -> u64 {
        self.points / 100 + 1
    }

    fn spawn(&mut self) {
        self.moves.clear();
        self.counter = 0;
        let Some(&kind) = self.sequence.get(self.index) else {
            self.over = true;
            self.piece = None;
            return;
        };
        let matrix = shape(kind);
        let size = matrix.len() as i32;
        self.piece = Some(Falling {
            kind,
            matrix,
            x: 5 - (size + 1) / 2,
            y: if kind == 'I' { -1 } else { -2 },
        });
    }

    fn fits(&self, piece: &Falling) -> bool {
        piece.cells().iter().all(|&(x, y)| {
            (0..WIDTH).contains(&x) && y < HEIGHT && (y < 0 || !self.field[y as usize][x as usize])
        })
    }

    /// Plays one move; a refused down locks the piece.
    pub(super) fn play(&mut self, m: char) {
        let Some(piece) = self.piece.clone() else {
            return;
        };
        let mut moved = piece.clone();
        match m {
            'L' => moved.x -= 1,
            'R' => moved.x += 1,
            'D' => moved.y += 1,
            'U' => {
                let n = piece.matrix.len();
                for r in 0..n {
                    for c in 0..n {
                        moved.matrix[r][c] = piece.matrix[n - 1 - c][r];
                    }
                }
            }
            _ => panic!("no move {m}"),
        }
        if self.fits(&moved) {
            self.piece = Some(moved);
            self.moves.push(m);
        } else if m == 'D' {
            self.moves.push('D');
            self.lock(piece);
        }
    }

    fn lock(&mut self, piece: Falling) {
        self.record_lines.push(runs(&self.moves));
        let cells = piece.cells();
        if cells.iter().any(|&(_, y)| y < 0) {
            self.over = true;
            self.piece = None;
            self.scores.push(self.points);
            return;
        }
        for (x, y) in cells {
            self.field[y as usize][x as usize] = true;
        }
        self.placed += 1;
        let kept: Vec<[bool; WIDTH as usize]> = self
            .field
            .iter()
            .filter(|row| !row.iter().all(|&c| c))
            .copied()
            .collect();
        let cleared = self.field.len() - kept.len();
        self.field = vec![[false; WIDTH as usize]; cleared];
        self.field.extend(kept);
        self.lines += cleared as u64;
        self.points += 10 * cleared as u64;
        self.scores.push(self.points);
        self.index += 1;
        self.spawn();
    }

    fn frame(&mut self) {
        if self.over {
            return;
        }
        self.counter += 1;
        let threshold = 35u64.saturating_sub(3 * (self.level() - 1)).max(5);
        if u64::from(self.counter) > threshold {
            self.counter = 0;
            self.play('D');
        }
    }

    /// Plays a test script as the page does (see `#test=` in play.html).
    pub(super) fn run(&mut self, script: &str) {
        for step in script.split(',').filter(|s| !s.is_empty()) {
            let (step, times) = match step.split_once('*') {
                Some((step, times)) => (step, times.parse().unwrap()),
                None => (step, 1),
            };
            for _ in 0..times {
                if let Some(frames) = step.strip_prefix("wait:") {
                    for _ in 0..frames.parse::<u32>().unwrap() {
                        self.frame();
                    }
                } else if !self.over {
                    self.play(match step {
                        "Left" => 'L',
                        "Right" => 'R',
                        "Up" => 'U',
                        "Down" => 'D',
                        _ => panic!("no step {step}"),
                    });
                }
            }
        }
    }

    pub(super) fn record(&self) -> String {
        let mut text = "game browser\n".to_string();
        for line in &self.record_lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    pub(super) fn summary(&self) -> String {
        format!(
            "points={} lines={} level={} pieces={} over={}",
            self.points,
            self.lines,
            self.level(),
            self.placed,
            self.over
        )
    }

    pub(super) fn piece_state(&self) -> String {
        match &self.piece {
            Some(p) => format!(
                "piece={} kind={} x={} y={} counter={} moves={}",
                self.index + 1,
                p.kind,
                p.x,
                p.y,
                self.counter,
                runs(&self.moves)
            ),
            None => "piece=none".to_string(),
        }
    }

    /// Bumpiness, holes and height of the field, for the planner (lower is better).
    fn badness(&self) -> f64 {
        let heights: Vec<i32> = (0..WIDTH as usize)
            .map(|x| {
                (0..HEIGHT as usize)
                    .find(|&y| self.field[y][x])
                    .map_or(0, |y| HEIGHT - y as i32)
            })
            .collect();
        let holes = (0..WIDTH as usize)
            .map(|x| {
                (0..HEIGHT as usize)
                    .skip_while(|&y| !self.field[y][x])
                    .filter(|&y| !self.field[y][x])
                    .count()
            })
            .sum::<usize>();
        let bumps: i32 = heights.windows(2).map(|w| (w[0] - w[1]).abs()).sum();
        0.51 * heights.iter().sum::<i32>() as f64 + 0.36 * holes as f64 + 0.18 * bumps as f64
    }
}

/// Moves as record tokens: equal neighbours merged into counts.
fn runs(moves: &[char]) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let mut i = 0;
    while i < moves.len() {
        let n = moves[i..].iter().take_while(|&&m| m == moves[i]).count();
        tokens.push(if n == 1 {
            moves[i].to_string()
        } else {
            format!("{}{n}", moves[i])
        });
        i += n;
    }
    tokens.join(" ")
}

/// The keys of a good placement of the piece in play (rotate, shift, then down until it locks),
/// played on `model`: a small greedy planner, enough to clear lines.
pub(super) fn plan_piece(model: &mut Model) -> String {
    let mut best: Option<(f64, String, Model)> = None;
    for turns in 0..4 {
        for shift in -5i32..=5 {
            let mut trial = model.clone();
            let mut steps = Vec::new();
            if turns > 0 {
                steps.push(format!("Up*{turns}"));
            }
            if shift != 0 {
                let key = if shift < 0 { "Left" } else { "Right" };
                steps.push(format!("{key}*{}", shift.abs()));
            }
            trial.run(&steps.join(","));
            if trial.moves.len() != (turns + shift.unsigned_abs()) as usize {
                continue; // A refused rotation or shift: another plan reaches that spot.
            }
            let before = trial.record_lines.len();
            let mut downs = 0;
            while trial.record_lines.len() == before {
                trial.play('D');
                downs += 1;
            }
            steps.push(format!("Down*{downs}"));
            if trial.over {
                continue;
            }
            let cleared = (trial.lines - model.lines) as f64;
            let value = trial.badness() - 0.76 * cleared;
            if best.as_ref().is_none_or(|(b, _, _)| value < *b) {
                best = Some((value, steps.join(","), trial));
            }
        }
    }
    let (_, script, after) = best.expect("some placement does not end the game");
    *model = after;
    script
}
