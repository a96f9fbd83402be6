// The demo page (conf.d/html) in a real browser: Debian's chromium driven
// by playwright-core, against the real nginx with the module serving the
// demo site of "make run" and a real worker pool (lib/stack.mjs).
//
//   scripts/test.sh browser      (make test runs it too)
//
// VIDEO_OCR_SCREENSHOT=path saves the screenshot of the finished page
// there (default build/browser/screenshot.png); VIDEO_OCR_KEEP=1 keeps the
// stack's directory (logs, ledger).

import { test, before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

import { Stack, REPO, holdWriteLock } from './lib/stack.mjs';
import { LossyProxy, CuttingProxy } from './lib/lossy-proxy.mjs';
import { makeVideo, padVideo, sha256File, cer } from './lib/media.mjs';

const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const OUT = path.join(REPO, 'build/browser');
const SCREENSHOT = process.env.VIDEO_OCR_SCREENSHOT
  ? path.resolve(process.env.VIDEO_OCR_SCREENSHOT) : path.join(OUT, 'screenshot.png');
const JOB_TIMEOUT = 90000;

let stack;
let browser;
let dir;

before(async () => {
  fs.mkdirSync(OUT, { recursive: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-ocr-browser-media-'));
  // keepalive_timeout 0: one request per connection, so that Chromium never
  // sends an upload on a reused keep-alive connection.  When such a
  // connection dies before any answer, Chromium silently sends the request
  // again on a new one, which would hide the page's own retry in the
  // lost-response test.  A short busy timeout for the 503 test.
  stack = await new Stack({
    workers: 2,
    httpExtra: 'keepalive_timeout 0;\n    video_ocr_busy_timeout 500ms;',
  }).start();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (stack) await stack.stop();
  if (dir && !process.env.VIDEO_OCR_KEEP) fs.rmSync(dir, { recursive: true, force: true });
});

// A page in a fresh browser context (its own sessionStorage), with the
// page's uncaught errors collected: every test ends with none.  csp: the
// page is served with that Content-Security-Policy (a violation is a
// console error).
async function openPage(url, { csp, ...options } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, ...options });
  if (csp) {
    await context.route(`${url}/`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
    });
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  // (Chromium logs every answer >= 400 and every failed request as a
  // console error "Failed to load resource": the tests provoke those)
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource:/.test(m.text())) page.errors.push(`console: ${m.text()}`);
  });
  await page.goto(`${url}/`);
  return page;
}

async function closePage(page) {
  await page.context().close();
  assert.deepEqual(page.errors, [], 'no errors on the page');
}

async function chooseAndUpload(page, files, { lang = 'eng', fps = '1' } = {}) {
  await page.getByLabel('Videos').setInputFiles(files);
  await page.getByLabel('Language of the text').selectOption(lang);
  await page.getByLabel('Frames read per second').fill(fps);
  await page.getByRole('button', { name: 'Upload and read the text' }).click();
}

function card(page, name) {
  return page.locator('#items > li').filter({ has: page.locator('h3', { hasText: name }) });
}

async function segmentsOf(item) {
  return item.locator('.timeline button.segment').evaluateAll((bs) => bs.map((b) => ({
    time: b.querySelector('time').textContent,
    text: b.querySelector('.text').textContent,
  })));
}

function jobsOf(file) {
  return stack.rows(`SELECT job_id, state FROM jobs WHERE input_sha256 = '${sha256File(file)}'`);
}

