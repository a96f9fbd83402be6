// Real resumable-upload clients from npm against the real nginx with the
// module and the real worker pool (lib/stack.mjs, the demo site of
// "make run"), each through a proxy that cuts its connection twice
// (lib/lossy-proxy.mjs, CuttingProxy): tus-js-client in node with tus
// 1.0 and with its IETF draft option (ietf-draft-05), Uppy (@uppy/core +
// @uppy/tus) in Chromium; and both again with parallelUploads: 4 (tus
// concatenation: four partial uploads at once, then the final one), the
// proxy cutting two of the parts in their middle.  Each must end in
// exactly one job whose text is right, having sent little more than the
// file, and a parallel upload in the job a POST of the same bytes is
// (the same input_digest: a POST with the key is its replay)
// (docs/clients.md lists the versions).
//
//   scripts/test.sh browser      (make test runs it too)

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

import { Stack } from './lib/stack.mjs';
import { CuttingProxy } from './lib/lossy-proxy.mjs';
import { makeVideo, padVideo, sha256File, cer } from './lib/media.mjs';

const JOB_TIMEOUT = 90000;
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const HERE = path.dirname(new URL(import.meta.url).pathname);

let stack;
let dir;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-ocr-clients-'));
  stack = await new Stack({ workers: 1, httpExtra: 'keepalive_timeout 0;' }).start();
});

after(async () => {
  if (stack) await stack.stop();
  if (dir && !process.env.VIDEO_OCR_KEEP) fs.rmSync(dir, { recursive: true, force: true });
});

// The job of a file's bytes, once done: its status document.
async function jobOf(file) {
  const rows = stack.rows(`SELECT job_id FROM jobs WHERE input_sha256 = '${sha256File(file)}'`);
  assert.equal(rows.length, 1, `one job for the file: ${JSON.stringify(rows)}`);
  const deadline = Date.now() + JOB_TIMEOUT;
  for (;;) {
    const st = await (await fetch(`${stack.url}/api/jobs/${rows[0].job_id}`)).json();
    if (!['accepted', 'running'].includes(st.state) || Date.now() > deadline) return st;
    await new Promise((r) => setTimeout(r, 200));
  }
}

function upload(file, proxy, protocol, key) {
  const bytes = fs.readFileSync(file);
  return new Promise((resolve, reject) => {
    const u = new tus.Upload(bytes, {
      endpoint: `${proxy.url}/api/videos?lang=eng&fps=2`,
      protocol,
      chunkSize: 512 * 1024,
      retryDelays: [0, 100, 200, 400, 800],
      headers: { 'Idempotency-Key': key },
      metadata: { filename: path.basename(file) },
      uploadSize: bytes.length,
      onSuccess: (payload) => resolve({ upload: u, last: payload && payload.lastResponse }),
      onError: reject,
    });
    u.start();
  });
}

