-- wrk script: cycles through the request paths listed (one per line) in the file named by
-- the PATHS environment variable, with the key in KEY. Each connection starts at its own line.
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local key = os.getenv("KEY")
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
  return wrk.format("GET", paths[(i % #paths) + 1], { ["Authorization"] = "Bearer " .. key })
end
