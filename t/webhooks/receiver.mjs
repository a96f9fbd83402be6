// The receiver the webhook tests deliver to: an HTTP server on 127.0.0.1
// that verifies every delivery with the standardwebhooks package from npm
// (Webhook.verify, the reference library: not video-ocr's own code) and
// logs each one as a JSON line.  What it answers is chosen by the path:
//
//   /ok                 200
//   /status/NNN         status NNN (with ?retry_after=S: a Retry-After)
//   /slow/MS            200 after MS milliseconds
//   /redirect           302 to /ok
//   /huge               200 and an endless body (until the client hangs up)
//   /huge500            500 and an endless body
//   /flaky/N            503 to the first N attempts of each webhook-id
//   /gone/N             410 to the first N requests of all, then 200
//
// node receiver.mjs --log FILE [--port P] [--secret whsec_...]...
//                   [--tls-cert PEM --tls-key PEM]   (HTTPS)
//
// It prints "listening PORT" once it listens.  Every request gets two
// lines in the log: {"phase":"arrived",...} when its headers are in and
// {"phase":"answered",...} when its answer is sent (those times, in ms
// since the epoch with microseconds, as "arrived" and "answered"), with
// the webhook-id, the attempt's timestamp, the type and job of the body,
// what verify() said for each secret (in order), and how many requests
// with the same webhook-id were in flight when it arrived (2 or more:
// the same event sent twice at once).

import { appendFileSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { Webhook } from 'standardwebhooks';

const args = process.argv.slice(2);
let log = null;
let port = 0;
const secrets = [];
let cert = null, key = null;

for (let i = 0; i < args.length; i += 2) {
    if (args[i] === '--log') log = args[i + 1];
    else if (args[i] === '--port') port = Number(args[i + 1]);
    else if (args[i] === '--secret') secrets.push(args[i + 1]);
    else if (args[i] === '--tls-cert') cert = readFileSync(args[i + 1]);
    else if (args[i] === '--tls-key') key = readFileSync(args[i + 1]);
    else throw new Error(`unknown option ${args[i]}`);
}

if (!log) throw new Error('--log FILE is required');

const hooks = secrets.map((s) => new Webhook(s));
const inflight = new Map();
const attempts = new Map();
let gone = 0;

function write(entry) {
    appendFileSync(log, JSON.stringify(entry) + '\n');
}

// The time now in ms since the epoch, to the microsecond, from the
// monotonic clock (the wall clock at start plus the time since): the
// tests read the order of arrival from these times (a job's end is sent
// only once its job.accepted was answered), and Date.now() lost it when
// two requests came in one millisecond or the wall clock stepped back
// (t/pool/141 failed once, "in order: every job.accepted before its
// end", on a fresh clone's make test, 2026-12-03).
const now = () => performance.timeOrigin + performance.now();

const handler = (req, res) => {
    const id = req.headers['webhook-id'] ?? null;
    const arrived = now();
    const same = (inflight.get(id) ?? 0) + 1;
    inflight.set(id, same);
    attempts.set(id, (attempts.get(id) ?? 0) + 1);

    const url = new URL(req.url, 'http://receiver');
    const base = { id, path: url.pathname, method: req.method,
                   timestamp: req.headers['webhook-timestamp'] ?? null,
                   signature: req.headers['webhook-signature'] ?? null,
                   inflight: same, arrived };

    write({ phase: 'arrived', ...base });

    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const verified = hooks.map((h) => {
            try {
                h.verify(body, req.headers);
                return true;
            } catch (e) {
                return false;
            }
        });
        let type = null, job = null, state = null;
        try {
            const p = JSON.parse(body);
            type = p.type;
            job = p.data?.job_id ?? null;
            state = p.data?.state ?? null;
        } catch (e) {
            // not JSON: recorded as it is
        }

        const answer = (status, headers = {}, text = 'ok\n', endless) => {
            const done = () => {
                inflight.set(id, inflight.get(id) - 1);
                write({ phase: 'answered', ...base, status, verified, type,
                        job, state, body, answered: now() });
            };
            res.writeHead(status, headers);
            if (!endless) {
                res.end(text);
                done();
                return;
            }
            // as much as the client reads, until it hangs up
            const block = Buffer.alloc(65536, 'x');
            const pump = () => {
                while (res.write(block)) { /* until the buffer is full */ }
            };
            res.on('drain', pump);
            res.on('close', done);
            pump();
        };

        const m = url.pathname.match(/^\/([a-z0-9]+)(?:\/(\d+))?/);
        const what = m ? m[1] : '';
        const n = m && m[2] ? Number(m[2]) : 0;

        switch (what) {
        case 'ok':
            return answer(200);
        case 'status': {
            const ra = url.searchParams.get('retry_after');
            return answer(n, ra ? { 'Retry-After': ra } : {}, `status ${n}\n`);
        }
        case 'slow':
            return setTimeout(() => answer(200), n);
        case 'redirect':
            return answer(302, { Location: '/ok' }, 'moved\n');
        case 'huge':
            return answer(200, {}, '', true);
        case 'huge500':
            return answer(500, {}, '', true);
        case 'flaky':
            return attempts.get(id) <= n ? answer(503, {}, 'not yet\n')
                                         : answer(200);
        case 'gone':
            return ++gone <= n ? answer(410, {}, 'gone\n') : answer(200);
        default:
            return answer(404, {}, 'no such path\n');
        }
    });
};

const server = cert ? createTlsServer({ cert, key }, handler)
                    : createServer(handler);

server.keepAliveTimeout = 5000;
server.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening ${server.address().port}\n`);
});

process.on('SIGTERM', () => process.exit(0));
