/* video-ocr demo page: idempotent uploads with retries, job progress, the
 * text as a timeline.  Plain browser JavaScript, no build step.
 *
 * The contract (docs/http-api.md): POST the file as the body to
 * /api/videos?lang=..&fps=..[&crop=..] with an Idempotency-Key.  One key
 * per (file, options), made with crypto.randomUUID() and kept in
 * sessionStorage: a retry, and a new upload of the same file with the same
 * options after a reload, send the same key, and the server answers with
 * the receipt it stored (Idempotent-Replayed: true) instead of making a
 * second job.
 *
 * Files of RESUMABLE_MIN bytes and more go up resumably, with the IETF
 * resumable-upload draft (interop version 8) on the same endpoint: the
 * POST creates an upload resource (201, Location), a PATCH sends the
 * file, and after a dropped connection a HEAD asks how much arrived and
 * the next PATCH sends only the rest.  The draft rather than tus: it is
 * the protocol on the IETF's standards track, it needs no library (three
 * plain requests), and its final answer is the upload endpoint's own
 * receipt.  (Browsers hide the 104 interim response, so the page uses
 * the 201 of the creation.)  Smaller files go in one POST: one request
 * instead of three, and re-sending them costs little.
 *
 * The search box asks the search endpoint (GET /api/search?q=...) for
 * the moments the text of the tenant's videos says it; a hit opens its
 * video's card at that moment, the segment marked in its timeline (the
 * card of this session, whose preview seeks there, or one made for the
 * job from its status).
 */
'use strict';

