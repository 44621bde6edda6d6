"""TetaNES, the third NES oracle: PyPI's tetanes-py (a binding of the TetaNES emulator, in the
oracle's virtualenv), as `oracle.py play --emulator tetanes` and `crashes.py --emulator
tetanes` run it.
"""
import os
import tempfile
import zlib

from emulator import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Nes, rom
from ram import RAM_SIZE


class TetanesRam:
    """TetaNES's RAM read as nes-py's RAM array is (by address or by slice), and written: the
    binding reads RAM but has no write, so writes are kept and put into the machine before the
    next step by rewriting a save state (TetanesNes.flush)."""

    def __init__(self, nes):
        self.nes = nes
        self.pending = {}

    def __getitem__(self, key):
        if isinstance(key, slice):
            return [self[a] for a in range(*key.indices(RAM_SIZE))]
        key &= RAM_SIZE - 1
        return self.pending[key] if key in self.pending else self.nes.env.read_ram(key)

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            for a, v in zip(range(*key.indices(RAM_SIZE)), value):
                self.pending[a & (RAM_SIZE - 1)] = int(v) & 0xFF
        else:
            self.pending[key & (RAM_SIZE - 1)] = int(value) & 0xFF


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
        with open(rom(), "rb") as f:
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
        found (the 2 KiB read at this point, once in the state) and changed, and the state loaded. At
        power-on also the work RAM is zeroed and opposite directions allowed."""
        path = os.path.join(self.scratch, "write.state")
        self.env.save_state_to_path(path)
        head, state = tetanes_state(path)
        ram = bytes(self.env.read_ram(a) for a in range(RAM_SIZE))
        at = self.ram_offset
        if at is None or state[at:at + RAM_SIZE] != ram:
            at = self.ram_offset = find_once(state, ram, "the RAM")
        if power_on:
            state[at:at + RAM_SIZE] = bytes(RAM_SIZE)
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
