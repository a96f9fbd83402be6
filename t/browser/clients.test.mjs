// Real resumable-upload clients from npm against the real nginx with the
// module and the real worker pool (lib/stack.mjs, the demo site of
// "make run"), each through a proxy that cuts its connection twice
// (lib/lossy-proxy.mjs, CuttingProxy): tus-js-client in node with tus
// 1.0 and with its IETF draft option (ietf-draft-05), Uppy (@uppy/core +
// @uppy/tus) in Chromium.  Each must end in exactly one job whose text is
// right, having sent little more than the file (docs/clients.md lists
// the versions).
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
