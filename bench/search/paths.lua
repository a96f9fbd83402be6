-- wrk script of the search benchmark (bench/search/run.sh): GET each
-- request path of the file PATHS in turn, over and over, and count the
-- replies that are not 200 and those that hold no hit.
--
--   PATHS=common.txt wrk -t1 -c1 -d10s --latency -s paths.lua URL

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    paths = {}
    for line in io.lines(os.getenv("PATHS")) do
        paths[#paths + 1] = line
    end
    i = 0
    bad = 0
    empty = 0
end

function request()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end

function response(status, headers, body)
    if status ~= 200 then
        bad = bad + 1
    elseif string.find(body, '"hits":%[%]') then
        empty = empty + 1
    end
end

function done(summary, latency, requests)
    local b, e = 0, 0
    for _, t in ipairs(threads) do
        b = b + t:get("bad")
        e = e + t:get("empty")
    end
    io.write(string.format("CHECK requests=%d not_200=%d no_hit=%d"
                           .. " p50_ms=%.2f p99_ms=%.2f\n",
                           summary.requests, b, e,
                           latency:percentile(50) / 1000,
                           latency:percentile(99) / 1000))
end
