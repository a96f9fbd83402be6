// The whole product for the browser tests, as t/lib/VideoOCR/Stack.pm
// starts it for the worker suites: Debian's nginx with the module, serving
// the demo site exactly as "make run" does (conf.d/demo.inc with its
// locations, log format and page) or, with frontDoor, the site of
// conf.d/sites/front-door.conf, and a real "video-ocr-worker run" pool on
// the same ledger and store.  A private directory and a free port per
// run; everything started here is stopped by stop().

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A port nobody listens on now: the kernel picks it.
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export class Stack {
  constructor(opts = {}) {
    this.nginxBin = process.env.NGINX_BIN || '/usr/sbin/nginx';
    this.module = process.env.MODULE_SO || path.join(REPO, 'build/nginx/objs/ngx_http_video_ocr_module.so');
    this.workerBin = process.env.WORKER_BIN || path.join(REPO, 'build/video-ocr-worker');
    this.workers = opts.workers || 2;
    this.httpExtra = opts.httpExtra || '';
    this.maxBodySize = opts.maxBodySize || null;
    this.frontDoor = opts.frontDoor || null;   // the application's port
    this.keep = !!process.env.VIDEO_OCR_KEEP;
  }

  get ledger() { return path.join(this.dir, 'data/ledger.db'); }
  get url() { return `http://127.0.0.1:${this.port}`; }

  async start() {
    for (const f of [this.module, this.workerBin]) {
      if (!fs.existsSync(f)) throw new Error(`${f} is missing: run "make build" first`);
    }
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-ocr-browser-'));
    const d = this.dir;
    for (const sub of ['logs', 'data', 'store']) fs.mkdirSync(path.join(d, sub));
    // as root, nginx's worker processes run as nobody
    for (const sub of ['', 'data', 'store']) fs.chmodSync(path.join(d, sub), 0o777);
    // a copy, not a link: nobody may not reach a clone under /root or in
    // a mktemp -d directory (0700), and nginx's workers serve conf.d/html
    fs.cpSync(path.join(REPO, 'conf.d'), path.join(d, 'conf.d'), { recursive: true });

    // a free port, and another one if somebody took it meanwhile
    for (let tries = 1; ; tries++) {
      this.port = await freePort();
      this.writeConf();
      try {
        execFileSync(this.nginxBin, ['-p', d, '-c', path.join(d, 'nginx.conf'), '-e', path.join(d, 'logs/error.log')],
                     { stdio: ['ignore', 'pipe', 'pipe'] });
        break;
      } catch (e) {
        const why = `${e.stderr || ''}${this.errorLog()}`;   // -e: start errors go to the log
        if (tries < 3 && /Address already in use/.test(why)) continue;
        throw new Error(`nginx did not start: ${why}`);
      }
    }
    for (let i = 0; i < 100 && !this.nginxPid; i++) {
      try {
        const pid = parseInt(fs.readFileSync(path.join(d, 'logs/nginx.pid'), 'utf8'), 10);
        if (pid > 0) this.nginxPid = pid;
      } catch (e) { await sleep(50); }
    }
    if (!this.nginxPid) throw new Error('nginx wrote no pid file');

    const log = fs.openSync(path.join(d, 'logs/worker.log'), 'a');
    this.worker = spawn(this.workerBin, ['run', '--ledger', this.ledger, '--store', path.join(d, 'store'),
                                         '--workers', String(this.workers), '--poll', '100ms'],
                        { stdio: ['ignore', log, log] });
    fs.closeSync(log);
    this.workerExit = new Promise((r) => {
      this.worker.once('exit', (code, sig) => r({ code, sig }));
      this.worker.once('error', (error) => r({ error }));
    });
    // a worker that cannot start is an error of start(), and nginx is
    // stopped with it
    const early = await Promise.race([this.workerExit, sleep(200).then(() => null)]);
    if (early) {
      await this.stop();
      throw new Error(`video-ocr-worker did not start: ${early.error || `exit ${early.code} ${early.sig || ''}`}`);
    }
    return this;
  }

  // nginx.conf and site.inc for this.port
  writeConf() {
    const d = this.dir;
    let site;
    if (this.frontDoor) {
      // conf.d/sites/front-door.conf, in front of an application on
      // this.frontDoor, with only the host-specific strings replaced
      const conf = fs.readFileSync(path.join(REPO, 'conf.d/sites/front-door.conf'), 'utf8');
      site = conf.replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${this.port};`)
        .replace('127.0.0.1:3000', `127.0.0.1:${this.frontDoor}`)
        .replace('/var/log/nginx/video-ocr.log', `${d}/logs/access.log`);
      for (const s of ['127.0.0.1:3000', 'listen 80;', '/var/log/nginx/']) {
        if (site.includes(s)) throw new Error(`conf.d/sites/front-door.conf: "${s}" left`);
      }
    } else {
      // the demo site of "make run", on our own port
      const demo = fs.readFileSync(path.join(REPO, 'conf.d/demo.inc'), 'utf8');
      site = demo.replace(/listen\s+127\.0\.0\.1:8080\s*;/, `listen 127.0.0.1:${this.port};`);
      if (site === demo) throw new Error('conf.d/demo.inc: no "listen 127.0.0.1:8080;" to move');
    }
    if (this.maxBodySize) {
      // the upload limit of conf.d/video-ocr-locations.inc (2g), lowered
      // so that a test can pass it with a small file
      const inc = fs.readFileSync(path.join(REPO, 'conf.d/video-ocr-locations.inc'), 'utf8');
      const low = inc.replace(/client_max_body_size\s+\S+;/, `client_max_body_size ${this.maxBodySize};`);
      if (low === inc) throw new Error('conf.d/video-ocr-locations.inc: no client_max_body_size');
      fs.writeFileSync(path.join(d, 'locations-low-limit.inc'), low);
      site = site.replace('include conf.d/video-ocr-locations.inc;', 'include locations-low-limit.inc;');
    }
    fs.writeFileSync(path.join(d, 'site.inc'), site);

    fs.writeFileSync(path.join(d, 'nginx.conf'), `# generated by t/browser/lib/stack.mjs
load_module ${this.module};
worker_processes 2;
error_log ${d}/logs/error.log info;
pid ${d}/logs/nginx.pid;
thread_pool video_ocr threads=4 max_queue=1024;
events { worker_connections 256; }
http {
    include /etc/nginx/mime.types;
    video_ocr_ledger ${d}/data/ledger.db;
    video_ocr_store ${d}/store;
    video_ocr_thread_pool video_ocr;
    video_ocr_key_hash_secret "browser-tests";
    client_body_temp_path ${d}/store/.incoming;
    ${this.httpExtra}
    include conf.d/video-ocr-log.conf;
    include site.inc;
}
`);
  }

  // Rows of a query on the ledger, with Debian's sqlite3 shell.
  rows(sql) {
    const out = execFileSync('sqlite3', ['-json', '-cmd', '.timeout 5000', this.ledger, sql], { encoding: 'utf8' });
    return out.trim() === '' ? [] : JSON.parse(out);
  }

  accessLog() {
    try {
      return fs.readFileSync(path.join(this.dir, 'logs/access.log'), 'utf8');
    } catch (e) {
      return '';
    }
  }

  errorLog() {
    try {
      return fs.readFileSync(path.join(this.dir, 'logs/error.log'), 'utf8');
    } catch (e) {
      return '';
    }
  }

  async stop() {
    if (this.worker && this.worker.exitCode === null && this.worker.signalCode === null && this.worker.pid) {
      this.worker.kill('SIGTERM');
      const t = setTimeout(() => this.worker.kill('SIGKILL'), 10000);
      await this.workerExit;
      clearTimeout(t);
    }
    if (this.nginxPid) {
      const pid = this.nginxPid;
      this.nginxPid = null;
      try { process.kill(pid, 'SIGQUIT'); } catch (e) { /* gone */ }
      for (let i = 0; i < 200; i++) {
        try { process.kill(pid, 0); } catch (e) { break; }
        await sleep(50);
      }
      try { process.kill(pid, 'SIGKILL'); } catch (e) { /* gone */ }
    }
    if (this.dir && !this.keep) fs.rmSync(this.dir, { recursive: true, force: true });
    else if (this.dir) console.log(`# kept ${this.dir}`);
  }
}

// Holds the ledger's write lock (BEGIN IMMEDIATE) from another process, as
// a long transaction of another writer would, until release() is called.
// Perl's DBD::SQLite, which the Perl suites use too.
export async function holdWriteLock(ledger) {
  const child = spawn('perl', ['-MDBI', '-e', `
    my $d = DBI->connect("dbi:SQLite:dbname=$ARGV[0]", "", "", { RaiseError => 1 });
    $d->sqlite_busy_timeout(10000);
    $d->do("BEGIN IMMEDIATE");
    $| = 1;
    print "locked\\n";
    <STDIN>;
    $d->do("COMMIT");
    print "released\\n";
  `, ledger], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (s) => {
      out += s;
      if (out.includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited ${code}`)));
  });
  return {
    release: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.stdin.end('\n');
    }),
  };
}