for (const protocol of ['tus-v1', 'ietf-draft-05']) {
  test(`tus-js-client in node, protocol ${protocol}: cut at 30 % and 70 %, one job, the right text`,
    { timeout: JOB_TIMEOUT + 30000 }, async () => {
      const text = protocol === 'tus-v1' ? 'Sent with tus' : 'Sent with the draft';
      const file = padVideo(makeVideo(path.join(dir, `${protocol}.mp4`), [{ start: 0.2, end: 2.8, text }],
                                      { duration: 3 }), 3 << 20);
      const size = fs.statSync(file).size;
      const proxy = await new CuttingProxy(stack.port, { cutAt: [Math.floor(size * 0.3), Math.floor(size * 0.7)] }).listen();
      try {
        const { upload: u, last } = await upload(file, proxy, protocol, `node-${protocol}`);
        assert.equal(proxy.cuts.length, 2, `the proxy cut twice: ${proxy.cuts}`);
        assert.match(u.url, /\/api\/videos\/[0-9a-f]{32}$/, 'an upload resource below the intake');
        // what a cut costs is at most the chunks in flight (512 KiB each
        // here; docs/benchmarks.md has the measurements)
        assert.ok(proxy.forwarded <= size + 2 * 2 * 512 * 1024,
                  `bytes forwarded ${proxy.forwarded}: the file ${size} and at most two chunks per cut`);
        assert.ok(proxy.requests.some((r) => r.startsWith('HEAD ')), 'it asked the offset after a cut');
        const job = last && last.getHeader('Video-OCR-Job');
        const st = await jobOf(file);
        if (job) assert.equal(job, st.job_id, 'the final response named the job');
        assert.equal(st.state, 'done', `the job is done: ${JSON.stringify(st.error)}`);
        const seg = (st.result.segments || [])[0];
        assert.ok(seg && cer(seg.text, text) <= 0.1, `reads "${text}": "${seg && seg.text}"`);
        const ups = stack.rows(`SELECT state, protocol, filename FROM uploads WHERE job_id = '${st.job_id}'`);
        assert.deepEqual(ups, [{ state: 'completed', protocol: protocol === 'tus-v1' ? 'tus' : 'ietf',
                                 filename: protocol === 'tus-v1' ? path.basename(file) : null }]);
        console.log(`# ${protocol}: file ${size} bytes, forwarded ${proxy.forwarded} (${(proxy.forwarded / size).toFixed(3)}x), ` +
                    `${proxy.requests.length} requests, cuts at ${proxy.cuts}`);
      } finally {
        await proxy.close();
      }
    });
}

test('Uppy (@uppy/core + @uppy/tus) in Chromium: cut at 30 % and 70 %, one job, the right text',
  { timeout: JOB_TIMEOUT + 60000 }, async () => {
    // @uppy/core and @uppy/tus as npm has them, bundled for the page
    const bundle = await esbuild.build({
      stdin: { contents: "import Uppy from '@uppy/core'; import Tus from '@uppy/tus';"
                         + ' window.Uppy = Uppy; window.UppyTus = Tus;', resolveDir: HERE },
      bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent',
    });
    const text = 'Sent with Uppy';
    const file = padVideo(makeVideo(path.join(dir, 'uppy.mp4'), [{ start: 0.2, end: 2.8, text }], { duration: 3 }),
                          3 << 20);
    const size = fs.statSync(file).size;
    const proxy = await new CuttingProxy(stack.port, { cutAt: [Math.floor(size * 0.3), Math.floor(size * 0.7)] }).listen();
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
                                            args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${proxy.url}/`);
      await page.addScriptTag({ content: bundle.outputFiles[0].text });
      const result = await page.evaluate(async ([b64, name]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const uppy = new window.Uppy({ autoProceed: false });
        uppy.use(window.UppyTus, {
          endpoint: '/api/videos?lang=eng&fps=2',
          chunkSize: 512 * 1024,
          retryDelays: [0, 100, 200, 400, 800],
          headers: { 'Idempotency-Key': 'uppy-1' },
        });
        uppy.addFile({ name, type: 'video/mp4', data: new Blob([bytes], { type: 'video/mp4' }) });
        const r = await uppy.upload();
        return { ok: r.successful.length, failed: r.failed.map((f) => String(f.error)),
                 url: r.successful[0] && r.successful[0].tus && r.successful[0].tus.uploadUrl };
      }, [fs.readFileSync(file).toString('base64'), 'uppy.mp4']);
      assert.equal(result.ok, 1, `uploaded: ${JSON.stringify(result)}`);
      assert.equal(proxy.cuts.length, 2, 'the proxy cut twice');
      assert.ok(proxy.forwarded <= size + 2 * 2 * 512 * 1024,
                `bytes forwarded ${proxy.forwarded}: the file ${size} and at most two chunks per cut`);
      const st = await jobOf(file);
      assert.equal(st.state, 'done');
      const seg = (st.result.segments || [])[0];
      assert.ok(seg && cer(seg.text, text) <= 0.1, `reads "${text}": "${seg && seg.text}"`);
      const ups = stack.rows(`SELECT filename FROM uploads WHERE job_id = '${st.job_id}'`);
      assert.deepEqual(ups, [{ filename: 'uppy.mp4' }], 'Uppy\'s metadata name is kept as the file name');
      console.log(`# Uppy: file ${size} bytes, forwarded ${proxy.forwarded} (${(proxy.forwarded / size).toFixed(3)}x), `
                  + `${proxy.requests.length} requests`);
    } finally {
      await browser.close();
      await proxy.close();
    }
  });