// The access log lines (conf.d/video-ocr-log.conf's format) of uploads.
function uploads() {
  return stack.accessLog().split('\n').filter((l) => l.includes('"POST /api/videos')).map((l) => ({
    status: Number(l.match(/" (\d{3}) /)[1]),
    key: l.match(/key=(\S*)/)[1],
    job: l.match(/job=(\S*)/)[1],
    admission: l.match(/admission=(\S*)/)[1],
  }));
}

const SPANS = [
  { start: 0.2, end: 1.8, text: 'Hello from the browser' },
  { start: 2.2, end: 3.8, text: 'Retries are safe here' },
];

test('the language choice offers what the worker pool has installed (its store/languages.json), English first, then auto',
  async () => {
    const names = execFileSync(stack.workerBin, ['languages'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    assert.ok(names.length >= 2, `installed: ${names}`);
    const others = names.filter((l) => l !== 'eng');
    const want = ['eng', 'auto', ...others, ...others.map((l) => `eng+${l}`)];
    const page = await openPage(stack.url);
    await page.waitForFunction(() => document.querySelector('#lang').dataset.installed !== undefined);
    const got = await page.$$eval('#lang option', (os) => os.map((o) => o.value));
    assert.deepEqual(got, want, 'one option per installed language, auto, then English with each');
    assert.equal(await page.locator('#lang').inputValue(), 'eng', 'English is chosen');
    assert.match(await page.locator('#lang option[value="chi_sim"]').textContent(), /Chinese/);
    assert.match(await page.locator('#lang option[value="auto"]').textContent(), /Detected on each screen/);
    await closePage(page);
  });

test('a video with known text: its text appears as a timeline, a line seeks the preview, downloads, screenshot',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const file = makeVideo(path.join(dir, 'hello.mp4'), SPANS, { duration: 4 });
    const page = await openPage(stack.url);
    await chooseAndUpload(page, file, { fps: '2' });

    const item = card(page, 'hello.mp4');
    await item.locator('.timeline button.segment').first().waitFor({ timeout: JOB_TIMEOUT });

    assert.match(await item.locator('.status').textContent(), /^Done: 2 lines of text\.$/);
    const segs = await segmentsOf(item);
    assert.equal(segs.length, 2, `two lines: ${JSON.stringify(segs)}`);
    SPANS.forEach((s, i) => {
      assert.ok(cer(segs[i].text, s.text) <= 0.1, `line ${i} reads "${s.text}": "${segs[i].text}"`);
    });
    assert.match(segs[0].time, /^00:00\.\d–00:0\d\.\d$/);
    // 4 s at 2 frames/s: 8 frames planned, all done
    assert.equal(await item.locator('.job-text').textContent(), '8 / 8 frames');
    assert.equal(await item.locator('.replayed').isVisible(), false, 'a first upload is no replay');

    // the job on the page is the one job in the ledger for these bytes
    const jobs = jobsOf(file);
    assert.equal(jobs.length, 1);
    assert.equal(await item.locator('.job-id').textContent(), jobs[0].job_id);
    assert.equal(jobs[0].state, 'done');

    // choosing a line seeks the local preview to where the job says the
    // line starts, and marks it
    const status = await (await page.request.get(`${stack.url}/api/jobs/${jobs[0].job_id}`)).json();
    const start = status.result.segments[1].start;
    assert.ok(Math.abs(start - SPANS[1].start) <= 0.5, `line 1 starts within a sampling interval: ${start}`);
    const video = item.locator('video.preview');
    await item.locator('.timeline button.segment').nth(1).click();
    await page.waitForFunction(([v, t]) => !v.seeking && Math.abs(v.currentTime - t) < 0.05,
                               [await video.elementHandle(), start], { timeout: 10000 });
    assert.equal(await item.locator('.timeline button.segment').nth(1).getAttribute('aria-current'), 'true');
    // the subtitles track comes from the job's WebVTT
    assert.match(await video.locator('track').getAttribute('src'), /\?format=vtt$/);

    // downloads: WebVTT by a click on the link, the others by their links
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      item.getByRole('link', { name: 'WebVTT' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), 'hello.vtt');
    const vtt = fs.readFileSync(await download.path(), 'utf8');
    assert.match(vtt, /^WEBVTT\n/);
    assert.match(vtt, /00:00:0\d\.\d{3} --> 00:00:0\d\.\d{3}(?: [^\n]+)?\n.*browser/i);
    for (const [name, type, body] of [['SRT', /x-subrip/, /^1\n00:00:0\d,\d{3} --> /],
                                      ['ASS', /x-ssa/, /^\[Script Info\]\n/],
                                      ['Text', /text\/plain/, /safe/i],
                                      ['JSON', /json/, /"state":"done"/]]) {
      const href = await item.getByRole('link', { name }).getAttribute('href');
      const r = await page.request.get(`${stack.url}${href}`);
      assert.equal(r.status(), 200, `${name}: 200`);
      assert.match(r.headers()['content-type'], type, `${name}: content type`);
      assert.match(await r.text(), body, `${name}: content`);
    }

    // a reload keeps the key: the receipt is shown again, and the same
    // file with the same options is the same intent, answered by a replay
    const key = await item.locator('.key').textContent();
    await page.reload();
    const again = card(page, 'hello.mp4');
    await again.locator('.timeline button.segment').first().waitFor({ timeout: 10000 });
    assert.equal(await again.locator('.job-id').textContent(), jobs[0].job_id, 'restored after the reload');
    await chooseAndUpload(page, file, { fps: '2' });
    await again.locator('.replayed').waitFor({ timeout: 20000 });
    assert.equal(await again.locator('.key').textContent(), key, 'the same key after the reload');
    assert.equal(await again.locator('.job-id').textContent(), jobs[0].job_id, 'the same job');
    assert.equal(jobsOf(file).length, 1, 'still one job');
    const mine = uploads().filter((u) => u.job === jobs[0].job_id);
    assert.deepEqual(mine.map((u) => u.admission), ['created', 'replayed']);
    await again.locator('.timeline button.segment').first().waitFor({ timeout: 10000 });

    // the finished page, for the README: the replayed receipt, the
    // attempts, the timeline
    await again.locator('.log summary').click();
    await again.locator('.timeline button.segment').first().click();
    await page.waitForFunction((v) => !v.seeking && v.readyState >= 2 && v.currentTime > 0,
                               await again.locator('video.preview').elementHandle(), { timeout: 10000 });
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    await page.waitForTimeout(500);   // the seeked frame painted
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    assert.ok(fs.statSync(SCREENSHOT).size > 10000, `screenshot saved in ${SCREENSHOT}`);
    await closePage(page);
  });

// Issue 41: the search box.  A video uploaded through the page is found
// by a phrase in another case and by a word with a letter off; a hit opens
// the card at that moment (the preview seeks there, the segment is marked
// in the timeline); in another session, where the page has no card for
// the job, a hit makes one from the job's status, the segment marked.
const FOUND = [
  { start: 0.2, end: 1.8, text: 'Quarterly pricing update' },
  { start: 2.2, end: 3.8, text: 'The new price is final' },
];

test('search: a phrase and a typo find the moment, a hit opens the video there with the segment marked',
  { timeout: JOB_TIMEOUT + 60000 }, async () => {
    const file = makeVideo(path.join(dir, 'prices.mp4'), FOUND, { duration: 4 });
    const page = await openPage(stack.url);
    await chooseAndUpload(page, file, { fps: '2' });
    const item = card(page, 'prices.mp4');
    await item.locator('.timeline button.segment').nth(1).waitFor({ timeout: JOB_TIMEOUT });
    const job = await item.locator('.job-id').textContent();
    const status = await (await page.request.get(`${stack.url}/api/jobs/${job}`)).json();
    const segs = status.result.segments;
    assert.equal(segs.length, 2, `two lines: ${JSON.stringify(segs)}`);

    // a phrase, in another case: the second line, its words marked
    const box = page.getByRole('searchbox', { name: 'Text to find' });
    await box.fill('NEW PRICE');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('#hits button.open-hit').first();
    await hit.waitFor({ timeout: 10000 });
    assert.match(await page.locator('#search-status').textContent(), /^1 moment found for “NEW PRICE”, best first\.$/);
    assert.equal(await hit.getAttribute('data-job'), job, 'the hit is the job\'s');
    assert.equal(await hit.getAttribute('data-segment'), '1', 'its second line');
    assert.equal(await hit.locator('.video').textContent(), 'prices.mp4', 'named by its file');
    assert.equal(await hit.locator('time').textContent(),
                 await item.locator('.timeline button.segment').nth(1).locator('time').textContent(),
                 'at the line\'s times');
    assert.deepEqual(await hit.locator('mark').allTextContents(), ['new price'], 'the words found, marked');

    // the hit opens the video at that moment, the segment marked
    await page.evaluate(() => { document.querySelector('video.preview').currentTime = 0; });
    await hit.click();
    await page.waitForFunction(([v, t]) => !v.seeking && Math.abs(v.currentTime - t) < 0.05,
                               [await item.locator('video.preview').elementHandle(), segs[1].start],
                               { timeout: 10000 });
    const line = item.locator('.timeline button.segment').nth(1);
    assert.equal(await line.getAttribute('aria-current'), 'true', 'the line is the current one');
    assert.match(await line.getAttribute('class'), /\bfound\b/, 'and marked as found');

    // a letter off: the first line, as a close match
    await box.fill('quartrely');
    await box.press('Enter');
    await page.waitForFunction(() => /quartrely/.test(document.querySelector('#search-status').textContent));
    const typo = page.locator('#hits button.open-hit').first();
    assert.equal(await typo.getAttribute('data-segment'), '0');
    assert.match(await typo.locator('.match').textContent(), /close match/);
    assert.deepEqual(await typo.locator('mark').allTextContents(), ['Quarterly']);

    // nothing, and a query the server refuses: said plainly
    await box.fill('zebra crossing');
    await box.press('Enter');
    await page.waitForFunction(() => /^Nothing found for “zebra crossing”\.$/.test(document.querySelector('#search-status').textContent));
    assert.equal(await page.locator('#hits li').count(), 0);
    await box.fill('"*:');
    await box.press('Enter');
    await page.waitForFunction(() => /did not run this search: q has no letter or digit/.test(document.querySelector('#search-status').textContent));
    await closePage(page);

    // another session: no card for the job, the hit makes one
    const other = await openPage(stack.url);
    await other.getByRole('searchbox', { name: 'Text to find' }).fill('pricing update');
    await other.getByRole('button', { name: 'Search', exact: true }).click();
    await other.locator('#hits button.open-hit').first().click();
    const made = other.locator('#items > li').first();
    await made.locator('.timeline button.segment.found').waitFor({ timeout: 20000 });
    assert.equal(await made.locator('.job-id').textContent(), job, 'the job\'s card');
    assert.equal(await made.locator('.timeline button.segment.found').getAttribute('data-index'), '0');
    assert.equal(await made.locator('.timeline button.segment').nth(0).getAttribute('aria-current'), 'true');
    assert.equal(await made.locator('.no-preview').isVisible(), true, 'the preview asks for the file');
    await closePage(other);
  });

// The preview's subtitles: the job's WebVTT as a <track>, showing from the
// start.  VP9 in WebM, which every Chromium build plays (Debian's may lack
// H.264).  The text changes at known times, with nothing on screen in
// between and at the end: the active cue is read at each of those times.
const TIMED = [
  { start: 0.5, end: 1.9, text: 'Timing starts here' },
  { start: 3.0, end: 4.4, text: 'Then this line' },
];

// Seeks the paused preview to t and returns the texts of its first
// track's active cues once the seek is done (the cues are updated before
// "seeked" is fired; the timeout lets a late update show too).
function cuesAt(video, t) {
  return video.evaluate((v, at) => new Promise((resolve) => {
    v.addEventListener('seeked', () => setTimeout(() => {
      resolve(Array.from(v.textTracks[0].activeCues || [], (c) => c.text));
    }, 100), { once: true });
    v.currentTime = at;
  }), t);
}

// What a cue's settings in a WebVTT timing line make of a VTTCue, and the
// cue's defaults for the settings the line does not have.
function cueSettings(timing) {
  const set = Object.fromEntries(timing.trim().split(/\s+/).slice(3).map((kv) => kv.split(':')));
  const pct = (v) => parseFloat(v.split(',')[0]);
  return {
    line: set.line === undefined ? 'auto' : pct(set.line),
    snapToLines: set.line === undefined || !set.line.split(',')[0].endsWith('%'),
    position: set.position === undefined ? 'auto' : pct(set.position),
    size: set.size === undefined ? 100 : pct(set.size),
    align: set.align || 'center',
  };
}

// The strictest policy docs/upload-page.md says the page works under.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
  + "media-src 'self' blob:; img-src 'self'";

test('the preview plays the job\'s WebVTT as a track, showing: the active cue is the text on screen, none between',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const file = makeVideo(path.join(dir, 'timed.webm'), TIMED, { duration: 5.5, codec: 'libvpx-vp9' });
    // under a Content-Security-Policy that allows the page's own origin
    // and the preview's blob: only
    const page = await openPage(stack.url, { csp: CSP });
    assert.equal((await page.request.get(`${stack.url}/`)).headers()['content-security-policy'], undefined,
                 'conf.d sets no policy of its own');
    await chooseAndUpload(page, file, { fps: '2' });
    const item = card(page, 'timed.webm').first();
    await page.waitForFunction((el) => ['showing', 'error', 'none'].includes(el.dataset.track),
                               await item.elementHandle(), { timeout: JOB_TIMEOUT });
    assert.equal(await item.getAttribute('data-track'), 'showing', 'the WebVTT loaded');
    assert.equal(await item.getAttribute('data-state'), 'done');
    assert.match(await item.locator('.track-note').textContent(), /^Subtitles: the text read, at the times/);
    assert.equal(await item.locator('.track-note').isVisible(), true);

    const job = await item.locator('.job-id').textContent();
    const status = await (await page.request.get(`${stack.url}/api/jobs/${job}`)).json();
    const segs = status.result.segments;
    assert.equal(segs.length, 2, `two lines: ${JSON.stringify(segs)}`);
    TIMED.forEach((s, i) => assert.ok(cer(segs[i].text, s.text) <= 0.1, `line ${i} reads "${s.text}": "${segs[i].text}"`));

    // one track, the job's WebVTT from the status URL the page polls,
    // loaded and showing
    const video = item.locator('video.preview');
    const track = await video.evaluate((v) => ({
      n: v.textTracks.length, elements: v.querySelectorAll('track').length,
      src: v.querySelector('track').getAttribute('src'), ready: v.querySelector('track').readyState,
      isDefault: v.querySelector('track').default, kind: v.textTracks[0].kind,
      srclang: v.textTracks[0].language, mode: v.textTracks[0].mode,
    }));
    assert.deepEqual(track, { n: 1, elements: 1, src: `${status.status_url || `/api/jobs/${job}`}?format=vtt`, ready: 2,
                              isDefault: true, kind: 'subtitles', srclang: 'en', mode: 'showing' });

    // the cues are the job's WebVTT as Chromium parsed it: the segments'
    // texts and times, and the position settings of its timing lines when
    // it has them (the cue defaults when not)
    const vtt = await (await page.request.get(`${stack.url}${track.src}`)).text();
    const timings = vtt.split('\n').filter((l) => l.includes(' --> '));
    const cues = await video.evaluate((v) => Array.from(v.textTracks[0].cues, (c) => ({
      start: c.startTime, end: c.endTime, text: c.text,
      settings: { line: c.line, snapToLines: c.snapToLines, position: c.position, size: c.size, align: c.align },
    })));
    assert.equal(cues.length, segs.length, 'a cue per line');
    cues.forEach((c, i) => {
      assert.equal(c.text, segs[i].text);
      assert.ok(Math.abs(c.start - segs[i].start) < 0.002 && Math.abs(c.end - segs[i].end) < 0.002,
                `cue ${i} at ${c.start}-${c.end}, the line at ${segs[i].start}-${segs[i].end}`);
      assert.deepEqual(c.settings, cueSettings(timings[i]), `cue ${i}: "${timings[i]}"`);
    });

    // seek the preview: the active cue is the text on screen at that time,
    // and no cue where there is none (between the lines, after the last)
    for (const [t, want] of [[1.2, segs[0].text], [2.45, null], [3.7, segs[1].text], [5.0, null]]) {
      assert.deepEqual(await cuesAt(video, t), want === null ? [] : [want], `active cues at ${t} s`);
    }
    assert.equal(await video.evaluate((v) => v.textTracks[0].mode), 'showing', 'still showing');

    // the same video read with a crop outside its picture: that job is
    // rejected, its card's preview has no track and says why; the first
    // card keeps its own
    await page.getByText('Only part of the picture').click();
    await page.getByLabel(/^Crop/).fill('700,0,10,10');
    await chooseAndUpload(page, file, { fps: '2' });
    const failed = card(page, 'timed.webm').nth(1);
    await page.waitForFunction((el) => el.dataset.state === 'failed', await failed.elementHandle(), { timeout: JOB_TIMEOUT });
    assert.match(await failed.getByRole('alert').textContent(), /crop_outside/);
    assert.equal(await failed.getAttribute('data-track'), 'none');
    assert.equal(await failed.locator('.track-note').textContent(), 'No subtitles: the text of this video could not be read.');
    assert.equal(await failed.locator('.track-note').isVisible(), true);
    const none = failed.locator('video.preview');
    assert.equal(await none.isVisible(), true, 'the preview still plays');
    assert.deepEqual(await none.evaluate((v) => [v.querySelectorAll('track').length, v.textTracks.length]), [0, 0]);
    assert.deepEqual(await video.evaluate((v) => [v.textTracks.length, v.textTracks[0].mode]), [1, 'showing']);
    await closePage(page);
  });

// What the page's own browser makes: a canvas with text recorded by
// Chromium's MediaRecorder (VP8 + Opus in a live WebM: no Duration, no
// Cues), so the worker measures the duration from the packets.
const RECORDED = [
  { from: 0, to: 2.5, text: 'Recorded in Chromium' },
  { from: 2.5, to: 4.5, text: 'Live WebM has no duration' },
];

test('a canvas recorded with MediaRecorder: uploaded through the page, its text read to the end',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const page = await openPage(stack.url);
    const recorded = await page.evaluate(async (lines) => {
      const canvas = document.createElement('canvas');
      canvas.width = 640;
      canvas.height = 360;
      const g = canvas.getContext('2d');
      const total = lines[lines.length - 1].to;
      let t0 = null;
      const draw = () => {
        const t = t0 === null ? 0 : (performance.now() - t0) / 1000;
        g.fillStyle = '#203050';
        g.fillRect(0, 0, canvas.width, canvas.height);
        // something that moves, as a screen or camera recording has
        g.fillStyle = '#3a5a80';
        g.fillRect((t * 120) % canvas.width, 40, 80, 80);
        const line = lines.find((l) => t >= l.from && t < l.to) || lines[lines.length - 1];
        g.font = 'bold 34px "DejaVu Sans", sans-serif';
        g.textAlign = 'center';
        g.lineWidth = 4;
        g.strokeStyle = 'black';
        g.strokeText(line.text, canvas.width / 2, 300);
        g.fillStyle = 'white';
        g.fillText(line.text, canvas.width / 2, 300);
      };
      draw();
      const stream = canvas.captureStream(25);
      // Opus beside the video, as a camera recording has
      const audio = new AudioContext();
      await audio.resume();
      const tone = audio.createOscillator();
      const dest = audio.createMediaStreamDestination();
      tone.connect(dest);
      tone.start();
      for (const track of dest.stream.getAudioTracks()) stream.addTrack(track);

      const type = 'video/webm;codecs=vp8,opus';
      if (!MediaRecorder.isTypeSupported(type)) throw new Error(`${type} not supported`);
      const rec = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 1000000 });
      const chunks = [];
      rec.ondataavailable = (e) => { if (e.data.size) chunks.push(e.data); };
      const stopped = new Promise((resolve) => { rec.onstop = resolve; });
      const timer = setInterval(draw, 20);
      t0 = performance.now();
      rec.start(500);     // timeslices: a live stream, written as it goes
      await new Promise((resolve) => setTimeout(resolve, total * 1000));
      rec.stop();
      await stopped;
      clearInterval(timer);
      tone.stop();
      await audio.close();
      const bytes = new Uint8Array(await new Blob(chunks, { type }).arrayBuffer());
      let bin = '';
      for (let i = 0; i < bytes.length; i += 0x8000) {
        bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      }
      return { type: rec.mimeType, base64: btoa(bin) };
    }, RECORDED);

    const file = path.join(dir, 'recorded.webm');
    fs.writeFileSync(file, Buffer.from(recorded.base64, 'base64'));
    assert.match(recorded.type, /^video\/webm/, `recorded as ${recorded.type}`);

    // what MediaRecorder wrote: VP8 and Opus, and no duration anywhere
    const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-of', 'json',
      '-show_format', '-show_streams', file], { encoding: 'utf8' }));
    assert.deepEqual(probe.streams.map((st) => st.codec_name).sort(), ['opus', 'vp8']);
    assert.equal(probe.format.duration, undefined, 'the recording declares no duration');

    await chooseAndUpload(page, file, { fps: '2' });
    const item = card(page, 'recorded.webm');
    await item.locator('.timeline button.segment').first().waitFor({ timeout: JOB_TIMEOUT });
    await page.waitForFunction((el) => /^Done/.test(el.textContent),
                               await item.locator('.status').elementHandle(), { timeout: JOB_TIMEOUT });

    const jobs = jobsOf(file);
    assert.equal(jobs.length, 1, 'one job');
    assert.equal(jobs[0].state, 'done');
    const status = await (await page.request.get(`${stack.url}/api/jobs/${jobs[0].job_id}`)).json();
    assert.equal(status.media.container, 'webm');
    assert.equal(status.media.codec, 'vp8');
    assert.equal(status.media.duration_from, 'packets', 'the duration measured from the packets');
    assert.ok(Math.abs(status.media.duration_ms - 4500) <= 600,
              `about 4.5 s measured: ${status.media.duration_ms} ms`);

    const segs = status.result.segments;
    assert.equal(segs.length, 2, `two lines: ${JSON.stringify(segs)}`);
    RECORDED.forEach((l, i) => {
      assert.ok(cer(segs[i].text, l.text) <= 0.1, `line ${i} reads "${l.text}": "${segs[i].text}"`);
    });
    // the page shows what the job read
    const shown = await segmentsOf(item);
    assert.deepEqual(shown.map((x) => x.text), segs.map((x) => x.text));
    await closePage(page);
  });

