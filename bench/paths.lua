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

-- The percentiles as one line, p95 included (wrk's own --latency report has no p95).
function done(summary, latency, requests)
  io.write(string.format("percentiles-ms p50 %.2f p95 %.2f p99 %.2f\n",
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
