-- wrk script: cycles through the request paths listed (one per line) in the file named by
-- the PATHS environment variable, with the key in KEY. Each connection starts at its own line.
-- A line "personal PATH" is sent with the key in PKEY instead (a personal key).
local paths = {}
local keys = {}
for line in io.lines(os.getenv("PATHS")) do
  local path = line:match("^personal (.*)")
  paths[#paths + 1] = path or line
  keys[#keys + 1] = path and os.getenv("PKEY") or os.getenv("KEY")
end
local counter = 0

function setup(thread)
  thread:set("start", counter)
  counter = counter + 97
end

function init(args)
  i = start or 0
end

function request()
  i = i + 1
  local n = (i % #paths) + 1
  return wrk.format("GET", paths[n], { ["Authorization"] = "Bearer " .. keys[n] })
end