test('through the front door (conf.d/sites/front-door.conf): the application serves the page, nginx takes the upload',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    // the application behind the front door: here it serves the page
    const seen = [];
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
    const app = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const file = path.join(REPO, 'conf.d/html', req.url === '/' ? 'index.html' : path.basename(req.url));
      if (req.method !== 'GET' || !types[path.extname(file)] || !fs.existsSync(file)) {
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        res.end('not here\n');
        return;
      }
      res.writeHead(200, { 'Content-Type': types[path.extname(file)] });
      fs.createReadStream(file).pipe(res);
    });
    await new Promise((resolve) => app.listen(0, '127.0.0.1', resolve));
    const front = await new Stack({ frontDoor: app.address().port, httpExtra: 'keepalive_timeout 0;' }).start();
    try {
      const file = makeVideo(path.join(dir, 'front.mp4'), [
        { start: 0.2, end: 1.8, text: 'Through the front door' },
      ], { duration: 2 });
      const page = await openPage(front.url);
      await chooseAndUpload(page, file);
      const item = card(page, 'front.mp4');
      await item.locator('.timeline button.segment').first().waitFor({ timeout: JOB_TIMEOUT });
      const segs = await segmentsOf(item);
      assert.ok(cer(segs[0].text, 'Through the front door') <= 0.1, `reads "${segs[0].text}"`);

      // the page came from the application, through nginx ...
      for (const r of ['GET /', 'GET /app.js', 'GET /app.css']) assert.ok(seen.includes(r), `the application served ${r}`);
      // ... the upload and the polls never reached it: nginx answered them
      assert.deepEqual(seen.filter((r) => r.includes('/api/')), []);
      const posts = front.accessLog().split('\n').filter((l) => l.includes('"POST /api/videos'));
      assert.equal(posts.length, 1);
      assert.match(posts[0], /" 202 .*admission=created$/);
      assert.equal(front.rows('SELECT count(*) AS n FROM jobs')[0].n, 1);
      await closePage(page);
    } finally {
      await front.stop();
      await new Promise((resolve) => app.close(resolve));
    }
  });

