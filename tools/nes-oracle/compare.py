#!/usr/bin/env python3
"""Holds the outputs of several NES oracles against the engine's game, spawn by spawn.

  compare.py RECORD NAME=OUTPUT.jsonl [NAME=OUTPUT.jsonl ...] [--check PATH] [--json]

RECORD is the NES record the oracles played; each OUTPUT is the JSON lines an oracle printed
for it (`oracle.py play --emulator ...`: one line per spawn, one at the end). The
engine's game comes from `check --game nes RECORD --frames` (the spawns, found as the oracles
find them) and `check --game nes RECORD --json` (the uncapped score at the milestones).

For each oracle it reports the spawns it saw, the lines, level and uncapped score at levels 29,
39 and 155 and at its end, the first spawn that differs from the engine's (frame, score, lines,
level, piece kind or next piece) and where its game crashed or froze: no spawn for the
oracle's limit of frames (FCEUX says so in its last line), or a spawn later than the engine's.
Every oracle after the first is also held to the first: the fields settled when a spawn is
read (SETTLED, the board among them), the piece's kind, the frame within one.

The exit status is 1 when an oracle parts from the engine (a spawn unlike it, a late spawn, a
crash) or shows a picture unlike its RAM, 0 when every oracle agrees.

The ROM's score stops at 999,999; an oracle's uncapped score is the sum of its score's steps
while under that, then of the points of each clear (40, 100, 300, 1200 times level + 1, the
level after the clear). Soft-drop points scored past 999,999 are not seen.
"""
import argparse
import json
import os
import subprocess
import sys

from ram import ORIENTATION_KINDS, POINTS, SCORE_CAP

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MILESTONES = (29, 39, 155)


def kind(piece):
    return ORIENTATION_KINDS[piece] if 0 <= piece < len(ORIENTATION_KINDS) else "?"


def spawns_from_frames(lines):
    """The per-spawn snapshots of per-frame ones, as oracle.py play takes them: the snapshot a
    frame after the one the piece showed on, named by that frame."""
    out, pending, last_state = [], None, None
    for s in lines:
        if pending is not None:
            t = dict(s)
            t["frame"] = pending
            out.append(t)
            pending = None
        state = s["play_state"]
        if last_state is not None and state == 1 and last_state != 1:
            pending = s["frame"]
        last_state = state
    return out


def with_uncapped(spawns, start_score=0):
    """Adds `uncapped` to each spawn: the score the ROM would show without its cap."""
    uncapped, previous, previous_lines = start_score, start_score, 0
    for s in spawns:
        cleared = s["lines"] - previous_lines
        points = POINTS.get(cleared, 0) * (s["level"] + 1)
        if s["score"] < SCORE_CAP:
            uncapped += s["score"] - previous
        else:  # the score's step shows only up to the cap
            uncapped += max(points, s["score"] - previous)
        s["uncapped"] = uncapped
        previous, previous_lines = s["score"], s["lines"]
    return spawns