// A parallel upload's checks: the proxy cut two different parts in
// their middle, the job is the file's, done and read right, its upload
// is the final one (no partial upload left), and a POST of the same
// bytes with the same key is its replay: the same job, the same digest.
async function checkParallel(file, text, key, proxy, finalUrl) {
  const size = fs.statSync(file).size;
  assert.equal(proxy.cutRequests.length, 2, `two parts cut: ${proxy.cutRequests}`);
  for (const l of proxy.cutRequests) assert.match(l, /^PATCH \/api\/videos\/[0-9a-f]{32} /, 'a partial upload\'s PATCH');
  assert.notEqual(proxy.cutRequests[0].split(' ')[1], proxy.cutRequests[1].split(' ')[1], 'of two different parts');
  for (const l of proxy.cutRequests) {
    assert.ok(proxy.requests.includes(`HEAD ${l.split(' ')[1]} HTTP/1.1`), `the client asked for the offset of ${l}`);
  }
  const creations = proxy.requests.filter((r) => r.startsWith('POST /api/videos'));
  assert.ok(creations.length >= 5, `four partial uploads and the final one created: ${creations.length} POSTs`);
  // each cut costs at most the 512 KiB chunk it was in
  assert.ok(proxy.forwarded <= size + 2 * 512 * 1024 + 64 * 1024,
            `bytes forwarded ${proxy.forwarded}: the file ${size} and at most a chunk per cut`);
  const st = await jobOf(file);
  assert.equal(st.state, 'done', `the job is done: ${JSON.stringify(st.error)}`);
  const seg = (st.result.segments || [])[0];
  assert.ok(seg && cer(seg.text, text) <= 0.1, `reads "${text}": "${seg && seg.text}"`);
  const ups = stack.rows(`SELECT upload_id, state, concat FROM uploads WHERE job_id = '${st.job_id}'`);
  assert.equal(ups.length, 1, `one upload became the job: ${JSON.stringify(ups)}`);
  assert.deepEqual([ups[0].state, ups[0].concat], ['completed', 'final'], 'the final upload, completed');
  if (finalUrl) assert.ok(finalUrl.endsWith(`/api/videos/${ups[0].upload_id}`), `the client's URL is the final upload: ${finalUrl}`);
  assert.deepEqual(stack.rows("SELECT count(*) AS n FROM uploads WHERE concat = 'partial'"), [{ n: 0 }],
                   'no partial upload is left');
  const post = await fetch(`${stack.url}/api/videos?lang=eng&fps=2`, {
    method: 'POST', headers: { 'Idempotency-Key': key }, body: fs.readFileSync(file) });
  assert.equal(post.status, 202, 'a POST of the same bytes, the same key: 202');
  assert.equal(post.headers.get('idempotent-replayed'), 'true', 'a replay');
  const receipt = await post.json();
  assert.equal(receipt.job_id, st.job_id, 'of the parallel upload\'s job');
  const [req] = stack.rows(`SELECT input_digest FROM requests WHERE job_id = '${st.job_id}'`);
  assert.equal(receipt.input_digest, req.input_digest, 'with the same input_digest');
  return { size, st };
}