test('lost response: the page retries by itself with the same key, one job, the replayed receipt is shown',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const file = makeVideo(path.join(dir, 'lost.mp4'), [
      { start: 0.2, end: 2.8, text: 'The answer was lost' },
    ], { duration: 3 });
    const proxy = await new LossyProxy(stack.port, { drops: 1 }).listen();
    try {
      const page = await openPage(proxy.url);
      await chooseAndUpload(page, file);
      const item = card(page, 'lost.mp4');
      await item.locator('.replayed').waitFor({ timeout: 30000 });

      // the proxy did lose the answer to the first upload: a 202 receipt
      assert.equal(proxy.dropped.length, 1, 'one answer lost');
      assert.match(proxy.dropped[0], /^HTTP\/1\.1 202 /);
      assert.equal(proxy.requests.filter((r) => r.startsWith('POST /api/videos')).length, 2,
                   'the upload was sent twice');

      // the page saw the connection die after the upload, then a replay
      const attempts = await item.locator('.attempts li').allTextContents();
      assert.match(attempts[0], /^Attempt 1: connection lost after the file was sent\.$/);
      assert.match(attempts[attempts.length - 1],
                   /^Attempt \d: the server replayed the receipt it had stored \(202\), job [0-9a-f]{32}\.$/);
      assert.match(await item.locator('.replayed').textContent(), /Idempotent-Replayed: true/);

      // exactly one job, one receipt; nginx admitted once and replayed once
      // for the same key
      const jobs = jobsOf(file);
      assert.equal(jobs.length, 1, 'one job in the ledger');
      assert.equal(await item.locator('.job-id').textContent(), jobs[0].job_id);
      const key = await item.locator('.key').textContent();
      assert.equal(stack.rows(`SELECT count(*) AS n FROM requests WHERE request_key = '${key}'`)[0].n, 1);
      const mine = uploads().filter((u) => u.job === jobs[0].job_id);
      assert.deepEqual(mine.map((u) => [u.status, u.admission]), [[202, 'created'], [202, 'replayed']]);
      assert.equal(new Set(mine.map((u) => u.key)).size, 1, 'both with the same key');

      // and the job goes on to its text
      await item.locator('.timeline button.segment').first().waitFor({ timeout: JOB_TIMEOUT });
      const segs = await segmentsOf(item);
      assert.ok(cer(segs[0].text, 'The answer was lost') <= 0.1, `reads "${segs[0].text}"`);
      await closePage(page);
    } finally {
      await proxy.close();
    }
  });

