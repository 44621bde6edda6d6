-- Many clears (or locks without a clear) set up in RAM as tools/nes-oracle/crashes.py sets
-- them up, judged on FCEUX in one run: `crashes.py sweep --emulator fceux` (fceux.py) writes
-- the list, this script plays it and writes a JSON line per situation. Settings from the
-- environment:
--   FCEUX_ORACLE_MOVIE  a movie to a level-19 game's first piece
--   FCEUX_ORACLE_LIST   the situations, a line each: level rows lines next phase stack carry
--                       score (next: orientation id; stack: low|tall; carry: 0|1; rows 0: a
--                       lock that clears nothing)
--   FCEUX_ORACLE_OUT    the JSON lines (appended to)
--
-- As crashes.py: per (rows, phase, stack) the field is written at the game's first piece, a
-- vertical I dropped into column 9 at level 30 and the machine saved where the lock's
-- animation starts (play state 4; a lock that clears nothing: the frame before the count,
-- play state 5), which nothing before the count reads; from that save each situation writes
-- its level, lines, score, next piece and clear-type statistics and is played to the next
-- spawn. "ok": the spawn within 5 frames of the control's (the same situation at level 30),
-- "freeze": later, "crash": no spawn within 400 frames of the lock (or the game mode left
-- 4). Once a (level, rows, crossing) has crashed, its later situations are followed only to
-- the control's spawn + 6 frames ("bad" when none came), as crashes.py does.
--
-- A failed situation may leave the machine in a state a save does not bring back (nes-py's
-- mapper); FCEUX's saves hold the whole machine, and this is checked: after every failure
-- the save is made again from the game's first piece and the control played again, and when
-- it differs from before the script writes {"untrusted": true} and stops, so fceux.py starts
-- FCEUX afresh.
local out = io.open(os.getenv("FCEUX_ORACLE_OUT"), "a")
-- The RAM addresses are tools/nes-oracle/ram.py's, named as clear.lua names them: keep them equal.
local X, Y, PIECE, LEVEL, FALL_TIMER, PLAY_STATE, VRAM_ROW = 0x40, 0x41, 0x42, 0x44, 0x45, 0x48, 0x49
local AUTOREPEAT_Y, LINES, HOLD_DOWN, SCORE, COMPLETED = 0x4E, 0x50, 0x4F, 0x53, 0x56
local P1 = 0x20
local ALLEGRO, NEXT, GAME_MODE, STATS = 0xBA, 0xBF, 0xC0, 0xD8
local PLAYFIELD, EMPTY, BLOCK, WELL = 0x400, 0xEF, 0x7B, 9
local CONTROL_LEVEL, CRASH_FRAMES, SLACK = 30, 400, 5
local function put(a, v) memory.writebyte(a, v); memory.writebyte(a + P1, v) end
local function bcd(v) return math.floor(v / 10) * 16 + v % 10 end