test('tus-js-client in node, parallelUploads: 4: two parts cut in their middle resume, one job, the digest of one POST',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const text = 'Sent in four parts';
    const file = padVideo(makeVideo(path.join(dir, 'parallel.mp4'), [{ start: 0.2, end: 2.8, text }],
                                    { duration: 3 }), 4 << 20);
    const bytes = fs.readFileSync(file);
    const proxy = await new CuttingProxy(stack.port, { cutParts: { parts: 2, after: 300 * 1024 } }).listen();
    try {
      const { upload: u, last } = await new Promise((resolve, reject) => {
        const up = new tus.Upload(bytes, {
          endpoint: `${proxy.url}/api/videos?lang=eng&fps=2`,
          parallelUploads: 4,
          chunkSize: 512 * 1024,
          retryDelays: [0, 100, 200, 400, 800],
          headers: { 'Idempotency-Key': 'node-parallel' },
          metadata: { filename: 'parallel.mp4' },
          onSuccess: (payload) => resolve({ upload: up, last: payload && payload.lastResponse }),
          onError: reject,
        });
        up.start();
      });
      const { size, st } = await checkParallel(file, text, 'node-parallel', proxy, u.url);
      assert.equal(last && last.getHeader('Video-OCR-Job'), st.job_id, 'the final upload\'s answer named the job');
      const [row] = stack.rows(`SELECT filename FROM uploads WHERE job_id = '${st.job_id}'`);
      assert.equal(row.filename, 'parallel.mp4', 'the metadata of the final upload names the file');
      console.log(`# tus-js-client parallelUploads 4: file ${size} bytes, forwarded ${proxy.forwarded} `
                  + `(${(proxy.forwarded / size).toFixed(3)}x), ${proxy.requests.length} requests, `
                  + `cut: ${proxy.cutRequests.join(', ')}`);
    } finally {
      await proxy.close();
    }
  });

test('Uppy (@uppy/core + @uppy/tus) in Chromium, parallelUploads: 4: two parts cut in their middle resume, one job, the digest of one POST',
  { timeout: JOB_TIMEOUT + 60000 }, async () => {
    const bundle = await esbuild.build({
      stdin: { contents: "import Uppy from '@uppy/core'; import Tus from '@uppy/tus';"
                         + ' window.Uppy = Uppy; window.UppyTus = Tus;', resolveDir: HERE },
      bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent',
    });
    const text = 'Uppy in four parts';
    const file = padVideo(makeVideo(path.join(dir, 'uppy-parallel.mp4'), [{ start: 0.2, end: 2.8, text }],
                                    { duration: 3 }), 4 << 20);
    const proxy = await new CuttingProxy(stack.port, { cutParts: { parts: 2, after: 300 * 1024 } }).listen();
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true,
                                            args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${proxy.url}/`);
      await page.addScriptTag({ content: bundle.outputFiles[0].text });
      const result = await page.evaluate(async ([b64, name]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const uppy = new window.Uppy({ autoProceed: false });
        uppy.use(window.UppyTus, {
          endpoint: '/api/videos?lang=eng&fps=2',
          parallelUploads: 4,
          chunkSize: 512 * 1024,
          retryDelays: [0, 100, 200, 400, 800],
          headers: { 'Idempotency-Key': 'uppy-parallel' },
        });
        uppy.addFile({ name, type: 'video/mp4', data: new Blob([bytes], { type: 'video/mp4' }) });
        const r = await uppy.upload();
        return { ok: r.successful.length, failed: r.failed.map((f) => String(f.error)),
                 url: r.successful[0] && r.successful[0].tus && r.successful[0].tus.uploadUrl };
      }, [fs.readFileSync(file).toString('base64'), 'uppy-parallel.mp4']);
      assert.equal(result.ok, 1, `uploaded: ${JSON.stringify(result)}`);
      const { size, st } = await checkParallel(file, text, 'uppy-parallel', proxy, null);
      const [row] = stack.rows(`SELECT filename FROM uploads WHERE job_id = '${st.job_id}'`);
      assert.equal(row.filename, 'uppy-parallel.mp4', 'Uppy\'s metadata name is kept as the file name');
      console.log(`# Uppy parallelUploads 4: file ${size} bytes, forwarded ${proxy.forwarded} `
                  + `(${(proxy.forwarded / size).toFixed(3)}x), ${proxy.requests.length} requests, `
                  + `cut: ${proxy.cutRequests.join(', ')}`);
    } finally {
      await browser.close();
      await proxy.close();
    }
  });