test('a file that is not a video: the 415 message, no retry, nothing stored', { timeout: 30000 }, async () => {
  const file = path.join(dir, 'notes.txt');
  fs.writeFileSync(file, 'These are meeting notes, not a video.\n'.repeat(20));
  const before = stack.rows('SELECT count(*) AS n FROM jobs')[0].n;
  const posts = uploads().length;

  const page = await openPage(stack.url);
  await chooseAndUpload(page, file);
  const item = card(page, 'notes.txt');
  const alert = item.getByRole('alert');
  await alert.waitFor({ timeout: 10000 });
  assert.equal(await alert.locator('strong').textContent(), '“notes.txt” is not a video this server accepts.');
  assert.match(await alert.textContent(), /not a known video container .*Nothing was stored\./);
  assert.equal(await item.locator('.status').textContent(), 'Refused (415).');
  assert.equal(await item.getAttribute('data-state'), 'refused');

  await page.waitForTimeout(1500);   // longer than the first retry would wait
  assert.deepEqual(await item.locator('.attempts li').allTextContents(), ['Attempt 1: 415 not-a-video.']);
  const mine = uploads().slice(posts);
  assert.deepEqual(mine.map((u) => [u.status, u.admission]), [[415, 'rejected']]);
  assert.equal(stack.rows('SELECT count(*) AS n FROM jobs')[0].n, before, 'no job');
  await closePage(page);
});

