"""NES Tetris's RAM map and the ROM's constants the oracles read and write, named as the
community's disassembly names them (docs/NES.md), in Python's constant case: `playState` is
PLAY_STATE. The Python oracles take them from here; the Lua scripts FCEUX runs (fceux/*.lua)
spell the same addresses out, so a change here is made there too.

The game copies player 1's block ($60-$75) onto $40-$55 every frame, so a variable of that
block written from outside is written at both addresses (PLAYER1_OFFSET apart).
"""

# The random generator and the pieces it chose.
RNG_SEED = 0x17  # 2 bytes, big-endian as the oracles read it: $17 high, $18 low
SPAWN_ID = 0x19
SPAWN_COUNT = 0x1A

# The active player's block.
TETRIMINO_X = 0x40
TETRIMINO_Y = 0x41
CURRENT_PIECE = 0x42  # an orientation id
LEVEL_NUMBER = 0x44
FALL_TIMER = 0x45
AUTOREPEAT_X = 0x46
PLAY_STATE = 0x48
VRAM_ROW = 0x49  # the next playfield row to copy to the nametable; 0 redraws the field
AUTOREPEAT_Y = 0x4E
HOLD_DOWN_POINTS = 0x4F
LINES = 0x50  # 2 bytes: tens and ones in BCD, then the hundreds in binary (`inc`)
SCORE = 0x53  # 3 bytes of BCD, the lowest first
COMPLETED_LINES = 0x56
PLAYER1_OFFSET = 0x20  # player1_tetriminoX is $60: TETRIMINO_X + PLAYER1_OFFSET

FRAME_COUNTER = 0xB1
ALLEGRO = 0xBA  # $FF while the fast (allegro) music plays, else 0
NEXT_PIECE = 0xBF  # an orientation id
GAME_MODE = 0xC0
LINE_CLEAR_STATS_BY_TYPE = 0xD8  # 4 bytes of BCD: singles, doubles, triples, tetrises
DISPLAY_NEXT_PIECE = 0xDF  # 0: the next box is shown
PLAYFIELD = 0x400  # 200 tiles, row by row, 10 a row
PLAYFIELD_CELLS = 200
RAM_SIZE = 0x800

# gameMode and playState values.
GAME_MODE_PLAY = 4  # play, the ending and the high-score entry
PLAY_STATE_ACTIVE = 1  # the player controls the piece: a spawn is the change to it
PLAY_STATE_CLEAR_ANIMATION = 4  # the clear's animation (playState_noop)
PLAY_STATE_UPDATE_LINES = 5  # playState_updateLinesAndStatistics: the lines and the score loop
PLAY_STATE_GAME_OVER = 10  # playState_updateGameOverCurtain

# Tiles of the playfield.
EMPTY_TILE = 0xEF
BLOCK_TILE = 0x7B

# Orientation ids: the vertical I, the one each kind spawns in (spawnTable), and each id's kind
# (T J Z O S L I, as src/games/nes/tables.rs).
I_VERTICAL = 17
SPAWN_ORIENTATIONS = {"T": 2, "J": 7, "Z": 8, "O": 10, "S": 11, "L": 14, "I": 18}
ORIENTATION_KINDS = "TTTTJJJJZZOSSLLLLII"

# The points of a clear of 0-4 lines at level 0 (pointsTable; times the level + 1), and the
# score's cap.
POINTS = {0: 0, 1: 40, 2: 100, 3: 300, 4: 1200}
SCORE_CAP = 999_999
