"""Nestopia, the fourth NES oracle: Debian's libretro core (`libretro-nestopia`) driven through
the libretro API with ctypes, as `oracle.py play --emulator nestopia` and `crashes.py
--emulator nestopia` run it.

  python nestopia.py ready     exit 0 when the core and the ROM are found and a frame plays

A libretro core is a shared library with global state: one machine per process. `Core` loads
the library once and powers the machine on again for each `NestopiaNes`; crashes.py's fresh
emulator after a failure is such a power cycle.
"""
import ctypes as C
import glob
import os
import struct
import tempfile

import numpy

from emulator import A, B, DOWN, LEFT, RIGHT, SELECT, START, UP, Nes, in_game, rom
from ram import CURRENT_PIECE, RAM_SIZE, TETRIMINO_X, TETRIMINO_Y

CORE_PATHS = ("/usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so",
              "/usr/lib/*/libretro/nestopia_libretro.so", "/usr/lib/libretro/nestopia_libretro.so")

# libretro.h's numbers.
ENV_GET_CAN_DUPE, ENV_GET_SYSTEM_DIRECTORY, ENV_SET_PIXEL_FORMAT = 3, 9, 10
ENV_GET_VARIABLE, ENV_SET_VARIABLES, ENV_GET_VARIABLE_UPDATE = 15, 16, 17
ENV_GET_SAVE_DIRECTORY, ENV_GET_CORE_OPTIONS_VERSION = 31, 52
PIXEL_FORMATS = {0: "0RGB1555", 1: "XRGB8888", 2: "RGB565"}
MEMORY_SYSTEM_RAM = 2
DEVICE_JOYPAD = 1
# The joypad's button ids (RETRO_DEVICE_ID_JOYPAD_*) and the record's bits they carry.
JOYPAD = {0: B, 2: SELECT, 3: START, 4: UP, 5: DOWN, 6: LEFT, 7: RIGHT, 8: A}

# The core's options. The RAM's power-on state is zeros (runs repeat byte for byte, as TetaNES's
# is made to); no overscan mask, so the picture is the whole 256x240; an NTSC machine; the
# hardware's sprite limit kept. Options not named here keep the core's default (the first
# listed). The values are module constants, so the pointers the core is handed stay valid.
OPTIONS = {
    b"nestopia_ram_power_state": b"0x00",
    b"nestopia_favored_system": b"ntsc",
    b"nestopia_overscan_v": b"disabled",
    b"nestopia_overscan_h": b"disabled",
    b"nestopia_nospritelimit": b"disabled",
    b"nestopia_overclock": b"1x",
    b"nestopia_blargg_ntsc_filter": b"disabled",
    b"nestopia_palette": b"canonical",
    b"nestopia_button_shift": b"disabled",
}


class Variable(C.Structure):
    _fields_ = [("key", C.c_char_p), ("value", C.c_char_p)]


class GameInfo(C.Structure):
    _fields_ = [("path", C.c_char_p), ("data", C.c_void_p), ("size", C.c_size_t), ("meta", C.c_char_p)]


ENVIRONMENT = C.CFUNCTYPE(C.c_bool, C.c_uint, C.c_void_p)
VIDEO = C.CFUNCTYPE(None, C.c_void_p, C.c_uint, C.c_uint, C.c_size_t)
AUDIO_SAMPLE = C.CFUNCTYPE(None, C.c_int16, C.c_int16)
AUDIO_BATCH = C.CFUNCTYPE(C.c_size_t, C.c_void_p, C.c_size_t)
INPUT_POLL = C.CFUNCTYPE(None)
INPUT_STATE = C.CFUNCTYPE(C.c_int16, C.c_uint, C.c_uint, C.c_uint, C.c_uint)


def core_path():
    path = os.environ.get("NESTOPIA_CORE")
    if path:
        return path
    for pattern in CORE_PATHS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    raise SystemExit("no Nestopia libretro core (apt-get install libretro-nestopia, or set NESTOPIA_CORE):"
                     " bash tools/nes-oracle/setup-nestopia.sh")