test('a file over the upload limit: the 413 message, no retry, nothing stored', { timeout: 30000 }, async () => {
  // a stack of its own, with the limit of the upload location lowered
  // from 2g to 1m
  const small = await new Stack({ maxBodySize: '1m', httpExtra: 'keepalive_timeout 0;' }).start();
  try {
    const file = makeVideo(path.join(dir, 'long.mp4'), [{ start: 0, end: 1, text: 'Too long' }], { duration: 1 });
    fs.appendFileSync(file, Buffer.alloc(2 << 20));   // an mp4 of 2 MB and more
    const page = await openPage(small.url);
    await chooseAndUpload(page, file);
    const item = card(page, 'long.mp4');
    const alert = item.getByRole('alert');
    await alert.waitFor({ timeout: 10000 });
    assert.match(await alert.locator('strong').textContent(), /^“long\.mp4” \(2\.\d MB\) is larger than this server accepts\.$/);
    assert.match(await alert.textContent(), /Nothing was stored\./);
    assert.equal(await item.locator('.status').textContent(), 'Refused (413).');
    await page.waitForTimeout(1500);   // longer than the first retry would wait
    assert.deepEqual(await item.locator('.attempts li').allTextContents(), ['Attempt 1: 413 too-large.']);
    const posts = small.accessLog().split('\n').filter((l) => l.includes('"POST /api/videos'));
    assert.equal(posts.length, 1);
    assert.match(posts[0], /" 413 .*admission=rejected$/);
    assert.equal(small.rows('SELECT count(*) AS n FROM jobs')[0].n, 0, 'no job');
    await closePage(page);
  } finally {
    await small.stop();
  }
});

test('503 busy: the page says so and retries with the same key until it is admitted',
  { timeout: 60000 }, async () => {
    const file = makeVideo(path.join(dir, 'busy.mp4'), [
      { start: 0.2, end: 1.8, text: 'Busy but fine' },
    ], { duration: 2 });
    const posts = uploads().length;
    const lock = await holdWriteLock(stack.ledger);
    let released = false;
    try {
      const page = await openPage(stack.url);
      await chooseAndUpload(page, file);
      const item = card(page, 'busy.mp4');
      const status = item.locator('.status');
      await page.waitForFunction((el) => /busy/.test(el.textContent), await status.elementHandle(), { timeout: 15000 });
      assert.match(await status.textContent(),
                   /^The server is busy right now; nothing was stored\. Retrying with the same key in \d+ s \(attempt 2 of 8\)\.$/);
      assert.equal(await item.getByRole('button', { name: /^Retry now/ }).isVisible(), true);
      assert.equal(jobsOf(file).length, 0, 'nothing admitted while the ledger is locked');

      await lock.release();
      released = true;
      await item.locator('.receipt').waitFor({ timeout: 20000 });
      assert.equal(await item.locator('.replayed').isVisible(), false, 'admitted, not replayed');
      const attempts = await item.locator('.attempts li').allTextContents();
      assert.match(attempts[0], /^Attempt 1: 503 busy\.$/);
      assert.match(attempts[attempts.length - 1], /^Attempt \d: accepted \(202\), job [0-9a-f]{32}\.$/);

      const mine = uploads().slice(posts);
      assert.ok(mine.length >= 2);
      assert.deepEqual(mine.slice(0, -1).map((u) => u.status), mine.slice(0, -1).map(() => 503));
      assert.equal(mine[mine.length - 1].admission, 'created');
      assert.equal(new Set(mine.map((u) => u.key)).size, 1, 'every try with the same key');
      assert.equal(jobsOf(file).length, 1, 'one job');
      await closePage(page);
    } finally {
      if (!released) await lock.release();
    }
  });

test('422: a file changed in place keeps its key; the page explains and sends it as a new job',
  { timeout: 60000 }, async () => {
    const file = makeVideo(path.join(dir, 'edited.mp4'), [
      { start: 0.2, end: 1.8, text: 'First cut' },
    ], { duration: 2 });
    const mtime = Math.floor(Date.now() / 1000) - 60;
    fs.utimesSync(file, mtime, mtime);
    const page = await openPage(stack.url);
    await chooseAndUpload(page, file);
    const item = card(page, 'edited.mp4');
    await item.locator('.receipt').waitFor({ timeout: 20000 });
    const firstJob = await item.locator('.job-id').textContent();
    const key = await item.locator('.key').textContent();
    // the first job's text is the preview's track
    const video = item.locator('video.preview');
    const trackOf = () => video.evaluate((v) => ({
      src: Array.from(v.querySelectorAll('track'), (t) => t.getAttribute('src')),
      modes: Array.from(v.textTracks, (t) => t.mode),
    }));
    await page.waitForFunction((el) => el.dataset.track === 'showing', await item.elementHandle(), { timeout: JOB_TIMEOUT });
    assert.deepEqual(await trackOf(), { src: [`/api/jobs/${firstJob}?format=vtt`], modes: ['showing'] });

    // same name, size and modification time, other bytes
    const bytes = fs.readFileSync(file);
    const mdat = bytes.indexOf('mdat');
    assert.ok(mdat > 0);
    bytes[mdat + 200] ^= 0xff;
    fs.writeFileSync(file, bytes);
    fs.utimesSync(file, mtime, mtime);

    await chooseAndUpload(page, file);
    const alert = item.getByRole('alert');
    await alert.waitFor({ timeout: 20000 });
    assert.equal(await alert.locator('strong').textContent(),
                 'This upload’s key was already used for a different file or different options.');
    assert.match(await alert.textContent(), new RegExp(`the key belongs to job ${firstJob}`));
    assert.equal(await item.locator('.status').textContent(), 'Refused (422).');

    await item.getByRole('button', { name: 'Send as a new job' }).click();
    await page.waitForFunction(([el, j]) => el.textContent !== j,
                               [await item.locator('.job-id').elementHandle(), firstJob], { timeout: 20000 });
    const secondJob = await item.locator('.job-id').textContent();
    assert.notEqual(await item.locator('.key').textContent(), key, 'a new key');
    assert.equal(await item.locator('.replayed').isVisible(), false);
    assert.deepEqual(jobsOf(file).map((j) => j.job_id), [secondJob], 'the edited bytes: one new job');
    assert.equal(stack.rows(`SELECT count(*) AS n FROM jobs WHERE job_id = '${firstJob}'`)[0].n, 1);

    // the new job's text replaces the first one's as the preview's track
    await page.waitForFunction((el) => el.dataset.track === 'showing' && el.dataset.state === 'done',
                               await item.elementHandle(), { timeout: JOB_TIMEOUT });
    assert.deepEqual(await trackOf(), { src: [`/api/jobs/${secondJob}?format=vtt`], modes: ['showing'] });
    const second = await (await page.request.get(`${stack.url}/api/jobs/${secondJob}`)).json();
    assert.ok(cer(second.result.segments[0].text, 'First cut') <= 0.1, `reads "${second.result.segments[0].text}"`);
    assert.deepEqual(await cuesAt(video, 1.0), [second.result.segments[0].text]);
    await closePage(page);
  });

test('phone-sized screen with the keyboard only: no sideways scrolling, upload, then seek from the timeline',
  { timeout: JOB_TIMEOUT + 30000 }, async () => {
    const file = makeVideo(path.join(dir, 'phone.mp4'), [
      { start: 0.2, end: 1.4, text: 'Small screens too' },
      { start: 1.8, end: 2.8, text: 'Keyboard works' },
    ], { duration: 3 });
    const page = await openPage(stack.url, { viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const noSideways = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(await noSideways(), 'the empty page fits');

    // Tab from the top reaches every control of the form, in order
    const order = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.tagName.toLowerCase()));
    }
    const want = ['files', 'lang', 'fps', 'summary', 'submit'];
    assert.deepEqual(order.filter((x) => want.includes(x)), want, `tab order: ${order}`);

    await page.locator('#files').setInputFiles(file);   // the file chooser itself is the system's
    await page.locator('#fps').focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2');
    await page.locator('#submit').focus();
    await page.keyboard.press('Enter');

    const item = card(page, 'phone.mp4');
    const first = item.locator('.timeline button.segment').first();
    await first.waitFor({ timeout: JOB_TIMEOUT });
    assert.ok(await noSideways(), 'the finished page fits');

    const job = await item.locator('.job-id').textContent();
    const status = await (await page.request.get(`${stack.url}/api/jobs/${job}`)).json();
    const second = item.locator('.timeline button.segment').nth(1);
    await second.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(([v, t]) => !v.seeking && Math.abs(v.currentTime - t) < 0.05,
                               [await item.locator('video.preview').elementHandle(), status.result.segments[1].start],
                               { timeout: 10000 });
    assert.equal(await second.getAttribute('aria-current'), 'true');
    await page.screenshot({ path: path.join(OUT, 'phone.png'), fullPage: true });
    await closePage(page);
  });

