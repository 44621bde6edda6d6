-- The NES oracle on FCEUX: plays an FM2 movie from power-on at maximum speed, reads the
-- game's RAM after every frame and writes JSON lines in the form `oracle.py play` prints
-- (one per spawn, one at the end), then quits FCEUX. Run by `oracle.py play --emulator fceux`
-- (fceux.py); its settings come from the environment:
--   FCEUX_ORACLE_MOVIE   the FM2 movie (from power-on, as `check --game nes --fm2` writes)
--   FCEUX_ORACLE_OUT     the file the JSON lines go to
--   FCEUX_ORACLE_FRAMES  "1": a line after every frame instead of every spawn
--   FCEUX_ORACLE_FREEZE  frames without a spawn, the game not over, that end the play as a
--                        crash (default 1200)

local movie_path = os.getenv("FCEUX_ORACLE_MOVIE")
local out = io.open(os.getenv("FCEUX_ORACLE_OUT"), "w")
local per_frame = os.getenv("FCEUX_ORACLE_FRAMES") == "1"
local freeze_limit = tonumber(os.getenv("FCEUX_ORACLE_FREEZE") or "1200")

-- The RAM addresses below are tools/nes-oracle/ram.py's (the snapshot's fields are oracle.py's
-- Nes.snapshot, in its order): keep them equal.
local function rb(address)
  return memory.readbyte(address)
end

local function bcd(address, length)
  local value, scale = 0, 1
  for i = 0, length - 1 do
    local byte = rb(address + i)
    value = value + scale * (math.floor(byte / 16) * 10 + byte % 16)
    scale = scale * 100
  end
  return value
end

-- The line count: tens and ones in BCD, hundreds in binary (the ROM counts them with `inc`,
-- so past 1,599 the byte no longer reads as BCD).
local function lines()
  return rb(0x51) * 100 + bcd(0x50, 1)
end

local function board()
  local cells = {}
  for a = 0x400, 0x4C7 do
    cells[#cells + 1] = (rb(a) == 0xEF) and "." or "#"
  end
  return table.concat(cells)
end

-- The screen check: the playfield's nametable (cell (0, 0) at $20CC: column 12, row 6 of
-- the first nametable) against the RAM's field, tile for tile. The nametable holds no sprites,
-- so the falling piece is not in it. "ok", or the first cell whose tile differs.
local function screen()
  for row = 0, 19 do
    for column = 0, 9 do
      local field = rb(0x400 + row * 10 + column)
      local tile = ppu.readbyte(0x20CC + row * 32 + column)
      if tile ~= field then
        return string.format("row %d column %d: the nametable's tile %d, the RAM's %d", row, column, tile, field)
      end
    end
  end
  return "ok"
end

-- The fields and their order of oracle.py's snapshot.
local function snapshot(frame, extra)
  local parts = {
    string.format('"play_state": %d', rb(0x48)),
    string.format('"score": %d', bcd(0x53, 3)),
    string.format('"lines": %d', lines()),
    string.format('"level": %d', rb(0x44)),
    string.format('"piece": %d', rb(0x42)),
    string.format('"next": %d', rb(0xBF)),
    string.format('"x": %d', rb(0x40)),
    string.format('"y": %d', rb(0x41)),
    string.format('"rng": %d', rb(0x17) * 256 + rb(0x18)),
    string.format('"spawn_count": %d', rb(0x1A)),
    string.format('"spawn_id": %d', rb(0x19)),
    string.format('"frame_counter": %d', rb(0xB1)),
    string.format('"fall_timer": %d', rb(0x45)),
    string.format('"autorepeat_x": %d', rb(0x46)),
    string.format('"autorepeat_y": %d', rb(0x4E)),
    string.format('"hold_down_points": %d', rb(0x4F)),
    string.format('"vram_row": %d', rb(0x49)),
    string.format('"game_mode": %d', rb(0xC0)),
    string.format('"frame": %d', frame),
  }
  if extra then
    for _, p in ipairs(extra) do
      parts[#parts + 1] = p
    end
  end
  out:write("{" .. table.concat(parts, ", ") .. "}\n")
end

emu.speedmode("maximum")
movie.play(movie_path, true)
local length = movie.length()

-- The movie's frames played so far.
local function played()
  return movie.framecount()
end

-- FCEUX's frame begins with the vertical blank, whose interrupt reads the controller, and the
-- game logic follows: the frame that reads a movie frame's buttons also acts on them. In the
-- frame model of the engine and nes-py the logic comes first and the read last, so the logic
-- that acts on the movie's last frame belongs to a frame after the record: stop one before.
local last = length - 1

-- The menus: until the game runs its first piece (game mode 4, play state 1), as oracle.py.
while played() < last and not (rb(0xC0) == 4 and rb(0x48) == 1) do
  emu.frameadvance()
end
local first = played()

local last_state = rb(0x48)
local pending = nil
local frame = -1
local last_spawn = 0 -- the first piece's "spawn": frame 0
local spawns = 0
local crashed = false
local longest_gap, longest_gap_frame = 0, 0
while played() < last do
  emu.frameadvance()
  frame = played() - first - 1
  local state = rb(0x48)
  if per_frame then
    snapshot(frame)
  else
    if pending ~= nil then
      snapshot(pending, { '"board": "' .. board() .. '"', '"screen": "' .. screen() .. '"' })
      pending = nil
    end
  end
  if state == 1 and last_state ~= 1 then
    pending = (not per_frame) and frame or nil
    spawns = spawns + 1
    -- The gaps between spawns (the first piece's hang of 96 frames is not one).
    if spawns > 1 and frame - last_spawn > longest_gap then
      longest_gap, longest_gap_frame = frame - last_spawn, frame
    end
    last_spawn = frame
  end
  last_state = state
  if state == 10 and not per_frame then
    break
  end
  if state ~= 10 and frame - last_spawn > freeze_limit then
    crashed = true
    break
  end
end

snapshot(frame, {
  '"board": "' .. board() .. '"',
  '"end": true',
  '"emulator": "fceux"',
  string.format('"movie_frames": %d', played()),
  string.format('"first_game_frame": %d', first),
  string.format('"last_spawn": %d', last_spawn),
  string.format('"longest_gap": %d', longest_gap),
  string.format('"longest_gap_frame": %d', longest_gap_frame),
  string.format('"crashed": %s', crashed and "true" or "false"),
})
out:close()
emu.exit()