local list = {}
for line in io.lines(os.getenv("FCEUX_ORACLE_LIST")) do
  local f = {}
  for w in line:gmatch("%S+") do f[#f + 1] = w end
  if #f == 8 then
    list[#list + 1] = {
      level = tonumber(f[1]), rows = tonumber(f[2]), lines = tonumber(f[3]), next = tonumber(f[4]),
      phase = tonumber(f[5]), stack = f[6], carry = f[7] == "1", score = tonumber(f[8]),
    }
  end
end

emu.speedmode("maximum")
movie.play(os.getenv("FCEUX_ORACLE_MOVIE"), true)
while not (memory.readbyte(GAME_MODE) == 4 and memory.readbyte(PLAY_STATE) == 1) do emu.frameadvance() end
movie.stop()
local start = savestate.object()
savestate.save(start)

-- The save of a (rows, phase, stack): the field written, the I dropped and locked at level 30.
local prepared = { key = nil, state = savestate.object(), to_count = 0 }
local function prepare(s)
  savestate.load(start)
  for r = 0, 19 do
    for c = 0, 9 do
      local cell = EMPTY
      if r >= 20 - s.rows and c ~= WELL then cell = BLOCK end
      if s.stack == "tall" and r >= 1 and r < 20 - s.rows then
        local hole = (r * 3) % 9
        if c ~= WELL and c ~= hole then cell = BLOCK end
      end
      memory.writebyte(PLAYFIELD + r * 10 + c, cell)
    end
  end
  put(PIECE, 17); put(X, WELL); put(Y, 18 - 4 - s.phase); put(LEVEL, CONTROL_LEVEL); put(FALL_TIMER, 0)
  put(AUTOREPEAT_Y, 0); put(HOLD_DOWN, 0); put(COMPLETED, 0); put(PLAY_STATE, 1); put(VRAM_ROW, 0)
  memory.writebyte(ALLEGRO, s.stack == "tall" and 0xFF or 0)
  local lock
  for f = 0, 199 do
    emu.frameadvance()
    local st = memory.readbyte(PLAY_STATE)
    if lock == nil and st ~= 1 then lock = f end
    if st == 4 or st == 5 then
      prepared.to_count = f - lock
      savestate.save(prepared.state)
      prepared.key = s.rows .. " " .. s.phase .. " " .. s.stack
      return
    end
  end
  error("the prepared lock never reached play state 4 or 5")
end

-- Frames from the lock to the next spawn (nil: none within `limit` frames of the save).
local function play(s, level, lines, limit)
  local key = s.rows .. " " .. s.phase .. " " .. s.stack
  if prepared.key ~= key then prepare(s) end
  savestate.load(prepared.state)
  put(LEVEL, level)
  put(LINES, bcd(lines % 100)); put(LINES + 1, math.floor(lines / 100))
  for i = 0, 2 do put(SCORE + i, bcd(math.floor(s.score / 100 ^ i) % 100)) end
  memory.writebyte(NEXT, s.next)
  for i = 0, 3 do memory.writebyte(STATS + i, (s.carry and i == s.rows - 1) and 0x19 or 0x14) end
  limit = limit or CRASH_FRAMES - prepared.to_count
  for f = 1, limit do
    emu.frameadvance()
    if memory.readbyte(PLAY_STATE) == 1 then return f + prepared.to_count end
    if memory.readbyte(GAME_MODE) ~= 4 then return nil end
  end
  return nil
end

local controls = {}
local function control(s)
  local lines = CONTROL_LEVEL * 10 + 300 + s.lines % 10
  local key = table.concat({ s.rows, s.phase, s.stack, s.next, tostring(s.carry), s.score, lines }, " ")
  if controls[key] == nil then
    controls[key] = play(s, CONTROL_LEVEL, lines, nil)
    if controls[key] == nil then error("the control did not spawn") end
  end
  return controls[key], key, lines
end

local crashed_cells = {}
for _, s in ipairs(list) do
  local crossing = math.floor(s.lines / 10) ~= math.floor((s.lines + s.rows) / 10)
  local cell = s.level .. " " .. s.rows .. " " .. tostring(crossing)
  local reference = control(s)
  local known = crashed_cells[cell]
  local spawn = play(s, s.level, s.lines, known and (reference - prepared.to_count + SLACK + 1) or nil)
  local outcome = "ok"
  if spawn == nil then
    outcome = known and "bad" or "crash"
  elseif spawn > reference + SLACK then
    outcome = "freeze"
  end
  if outcome == "crash" then crashed_cells[cell] = true end
  out:write(string.format(
    '{"level": %d, "rows": %d, "lines": %d, "crossing": %s, "next": %d, "phase": %d, "stack": "%s", "carry": %s, "score": %d, "delay_frames": %s, "control_delay_frames": %d, "outcome": "%s", "emulator": "fceux"}\n',
    s.level, s.rows, s.lines, tostring(crossing), s.next, s.phase, s.stack, tostring(s.carry), s.score,
    spawn and tostring(spawn) or "null", reference, outcome))
  out:flush()
  if outcome ~= "ok" then
    -- The machine is prepared again from the first piece, and the control must come as before.
    local before, key, lines = control(s)
    prepared.key = nil
    local again = play(s, CONTROL_LEVEL, lines, nil)
    if again ~= before then
      out:write('{"untrusted": true}\n')
      out:close()
      emu.exit()
      return
    end
  end
end
out:write('{"list_done": true}\n')
out:close()
emu.exit()
