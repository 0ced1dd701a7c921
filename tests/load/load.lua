-- wrk script for the load test (tests/load/run_load.sh).
--
-- LOAD_MIX=1: cycle through a mix of calculator pages, API calls and error requests;
-- otherwise: the one URL given to wrk. Either way every response's status is counted, and
-- done() prints one RESULT line: requests per second, p50/p99 latency, socket errors, 5xx
-- and statuses the mix never expects (each of those is an error).

local mix = os.getenv("LOAD_MIX") == "1"
local HAND = "123m456m789m234p55s"
local ROUND = '{"rules": "sichuan", "missing": {"E": "p", "S": "m", "W": "s", "N": "p"}, ' ..
              '"events": [{"type": "kong", "seat": "S", "kind": "concealed", "tile": "9p"}, ' ..
              '{"type": "win", "seat": "E", "by": "self-draw", "hand": "123s456s789s234s55s"}]}'
local LONG = string.rep("a", 5000)

-- {method, path, body, weight}; expected statuses are 200, 302, 400, 404, 405 and 414
local entries = {
  -- calculator and result pages
  {"GET", "/", nil, 1},
  {"GET", "/?rules=hong-kong&hand=" .. HAND .. "&discarder=N", nil, 2},
  {"GET", "/?rules=sichuan&hand=111p123p777p789p55p&by=self-draw&missing=m", nil, 1},
  {"GET", "/embed?rules=hong-kong-course&hand=" .. HAND .. "&by=self-draw&seat=S", nil, 2},
  {"GET", "/?rules=hong-kong&hand=123m456m789m234p5s", nil, 1},
  {"GET", "/ticks?rules=hong-kong-course&ticks=half-flush,dragon-pong", nil, 1},
  {"GET", "/rules/hong-kong", nil, 1},
  {"GET", "/static/style.css", nil, 1},
  -- the JSON API
  {"GET", "/api/score?rules=hong-kong&hand=" .. HAND .. "&discarder=N", nil, 3},
  {"GET", "/api/score?rules=sichuan&hand=111p123p777p789p55p&by=self-draw", nil, 2},
  {"GET", "/api/score?rules=hong-kong-course&hand=123m789m55s&melds=777p,ckong:5555z&by=self-draw" ..
          "&flowers=13&events=kong-replacement", nil, 2},
  {"GET", "/api/score?rules=hong-kong&ticks=all-pongs,half-flush", nil, 1},
  {"GET", "/api/waits?rules=hong-kong&hand=123m456m789m234p5s", nil, 2},
  {"GET", "/api/waits?rules=sichuan&hand=1112345678999p", nil, 1},
  {"POST", "/api/settle", ROUND, 1},
  -- error requests
  {"GET", "/api/score?hand=123m456x", nil, 1},
  {"GET", "/api/score?rules=../../etc/passwd&hand=" .. HAND, nil, 1},
  {"GET", "/?rules=hong-kong&hand=11111m456x&stake=-1", nil, 1},
  {"GET", "/nope", nil, 1},
  {"GET", "/rules/nope", nil, 1},
  {"GET", "/api/score?x=" .. LONG, nil, 1},
  {"GET", "/?x=" .. LONG, nil, 1},
  {"POST", "/api/score", nil, 1},
}
local EXPECTED = {[200] = true, [302] = true, [400] = true, [404] = true, [405] = true, [414] = true}

local prepared = {}
local counter = 0
statuses = {}

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  if mix then
    for _, e in ipairs(entries) do
      local headers = nil
      if e[3] then headers = {["Content-Type"] = "application/json"} end
      local request = wrk.format(e[1], e[2], headers, e[3])
      for _ = 1, e[4] do table.insert(prepared, request) end
    end
    counter = (id or 0) * 7   -- threads start at different places in the cycle
  end
end

function request()
  if not mix then return wrk.request() end
  counter = counter + 1
  return prepared[(counter % #prepared) + 1]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local merged = {}
  for _, thread in ipairs(threads) do
    local counts = thread:get("statuses")
    for status, n in pairs(counts) do merged[status] = (merged[status] or 0) + n end
  end
  local server_errors, unexpected, parts = 0, 0, {}
  for status, n in pairs(merged) do
    if status >= 500 then server_errors = server_errors + n end
    if not EXPECTED[status] or (not mix and status ~= 200) then unexpected = unexpected + n end
    table.insert(parts, status .. ":" .. n)
  end
  table.sort(parts)
  local e = summary.errors
  local socket = e.connect + e.read + e.write + e.timeout
  io.write(string.format(
    "RESULT requests=%d seconds=%.2f rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f " ..
    "socket_errors=%d server_errors=%d unexpected=%d statuses=%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, socket, server_errors, unexpected, table.concat(parts, ",")))
end