class Core:
    """The libretro core and the frontend's side of its callbacks."""

    instance = None

    @classmethod
    def get(cls):
        if cls.instance is None:
            cls.instance = cls()
        return cls.instance

    def __init__(self):
        path = core_path()
        try:
            self.lib = C.CDLL(path)
        except OSError as e:
            raise SystemExit(f"the Nestopia core does not load: {e}") from None
        lib = self.lib
        lib.retro_get_memory_data.restype = C.c_void_p
        lib.retro_get_memory_size.restype = C.c_size_t
        lib.retro_serialize_size.restype = C.c_size_t
        lib.retro_serialize.restype = C.c_bool
        lib.retro_serialize.argtypes = (C.c_void_p, C.c_size_t)
        lib.retro_unserialize.restype = C.c_bool
        lib.retro_unserialize.argtypes = (C.c_void_p, C.c_size_t)
        lib.retro_load_game.restype = C.c_bool
        lib.retro_load_game.argtypes = (C.POINTER(GameInfo),)
        self.dir = tempfile.TemporaryDirectory(prefix="nestopia-oracle-")  # system and save directory
        self.dir_c = C.c_char_p(self.dir.name.encode())
        self.buttons = 0
        self.port1 = 0  # the second controller: idle but while its place in memory is looked for
        self.pixel_format = None
        self.video = None  # (pointer, width, height, pitch) of the last frame the core showed
        # The callbacks stay referenced here as long as the core may call them.
        self.callbacks = (ENVIRONMENT(self.environment), VIDEO(self.video_refresh),
                          AUDIO_SAMPLE(lambda left, right: None), AUDIO_BATCH(lambda data, frames: frames),
                          INPUT_POLL(lambda: None), INPUT_STATE(self.input_state))
        env, video, sample, batch, poll, state = self.callbacks
        lib.retro_set_environment(env)
        lib.retro_set_video_refresh(video)
        lib.retro_set_audio_sample(sample)
        lib.retro_set_audio_sample_batch(batch)
        lib.retro_set_input_poll(poll)
        lib.retro_set_input_state(state)
        lib.retro_init()
        with open(rom(), "rb") as f:
            self.rom = C.create_string_buffer(f.read())
        self.rom_size = len(self.rom.raw) - 1
        self.loaded = False

    def environment(self, cmd, data):
        if cmd == ENV_GET_CORE_OPTIONS_VERSION:
            C.cast(data, C.POINTER(C.c_uint))[0] = 0  # the core then declares its options as variables
            return True
        if cmd == ENV_SET_VARIABLES:
            return True
        if cmd == ENV_GET_VARIABLE:
            var = C.cast(data, C.POINTER(Variable))[0]
            value = OPTIONS.get(var.key)
            if value is None:
                return False
            C.cast(data, C.POINTER(Variable))[0].value = value
            return True
        if cmd == ENV_GET_VARIABLE_UPDATE:
            C.cast(data, C.POINTER(C.c_bool))[0] = False
            return True
        if cmd in (ENV_GET_SYSTEM_DIRECTORY, ENV_GET_SAVE_DIRECTORY):
            C.cast(data, C.POINTER(C.c_char_p))[0] = self.dir_c.value
            return True
        if cmd == ENV_SET_PIXEL_FORMAT:
            self.pixel_format = PIXEL_FORMATS.get(C.cast(data, C.POINTER(C.c_int))[0])
            return self.pixel_format is not None
        if cmd == ENV_GET_CAN_DUPE:
            C.cast(data, C.POINTER(C.c_bool))[0] = False
            return True
        return False

    def video_refresh(self, data, width, height, pitch):
        if data:
            self.video = (data, width, height, pitch)

    def input_state(self, port, device, index, button):
        if device != DEVICE_JOYPAD or port > 1:
            return 0
        buttons = self.buttons if port == 0 else self.port1
        return 1 if buttons & JOYPAD.get(button, 0) else 0

    def power_on(self):
        """Loads the ROM again: the machine powered on, its RAM in the power-on state."""
        if self.loaded:
            self.lib.retro_unload_game()
        info = GameInfo(rom().encode(), C.cast(self.rom, C.c_void_p), self.rom_size, None)
        if not self.lib.retro_load_game(C.byref(info)):
            raise SystemExit("Nestopia did not load the ROM")
        self.loaded = True
        # The core reads a port's buttons only once a device is plugged into it.
        self.lib.retro_set_controller_port_device(0, DEVICE_JOYPAD)
        self.lib.retro_set_controller_port_device(1, DEVICE_JOYPAD)
        if self.pixel_format != "XRGB8888":
            raise SystemExit(f"Nestopia chose the pixel format {self.pixel_format}; the screen check reads XRGB8888")
        size = self.lib.retro_get_memory_size(MEMORY_SYSTEM_RAM)
        address = self.lib.retro_get_memory_data(MEMORY_SYSTEM_RAM)
        if size != RAM_SIZE or not address:
            raise SystemExit(f"Nestopia's system RAM is not 2 KiB ({size} bytes)")
        self.allow_opposite_directions()
        self.video = None
        return (C.c_uint8 * RAM_SIZE).from_address(address)

    def serialize(self):
        size = self.lib.retro_serialize_size()
        saved = C.create_string_buffer(size)
        if not self.lib.retro_serialize(saved, size):
            raise SystemExit("Nestopia did not save its state")
        return saved

    def unserialize(self, saved):
        if not self.lib.retro_unserialize(saved, len(saved)):
            raise SystemExit("Nestopia did not load its state")

    def allow_opposite_directions(self):
        """Lets the controllers hold opposite directions at once, as a real pad and the other
        oracles do. Nestopia drops both of a pair held together unless its controller's
        `allowSimulAxes` is set, and the libretro core offers no option for it: the frontend's
        controller block (the core's `Api::Input::Controllers`, per pad the buttons, the
        microphone and that flag, 32-bit each) is found in memory as the one block a pointer
        in the core's writable data leads to whose pads hold the buttons of the frame just
        played, for three patterns (the two ports differing), and the flags are set there. The
        machine is put back to where it was after the probing frames."""
        saved = self.serialize()
        maps = []
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                low, high = (int(x, 16) for x in parts[0].split("-"))
                maps.append((low, high, parts[1], parts[5] if len(parts) > 5 else ""))
        mine = [i for i, m in enumerate(maps) if m[3] == os.path.realpath(self.lib._name)]
        data = [maps[i] for i in mine if "w" in maps[i][2]]
        if mine and mine[-1] + 1 < len(maps) and maps[mine[-1] + 1][3] == "" and "w" in maps[mine[-1] + 1][2]:
            data.append(maps[mine[-1] + 1])  # the core's zero-initialised data
        heap = [(low, high) for low, high, perms, name in maps if perms.startswith("rw") and name in ("", "[heap]")]
        found = None
        for pattern in (0xA5, 0x5A, 0x3C):
            self.unserialize(saved)
            self.buttons, self.port1 = pattern, ~pattern & 0xFF
            self.lib.retro_run()
            hits = set()
            for low, high, _, _ in data:
                words = numpy.frombuffer(C.string_at(low, high - low), dtype="<u8")
                for pointer in {int(w) for w in words[words > 0x10000]}:
                    if (found is None or pointer in found) and any(a <= pointer < b - 24 for a, b in heap):
                        # Two pads: the buttons, no microphone, the flag still clear.
                        if struct.unpack("<6I", C.string_at(pointer, 24)) == (pattern, 0, 0, ~pattern & 0xFF, 0, 0):
                            hits.add(pointer)
            found = hits
        self.buttons, self.port1 = 0, 0
        self.unserialize(saved)
        if len(found) != 1:
            raise SystemExit(f"Nestopia's controllers are not found once in its memory ({len(found)} places)")
        pads = found.pop()
        for flag in (pads + 8, pads + 20):
            C.c_uint32.from_address(flag).value = 1

    def picture(self):
        """The last frame the core showed, as a height x width array of 0xRRGGBB (XRGB8888:
        little-endian 32-bit words, the top byte unused), or None before the first."""
        if self.video is None:
            return None
        data, width, height, pitch = self.video
        words = numpy.frombuffer(C.string_at(data, pitch * height), dtype="<u4").reshape(height, pitch // 4)
        return words[:, :width] & 0xFFFFFF


# The playfield's cell (0, 0) in the picture: nametable column 12, row 6 (found from a frame
# of a game under way, where only this origin makes the picture's cells the RAM's field).
FIELD_X, FIELD_Y, CELL = 96, 48, 8
# The cells of each orientation id as (dy, dx) from the piece's position, as
# src/games/nes/tables.rs has them: the falling piece is drawn as sprites over the field.
ORIENTATIONS = (
    ((0, -1), (0, 0), (0, 1), (-1, 0)), ((-1, 0), (0, 0), (0, 1), (1, 0)),
    ((0, -1), (0, 0), (0, 1), (1, 0)), ((-1, 0), (0, -1), (0, 0), (1, 0)),
    ((-1, 0), (0, 0), (1, -1), (1, 0)), ((-1, -1), (0, -1), (0, 0), (0, 1)),
    ((-1, 0), (-1, 1), (0, 0), (1, 0)), ((0, -1), (0, 0), (0, 1), (1, 1)),
    ((0, -1), (0, 0), (1, 0), (1, 1)), ((-1, 1), (0, 0), (0, 1), (1, 0)),
    ((0, -1), (0, 0), (1, -1), (1, 0)), ((0, 0), (0, 1), (1, -1), (1, 0)),
    ((-1, 0), (0, 0), (0, 1), (1, 1)), ((-1, 0), (0, 0), (1, 0), (1, 1)),
    ((0, -1), (0, 0), (0, 1), (1, -1)), ((-1, -1), (-1, 0), (0, 0), (1, 0)),
    ((-1, 1), (0, -1), (0, 0), (0, 1)), ((-2, 0), (-1, 0), (0, 0), (1, 0)),
    ((0, -2), (0, -1), (0, 0), (0, 1)),
)


# The parts of the game's screen that change in play, as rectangles of 8x8 tiles (first row,
# last row, first column, last column), found from the pictures at every spawn of the
# committed records: the field, the lines counter, the score, the statistics (their pieces
# take the level's colours), the next piece and the level. Everything else (the frame, the
# bricks, the labels, the top score) stays as on the game's first frame.
CHANGING_TILES = ((6, 25, 12, 21), (3, 3, 19, 21), (8, 8, 24, 29), (11, 24, 3, 8), (14, 17, 23, 28), (21, 21, 24, 29))
STILL = numpy.ones((240, 256), bool)
for _top, _bottom, _left, _right in CHANGING_TILES:
    STILL[_top * 8:(_bottom + 1) * 8, _left * 8:(_right + 1) * 8] = False


def piece_cells(x, y, piece):
    """The field cells (row, column) a piece at (x, y) covers; none for an id outside the table."""
    if piece >= len(ORIENTATIONS):
        return set()
    return {(y + dy, x + dx) for dy, dx in ORIENTATIONS[piece]}


class NestopiaNes(Nes):
    """The oracle on Nestopia (Debian's libretro core). Its step is retro_run: one whole video
    frame, so a movie of any length stays in step with the controller. Its save state
    (retro_serialize) holds the whole machine, the cartridge's mapper included; its RAM is the
    core's own 2 KiB, read and written in place."""

    whole_machine = True
    logic_ahead = 1
    lead_frames = 1

    def __init__(self):
        self.core = Core.get()
        self.ram = self.core.power_on()
        self.piece_before = (0, 0, 0xFF)
        self.first_picture = None
        for _ in range(self.lead_frames):
            self.step(0)

    def step(self, buttons):
        # The piece as the logic left it: the frame about to be drawn shows its sprites there.
        self.piece_before = self.piece()
        self.core.buttons = buttons
        self.core.lib.retro_run()
        if self.first_picture is None and in_game(self.ram):
            self.first_picture = self.core.picture()  # the game's first frame

    def screen(self):
        """The screen check: "ok" when the picture's playfield (the last frame the core drew)
        shows each of its 200 cells empty exactly where the RAM's field is empty, else the
        first cell that differs. A cell is empty when its 8x8 pixels all have the colour of
        the empty tile (the backdrop, black). The falling piece is sprites drawn over the
        field, so the cells it covers, where the logic left it before this frame or after,
        are not judged. Outside the field the picture must equal the game's first frame but in
        the parts that change in play (CHANGING_TILES): stray sprites or tiles there are
        reported as the first pixel that differs."""
        picture = self.core.picture()
        if picture is None:
            return "no picture"
        cells = picture[FIELD_Y:FIELD_Y + 20 * CELL, FIELD_X:FIELD_X + 10 * CELL]
        empty = (cells.reshape(20, CELL, 10, CELL) == 0).all(axis=(1, 3))
        field = self.board()
        piece = piece_cells(*self.piece_before) | piece_cells(*self.piece())
        for row in range(20):
            for column in range(10):
                ram_empty = field[row * 10 + column] == "."
                if ram_empty != bool(empty[row, column]) and (row, column) not in piece:
                    shown = "empty" if empty[row, column] else "filled"
                    return (f"row {row} column {column}: the picture {shown}, the RAM "
                            f"{'empty' if ram_empty else 'filled'}")
        if self.first_picture is not None:
            moved = (picture != self.first_picture) & STILL
            if moved.any():
                y, x = (int(v[0]) for v in numpy.nonzero(moved))
                return f"outside the field: pixel ({x}, {y}), tile row {y // 8} column {x // 8}, unlike the game's first frame"
        return "ok"

    def piece(self):
        """The falling piece as the RAM has it: x, y and orientation id."""
        return int(self.ram[TETRIMINO_X]), int(self.ram[TETRIMINO_Y]), int(self.ram[CURRENT_PIECE])

    def backup(self):
        """The whole machine, serialized; restore() takes it."""
        return self.core.serialize()

    def restore(self, saved=None):
        self.core.unserialize(saved)


def main():
    """`nestopia.py ready`: exit 0 when the core, its callbacks and the ROM work (one frame is
    played), else a line naming what is missing. The tests ask this before playing."""
    import sys

    if sys.argv[1:] != ["ready"]:
        raise SystemExit("usage: nestopia.py ready   (play with oracle.py play --emulator nestopia)")
    nes = NestopiaNes()
    nes.step(0)
    print(f"Nestopia ready: {core_path()}, ROM {rom()}")


if __name__ == "__main__":
    main()
