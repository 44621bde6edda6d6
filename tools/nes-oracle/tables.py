"""The crash tables' format (tools/nes-oracle/crash-tables): the table crashes.py sweep
writes, the table again from sweeps' --raw logs (`crashes.py table`) and the union of tables
(`crashes.py merge`).
"""
import json
import sys

# The emulator a table's first line names (crashes.py merge takes the first word, lowercased).
EMULATOR_NAMES = {"nes-py": "nes-py", "tetanes": "TetaNES tetanes-py 0.1.9", "nestopia": "Nestopia libretro-nestopia 1.52.0",
                  "fceux": "FCEUX 2.6.5"}


def write_table(out, cells, about, emulator="nes-py", tool="tools/nes-oracle/crashes.py"):
    """A table of tools/nes-oracle/crash-tables holds: per (level, rows, crossing) that failed, a
    line for all its variants (`any`) and, where the low-stack variants failed too, a line for
    those (`low`): the engine uses the second when rows 0-5 of the field are empty at the lock,
    which is what the low stack's variants have (the music's tempo check reads row 5)."""
    out.write(f"# NES Tetris clears that crash or freeze the ROM ({emulator}), from {tool}\n")
    out.write(f"# {about}\n")
    out.write("# level rows crossing stack outcome variants_bad/variants_total\n")
    for (level, rows, crossing), results in sorted(cells.items(), key=lambda kv: (kv[0][0], kv[0][1], not kv[0][2])):
        for stack in ("any", "low"):
            outcomes = [o for o, st in results if stack == "any" or st == stack]
            bad = [o for o in outcomes if o != "ok"]
            if bad:
                outcome = "crash" if "crash" in bad else "freeze"
                out.write(f"{level} {rows} {'cross' if crossing else 'within'} {stack} {outcome}"
                          f" {len(bad)}/{len(outcomes)}\n")
    out.flush()


def cmd_table(args):
    """The table again from the variants sweeps logged with --raw (several, for a sweep split
    over processes)."""
    cells = {}
    for path in args.raw_files:
        for line in open(path):
            r = json.loads(line)
            if "outcome" not in r or "level" not in r:
                continue
            cells.setdefault((r["level"], r["rows"], r["crossing"]), []).append((r["outcome"], r["stack"]))
    if args.emulator == "nes-py":
        write_table(sys.stdout, cells, args.about)
    else:
        write_table(sys.stdout, cells, args.about, emulator=EMULATOR_NAMES[args.emulator],
                    tool=f"tools/nes-oracle/crashes.py sweep --emulator {args.emulator}")


def cmd_merge(args):
    """The union of tables in the crash tables' format (crashes.py sweep's, on any emulator): a
    (level, rows, crossing, stack) fails where any table says so, a crash where any says
    crash; the last field names each table's count, `emulator:bad/total`, joined by commas.
    Each table's first line names its emulator in parentheses, its second what it swept."""
    lines, about = {}, []
    for path in args.tables:
        text = open(path).read().splitlines()
        emulator = text[0].split("(", 1)[1].split(")", 1)[0].split()[0].lower() if "(" in text[0] else path
        about.append(f"{emulator} ({path}): {text[1].lstrip('# ')}")
        for line in text:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            level, rows, crossing, stack, outcome, counts = line
            key = (int(level), int(rows), crossing, stack)
            was = lines.get(key)
            outcome = "crash" if outcome == "crash" or (was and was[0] == "crash") else "freeze"
            lines[key] = (outcome, (was[1] + "," if was else "") + f"{emulator}:{counts}")
    out = sys.stdout
    out.write("# NES Tetris locks that crash or freeze the ROM on some emulator, the union of the tables below\n")
    out.write("# (tools/nes-oracle/crashes.py merge); rows 0 is a lock that clears nothing\n")
    for a in about:
        out.write(f"# {a}\n")
    out.write("# level rows crossing stack outcome emulator:variants_bad/variants_total,...\n")
    for (level, rows, crossing, stack), (outcome, counts) in sorted(
            lines.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2] != "cross", kv[0][3] != "any")):
        out.write(f"{level} {rows} {crossing} {stack} {outcome} {counts}\n")