test('an 80 MB upload cut at 30 % and 70 %: the page resumes (IETF draft), the bar goes on, one job, at most 1.3x the file sent',
  { timeout: JOB_TIMEOUT + 120000 }, async () => {
    const text = 'Resumed twice';
    const file = padVideo(makeVideo(path.join(dir, 'big.mp4'), [{ start: 0.2, end: 2.8, text }], { duration: 3 }),
                          80 * 1000 * 1000);
    const size = fs.statSync(file).size;
    const proxy = await new CuttingProxy(stack.port, { cutAt: [Math.floor(size * 0.3), Math.floor(size * 0.7)] }).listen();
    try {
      const page = await openPage(proxy.url);
      // the upload bar's values as the page shows them
      await page.evaluate(() => {
        window.seen = [];
        setInterval(() => {
          const p = document.querySelector('#items .upload-progress');
          if (p && !p.closest('[hidden]')) window.seen.push(p.value);
        }, 20);
      });
      await chooseAndUpload(page, file);
      const item = card(page, 'big.mp4');
      await item.locator('.receipt').waitFor({ timeout: 120000 });

      assert.equal(proxy.cuts.length, 2, 'the proxy cut the upload twice');
      assert.ok(proxy.forwarded <= 1.3 * size, `forwarded ${proxy.forwarded} bytes for a file of ${size} (<= 1.3x)`);
      console.log(`# the page: file ${size} bytes, forwarded ${proxy.forwarded} (${(proxy.forwarded / size).toFixed(3)}x)`);
      const reqs = proxy.requests.map((r) => r.split(' ')[0]);
      assert.equal(reqs.filter((m) => m === 'POST').length, 1, 'one creation');
      assert.equal(reqs.filter((m) => m === 'HEAD').length, 2, 'after each cut it asked the offset');
      assert.equal(reqs.filter((m) => m === 'PATCH').length, 3, 'and sent only the rest, three times in all');
      const attempts = await item.locator('.attempts li').allTextContents();
      assert.ok(attempts.some((a) => /the server has [\d.]+ MB of it; sending the rest/.test(a)), attempts.join(' | '));

      // the bar never went back to 0 after a cut
      const seen = await page.evaluate(() => window.seen);
      let top = 0;
      for (const v of seen) {
        if (top >= 30) assert.ok(v >= 29, `after ${top} % the bar fell to ${v} %`);
        top = Math.max(top, v);
      }

      const jobs = jobsOf(file);
      assert.equal(jobs.length, 1, 'one job');
      await item.locator('.timeline button.segment').first().waitFor({ timeout: JOB_TIMEOUT });
      const segs = await segmentsOf(item);
      assert.ok(cer(segs[0].text, text) <= 0.1, `reads "${segs[0].text}"`);
      await closePage(page);
    } finally {
      await proxy.close();
    }
  });
