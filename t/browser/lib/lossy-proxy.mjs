// A TCP proxy for the lost-response test, between the browser and nginx.
// It relays every byte both ways, except that it loses the first receipt
// of a new job: when the head of a response is "HTTP/1.x 202" without
// "Idempotent-Replayed", it closes both connections instead of relaying
// it.  The request has reached nginx in full and nginx has answered, so
// the upload is admitted and its receipt committed (nginx answers 202 only
// after the commit); the browser sees the connection die with no answer,
// exactly like a response lost on the way.  Nothing in nginx, the module
// or the worker is changed or imitated.
//
// It looks at the first response of each connection only: the browser
// tests run nginx with "keepalive_timeout 0", so every connection carries
// one request and one response.

import net from 'node:net';

export class LossyProxy {
  constructor(upstreamPort, { drops = 1 } = {}) {
    this.upstreamPort = upstreamPort;
    this.dropsLeft = drops;
    this.dropped = [];     // the heads of the responses that were lost
    this.requests = [];    // the request line of every connection
    this.sockets = new Set();
  }

  listen() {
    this.server = net.createServer((client) => this.connection(client));
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => {
        this.port = this.server.address().port;
        resolve(this);
      });
    });
  }

  get url() { return `http://127.0.0.1:${this.port}`; }

  connection(client) {
    const upstream = net.connect(this.upstreamPort, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    let head = Buffer.alloc(0);  // response bytes held until the head is complete
    let inspecting = true;
    let sawRequest = false;

    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };

    client.on('data', (chunk) => {
      if (!sawRequest) {
        sawRequest = true;
        this.requests.push(chunk.toString('latin1').split('\r\n', 1)[0]);
      }
      upstream.write(chunk);
    });

    upstream.on('data', (chunk) => {
      if (!inspecting) {
        client.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0 && head.length < 65536) return;
      inspecting = false;
      const text = head.subarray(0, end < 0 ? head.length : end).toString('latin1');
      if (this.dropsLeft > 0 && /^HTTP\/1\.[01] 202 /.test(text)
          && !/^idempotent-replayed:/im.test(text)) {
        this.dropsLeft--;
        this.dropped.push(text);
        close();
        return;
      }
      client.write(head);
    });

    client.on('end', () => upstream.end());
    upstream.on('end', () => {
      if (inspecting && head.length) client.write(head);
      client.end();
    });
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
  }

  close() {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}


// A TCP proxy that cuts uploads: it relays every byte both ways and
// counts the bytes it forwards from the client, and when that count
// reaches the next of cutAt (bytes, in order) it forwards up to it and
// closes both connections, as a phone losing its network would.  The
// bytes forwarded after all the cuts say what resuming cost.
//
// With cutParts: { parts: n, after: bytes }, it cuts instead the first
// PATCH of each of the first n upload resources that get one, once that
// connection has forwarded `after` bytes: in the middle of n of the
// partial uploads of a parallel upload, whichever of them the client
// sends when.  cutRequests lists the request lines it cut.
export class CuttingProxy {
  constructor(upstreamPort, { cutAt = [], cutParts = null } = {}) {
    this.upstreamPort = upstreamPort;
    this.cutAt = [...cutAt].sort((a, b) => a - b);
    this.cutParts = cutParts;
    this.forwarded = 0;    // client -> nginx, every connection
    this.cuts = [];        // the forwarded count at each cut
    this.cutRequests = []; // the request line of each cut connection
    this.requests = [];    // the request line of every connection
    this.sockets = new Set();
  }

  listen() {
    this.server = net.createServer((client) => this.connection(client));
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => {
        this.port = this.server.address().port;
        resolve(this);
      });
    });
  }

  get url() { return `http://127.0.0.1:${this.port}`; }

  connection(client) {
    const upstream = net.connect(this.upstreamPort, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    let first = true;
    let line = '';
    let mine = 0;          // bytes of this connection forwarded
    let cut = false;       // nothing more of this connection goes through
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    const cutHere = (chunk, keep) => {
      cut = true;
      this.forwarded += keep;
      this.cuts.push(this.forwarded);
      this.cutRequests.push(line);
      client.pause();
      upstream.write(chunk.subarray(0, keep), () => close());
    };
    client.on('data', (chunk) => {
      if (cut) return;
      if (first) {
        first = false;
        line = chunk.toString('latin1').split('\r\n', 1)[0];
        this.requests.push(line);
      }
      if (this.cutParts) {
        const p = this.cutParts;
        const target = line.split(' ')[1];
        if (line.startsWith('PATCH ') && mine + chunk.length >= p.after
            && this.cutRequests.length < p.parts
            && !this.cutRequests.some((l) => l.split(' ')[1] === target)) {
          cutHere(chunk, Math.max(p.after - mine, 0));
          return;
        }
      } else {
        const next = this.cutAt[0];
        if (next !== undefined && this.forwarded + chunk.length >= next) {
          this.cutAt.shift();
          cutHere(chunk, next - this.forwarded);
          return;
        }
      }
      mine += chunk.length;
      this.forwarded += chunk.length;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('end', () => upstream.end());
    upstream.on('end', () => client.end());
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
  }

  close() {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
