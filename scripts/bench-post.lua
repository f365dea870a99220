-- wrk script of the benchmarks: posts the pre-signed events of BENCH_EVENTS (bench_events.py),
-- each wrk thread its own share, to BENCH_PATH (default /webhooks/sendbird).
local counter = 0
function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end
function init(args)
  sigs, bodies, i = {}, {}, 0
  path = os.getenv("BENCH_PATH") or "/webhooks/sendbird"
  local n, nthreads = 0, tonumber(os.getenv("BENCH_THREADS"))
  for line in io.lines(os.getenv("BENCH_EVENTS")) do
    if n % nthreads == tid then
      local sig, body = line:match("^(%x+) (.*)$")
      table.insert(sigs, sig); table.insert(bodies, body)
    end
    n = n + 1
  end
end
function request()
  i = i % #bodies + 1
  return wrk.format("POST", path,
    {["Content-Type"] = "application/json", ["x-sendbird-signature"] = sigs[i]}, bodies[i])
end
function done(summary, latency, requests)
  io.write(string.format("non-2xx: %d\n", summary.errors.status))
  local e = summary.errors
  io.write(string.format("socket errors: %d\n", e.connect + e.read + e.write + e.timeout))
end