def read_jsonl(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                out.append(json.loads(line))
    return out


def engine(record, check):
    frames = subprocess.run([check, "--game", "nes", record, "--frames"], capture_output=True, text=True)
    if frames.returncode != 0:
        sys.exit(f"compare.py: check failed on {record}: {frames.stderr.strip()}")
    per_frame = [json.loads(l) for l in frames.stdout.splitlines() if l.startswith("{")]
    checked = json.loads(
        subprocess.run([check, "--game", "nes", record, "--json"], capture_output=True, text=True).stdout
    )
    # NES's own fields, with the score, lines and end every game's report has (docs/JSON.md).
    report = {**checked["nes"], "score": checked["score"], "lines": checked["lines"],
              "end": checked["end"]["reason"]}
    spawns = with_uncapped(spawns_from_frames(per_frame))
    return spawns, per_frame, report


def first_difference(ours, theirs):
    """The first spawn index where an oracle's snapshot differs from the engine's, and how."""
    for i, (o, t) in enumerate(zip(ours, theirs)):
        why = []
        # A spawn can show a frame early in nes-py (oracle.py): one frame's slack.
        if t["frame"] not in (o["frame"], o["frame"] - 1):
            why.append(f"frame {t['frame']} (engine {o['frame']})")
        for field in ("score", "lines", "level", "next"):
            if t[field] != o[field]:
                why.append(f"{field} {t[field]} (engine {o[field]})")
        if kind(t["piece"]) != kind(o["piece"]):
            why.append(f"piece {kind(t['piece'])} (engine {kind(o['piece'])})")
        if why:
            return i, why
    if len(ours) != len(theirs):
        return min(len(ours), len(theirs)), [f"{len(theirs)} spawns (engine {len(ours)})"]
    return None, []


# The fields of a spawn's snapshot that are settled when it is read, whichever point of the
# frame an oracle reads at. The others move within a frame: the generator and the frame
# counter step in the vertical blank, which nes-py's read follows and FCEUX's precedes, and
# nes-py sees some spawns a frame early (with the fall timer and the piece's row of then).
SETTLED = ("play_state", "score", "lines", "level", "next", "spawn_count", "spawn_id", "hold_down_points",
           "game_mode", "board")


def versus(theirs, ours):
    """The first spawn where one oracle's snapshot differs from another's in a settled field,
    the piece's kind, or by more than a frame."""
    for i, (t, o) in enumerate(zip(theirs, ours)):
        fields = [k for k in SETTLED if k in t and k in o and t[k] != o[k]]
        if kind(t["piece"]) != kind(o["piece"]):
            fields.append("piece")
        if abs(t["frame"] - o["frame"]) > 1:
            fields.append("frame")
        if fields:
            return {"spawn": i, "frame": o.get("frame"), "fields": fields}
    if len(theirs) != len(ours):
        return {"spawn": min(len(theirs), len(ours)), "fields": ["spawns"]}
    return {"spawn": None}


def milestones(spawns, end_line=None):
    """Frame, lines, level and uncapped score at the first snapshot of each milestone level
    and at the end (the end line, or the last spawn)."""
    seen = spawns + ([end_line] if end_line else [])
    out = {}
    for level in MILESTONES:
        hit = next((s for s in seen if s["level"] == level), None)
        if hit is not None:
            out[str(level)] = {k: hit[k] for k in ("frame", "lines", "level", "uncapped")}
    if seen:
        out["end"] = {k: seen[-1][k] for k in ("frame", "lines", "level", "uncapped")}
    return out


def summarize(name, lines, ours):
    spawns = [l for l in lines if not l.get("end")]
    end = next((l for l in lines if l.get("end")), None)
    with_uncapped(spawns + ([end] if end else []))
    index, why = first_difference(ours, spawns)
    result = {
        "oracle": name,
        "spawns": len(spawns),
        "milestones": milestones(spawns, end),
        "first_difference": None,
        "crashed": bool(end and end.get("crashed")),
        "ended": end is not None,
    }
    if end is not None:
        for k in ("frame", "movie_frames", "last_spawn", "longest_gap", "longest_gap_frame", "play_state"):
            if k in end:
                result["end_" + k] = end[k]
    if index is not None:
        at = spawns[index] if index < len(spawns) else (spawns[-1] if spawns else {})
        result["first_difference"] = {
            "spawn": index,
            "frame": at.get("frame"),
            "level": at.get("level"),
            "lines": at.get("lines"),
            "what": why,
        }
        if index < len(ours):
            result["first_difference"]["engine_frame"] = ours[index]["frame"]
    # The screen check (Nestopia's snapshots carry one): the picture's playfield against the
    # RAM's at each spawn, which spawn timing alone does not see.
    screens = [(i, t) for i, t in enumerate(spawns) if "screen" in t]
    if screens:
        result["screens_checked"] = len(screens)
        bad = next(((i, t) for i, t in screens if t["screen"] != "ok"), None)
        if bad is not None:
            result["screen_mismatch"] = {"spawn": bad[0], "frame": bad[1]["frame"], "level": bad[1]["level"],
                                         "lines": bad[1]["lines"], "what": bad[1]["screen"]}
    # A freeze: the first spawn much later than the engine's.
    late = next(
        (
            (o, t)
            for o, t in zip(ours, spawns)
            if t["frame"] > o["frame"] + 5
        ),
        None,
    )
    if late is not None:
        result["late_spawn"] = {"frame": late[1]["frame"], "engine_frame": late[0]["frame"],
                                "level": late[1]["level"], "lines": late[1]["lines"]}
    return result


def engine_summary(ours, report):
    out = {"oracle": "engine (check)", "spawns": len(ours), "milestones": {}}
    if report.get("transition"):
        t = report["transition"]
        out["milestones"]["29"] = {"frame": t["frame"], "lines": t["lines"], "level": 29, "uncapped": t["score"]}
    for m in report.get("milestones", []):
        out["milestones"][str(m["level"])] = {"frame": m["frame"], "lines": m["lines"], "level": m["level"],
                                              "uncapped": m["score"]}
    out["milestones"]["end"] = {"frame": report["frames"] - 1, "lines": report["lines"],
                                "level": report["level"], "uncapped": report["score"]}
    out["end"] = report.get("end")
    return out


def show(summary):
    print(f"{summary['oracle']}: {summary['spawns']} spawns", end="")
    if "end_frame" in summary:
        print(f", last frame {summary['end_frame']}", end="")
    if summary.get("end_longest_gap") is not None:
        print(f", longest gap between spawns {summary['end_longest_gap']} frames (to frame "
              f"{summary['end_longest_gap_frame']})", end="")
    print()
    for key in [str(m) for m in MILESTONES] + ["end"]:
        m = summary["milestones"].get(key)
        if m:
            label = f"level {key}" if key != "end" else "end"
            print(f"  {label:>9}: frame {m['frame']:>7}, level {m['level']:>3}, lines {m['lines']:>5}, "
                  f"score {m['uncapped']:>11,}")
    if "first_difference" in summary:
        d = summary["first_difference"]
        if d is None:
            print("  agrees with the engine at every spawn")
        else:
            print(f"  first difference at spawn {d['spawn']} (frame {d['frame']}, level {d['level']}, lines "
                  f"{d['lines']}): {'; '.join(d['what'])}")
    if summary.get("vs"):
        v = summary["vs"]
        if v["spawn"] is None:
            print(f"  equal to {v['oracle']} at every spawn ({', '.join(SETTLED)}, piece kind, frame within one)")
        else:
            print(f"  first spawn unlike {v['oracle']}'s: {v['spawn']} (frame {v.get('frame')}): "
                  f"{', '.join(v['fields'])}")
    if summary.get("screen_mismatch"):
        m = summary["screen_mismatch"]
        print(f"  screen mismatch at spawn {m['spawn']} (frame {m['frame']}, level {m['level']}, lines "
              f"{m['lines']}): {m['what']}")
    elif summary.get("screens_checked"):
        print(f"  the screen's playfield equals the RAM's at all {summary['screens_checked']} spawns checked")
    if summary.get("late_spawn"):
        s = summary["late_spawn"]
        print(f"  first late spawn: frame {s['frame']} (engine {s['engine_frame']}), level {s['level']}, "
              f"lines {s['lines']}")
    if summary.get("crashed"):
        print(f"  crashed: no spawn after frame {summary.get('end_last_spawn')} "
              f"(play state {summary.get('end_play_state')})")
    if "ended" in summary and not summary["ended"]:
        print("  no end line: the oracle stopped early")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record")
    parser.add_argument("outputs", nargs="+", help="NAME=PATH of an oracle's JSON lines (or PATH)")
    parser.add_argument("--check", default=os.environ.get("CHECK") or os.path.join(ROOT, "target", "release", "check"))
    parser.add_argument("--json", action="store_true", help="one JSON object per oracle instead of text")
    args = parser.parse_args()
    ours, _, report = engine(args.record, args.check)
    summaries = [engine_summary(ours, report)]
    reference = None  # the first oracle's spawns, whose fields the others' are held to
    for item in args.outputs:
        name, _, path = item.rpartition("=")
        name = name or os.path.basename(path)
        lines = read_jsonl(path)
        summary = summarize(name, lines, ours)
        spawns = [l for l in lines if not l.get("end")]
        if reference is None:
            reference = (name, spawns)
        else:
            summary["vs"] = {"oracle": reference[0], **versus(reference[1], spawns)}
        summaries.append(summary)
    for s in summaries:
        if args.json:
            print(json.dumps(s))
        else:
            show(s)
    # An oracle that parts from the engine (a spawn unlike it, a late spawn, a crash) fails the
    # comparison, and so does a picture unlike the RAM even where every spawn agrees.
    faults = ("first_difference", "late_spawn", "crashed", "screen_mismatch")
    if any(s.get(f) for s in summaries[1:] for f in faults):
        sys.exit(1)


if __name__ == "__main__":
    main()
