//! The viewer's script: decodes the film `film.rs` writes and draws it.
"use strict";
(function () {
  const film = JSON.parse(document.getElementById("film").textContent);
  const W = 10, H = 20, CELL = 28, FULL = (1 << W) - 1;
  const KINDS = "ILJTOSZ";
  const COLOR = { I: "#31c7ef", L: "#ef7921", J: "#5a65ff", T: "#b04dc8", O: "#f7d308",
                  S: "#42b642", Z: "#ef2029" };
  const EMPTY = "#15171c", GRID = "#23262d", SETTLED = "#8a9099", CLEARING = "#f2f2f2";
  // A settled cell keeps the colour of the piece that placed it, darker, so that the piece in
  // play stands out; SETTLED is for a cell whose piece is unknown.
  const shade = (hex, f) => "#" + [1, 3, 5]
    .map((k) => Math.round(parseInt(hex.slice(k, k + 2), 16) * f).toString(16).padStart(2, "0")).join("");
  const SETTLED_COLOR = {};
  for (const k of KINDS) SETTLED_COLOR[k] = shade(COLOR[k], 0.6);
  const UNKNOWN = KINDS.length + 1;
  const locked = film.pieces;
  const last = locked + (film.error ? 1 : 0);
  const $ = (id) => document.getElementById(id);
  const value = {};
  for (let i = 0; i < film.alphabet.length; i++) value[film.alphabet[i]] = i;

  // The numbers of a code, as film.rs writes them: five bits a letter, lowest first, the sixth
  // bit saying another letter follows. Multiplication rather than shifts keeps scores past 2^31.
  function unsigned(code) {
    const out = [];
    let v = 0, scale = 1;
    for (let k = 0; k < code.length; k++) {
      const d = value[code[k]];
      v += (d & 31) * scale;
      if (d & 32) { scale *= 32; continue; }
      out.push(v);
      v = 0; scale = 1;
    }
    return out;
  }
  // A zig-zagged number: 0, 1, 2, 3, ... as 0, -1, 1, -2, ...
  const signed = (z) => (z % 2 ? -(z + 1) / 2 : z / 2);
  // A column of numbers written as differences from the one before, zig-zagged.
  function column(code) {
    const out = new Float64Array(locked);
    let at = 0;
    unsigned(code).forEach((z, i) => { at += signed(z); out[i] = at; });
    return out;
  }
  const X = column(film.x), Y = column(film.y), STATE = column(film.state);
  const SCORE = column(film.score), LINES = column(film.lines), FILLED = column(film.filled);
  const FIELDS = {};
  for (const [name, code] of film.fields) FIELDS[name] = column(code);
  const MOVES = unsigned(film.moves);
  // The corrections to the rebuilt boards, by piece: [row, bits that differ] pairs.
  const FIXES = new Map();
  (function () {
    const n = unsigned(film.fixes);
    for (let k = 0, piece = 0; k < n.length;) {
      piece += n[k++];
      const rows = [];
      for (let c = n[k++]; c > 0; c--) { rows.push([n[k], n[k + 1]]); k += 2; }
      FIXES.set(piece, rows);
      piece++;
    }
  })();

  const pieceAt = (i) => ({ kind: film.kinds[i], x: X[i], y: Y[i], state: STATE[i] });
  function cells(piece) {
    const k = KINDS.indexOf(piece.kind);
    if (k < 0) return [];
    return film.offsets[k][piece.state % 4].map(([dx, dy]) => [piece.x + dx, piece.y + dy]);
  }

  // The board after piece i as film.rs predicts it (the piece's cells written, full rows
  // removed) and as the film's corrections make it, the checker's. `rows` holds a bit per
  // cell (x = 0 lowest), `owners` who placed each cell: 1 + the kind's index in KINDS, 0 for
  // an empty cell; a cell's kind moves down with it as the rows under it clear.
  function step(st, i) {
    const { rows, owners } = st;
    const owner = KINDS.indexOf(film.kinds[i]) + 1;
    for (const [x, y] of cells(pieceAt(i))) {
      if (x < 0 || x >= W || y < 0 || y >= H) continue;
      rows[y] |= 1 << x;
      owners[y * W + x] = owner;
    }
    let to = H - 1;
    for (let y = H - 1; y >= 0; y--) {
      if (rows[y] === FULL) continue;
      if (to !== y) { rows[to] = rows[y]; owners.copyWithin(to * W, y * W, y * W + W); }
      to--;
    }
    for (; to >= 0; to--) { rows[to] = 0; owners.fill(0, to * W, to * W + W); }
    const fix = FIXES.get(i);
    if (fix) correct(st, fix);
  }

  // The film's correction of a board. Falls keep the order of a column's cells, so each
  // column's kinds are handed to its corrected cells bottom up; a cell past them is UNKNOWN.
  function correct(st, fix) {
    const { rows, owners } = st;
    const was = rows.slice();
    for (const [y, bits] of fix) rows[y] ^= bits;
    for (let x = 0; x < W; x++) {
      const kinds = [];
      for (let y = H - 1; y >= 0; y--) if (was[y] >> x & 1) kinds.push(owners[y * W + x]);
      let k = 0;
      for (let y = H - 1; y >= 0; y--) {
        const filled = rows[y] >> x & 1;
        owners[y * W + x] = !filled ? 0 : k < kinds.length ? kinds[k++] : UNKNOWN;
      }
    }
  }

  // Every KEY-th board is kept, so that any board is at most KEY - 1 pieces from a kept one.
  const KEY = 64;
  const empty = () => ({ rows: new Uint16Array(H), owners: new Uint8Array(W * H) });
  const copy = (st) => ({ rows: st.rows.slice(), owners: st.owners.slice() });
  const keys = [];
  (function () {
    const st = empty();
    for (let i = 0; i < locked; i++) {
      if (i % KEY === 0) keys.push(copy(st));
      step(st, i);
    }
  })();
  let cached = { after: -1, st: empty() };
  // The board after piece i (0-based); -1 is the start.
  function stateAfter(i) {
    const j = i + 1;
    if (!(cached.after <= i && i - cached.after < KEY)) {
      const k = Math.floor(j / KEY);
      cached = k < keys.length ? { after: k * KEY - 1, st: copy(keys[k]) }
        : { after: (keys.length - 1) * KEY - 1, st: copy(keys[keys.length - 1]) };
    }
    while (cached.after < i) { cached.after++; step(cached.st, cached.after); }
    return cached.st;
  }

  const count = (rows) => rows.reduce((n, r) => { for (; r; r &= r - 1) n++; return n; }, 0);
  const format = (n) => n.toLocaleString("en-US");

  // The "Locked at" line in the game's words: its template with the piece's figures.
  function lockedAt(i, at) {
    const figures = { x: at.x, y: at.y, state: at.state };
    for (const name in FIELDS) figures[name] = i === null ? "?" : FIELDS[name][i];
    return film.locked_at.replace(/\{(\w+)\}/g, (whole, name) => (name in figures ? String(figures[name]) : whole));
  }

  // Everything shown at frame f: 0 is the start, 1..locked the pieces as they locked (the piece
  // written, full rows not yet removed), and locked + 1 the piece an invalid record fails at.
  function frame(f) {
    const i = f - 1;
    const kind = (n) => (n >= 0 && n < film.kinds.length ? film.kinds[n] : null);
    const coming = (n) => film.kinds.slice(n, n + film.next_shown).split("");
    const fr = { f, piece: null, failed: false, score: 0, lines: 0, turnScore: 0, turnLines: 0,
                 moves: "", filled: 0, next: coming(f), number: f, end: null, position: "" };
    let before = -1;
    if (f >= 1 && f <= locked) {
      fr.piece = pieceAt(i);
      fr.position = lockedAt(i, fr.piece);
      fr.score = SCORE[i];
      fr.lines = LINES[i];
      fr.turnScore = fr.score - (i > 0 ? SCORE[i - 1] : 0);
      fr.turnLines = fr.lines - (i > 0 ? LINES[i - 1] : 0);
      fr.moves = film.moves_table[MOVES[i]];
      fr.filled = count(stateAfter(i).rows) + FILLED[i];
      before = i - 1;
      if (f === locked && film.game_over) { fr.end = "game over: " + film.game_over; fr.next = []; }
    } else if (f > locked) {
      const e = film.error;
      before = locked - 1;
      fr.failed = true;
      fr.number = e.piece;
      fr.moves = e.moves;
      fr.next = coming(e.piece);
      if (e.at) {
        fr.piece = { kind: kind(e.piece - 1), x: e.at[0], y: e.at[1], state: e.at[2] };
        fr.position = lockedAt(null, fr.piece) + " (not locked)";
      }
      if (locked > 0) { fr.score = SCORE[locked - 1]; fr.lines = LINES[locked - 1]; }
    }
    const st = stateAfter(before);
    fr.owners = st.owners.slice();
    const rows = Array.from(st.rows);
    fr.mark = new Set();
    if (fr.piece) {
      for (const [x, y] of cells(fr.piece)) {
        if (y < 0) continue;
        rows[y] |= 1 << x;
        fr.mark.add(y * W + x);
      }
    }
    fr.rows = rows;
    if (f > locked) fr.filled = count(rows);
    // The game's own figures after the piece shown (the last locked one past the end).
    const shownPiece = Math.min(f, locked) - 1;
    fr.panel = film.panel.map((row) => (shownPiece < 0 ? row.start : FIELDS[row.field][shownPiece]));
    return fr;
  }

  function picture(fr) {
    let out = "";
    for (let y = 0; y < H; y++) {
      out += "|";
      for (let x = 0; x < W; x++) {
        out += fr.mark.has(y * W + x) ? "@" : (fr.rows[y] >> x & 1 ? "#" : ".");
      }
      out += "|\n";
    }
    return out;
  }

  // Canvases are sized in device pixels so cells stay sharp and their centres hold exact colours.
  function setup(canvas, w, h, options) {
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = w + "px";
    canvas.style.height = h + "px";
    canvas.width = Math.round(w * ratio);
    canvas.height = Math.round(h * ratio);
    const ctx = canvas.getContext("2d", options);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    return ctx;
  }

  const boardCanvas = $("board");
  const board = setup(boardCanvas, W * CELL, H * CELL, { willReadFrequently: true });
  const nextCanvas = $("next-canvas");
  const NEXT_CELL = 10, SLOT = 4 * NEXT_CELL + 6;
  const next = setup(nextCanvas, film.next_shown * SLOT, 4 * NEXT_CELL);

  function drawBoard(fr) {
    board.fillStyle = EMPTY;
    board.fillRect(0, 0, W * CELL, H * CELL);
    board.strokeStyle = GRID;
    board.lineWidth = 1;
    board.beginPath();
    for (let x = 1; x < W; x++) { board.moveTo(x * CELL + 0.5, 0); board.lineTo(x * CELL + 0.5, H * CELL); }
    for (let y = 1; y < H; y++) { board.moveTo(0, y * CELL + 0.5); board.lineTo(W * CELL, y * CELL + 0.5); }
    board.stroke();
    const full = fr.rows.map((r) => r === (1 << W) - 1);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (!(fr.rows[y] >> x & 1)) continue;
        const mine = fr.mark.has(y * W + x);
        const owner = fr.owners[y * W + x];
        const settled = owner >= 1 && owner <= KINDS.length ? SETTLED_COLOR[KINDS[owner - 1]] : SETTLED;
        board.fillStyle = mine ? COLOR[fr.piece.kind] : (full[y] && !fr.failed ? CLEARING : settled);
        board.fillRect(x * CELL + 1, y * CELL + 1, CELL - 1, CELL - 1);
      }
    }
    if (fr.failed && fr.piece) {
      // Outline the failing piece at the cell edges, leaving the cell centres their colour.
      board.strokeStyle = "#ff3030";
      board.lineWidth = 3;
      for (const [x, y] of cells(fr.piece)) {
        if (y >= 0) board.strokeRect(x * CELL + 2.5, y * CELL + 2.5, CELL - 4, CELL - 4);
      }
    }
    const [cellsShown, kindsShown] = readBack();
    boardCanvas.dataset.cells = cellsShown;
    boardCanvas.dataset.kinds = kindsShown;
  }

  // The board as the canvas shows it, read from the centre pixel of every cell: what a test
  // compares with the checker's board to know the drawing, not just the data, is right. Two
  // readings: filled cells ('#', '@' for the piece in play) and colours (a settled cell's kind,
  // the piece in play's in lower case, '*' a row being cleared, '#' a cell of unknown kind).
  function readBack() {
    const ratio = boardCanvas.width / (W * CELL);
    const image = board.getImageData(0, 0, boardCanvas.width, boardCanvas.height).data;
    const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16));
    const palette = [[rgb(EMPTY), ".", "."], [rgb(SETTLED), "#", "#"], [rgb(CLEARING), "#", "*"]];
    for (const k of KINDS) {
      palette.push([rgb(SETTLED_COLOR[k]), "#", k], [rgb(COLOR[k]), "@", k.toLowerCase()]);
    }
    const cellRows = [], kindRows = [];
    for (let y = 0; y < H; y++) {
      let cellRow = "", kindRow = "";
      for (let x = 0; x < W; x++) {
        const px = Math.floor((x + 0.5) * CELL * ratio), py = Math.floor((y + 0.5) * CELL * ratio);
        const k = (py * boardCanvas.width + px) * 4;
        let best = null, bestDistance = Infinity;
        for (const entry of palette) {
          const c = entry[0];
          const d = (c[0] - image[k]) ** 2 + (c[1] - image[k + 1]) ** 2 + (c[2] - image[k + 2]) ** 2;
          if (d < bestDistance) { bestDistance = d; best = entry; }
        }
        cellRow += best[1];
        kindRow += best[2];
      }
      cellRows.push(cellRow);
      kindRows.push(kindRow);
    }
    return [cellRows.join("/"), kindRows.join("/")];
  }

  // The coming pieces, each in the state it will spawn in (the game's state for its kind, or
  // piece index n in state n % 4), the first being piece index `index`.
  function spawnState(kindLetter, n) {
    return film.spawn_states ? film.spawn_states[KINDS.indexOf(kindLetter)] : n % 4;
  }
  function drawNext(kinds, index) {
    next.clearRect(0, 0, film.next_shown * SLOT, 4 * NEXT_CELL);
    kinds.forEach((kindLetter, j) => {
      const piece = { kind: kindLetter, x: 0, y: 0, state: spawnState(kindLetter, index + j) };
      const cs = cells(piece);
      const xs = cs.map((c) => c[0]), ys = cs.map((c) => c[1]);
      const ox = (4 - (Math.max(...xs) - Math.min(...xs) + 1)) / 2 - Math.min(...xs);
      const oy = (4 - (Math.max(...ys) - Math.min(...ys) + 1)) / 2 - Math.min(...ys);
      next.fillStyle = COLOR[kindLetter];
      for (const [x, y] of cs) {
        next.fillRect(j * SLOT + (x + ox) * NEXT_CELL + 1, (y + oy) * NEXT_CELL + 1, NEXT_CELL - 1, NEXT_CELL - 1);
      }
    });
    nextCanvas.dataset.shapes = readNext(kinds.length);
  }

  // The coming pieces as the canvas shows them, read from its pixels: in each piece's slot the
  // box of painted pixels, and in it a cell's centre painted ('#') or not ('.'), rows joined
  // by '/', pieces by ' '. What a test compares with the game's spawn orientations.
  function readNext(count) {
    const w = nextCanvas.width, h = nextCanvas.height;
    const ratio = w / (film.next_shown * SLOT);
    const image = next.getImageData(0, 0, w, h).data;
    const painted = (px, py) => image[(py * w + px) * 4 + 3] > 0;
    const shapes = [];
    for (let j = 0; j < count; j++) {
      let left = Infinity, top = Infinity, right = -1, bottom = -1;
      const from = Math.floor(j * SLOT * ratio), to = Math.min(w, Math.floor((j + 1) * SLOT * ratio));
      for (let py = 0; py < h; py++) {
        for (let px = from; px < to; px++) {
          if (!painted(px, py)) continue;
          left = Math.min(left, px); right = Math.max(right, px);
          top = Math.min(top, py); bottom = Math.max(bottom, py);
        }
      }
      if (right < 0) { shapes.push(""); continue; }
      const step = NEXT_CELL * ratio;
      const columns = Math.round((right - left + 1) / step), rows = Math.round((bottom - top + 1) / step);
      const picture = [];
      for (let r = 0; r < rows; r++) {
        let row = "";
        for (let c = 0; c < columns; c++) {
          row += painted(Math.floor(left + (c + 0.45) * step), Math.floor(top + (r + 0.45) * step)) ? "#" : ".";
        }
        picture.push(row);
      }
      shapes.push(picture.join("/"));
    }
    return shapes.join(" ");
  }

  // The charts under the board (chart.js), on one axis of the pieces.
  const charts = filmCharts(film, { setup, format, unsigned, signed, score: SCORE, locked, last, go });

  let current = 0;

  function show(f) {
    current = Math.max(0, Math.min(last, f | 0));
    const fr = frame(current);
    $("piece-number").textContent = format(fr.number);
    $("kind").textContent = fr.piece ? fr.piece.kind : "";
    $("score").textContent = format(fr.score);
    $("turn").textContent = fr.f === 0 || fr.failed ? "\u2014"
      : "+" + format(fr.turnScore) + " (" + fr.turnLines + " line" + (fr.turnLines === 1 ? "" : "s") + ")";
    $("lines").textContent = format(fr.lines);
    $("filled").textContent = format(fr.filled);
    film.panel.forEach((row, k) => { $("field-" + row.field).textContent = format(fr.panel[k]); });
    $("next").textContent = fr.next.length ? fr.next.join(" ") : "\u2014";
    $("moves").textContent = fr.moves || "\u2014";
    $("position").textContent = fr.position || "\u2014";
    const error = $("error");
    error.hidden = !fr.failed;
    error.textContent = fr.failed ? "error: " + film.error.message : "";
    $("status").textContent = fr.end || (fr.f === 0 ? "start: empty board" : "");
    $("board-text").textContent = picture(fr);
    $("slider").value = String(current);
    if (document.activeElement !== $("jump")) $("jump").value = String(current);
    drawBoard(fr);
    drawNext(fr.next, fr.failed ? fr.number : fr.f);
    charts.draw(fr);
  }

  // Playback: a fixed number of pieces per second, whatever the timer's real rate. A timer
  // rather than requestAnimationFrame keeps playing in background tabs and headless browsers.
  let playing = false, timer = 0, lastTime = 0, carry = 0;
  function setPlaying(on) {
    playing = on;
    $("play").textContent = on ? "Pause" : "Play";
    clearTimeout(timer);
    if (on) {
      if (current >= last) show(0);
      lastTime = performance.now();
      carry = 0;
      timer = setTimeout(tick, 16);
    } else {
      remember();
    }
  }
  function tick() {
    if (!playing) return;
    const now = performance.now();
    carry += Math.min(0.25, (now - lastTime) / 1000) * +$("speed").value;
    lastTime = now;
    const steps = Math.floor(carry);
    if (steps > 0) { carry -= steps; show(current + steps); }
    if (current >= last) { setPlaying(false); return; }
    timer = setTimeout(tick, 16);
  }

  // The URL names the piece shown, so a link or a reload opens the same place.
  function remember() {
    try { history.replaceState(null, "", "#piece=" + current); } catch (e) { /* file: quirks */ }
  }
  function go(f) {
    if (playing) setPlaying(false);
    show(f);
    remember();
  }
  function fromHash() {
    const m = /piece=(\d+)/.exec(location.hash);
    // With no piece asked for, the end: what a reader of a record first wants is its result.
    return m ? parseInt(m[1], 10) : last;
  }

  $("title").textContent = film.title;
  $("summary").textContent = film.summary;
  $("piece-count").textContent = format(last);
  // The game's own rows of the panel, after "Lines".
  let after = $("lines");
  for (const row of film.panel) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = row.label;
    dd.id = "field-" + row.field;
    after.after(dt, dd);
    after = dd;
  }
  $("slider").max = String(last);
  $("jump").max = String(last);
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(current - 1);
  $("forward").onclick = () => go(current + 1);
  $("last").onclick = () => go(last);
  $("play").onclick = () => setPlaying(!playing);
  $("slider").oninput = (e) => go(+e.target.value);
  $("jump").onchange = (e) => go(+e.target.value);
  $("jump").onkeydown = (e) => { if (e.key === "Enter") go(+e.target.value); };
  window.addEventListener("hashchange", () => { if (fromHash() !== current) go(fromHash()); });
  window.addEventListener("resize", () => { charts.layout(); charts.draw(frame(current)); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -100, PageDown: 100 };
    if (e.key === " ") setPlaying(!playing);
    else if (e.key in moves) go(current + moves[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(last);
    else return;
    e.preventDefault();
  });
  charts.layout();
  show(fromHash());
})();
