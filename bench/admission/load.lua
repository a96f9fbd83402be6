-- wrk script: the admission load of issue 4, checked reply by reply.
--
--   wrk -t16 -c16 -d10s --latency -s load.lua http://127.0.0.1:PORT/upload
--
-- wrk's response() does not say which request it answers: the benchmark
-- configs echo the key back (add_header X-Key $http_idempotency_key), and
-- with one connection per thread (-t equal to -c) a key is in flight once.
--
-- Environment:
--   BODY_SIZE   body bytes (default 4096)
--   MODE        "video-ocr" (check receipts) or "baseline" (expect 200)
--   RUN_ID      part of every key, so that runs never share one
--
-- Each request is a new key (78 %), a retry of an earlier key of this
-- thread with the same body (20 %: must be a replay with the same job),
-- or an earlier key with another body (2 %: must be 422).  Bodies start
-- with an MP4 ftyp box so the sniffer accepts them.

local size = tonumber(os.getenv("BODY_SIZE") or "4096")
local mode = os.getenv("MODE") or "video-ocr"
-- keys of two runs against one ledger in the same second must differ
local run_id = os.getenv("RUN_ID") or ""

local threads = {}
local counter = 0

function setup(thread)
    counter = counter + 1
    thread:set("tid", counter)
    table.insert(threads, thread)
end

local function make_body(fill)
    local head = "\0\0\0\24ftypisom\0\0\2\0isomiso2"
    return head .. string.rep(fill, size - #head)
end

function init(args)
    body_a = make_body("a")
    body_b = make_body("b")
    seq = 0
    keys = {}          -- keys created by this thread, in order
    jobs = {}          -- key -> job id from its 202
    pending = {}       -- key -> what its reply must be
    created, replayed, mismatched, wrong, errors = 0, 0, 0, 0, 0
    wrong_status = ""   -- the first few unexpected answers, for the log
    math.randomseed(tid * 7919 + os.time())
end

function request()
    local r = math.random(100)
    local key, body, expect

    if r <= 20 and #keys > 0 then
        key = keys[math.random(#keys)]
        body, expect = body_a, "replay"
    elseif r <= 22 and #keys > 0 then
        key = keys[math.random(#keys)]
        body, expect = body_b, "mismatch"
    else
        seq = seq + 1
        key = "bench-" .. run_id .. "-" .. tid .. "-" .. seq .. "-" .. os.time()
        body, expect = body_a, "create"
    end

    pending[key] = { key = key, expect = expect }

    return wrk.format("POST", nil,
                      { ["Idempotency-Key"] = key,
                        ["Content-Type"] = "video/mp4" }, body)
end

local function unexpected(p, status, headers, body)
    wrong = wrong + 1
    if #wrong_status < 400 then
        wrong_status = wrong_status .. string.format(
            " [%s %d %s %s]", p and p.expect or "?", status,
            headers["Idempotent-Replayed"] or "-",
            (body or ""):sub(1, 60):gsub("%s", " "))
    end
end

function response(status, headers, body)
    local key = headers["X-Key"]
    local p = key and pending[key]

    if key then
        pending[key] = nil
    end

    if mode == "baseline" then
        if status ~= 200 then unexpected(p, status, headers, body) end
        return
    end

    if p == nil then
        errors = errors + 1
        return
    end

    local job = body and body:match('"job_id":"(%x+)"')
    local replay = headers["Idempotent-Replayed"] == "true"

    if p.expect == "create" then
        if status == 202 and not replay and job then
            created = created + 1
            table.insert(keys, p.key)
            jobs[p.key] = job
        else
            unexpected(p, status, headers, body)
        end
    elseif p.expect == "replay" then
        if status == 202 and replay and job == jobs[p.key] then
            replayed = replayed + 1
        else
            unexpected(p, status, headers, body)
        end
    else
        if status == 422 then
            mismatched = mismatched + 1
        else
            unexpected(p, status, headers, body)
        end
    end
end

function done(summary, latency, requests)
    local c, r, m, w, e = 0, 0, 0, 0, 0
    for _, t in ipairs(threads) do
        c = c + t:get("created")
        r = r + t:get("replayed")
        m = m + t:get("mismatched")
        w = w + t:get("wrong")
        e = e + t:get("errors")
        if t:get("wrong") > 0 then
            io.write("WRONG", t:get("wrong_status"), "\n")
        end
    end

    local secs = summary.duration / 1e6
    local n = summary.requests
    local bad = summary.errors.status + summary.errors.connect
                + summary.errors.read + summary.errors.write
                + summary.errors.timeout

    io.write(string.format(
        "RESULT mode=%s size=%d requests=%d rps=%.0f mbps=%.1f "
        .. "p50_ms=%.2f p99_ms=%.2f created=%d replayed=%d mismatched=%d "
        .. "wrong=%d socket_errors=%d\n",
        mode, size, n, n / secs, n * size / secs / 1048576,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        c, r, m, w + e, bad - summary.errors.status))
end
