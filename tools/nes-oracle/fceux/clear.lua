-- One clear set up in RAM as tools/nes-oracle/crashes.py `one` sets it up, played on FCEUX,
-- and judged as crashes.py judges it: against the same clear at level 30 (the control), "ok"
-- when the next piece spawns within 5 frames of the control's, "freeze" when later, "crash"
-- when not within 400 frames of the lock. Run by `crashes.py one --emulator fceux` (fceux.py);
-- settings from the
-- environment: FCEUX_ORACLE_MOVIE (a movie to a level-19 game's first piece), FCEUX_ORACLE_OUT,
-- LEVEL, ROWS, LINES (before the clear), NEXT (orientation id), PHASE (0-3), STACK (low|tall),
-- CARRY ("1": the clear type's statistics counter carries), SCORE.
--
-- One difference from crashes.py: nes-py's RAM is read and written where its step ends, before
-- the frame that counts the lines (play state 5); FCEUX's frame ends after that frame's logic,
-- so the level, lines, score, next piece and statistics are written when the clear animation
-- (play state 4) starts, which nothing before the count reads.
local out = io.open(os.getenv("FCEUX_ORACLE_OUT"), "w")
local E = function(k, d) return tonumber(os.getenv(k) or d) end
local level, rows, lines, nextp, phase = E("LEVEL"), E("ROWS"), E("LINES"), E("NEXT", "18"), E("PHASE", "0")
local stack, carry, score = os.getenv("STACK") or "low", os.getenv("CARRY") == "1", E("SCORE", "999999")
-- The RAM addresses are tools/nes-oracle/ram.py's (X is TETRIMINO_X, PIECE CURRENT_PIECE, LEVEL
-- LEVEL_NUMBER, HOLD_DOWN HOLD_DOWN_POINTS, COMPLETED COMPLETED_LINES, P1 PLAYER1_OFFSET, NEXT
-- NEXT_PIECE, STATS LINE_CLEAR_STATS_BY_TYPE, EMPTY and BLOCK the tiles): keep them equal.
local X, Y, PIECE, LEVEL, FALL_TIMER, PLAY_STATE, VRAM_ROW = 0x40, 0x41, 0x42, 0x44, 0x45, 0x48, 0x49
local AUTOREPEAT_Y, LINES, HOLD_DOWN, SCORE, COMPLETED = 0x4E, 0x50, 0x4F, 0x53, 0x56
local P1 = 0x20
local FRAME_COUNTER, ALLEGRO, NEXT, GAME_MODE, STATS = 0xB1, 0xBA, 0xBF, 0xC0, 0xD8
local PLAYFIELD, EMPTY, BLOCK, WELL = 0x400, 0xEF, 0x7B, 9
local function put(a, v) memory.writebyte(a, v); memory.writebyte(a + P1, v) end
local function bcd(v) return math.floor(v / 10) * 16 + v % 10 end

emu.speedmode("maximum")
movie.play(os.getenv("FCEUX_ORACLE_MOVIE"), true)
while not (memory.readbyte(GAME_MODE) == 4 and memory.readbyte(PLAY_STATE) == 1) do emu.frameadvance() end
movie.stop()
local start = savestate.object()
savestate.save(start)

local function run(lv, ln)
  savestate.load(start)
  for r = 0, 19 do
    for c = 0, 9 do
      local cell = EMPTY
      if r >= 20 - rows and c ~= WELL then cell = BLOCK end
      if stack == "tall" and r >= 1 and r < 20 - rows then
        local hole = (r * 3) % 9
        if c ~= WELL and c ~= hole then cell = BLOCK end
      end
      memory.writebyte(PLAYFIELD + r * 10 + c, cell)
    end
  end
  put(PIECE, 17); put(X, WELL); put(Y, 18 - 4 - phase); put(LEVEL, 30); put(FALL_TIMER, 0)
  put(AUTOREPEAT_Y, 0); put(HOLD_DOWN, 0); put(COMPLETED, 0); put(PLAY_STATE, 1); put(VRAM_ROW, 0)
  memory.writebyte(ALLEGRO, stack == "tall" and 0xFF or 0)
  local lock, to_score
  for f = 0, 199 do
    emu.frameadvance()
    local st = memory.readbyte(PLAY_STATE)
    if lock == nil and st ~= 1 then lock = f end
    if st == 4 then to_score = f - lock; break end
  end
  put(LEVEL, lv)
  put(LINES, bcd(ln % 100)); put(LINES + 1, math.floor(ln / 100))
  local s = score
  for i = 0, 2 do put(SCORE + i, bcd(math.floor(s / 100 ^ i) % 100)) end
  memory.writebyte(NEXT, nextp)
  for i = 0, 3 do memory.writebyte(STATS + i, (carry and i == rows - 1) and 0x19 or 0x14) end
  for f = 1, 400 - to_score do
    emu.frameadvance()
    if memory.readbyte(PLAY_STATE) == 1 then return f + to_score end
    if memory.readbyte(GAME_MODE) ~= 4 then return nil end
  end
  return nil
end

local control = run(30, 30 * 10 + 300 + lines % 10)
local spawn = run(level, lines)
local outcome = "ok"
if spawn == nil then outcome = "crash" elseif spawn > control + 5 then outcome = "freeze" end
out:write(string.format('{"level": %d, "rows": %d, "lines": %d, "next": %d, "phase": %d, "stack": "%s", "carry": %s, "delay_frames": %s, "control_delay_frames": %d, "outcome": "%s"}\n',
  level, rows, lines, nextp, phase, stack, tostring(carry), spawn and tostring(spawn) or "null", control, outcome))
out:close()
emu.exit()