(function () {
  const INTAKE = document.body.dataset.intake || '/api/videos';
  const JOBS = document.body.dataset.jobs || '/api/jobs/';
  const SEARCH = document.body.dataset.search || '/api/search';
  // The languages the worker pool has installed: the JSON file that
  // "video-ocr-worker run" writes in the store (docs/upload-page.md).
  const LANGUAGES = document.body.dataset.languages || '/api/languages';

  // Retries of an upload: exponential backoff with jitter, or what the
  // server asks for (Retry-After); a transient failure is retried this many
  // times in all before the page gives up and offers a button.
  const RETRY = { first: 1000, factor: 2, max: 30000, attempts: 8 };
  // After the last byte is sent, how long to wait for the answer before
  // calling the response lost (and retrying with the same key).
  const ANSWER_TIMEOUT = 60000;
  // Job polling: starts quick, slows down to this.
  const POLL = { first: 500, max: 3000 };
  // From this size on, uploads are resumable (see the top).
  const RESUMABLE_MIN = 4 * 1024 * 1024;
  const DRAFT = { 'Upload-Draft-Interop-Version': '8' };

  const KEYS = 'video-ocr:keys';   // fingerprint -> Idempotency-Key
  const UPLOADS = 'video-ocr:uploads'; // fingerprint -> upload resource URL
  const JOBLIST = 'video-ocr:jobs'; // receipts of this session, for reloads

  const $ = (sel, root) => (root || document).querySelector(sel);

  const form = $('#upload-form');
  const filesInput = $('#files');
  const formError = $('#form-error');
  const list = $('#items');
  const template = $('#item-template');
  const items = new Map();          // fingerprint -> item
  const queue = [];
  let uploading = false;

  /* ---------- keys and session storage ---------- */

  function uuid() {
    if (window.crypto && typeof crypto.randomUUID === 'function') {
      return crypto.randomUUID();
    }
    // crypto.randomUUID needs a secure context (https or localhost); the
    // same UUIDv4 from getRandomValues elsewhere.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function load(name, fallback) {
    try {
      const v = JSON.parse(sessionStorage.getItem(name));
      return v === null ? fallback : v;
    } catch (e) {
      return fallback;
    }
  }

  function save(name, value) {
    try {
      sessionStorage.setItem(name, JSON.stringify(value));
    } catch (e) {
      /* private mode or full: keys then live as long as the page */
    }
  }

  // What identifies an upload intent on this side: the file (name, size,
  // modification time) and the canonical options.
  function fingerprint(file, options) {
    return JSON.stringify([file.name, file.size, file.lastModified,
                           options.lang, options.fps, options.crop]);
  }

  function keyFor(fp, fresh) {
    const keys = load(KEYS, {});
    if (fresh || !keys[fp]) {
      keys[fp] = uuid();
      save(KEYS, keys);
    }
    return keys[fp];
  }

  function remember(item) {
    const jobs = load(JOBLIST, []).filter((j) => j.fp !== item.fp);
    jobs.push({ fp: item.fp, name: item.name, size: item.size,
                options: item.options, key: item.key,
                receipt: item.receipt, replayed: item.replayed });
    save(JOBLIST, jobs);
  }

  /* ---------- options ---------- */

  function readOptions() {
    const lang = $('#lang').value;
    const fpsText = $('#fps').value.trim();
    const fps = Number(fpsText);
    if (fpsText === '' || !Number.isFinite(fps) || fps < 0.01 || fps > 60
        || Math.round(fps * 1000) !== fps * 1000) {
      return { error: 'Frames per second must be a number from 0.01 to 60, with at most 3 decimals.', field: $('#fps') };
    }
    let crop = $('#crop').value.replace(/\s+/g, '');
    if (crop !== '' && !/^\d+,\d+,\d+,\d+$/.test(crop)) {
      return { error: 'Crop must be four whole numbers: x,y,width,height (for example 0,260,640,100), or empty.', field: $('#crop') };
    }
    // numbers in one spelling, as the server canonicalises them
    return { lang, fps: String(fps), crop: crop || null };
  }

  function query(o) {
    const q = new URLSearchParams({ lang: o.lang, fps: o.fps });
    if (o.crop) q.set('crop', o.crop);
    return q.toString();
  }

  const LANG_NAMES = {
    eng: 'English', deu: 'German', fra: 'French', spa: 'Spanish', ita: 'Italian',
    por: 'Portuguese', nld: 'Dutch', rus: 'Russian', ukr: 'Ukrainian', pol: 'Polish',
    tur: 'Turkish', ara: 'Arabic', hin: 'Hindi', chi_sim: 'Chinese, simplified',
    chi_tra: 'Chinese, traditional', jpn: 'Japanese', kor: 'Korean',
    auto: 'Detected on each screen',
  };

  // BCP 47 tags for <track srclang>: Tesseract names languages in ISO
  // 639-2 and tells its two Chinese apart by script
  const LANG_TAGS = {
    eng: 'en', deu: 'de', fra: 'fr', spa: 'es', ita: 'it', por: 'pt', nld: 'nl',
    rus: 'ru', ukr: 'uk', pol: 'pl', tur: 'tr', ara: 'ar', hin: 'hi',
    chi_sim: 'zh-Hans', chi_tra: 'zh-Hant', jpn: 'ja', kor: 'ko',
  };

  function langName(code) {
    return code.split('+').map((c) => LANG_NAMES[c] || c).join(' + ');
  }

  // The select offers what is installed: one option per language, English
  // first and chosen, "auto" (the worker reads each screen with the
  // installed languages of its script; it needs English for the screens
  // it cannot tell), then "English, then X" for the others (a video with
  // both).  When the list cannot be had, the built-in options stay.
  async function offerLanguages() {
    let list;
    try {
      const r = await fetch(LANGUAGES, { cache: 'no-store' });
      if (!r.ok) return;
      list = (await r.json()).languages;
    } catch (e) {
      return;
    }
    if (!Array.isArray(list) || !list.length
        || !list.every((l) => typeof l === 'string' && /^[a-z0-9_]+$/.test(l))) return;
    const sel = $('#lang');
    const keep = sel.value;
    const codes = list.includes('eng')
      ? ['eng', 'auto', ...list.filter((l) => l !== 'eng'), ...list.filter((l) => l !== 'eng').map((l) => `eng+${l}`)]
      : list;
    sel.replaceChildren(...codes.map((c) => {
      const o = document.createElement('option');
      o.value = c;
      o.textContent = c.startsWith('eng+') ? `English, then ${langName(c.slice(4))} (${c})`
        : c === 'auto' ? 'Detected on each screen (auto)' : `${langName(c)} (${c})`;
      return o;
    }));
    sel.value = codes.includes(keep) ? keep : codes[0];
    sel.dataset.installed = list.join(' ');
  }

  function describeOptions(o) {
    const lang = langName(o.lang);
    return `${lang}, ${o.fps} frame${o.fps === '1' ? '' : 's'}/s${o.crop ? `, crop ${o.crop}` : ''}`;
  }

  /* ---------- formatting ---------- */

  function bytes(n) {
    if (n < 1024) return `${n} B`;
    const u = ['KB', 'MB', 'GB', 'TB'];
    let i = -1;
    do { n /= 1024; i++; } while (n >= 1024 && i < u.length - 1);
    return `${n.toFixed(n < 10 ? 1 : 0)} ${u[i]}`;
  }

  function clock(t) {
    const m = Math.floor(t / 60);
    const s = t - m * 60;
    return `${String(m).padStart(2, '0')}:${s.toFixed(1).padStart(4, '0')}`;
  }

  function seconds(ms) {
    const s = Math.ceil(ms / 1000);
    return `${s} s`;
  }

  /* ---------- items (one per file and options) ---------- */

  function createItem(fp, name, size, options) {
    const li = template.content.firstElementChild.cloneNode(true);
    const item = {
      fp, name, size, options, li,
      file: null, key: null, receipt: null, replayed: false,
      attempt: 0, busy: false, uploads: 0, following: -1, wake: null, url: null,
      el: {
        name: $('.name', li), video: $('.preview', li), noPreview: $('.no-preview', li),
        trackNote: $('.track-note', li),
        status: $('.status', li), upBar: $('.upload-bar', li),
        upProgress: $('.upload-progress', li), upText: $('.upload-text', li),
        problem: $('.problem', li), actions: $('.actions', li),
        retryNow: $('.retry-now', li), newKey: $('.new-key', li),
        receipt: $('.receipt', li), replayed: $('.replayed', li),
        jobId: $('.job-id', li), key: $('.key', li), opts: $('.opts', li),
        jobBar: $('.job-bar', li), jobProgress: $('.job-progress', li),
        jobText: $('.job-text', li), attempts: $('.attempts', li),
        result: $('.result', li), timeline: $('.timeline', li),
      },
    };
    item.el.name.textContent = size ? `${name} (${bytes(size)})` : name;
    item.el.opts.textContent = describeOptions(options);
    item.el.retryNow.addEventListener('click', () => item.wake && item.wake());
    item.el.newKey.addEventListener('click', () => {
      if (!item.file) {
        showProblem(item, 'Choose this file again first.', 'After a reload the page no longer has the file itself.');
        return;
      }
      item.key = keyFor(item.fp, true);
      log(item, 'New key for a new job.');
      hideProblem(item);
      item.el.newKey.hidden = true;
      item.el.actions.hidden = true;
      enqueue(item);
    });
    item.el.video.addEventListener('timeupdate', () => highlight(item));
    item.el.video.addEventListener('error', () => {
      // not a format this browser plays (or not a video at all)
      item.el.video.hidden = true;
      item.el.noPreview.textContent = 'This browser cannot show a preview of this file.';
      item.el.noPreview.hidden = false;
    });
    items.set(fp, item);
    list.append(li);
    $('#empty').hidden = true;
    return item;
  }

  function setState(item, state, text) {
    item.li.dataset.state = state;
    if (text !== undefined && item.el.status.textContent !== text) {
      item.el.status.textContent = text;
    }
  }

  function log(item, text) {
    const li = document.createElement('li');
    li.textContent = text;
    item.el.attempts.append(li);
  }

  function showProblem(item, title, detail) {
    const p = item.el.problem;
    p.replaceChildren();
    const strong = document.createElement('strong');
    strong.textContent = title;
    p.append(strong);
    if (detail) {
      const span = document.createElement('span');
      span.textContent = detail;
      p.append(span);
    }
    p.hidden = false;
  }

  function hideProblem(item) {
    item.el.problem.hidden = true;
    item.el.problem.replaceChildren();
  }

  function attachFile(item, file) {
    item.file = file;
    const old = item.url;
    item.url = URL.createObjectURL(file);
    item.el.video.src = item.url;
    if (old) URL.revokeObjectURL(old);
    item.el.video.hidden = false;
    item.el.noPreview.hidden = true;
    item.el.noPreview.textContent = 'Choose this file again to preview it here.';
    item.el.video.setAttribute('aria-label', `Preview of ${file.name}`);
    if (item.receipt && item.li.dataset.state === 'done') addTrack(item);
  }

  /* ---------- uploads ---------- */

  function enqueue(item) {
    if (item.busy) return;
    item.busy = true;
    hideProblem(item);
    setState(item, 'queued', 'Waiting for the uploads before it.');
    queue.push(item);
    pump();
  }

  async function pump() {
    if (uploading) return;
    uploading = true;
    while (queue.length) {
      const item = queue.shift();
      try {
        await upload(item);
      } catch (e) {
        setState(item, 'refused', 'Upload failed.');
        showProblem(item, 'Something went wrong on this page.', String(e));
      }
      item.busy = false;
    }
    uploading = false;
  }

  // One attempt: resolves with { status, headers, text, sent, error }.
  function send(item) {
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      let sent = false;
      let watchdog = null;
      let lost = null;

      xhr.open('POST', `${INTAKE}?${query(item.options)}`);
      xhr.setRequestHeader('Idempotency-Key', item.key);

      xhr.upload.onprogress = (e) => {
        if (!e.lengthComputable) return;
        const pct = e.total ? Math.floor((e.loaded / e.total) * 100) : 100;
        item.el.upProgress.value = pct;
        item.el.upText.textContent = `${pct}% of ${bytes(e.total)}`;
      };
      xhr.upload.onload = () => {
        sent = true;
        item.el.upProgress.value = 100;
        item.el.upText.textContent = `100% of ${bytes(item.size)}`;
        setState(item, 'uploading', 'Sent; waiting for the receipt…');
        watchdog = setTimeout(() => {
          lost = `no answer ${seconds(ANSWER_TIMEOUT)} after the upload`;
          xhr.abort();
        }, ANSWER_TIMEOUT);
      };

      const done = (r) => {
        clearTimeout(watchdog);
        resolve(Object.assign({ sent }, r));
      };
      xhr.onload = () => done({
        status: xhr.status,
        text: xhr.responseText,
        type: xhr.getResponseHeader('Content-Type') || '',
        replayed: (xhr.getResponseHeader('Idempotent-Replayed') || '').trim() === 'true',
        retryAfter: xhr.getResponseHeader('Retry-After'),
      });
      xhr.onerror = () => done({ status: 0, error: 'connection lost' });
      xhr.onabort = () => done({ status: 0, error: lost || 'aborted' });

      item.el.upProgress.value = 0;
      item.el.upText.textContent = `0% of ${bytes(item.size)}`;
      xhr.send(item.file);
    });
  }

  // The upload resource of an item, kept with its key: a reload resumes.
  function uploadUrl(item, url) {
    const all = load(UPLOADS, {});
    if (url === undefined) return all[`${item.fp}|${item.key}`] || null;
    if (url === null) delete all[`${item.fp}|${item.key}`];
    else all[`${item.fp}|${item.key}`] = url;
    save(UPLOADS, all);
    return url;
  }

  function answer(res, text) {
    return {
      status: res.status,
      text,
      type: res.headers.get('Content-Type') || '',
      replayed: (res.headers.get('Idempotent-Replayed') || '').trim() === 'true',
      retryAfter: res.headers.get('Retry-After'),
    };
  }

  function showSent(item, n) {
    const pct = item.size ? Math.floor((n / item.size) * 100) : 100;
    item.el.upProgress.value = pct;
    item.el.upText.textContent = `${pct}% of ${bytes(item.size)}`;
  }

  // One attempt of a resumable upload: create the upload resource or ask
  // its offset, then send the rest in one PATCH.  Resolves like send().
  async function sendResumable(item) {
    let url = uploadUrl(item);
    let offset = 0;
    try {
      if (url) {
        const h = await fetch(url, { method: 'HEAD', headers: DRAFT, cache: 'no-store' });
        if (h.status === 404) {
          uploadUrl(item, null);
          url = null;
        } else if (h.ok) {
          offset = Number(h.headers.get('Upload-Offset'));
          if (h.headers.get('Upload-Complete') === '?1') offset = item.size;
          log(item, `Attempt ${item.attempt}: the server has ${bytes(offset)} of it; sending the rest.`);
        } else {
          return Object.assign({ sent: false }, answer(h, await h.text()));
        }
      }
      if (!url) {
        const c = await fetch(`${INTAKE}?${query(item.options)}`, {
          method: 'POST',
          headers: Object.assign({ 'Idempotency-Key': item.key, 'Upload-Complete': '?0',
                                   'Upload-Length': String(item.size) }, DRAFT),
        });
        if (c.status !== 201 || !c.headers.get('Location')) {
          return Object.assign({ sent: false }, answer(c, await c.text()));
        }
        url = uploadUrl(item, new URL(c.headers.get('Location'), location.href).href);
      }
    } catch (e) {
      return { status: 0, sent: false, error: 'connection lost' };
    }
    showSent(item, offset);
    return new Promise((resolve) => {
      const xhr = new XMLHttpRequest();
      let sent = false;
      let watchdog = null;
      let lost = null;
      xhr.open('PATCH', url);
      xhr.setRequestHeader('Upload-Draft-Interop-Version', '8');
      xhr.setRequestHeader('Upload-Offset', String(offset));
      xhr.setRequestHeader('Upload-Complete', '?1');
      xhr.setRequestHeader('Content-Type', 'application/partial-upload');
      xhr.upload.onprogress = (e) => showSent(item, offset + e.loaded);
      xhr.upload.onload = () => {
        sent = true;
        showSent(item, item.size);
        setState(item, 'uploading', 'Sent; waiting for the receipt…');
        watchdog = setTimeout(() => {
          lost = `no answer ${seconds(ANSWER_TIMEOUT)} after the upload`;
          xhr.abort();
        }, ANSWER_TIMEOUT);
      };
      const done = (r) => {
        clearTimeout(watchdog);
        if (r.status === 202 || r.status === 404 || r.status === 422) uploadUrl(item, null);
        resolve(Object.assign({ sent }, r));
      };
      xhr.onload = () => {
        if (xhr.status === 409) {
          /* another offset than ours: ask again, at once */
          resolve(Object.assign({ status: 0, sent: false, error: 'offset changed', again: true }));
          return;
        }
        done({
          status: xhr.status,
          text: xhr.responseText,
          type: xhr.getResponseHeader('Content-Type') || '',
          replayed: (xhr.getResponseHeader('Idempotent-Replayed') || '').trim() === 'true',
          retryAfter: xhr.getResponseHeader('Retry-After'),
        });
      };
      xhr.onerror = () => done({ status: 0, error: 'connection lost' });
      xhr.onabort = () => done({ status: 0, error: lost || 'aborted' });
      xhr.send(offset < item.size ? item.file.slice(offset) : null);
    });
  }

  function problemOf(r) {
    if (/json/i.test(r.type)) {
      try { return JSON.parse(r.text) || {}; } catch (e) { /* not JSON */ }
    }
    return {};
  }

  function problemName(p) {
    return typeof p.type === 'string' ? p.type.replace(/^urn:video-ocr:problem:/, '') : '';
  }

  // Statuses worth another try with the same key: nothing was committed
  // (docs/http-api.md), or the answer came from a proxy in between.
  const TRANSIENT = new Set([0, 408, 429, 500, 502, 503, 504, 507]);

  function backoff(n) {
    const base = Math.min(RETRY.max, RETRY.first * RETRY.factor ** (n - 1));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  function retryAfterMs(v) {
    if (!v) return null;
    if (/^\d+$/.test(v.trim())) return Number(v) * 1000;
    const t = Date.parse(v);
    return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
  }

  function wait(item, ms, why) {
    return new Promise((resolve) => {
      const until = Date.now() + ms;
      let timer = null;
      const finish = () => {
        clearTimeout(timer);
        item.wake = null;
        item.el.retryNow.hidden = true;
        item.el.actions.hidden = true;
        resolve();
      };
      // the countdown is on the button: the status (a live region) is
      // announced once, not every second
      const tick = () => {
        const left = until - Date.now();
        if (left <= 0) return finish();
        item.el.retryNow.textContent = `Retry now (${seconds(left)})`;
        timer = setTimeout(tick, Math.min(1000, left));
        return undefined;
      };
      setState(item, 'waiting', `${why} Retrying with the same key in ${seconds(ms)} (attempt ${item.attempt + 1} of ${RETRY.attempts}).`);
      item.wake = finish;
      item.el.actions.hidden = false;
      item.el.retryNow.hidden = false;
      tick();
    });
  }

  async function upload(item) {
    if (!item.file) return;
    item.uploads++;             // the job a previous upload follows is no longer this card's
    item.el.upBar.hidden = false;
    item.el.key.textContent = item.key;

    for (item.attempt = 1; ; item.attempt++) {
      setState(item, 'uploading', item.attempt === 1 ? 'Uploading…' : `Uploading again (attempt ${item.attempt}), same key…`);
      const r = item.size >= RESUMABLE_MIN ? await sendResumable(item) : await send(item);
      if (r.again) { item.attempt--; continue; }

      if (r.status === 202 || r.status === 200) {
        let receipt;
        try { receipt = JSON.parse(r.text); } catch (e) { receipt = null; }
        if (receipt && receipt.job_id) {
          log(item, `Attempt ${item.attempt}: ${r.replayed ? 'the server replayed the receipt it had stored' : 'accepted'} (${r.status}), job ${receipt.job_id}.`);
          accepted(item, receipt, r.replayed);
          return;
        }
        r.status = 0;
        r.error = 'an answer that is not a receipt';
      }

      const p = problemOf(r);
      const name = problemName(p);
      const what = r.status === 0
        ? (r.sent ? `${r.error} after the file was sent` : `${r.error} during the upload`)
        : `${r.status}${name ? ` ${name}` : ''}`;
      log(item, `Attempt ${item.attempt}: ${what}.`);

      if (!TRANSIENT.has(r.status)) {
        refused(item, r, p, name);
        return;
      }
      if (item.attempt >= RETRY.attempts) {
        setState(item, 'refused', 'Gave up for now.');
        showProblem(item, `No answer after ${item.attempt} attempts.`,
          'Nothing is lost: the next try sends the same key, so an upload the server did store is not stored twice.');
        offerRetry(item);
        return;
      }

      const ra = retryAfterMs(r.retryAfter);
      const delay = ra !== null ? Math.max(ra, 250) : backoff(item.attempt);
      await wait(item, delay, transientMessage(r, p, name));
    }
  }

  function transientMessage(r, p, name) {
    if (r.status === 0) {
      return r.sent
        ? 'The connection was lost after the file was sent, before the answer came: the server may have it, the retry will tell.'
        : `The connection was lost during the upload (${r.error}).`;
    }
    if (name === 'busy') return 'The server is busy right now; nothing was stored.';
    if (name === 'disk-full') return 'The server is out of disk space; nothing was stored.';
    if (name === 'internal') return 'The server had an internal error; nothing was stored.';
    return `The server answered ${r.status}${p.title ? ` (${p.title})` : ''}.`;
  }

  function offerRetry(item) {
    item.el.actions.hidden = false;
    item.el.retryNow.hidden = false;
    item.el.retryNow.textContent = 'Retry now';
    item.wake = () => {
      item.wake = null;
      item.el.retryNow.hidden = true;
      item.el.actions.hidden = true;
      hideProblem(item);
      enqueue(item);
    };
  }

  // The messages for every refusal of the upload endpoint
  // (docs/http-api.md, "Errors").
  function refused(item, r, p, name) {
    const file = `“${item.name}”`;
    const detail = p.detail ? `The server says: ${p.detail}` : '';
    let title;
    let more = detail;
    switch (name) {
      case 'not-a-video':
        title = `${file} is not a video this server accepts.`;
        more = 'Its first bytes are not a known video container (MP4, MOV, Matroska/WebM, AVI, MPEG-TS, MPEG-PS, FLV, Ogg, ASF or MXF). Nothing was stored.';
        break;
      case 'too-large':
        title = `${file} (${bytes(item.size)}) is larger than this server accepts.`;
        more = 'Nothing was stored. Shorten or compress the video, then upload it again.';
        break;
      case 'key-reused':
        title = 'This upload’s key was already used for a different file or different options.';
        more = `Nothing was stored${p.job_id ? ` (the key belongs to job ${p.job_id})` : ''}. The file may have changed since it was first sent. Send it as a new job to use a fresh key.`;
        item.el.actions.hidden = false;
        item.el.newKey.hidden = false;
        break;
      case 'bad-options':
        title = 'The server did not accept the options.';
        break;
      case 'empty-body':
        title = `${file} is empty.`;
        more = 'Choose a video file with content.';
        break;
      case 'no-tenant':
        title = 'You are not signed in for uploads here.';
        more = 'Sign in to the site, then upload again: the same key is kept.';
        break;
      case 'missing-key':
      case 'bad-key':
      case 'bad-request':
        title = `The server refused the request (${p.title || r.status}).`;
        break;
      default:
        if (r.status === 401) {
          title = 'Sign-in required.';
          more = 'Sign in to the site, then upload again: the same key is kept.';
        } else if (r.status === 413) {
          title = `${file} (${bytes(item.size)}) is larger than this server accepts.`;
          more = 'Nothing was stored.';
        } else {
          title = `The server refused the upload: ${r.status}${p.title ? ` ${p.title}` : ''}.`;
        }
    }
    item.el.upBar.hidden = true;
    setState(item, 'refused', `Refused (${r.status}).`);
    showProblem(item, title, more);
  }

  /* ---------- receipts and jobs ---------- */

  function accepted(item, receipt, replayed) {
    if (item.receipt && item.receipt.job_id !== receipt.job_id) {
      // a new job for this card (sent with a new key): forget the old one
      item.segments = null;
      item.el.result.hidden = true;
      item.el.timeline.replaceChildren();
      dropTrack(item, 'pending', '');
    }
    item.receipt = receipt;
    item.replayed = replayed;
    remember(item);
    showReceipt(item);
    item.el.upBar.hidden = true;
    follow(item);
  }

  function showReceipt(item) {
    const r = item.receipt;
    item.el.receipt.hidden = false;
    item.el.jobId.textContent = r.job_id;
    item.el.key.textContent = item.key;
    item.el.replayed.hidden = !item.replayed;
    if (item.replayed) {
      item.el.replayed.textContent = 'Replayed: the server already had this upload and answered with the receipt it stored for this key (Idempotent-Replayed: true). No second job was made.';
    }
    for (const a of item.li.querySelectorAll('a.dl')) {
      const f = a.dataset.format;
      a.href = `${statusUrl(item)}?format=${f}`;
      a.download = `${item.name.replace(/\.[^.]*$/, '')}.${f}`;
    }
  }

  function statusUrl(item) {
    return item.receipt.status_url || `${JOBS}${item.receipt.job_id}`;
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // Follows the job of the card's latest upload until it ends, or until
  // the card is uploaded again (a newer upload's answer is what it shows).
  async function follow(item) {
    const gen = item.uploads;
    if (item.following === gen) return;
    item.following = gen;
    setState(item, 'admitted', item.replayed ? 'Accepted earlier (replayed receipt).' : 'Accepted.');
    item.el.jobBar.hidden = false;
    let delay = POLL.first;
    let failures = 0;

    for (;;) {
      let job = null;
      try {
        const res = await fetch(statusUrl(item), { cache: 'no-store', headers: { Accept: 'application/json' } });
        if (res.status === 404) {
          item.el.jobBar.hidden = true;
          setState(item, 'failed', 'Job not found.');
          showProblem(item, 'The server no longer knows this job.', 'Its receipt may have expired. Upload the file again as a new job.');
          item.el.actions.hidden = false;
          item.el.newKey.hidden = false;
          break;
        }
        if (res.ok) job = await res.json();
        failures = res.ok ? 0 : failures + 1;
      } catch (e) {
        failures++;
      }

      if (item.uploads !== gen) break;
      if (job) {
        if (showJob(item, job)) break;
      } else if (failures > 2) {
        item.el.jobText.textContent = 'status unreachable, still trying…';
      }
      await sleep(delay);
      delay = Math.min(POLL.max, Math.round(delay * 1.5));
    }
  }

  // Shows a status document; true when the job is finished.
  function showJob(item, job) {
    const pr = job.progress || {};
    const planned = pr.frames_planned;
    const doneFrames = pr.frames_done || 0;
    const bar = item.el.jobProgress;

    if (planned) {
      bar.max = planned;
      bar.value = Math.min(doneFrames, planned);
      item.el.jobText.textContent = `${doneFrames} / ${planned} frames`;
    } else {
      bar.removeAttribute('value');   // indeterminate
      item.el.jobText.textContent = '';
    }
    bar.setAttribute('aria-label', `Frames read in ${item.name}`);

    switch (job.state) {
      case 'accepted':
        setState(item, 'admitted', job.error ? `Queued again after an error: ${job.error.message}` : 'Queued: waiting for a worker.');
        return false;
      case 'running': {
        // a long video is read in parts by several workers at once
        const parts = pr.parts ? ` ${pr.parts.done} of ${pr.parts.count} parts done.` : '';
        setState(item, 'running', planned ? `Reading the text: frame ${doneFrames} of ${planned}.${parts}` : 'Reading the text: looking at the video.');
        return false;
      }
      case 'done':
        bar.max = 1;
        bar.value = 1;
        showResult(item, job.result || {});
        return true;
      case 'failed':
      case 'rejected':
        item.el.jobBar.hidden = true;
        dropTrack(item, 'none', 'No subtitles: the text of this video could not be read.');
        setState(item, 'failed', job.state === 'rejected' ? 'The worker could not read this video.' : 'Reading failed.');
        showProblem(item, job.state === 'rejected' ? 'This file was stored but is not a video the worker can read.' : `Reading failed after ${job.failures || job.attempts} attempt(s).`,
          job.error ? `${job.error.message} (${job.error.code})` : '');
        return true;
      case 'cancelled':
        item.el.jobBar.hidden = true;
        dropTrack(item, 'none', 'No subtitles: the job was cancelled.');
        setState(item, 'failed', 'Cancelled.');
        return true;
      default:
        setState(item, 'admitted', `State: ${job.state}`);
        return false;
    }
  }

  function showResult(item, result) {
    const segs = Array.isArray(result.segments) ? result.segments : [];
    item.segments = segs;
    setState(item, 'done', segs.length
      ? `Done: ${segs.length} line${segs.length === 1 ? '' : 's'} of text.`
      : 'Done: no text found in the frames read.');
    const tl = item.el.timeline;
    tl.replaceChildren();
    segs.forEach((s, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'segment';
      b.dataset.index = i;
      const t = document.createElement('time');
      t.textContent = `${clock(s.start)}–${clock(s.end)}`;
      const span = document.createElement('span');
      span.className = 'text';
      span.textContent = s.text;
      const c = document.createElement('span');
      c.className = 'conf';
      c.textContent = `${s.confidence}%`;
      c.title = 'OCR confidence';
      b.append(t, span, c);
      b.setAttribute('aria-label', `${clock(s.start)} to ${clock(s.end)}: ${s.text}`);
      b.addEventListener('click', () => seek(item, s));
      li.append(b);
      tl.append(li);
    });
    item.el.result.hidden = false;
    if (item.file) addTrack(item);
    if (item.found !== undefined) markFound(item);
  }

  function seek(item, s) {
    const v = item.el.video;
    if (!item.file) {
      item.el.noPreview.hidden = false;
      return;
    }
    // a hair past the start: the sample at exactly 'start' shows the text
    v.currentTime = s.start + 0.001;
    highlight(item, s);
  }

  function highlight(item, forced) {
    if (!item.segments) return;
    const t = item.el.video.currentTime;
    item.el.timeline.querySelectorAll('button.segment').forEach((b) => {
      const s = item.segments[b.dataset.index];
      const on = forced ? s === forced : t >= s.start && t <= s.end;
      if (on) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    });
  }

  // The job's WebVTT as the preview's subtitles, on from the start: a user
  // sees at once whether the cues come and go with the text and, when the
  // cues carry position settings (line, position, size, align), whether
  // they sit where the text was.  One track per card, its latest job's:
  // another job replaces it.  The WebVTT comes from the page's origin, as
  // a <track> must when its video has no crossorigin attribute.
  function addTrack(item) {
    const v = item.el.video;
    const src = `${statusUrl(item)}?format=vtt`;
    let tr = v.querySelector('track');
    if (tr && tr.getAttribute('src') !== src) {
      dropTrack(item, 'pending', '');
      tr = null;
    }
    if (!tr) {
      const lang = item.options.lang.split('+')[0];
      tr = document.createElement('track');
      tr.kind = 'subtitles';
      tr.label = `Text read by video-ocr (${langName(lang)})`;
      tr.srclang = LANG_TAGS[lang] || (/^[a-z]{3}$/.test(lang) ? lang : 'und');
      tr.default = true;
      tr.addEventListener('load', () => trackLoaded(item, tr));
      tr.addEventListener('error', () => tr.parentNode === v
        && trackState(item, 'error', 'The subtitles could not be loaded.'));
      tr.src = src;
      v.append(tr);
      trackState(item, 'loading', 'Loading the subtitles…');
    }
    // In the HTML standard "default" counts only at the video's first
    // automatic choice of tracks, when its metadata loaded: a track added
    // later (the job ended after that, or in place of another) stays off
    // unless its mode is set.  Chromium shows it all the same.
    tr.track.mode = 'showing';
  }

  function trackLoaded(item, tr) {
    if (tr.parentNode !== item.el.video) return;   // replaced meanwhile
    const cues = Array.from(tr.track.cues || []);
    const placed = cues.some((c) => c.line !== 'auto' || c.position !== 'auto');
    trackState(item, 'showing', cues.length
      ? `Subtitles: the text read, at the times${placed ? ' and in the places' : ''} it was found.`
      : 'Subtitles: none, no text was found.');
  }

  function dropTrack(item, state, text) {
    item.el.video.querySelectorAll('track').forEach((t) => t.remove());
    trackState(item, state, text);
  }

  // data-track on the card: loading, showing, error, none (the job ended
  // without text to show), pending (a new job is on its way)
  function trackState(item, state, text) {
    item.li.dataset.track = state;
    item.el.trackNote.textContent = text;
    item.el.trackNote.hidden = !text;
  }

  /* ---------- the form ---------- */

  function addFiles(files) {
    formError.hidden = true;
    const options = readOptions();
    if (options.error) {
      formError.textContent = options.error;
      formError.hidden = false;
      options.field.focus();
      return;
    }
    if (!files.length) {
      formError.textContent = 'Choose at least one video file first.';
      formError.hidden = false;
      filesInput.focus();
      return;
    }
    let first = null;
    for (const file of files) {
      const fp = fingerprint(file, options);
      let item = items.get(fp);
      if (!item) item = createItem(fp, file.name, file.size, options);
      if (!item.key) item.key = keyFor(fp);
      attachFile(item, file);
      // a finished or running job of the same intent is sent again all
      // the same: the server replays its receipt, nothing is redone
      if (!item.busy) enqueue(item);
      first = first || item;
    }
    filesInput.value = '';
    if (first) first.li.scrollIntoView({ block: 'nearest' });
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    addFiles(Array.from(filesInput.files));
  });

  const drop = $('#drop');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    addFiles(Array.from(e.dataTransfer.files));
  });

  /* ---------- search ---------- */

  const searchForm = $('#search-form');
  const searchStatus = $('#search-status');
  const hitsList = $('#hits');
  const moreHits = $('#more-hits');
  const hitTemplate = $('#hit-template');
  let lastSearch = null;      // { q, next }

  // what a hit says of how it matched (docs/http-api.md, "Search")
  const MATCHES = {
    exact: '', phrase: 'inside a longer word', words: 'all the words, apart',
    fuzzy: 'close match (a letter off)',
  };

  function itemOfJob(jobId) {
    for (const item of items.values()) {
      if (item.receipt && item.receipt.job_id === jobId) return item;
    }
    return null;
  }

  function videoName(hit, job) {
    const item = itemOfJob(hit.job_id);
    return (item && item.name) || job.filename || `video …${hit.job_id.slice(-8)}`;
  }

  // text into el, the code point ranges of highlights as <mark>s
  function marked(el, text, ranges) {
    const cps = Array.from(text);
    let at = 0;
    el.replaceChildren();
    for (const [from, to] of ranges) {
      if (from < at || to <= from) continue;
      if (from > at) el.append(cps.slice(at, from).join(''));
      const m = document.createElement('mark');
      m.textContent = cps.slice(from, to).join('');
      el.append(m);
      at = to;
    }
    if (at < cps.length) el.append(cps.slice(at).join(''));
  }

  function optionsOf(o) {
    const opts = o || {};
    return { lang: opts.lang || 'eng', fps: String(opts.fps || 1),
             crop: Array.isArray(opts.crop) ? opts.crop.join(',') : null };
  }

  async function search(q, cursor) {
    const params = new URLSearchParams({ q, limit: '20' });
    if (cursor) params.set('cursor', cursor);
    searchStatus.textContent = 'Searching…';
    moreHits.hidden = true;
    let r;
    let body;
    try {
      r = await fetch(`${SEARCH}?${params}`, { cache: 'no-store', headers: { Accept: 'application/json' } });
      body = await r.json();
    } catch (e) {
      searchStatus.textContent = 'The search could not be run: no answer from the server.';
      return;
    }
    if (!r.ok) {
      searchStatus.textContent = body && body.detail
        ? `The server did not run this search: ${body.detail}.`
        : `The search failed (${r.status}).`;
      return;
    }
    if (!cursor) hitsList.replaceChildren();
    for (const hit of body.hits) hitsList.append(hitElement(hit, body.jobs[hit.job_id] || {}));
    lastSearch = { q, next: body.next };
    moreHits.hidden = !body.next;
    const n = hitsList.children.length;
    searchStatus.textContent = n
      ? `${n}${body.next ? ' or more' : ''} moment${n === 1 ? '' : 's'} found for “${q}”, best first.`
      : `Nothing found for “${q}”.`;
  }

  function hitElement(hit, job) {
    const li = hitTemplate.content.firstElementChild.cloneNode(true);
    const name = videoName(hit, job);
    $('.video', li).textContent = name;
    $('time', li).textContent = `${clock(hit.start)}–${clock(hit.end)}`;
    marked($('.text', li), hit.text, hit.highlights || []);
    const badge = $('.match', li);
    if (MATCHES[hit.match]) {
      badge.textContent = MATCHES[hit.match];
      badge.hidden = false;
    }
    const b = $('button', li);
    b.dataset.job = hit.job_id;
    b.dataset.segment = hit.segment;
    b.setAttribute('aria-label', `${name} at ${clock(hit.start)}: ${hit.text}`);
    b.addEventListener('click', () => openHit(hit, job));
    return li;
  }

  // A hit opens its video's card at that moment with the segment marked:
  // the card of this session, whose preview seeks there, or else a card
  // made for the job from its status (its preview comes when its file is
  // chosen again).
  function openHit(hit, job) {
    let item = itemOfJob(hit.job_id);
    if (!item) {
      item = createItem(`job:${hit.job_id}`, videoName(hit, job), 0, optionsOf(job.options));
      item.key = '';
      item.el.noPreview.hidden = false;
      accepted(item, { job_id: hit.job_id, status_url: `${JOBS}${hit.job_id}` }, false);
    }
    item.found = hit.segment;
    item.li.scrollIntoView({ block: 'start' });
    markFound(item);
  }

  // The found segment of a card: marked in its timeline, the preview
  // there (when the timeline is shown; else when it comes).
  function markFound(item) {
    if (!item.segments) return;
    const s = item.segments[item.found];
    item.el.timeline.querySelectorAll('button.segment').forEach((b) => {
      b.classList.toggle('found', Number(b.dataset.index) === item.found);
    });
    if (!s) return;
    if (item.file) seek(item, s);
    else highlight(item, s);
    const b = item.el.timeline.querySelector('button.found');
    if (b) b.scrollIntoView({ block: 'nearest' });
  }

  searchForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = $('#q').value.trim();
    if (!q) {
      searchStatus.textContent = 'Type what to look for first.';
      $('#q').focus();
      return;
    }
    search(q, null);
  });

  moreHits.addEventListener('click', () => {
    if (lastSearch && lastSearch.next) search(lastSearch.q, lastSearch.next);
  });

  offerLanguages();

  // Receipts of this session survive a reload: show them and follow
  // their jobs; choosing the same file again brings back its preview.
  for (const j of load(JOBLIST, [])) {
    if (!j || !j.receipt || items.has(j.fp)) continue;
    const item = createItem(j.fp, j.name, j.size, j.options);
    item.key = j.key;
    item.el.noPreview.hidden = false;
    accepted(item, j.receipt, j.replayed);
    log(item, 'Restored after a reload.');
  }
}());
