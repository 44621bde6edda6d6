//! The viewer's charts over the pieces: the score, and where the game gives one (chart.rs) the
//! fill at each lock, a record's line against a reference play's, over the whole game and over
//! the pieces around the one shown. The whole game's charts share one x axis; each is drawn
//! once off-screen, then copied with a cursor at the frame shown. A click or a drag on any
//! chart jumps to its piece.
"use strict";
// `view` is what film.js shares: its canvas `setup`, `format`, the code's `unsigned` and
// `signed`, the `score` column, the `locked` and `last` frames, and `go` to a frame.
function filmCharts(film, view) {
  const PAD = { left: 8, right: 8, top: 22, bottom: 18 };
  const FONT = "12px system-ui, sans-serif", DIM = "#9aa0a6", GRID = "#2c313a";
  // A line's colour by its place: the record's first, in the score's colour.
  const LINE = ["#4fb3ff", "#ffa94d", "#c792ea"];
  // A clear's mark by the rows it clears, 1 to 4.
  const ROWS = [null, "#e6e6e6", "#42b642", "#f7d308", "#ff5c5c"];
  // The fill chart's grid, in cells, and the pieces its close view spans.
  const STEP = 20, CLOSE = 120;
  const locked = view.locked, last = view.last, SCORE = view.score;
  const fill = film.fill_chart;
  const lines = fill ? fill.lines.map(decode) : [];
  // The whole game's charts end at the last frame or the longest line, so their pieces line up.
  const span = Math.max(last, ...lines.map((l) => l.filled.length));
  let dragging = null;

  // A line as chart.rs writes it: runs of locks that add a piece's cells and clear nothing,
  // each followed by the lock that does otherwise (its cells off the expected count,
  // zig-zagged, times 5, plus the rows it clears).
  function decode(line) {
    const filled = new Float64Array(line.locks), rows = new Uint8Array(line.locks);
    const code = view.unsigned(line.code);
    let expected = 4, i = 0;
    const lock = (symbol) => {
      filled[i] = expected + view.signed(Math.floor(symbol / 5));
      rows[i] = symbol % 5;
      expected = filled[i] - 10 * rows[i] + 4;
      i++;
    };
    for (let k = 0; i < line.locks;) {
      for (let run = k < code.length ? code[k++] : line.locks - i; run > 0; run--) lock(0);
      if (k < code.length) lock(code[k++]);
    }
    return { label: line.label, filled, rows };
  }

  // A chart on `canvas`, `height` pixels high, of values from `lo` to `hi` (one under `lo` is
  // drawn at it), over the whole game or, with `close`, over that many frames around the one
  // shown (painted again at each frame): `paint` draws all but the cursor, `cursor(fr)` gives
  // the values to mark at frame fr and the text beside them.
  function chart(canvas, height, [lo, hi], paint, cursor, close) {
    const c = { w: 0, h: height, lo, hi, from: 0, count: close || span };
    const plot = () => c.h - PAD.top - PAD.bottom;
    c.x = (f) => PAD.left + (c.w - PAD.left - PAD.right) * (c.count ? (f - c.from) / c.count : 0);
    c.y = (v) => c.h - PAD.bottom - plot() * ((Math.max(v, lo) - lo) / (hi - lo));
    c.layout = () => {
      c.w = Math.max(200, canvas.clientWidth || 600);
      c.ctx = view.setup(canvas, c.w, c.h);
      const off = document.createElement("canvas");
      if (!close) paint(view.setup(off, c.w, c.h), c);
      c.image = off;
    };
    c.draw = (fr) => {
      const ctx = c.ctx, ratio = canvas.width / c.w;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      if (close) {
        c.from = Math.max(0, Math.min(fr.f - close / 2, span - close));
        ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
        paint(ctx, c);
      } else {
        ctx.drawImage(c.image, 0, 0);
        ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      }
      const x = Math.round(c.x(fr.f)) + 0.5;
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 1;
      ctx.beginPath(); ctx.moveTo(x, PAD.top - 4); ctx.lineTo(x, c.h - PAD.bottom); ctx.stroke();
      const marked = cursor(fr);
      ctx.fillStyle = "#ffffff";
      for (const v of marked.values) { ctx.beginPath(); ctx.arc(x, c.y(v), 3, 0, 2 * Math.PI); ctx.fill(); }
      ctx.font = FONT;
      ctx.textBaseline = "top";
      ctx.textAlign = x > c.w / 2 ? "right" : "left";
      ctx.fillText(marked.text, x + (x > c.w / 2 ? -6 : 6), PAD.top - 2);
    };
    const jump = (e) => {
      const r = canvas.getBoundingClientRect();
      view.go(c.from + Math.round((e.clientX - r.left - PAD.left) / (c.w - PAD.left - PAD.right) * c.count));
    };
    canvas.onmousedown = (e) => { dragging = jump; jump(e); };
    return c;
  }

  // What every chart has: the grid at every `step` from the bottom (its values written at the
  // right where `labelled`), the title at the top left and its pieces at the bottom.
  function axes(ctx, c, step, labelled, title) {
    ctx.strokeStyle = GRID;
    ctx.lineWidth = 1;
    ctx.fillStyle = DIM;
    ctx.font = FONT;
    ctx.textBaseline = "bottom";
    ctx.textAlign = "right";
    for (let v = c.lo; v <= c.hi + 1e-9; v += step) {
      const y = Math.round(c.y(v)) + 0.5;
      ctx.beginPath(); ctx.moveTo(PAD.left, y); ctx.lineTo(c.w - PAD.right, y); ctx.stroke();
      if (labelled) ctx.fillText(view.format(v), c.w - PAD.right - 2, y - 1);
    }
    ctx.textBaseline = "top";
    const below = c.h - PAD.bottom + 3;
    ctx.fillText("piece " + view.format(c.from + c.count), c.w - PAD.right, below);
    ctx.textAlign = "left";
    if (c.from > 0) ctx.fillText("piece " + view.format(c.from), PAD.left, below);
    ctx.fillText(title, PAD.left, 4);
  }

  const finalScore = locked ? SCORE[locked - 1] : 0;
  const maxScore = Math.max(1, finalScore);
  const charts = [chart(document.getElementById("chart"), 160, [0, maxScore], (ctx, c) => {
    axes(ctx, c, maxScore / 4, false, "score " + view.format(finalScore));
    ctx.strokeStyle = LINE[0];
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(c.x(0), c.y(0));
    for (let i = 0; i < locked; i++) ctx.lineTo(c.x(i + 1), c.y(SCORE[i]));
    ctx.stroke();
    if (film.error) {
      ctx.strokeStyle = "#ff5c5c";
      ctx.beginPath(); ctx.moveTo(c.x(last), PAD.top); ctx.lineTo(c.x(last), c.h - PAD.bottom); ctx.stroke();
    }
  }, (fr) => ({ values: [fr.score], text: view.format(fr.score) }))];

  if (fill) {
    const range = fillRange();
    // A grid line every 20 cells, or 40 where that would crowd the chart.
    const step = range[1] - range[0] > 100 ? 2 * STEP : STEP;
    const views = [["fill-chart", 180, 0, "cells at each lock, before its clear"]];
    // Where the whole game puts several locks on a pixel, a view of each lock too.
    if (span > CLOSE) views.push(["fill-close", 200, CLOSE, "the same, the pieces around the one shown"]);
    else document.getElementById("fill-close").remove();
    for (const [id, height, close, title] of views) {
      charts.push(chart(document.getElementById(id), height, range, (ctx, c) => {
        axes(ctx, c, step, true, title);
        paintFill(ctx, c);
      }, fillCursor, close));
    }
    legend();
    document.getElementById("fill-caption").textContent = fill.caption;
    document.getElementById("fill").hidden = false;
  }

  // The fill chart's values, from a grid line under all but the lowest hundredth of the locks
  // (the opening's few, drawn at the bottom) to one over the fullest lock and the cap.
  function fillRange() {
    const all = [];
    for (const l of lines) for (const v of l.filled) all.push(v);
    all.sort((a, b) => a - b);
    const low = all.length ? all[Math.floor(all.length / 100)] : 0;
    const high = Math.max(fill.cap || 0, all.length ? all[all.length - 1] : 0);
    const lo = Math.floor(low / STEP) * STEP;
    return [lo, Math.max(lo + STEP, Math.ceil(high / STEP) * STEP)];
  }

  // The fill's lines over the chart's pieces, one point a lock (lock i is frame i + 1), then
  // every clear over them, so that no line hides one. Where a pixel holds several locks the
  // lines are faint, so that the clears stand out.
  function paintFill(ctx, c) {
    const dense = c.count > (c.w - PAD.left - PAD.right) / 4;
    if (fill.cap) capLine(ctx, c, fill.cap);
    const shown = (l) => [Math.max(0, c.from - 1), Math.min(l.filled.length, c.from + c.count)];
    ctx.globalAlpha = dense ? 0.55 : 1;
    for (let k = lines.length - 1; k >= 0; k--) {
      const [a, b] = shown(lines[k]);
      ctx.strokeStyle = LINE[k];
      ctx.lineWidth = dense ? 1 : 1.5;
      ctx.beginPath();
      for (let i = a; i < b; i++) ctx.lineTo(c.x(i + 1), c.y(lines[k].filled[i]));
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    for (let k = lines.length - 1; k >= 0; k--) {
      const [a, b] = shown(lines[k]);
      const { filled, rows } = lines[k];
      for (let i = a; i < b; i++) if (rows[i]) mark(ctx, c.x(i + 1), c.y(filled[i]), rows[i], k === 0, dense ? 1 : 2);
    }
  }

  // Each line's fill at the lock of frame fr, where it has one.
  function fillCursor(fr) {
    const at = (l) => (fr.f >= 1 && fr.f <= l.filled.length ? l.filled[fr.f - 1] : null);
    const shown = lines.map((l) => ({ label: l.label, v: at(l) })).filter((s) => s.v !== null);
    return { values: shown.map((s) => s.v), text: shown.map((s) => s.label + " " + s.v).join(", ") };
  }

  function capLine(ctx, c, cap) {
    const y = Math.round(c.y(cap)) + 0.5;
    ctx.strokeStyle = DIM;
    ctx.setLineDash([4, 4]);
    ctx.beginPath(); ctx.moveTo(PAD.left, y); ctx.lineTo(c.w - PAD.right, y); ctx.stroke();
    ctx.setLineDash([]);
    ctx.textBaseline = "top";
    ctx.fillText("cap " + cap, PAD.left + 2, y + 2);
  }

  // A clear of `rows` rows: a dot on the record's line, a ring on a reference play's, `size`
  // times the smallest.
  function mark(ctx, x, y, rows, dot, size) {
    ctx.beginPath();
    ctx.arc(x, y, size * (dot ? 2 : 3.5), 0, 2 * Math.PI);
    if (dot) { ctx.fillStyle = ROWS[rows]; ctx.fill(); }
    else { ctx.strokeStyle = ROWS[rows]; ctx.lineWidth = size; ctx.stroke(); }
  }

  // The legend: each line's colour and name, its clears' mark, and the colours of the rows.
  function legend() {
    const box = document.getElementById("fill-legend");
    const key = (swatch, text) => {
      const item = document.createElement("span");
      const sample = document.createElement("i");
      Object.assign(sample.style, swatch);
      item.append(sample, text);
      box.append(item);
    };
    lines.forEach((l, k) => {
      key({ background: LINE[k], height: "3px" }, l.label + (k ? " (clears \u25CB)" : " (clears \u25CF)"));
    });
    for (let r = 1; r <= 4; r++) {
      key({ background: ROWS[r], borderRadius: "50%", width: "8px" }, r + (r === 1 ? " row" : " rows"));
    }
  }

  window.addEventListener("mousemove", (e) => { if (dragging) dragging(e); });
  window.addEventListener("mouseup", () => { dragging = null; });
  return {
    layout: () => charts.forEach((c) => c.layout()),
    draw: (fr) => charts.forEach((c) => c.draw(fr)),
  };
}
