// Test videos with known burned-in text, made with ffmpeg's drawtext as
// t/lib/VideoOCR/Media.pm makes them, and the character error rate the
// worker suites measure OCR with (same normalisation).

import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

// makeVideo(file, [{ start, end, text }, ...], { duration, size }):
// white text on a dark box, centred near the bottom of a dark picture.
export function makeVideo(file, spans, { duration = 4, size = '640x360', codec = 'libx264' } = {}) {
  const filters = spans.map((s, i) => {
    const tf = `${file}.span${i}.txt`;
    fs.writeFileSync(tf, s.text);
    return `drawtext=fontfile=${FONT}:textfile=${tf}:expansion=none:fontsize=34:`
      + 'fontcolor=white:box=1:boxcolor=black@0.75:boxborderw=8:'
      + 'x=(w-tw)/2:y=(h-th)/2:'
      + `enable='between(t,${s.start},${s.end})'`;
  });
  filters.push('format=yuv420p');
  const enc = codec === 'libx264'
    ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20']
    : ['-c:v', codec];
  execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=0x203050:s=${size}:r=25:d=${duration}`,
    '-vf', filters.join(','), ...enc, file], { stdio: 'inherit' });
  spans.forEach((s, i) => fs.rmSync(`${file}.span${i}.txt`, { force: true }));
  return file;
}

export function sha256File(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

export function normalise(s) {
  return String(s)
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2010-\u2014\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

export function levenshtein(a, b) {
  a = Array.from(a);
  b = Array.from(b);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j] + 1, cur[j - 1] + 1);
    }
    prev = cur;
  }
  return prev[b.length];
}

export function cer(got, want) {
  const g = normalise(got);
  const w = normalise(want);
  if (!w.length) return g.length ? 1 : 0;
  return levenshtein(g, w) / w.length;
}


// Grows an MP4 to about total bytes with a top-level "free" box at its
// end (ISO BMFF: a box readers skip), so a big upload is still a video
// the worker reads, without encoding minutes of it.  Random bytes, so no
// layer in between can compress them away.
export function padVideo(file, total) {
  const have = fs.statSync(file).size;
  const n = Math.max(8, total - have);
  const box = crypto.randomBytes(n);
  box.writeUInt32BE(n, 0);
  box.write('free', 4, 'latin1');
  fs.appendFileSync(file, box);
  return file;
}
