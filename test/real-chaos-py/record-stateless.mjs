// Records test/fixtures/real-chaos-py/<mode>-seed-N/ (the stateless profile): the Python MCPServer stateless and/or with JSON responses under load with faults, called by Python and TypeScript SDK clients at once.
// The Python SDK's MCPServer (test/real-chaos-py/py_server.py MODE: `stateless-json` = stateless_http and
// json_response, `stateless` = stateless_http with SSE responses, `json` = stateful with json_response), on the 2025
// protocol line (initialize; in stateless mode no session id), behind a seeded fault hop; 5 Python SDK 2.3.0 clients
// (py_clients.py, legacy mode, read timeout 1.5 s) and 3 TypeScript SDK 1.32.2 clients (in this process, timeout 1.5 s)
// call at once, each with an app-level retry policy (up to 3 attempts, 0.25 s then 0.5 s, or Retry-After + 0.1 s);
// in `json` mode (sessions) an app connects again after its session's 404 (the Python apps as py_clients.py's sessions
// profile does: the hop faults only tools/call, so their named connect POSTs pass).
// Chain: clients -> client recording proxy (side client: client.ndjson) -> HAR proxy -> record proxy (proxy.ndjson)
// -> fault hop -> server recording proxy (side server: server.ndjson) -> the Python server. Every tools/call POST is
// named by its app (x-chaos-attempt: <key>#<attempt>#<post>); the hop draws its fault from that name and the seed:
// pass, 503 or 429 with or without Retry-After: 1, the socket reset before forwarding or after the tool ran (`reset`,
// `reset-after`), the response cut (`cut`: a JSON body ended cleanly halfway, an SSE stream ended before the response
// event), truncated (`truncated`: a JSON body's first half under its full Content-Length, then the socket reset; an SSE
// stream's socket reset before the response event), the response held 2.2 s, past the callers' 1.5 s timeout
// (`late`), a 150 ms delay. 4 s in, the server is killed (SIGKILL) and started again on the same port; the hop holds
// new requests until it is up. observed.json: every call, its attempts' POSTs (fault, what the hop did, status), what
// the caller got, how many times the tool ran; every connect-time and out-of-attempt request.
// Usage: npm run build && node test/real-chaos-py/record-stateless.mjs MODE SEED
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
const { freePort, listen, sleep, readBody, startHarProxy, startRecordProxy, stopAfter, describeError } = await import(`${R}/test/helpers/loopback.mjs`);
const { rng, hash, TOOLS } = await import(`${R}/test/helpers/chaos-record.mjs`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);

const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const [MODE, SEED_ARG] = process.argv.slice(2);
if (!['stateless-json', 'stateless', 'json'].includes(MODE)) throw new Error(`mode: stateless-json, stateless or json, not ${MODE}`);
const SEED = Number(SEED_ARG ?? 1);
const PY_CLIENTS = 5;
const TS_CLIENTS = 3;
const CALLS = 12;
stopAfter(150_000);

const d = `${R}/test/fixtures/real-chaos-py/${MODE}-seed-${SEED}`;
mkdirSync(d, { recursive: true });
const LOGS = ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson'];
for (const f of [...LOGS, ...LOGS.map((x) => `${x}.gz`), 'observed.json']) rmSync(`${d}/${f}`, { force: true });

/** The Python MCPServer in MODE as a child process; ran() counts its RAN_FILE per call key. */
async function startPyServer(port, ranFile) {
  const proc = spawn(PYTHON, [`${R}/test/real-chaos-py/py_server.py`, String(port), ranFile, MODE], { stdio: ['ignore', 'ignore', 'ignore'] });
  for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'DELETE' }); break; } catch {} }
  return { stop: (sig) => new Promise((r) => { if (proc.exitCode !== null) return r(); proc.once('exit', r); proc.kill(sig); }) };
}
const port = await freePort();
const ranFile = join(mkdtempSync(join(tmpdir(), 'chaos-py-stateless-')), 'ran.txt');
writeFileSync(ranFile, '');
let py = await startPyServer(port, ranFile);
const server = await startRecordingProxy({ listen: '127.0.0.1:0', target: `http://127.0.0.1:${port}`, out: `${d}/server.ndjson`, side: 'server' });
const target = new URL(server.url);

function drawFault(tag) {
  const x = rng(SEED * 1000003 + hash(tag))();
  const table = [[0.25, 'pass'], [0.31, '503'], [0.36, '503-ra'], [0.42, '429-ra'], [0.47, '429'], [0.55, 'reset'], [0.63, 'reset-after'], [0.73, 'cut'], [0.81, 'truncated'], [0.91, 'late']];
  return table.find(([p]) => x < p)?.[1] ?? 'delay';
}
const faults = {};
const acts = {};
const held = {};
// The status the server answered each named request with (`upstream` in observed.json).
const ups = {};
let restarting;
const restarts = [];
const hop = await listen(async (req, res) => {
  const raw = await readBody(req);
  const tag = req.headers['x-chaos-attempt'];
  let rpc;
  try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
  const fault = typeof tag === 'string' && req.method === 'POST' && rpc?.method === 'tools/call' ? drawFault(tag) : 'pass';
  if (typeof tag === 'string') faults[tag] = fault;
  const act = (a) => { if (typeof tag === 'string') acts[tag] = a; };
  if (fault === '503' || fault === '503-ra' || fault === '429' || fault === '429-ra') {
    act(fault);
    const status = Number(fault.slice(0, 3));
    res.writeHead(status, { 'content-type': 'text/plain', ...(fault.endsWith('-ra') ? { 'retry-after': '1' } : {}) }).end(status === 503 ? 'Service Unavailable' : 'Too Many Requests');
    return;
  }
  if (fault === 'reset') { act('reset'); req.socket.destroy(); return; }
  if (fault === 'delay') await sleep(150);
  const started = Date.now();
  // While the server restarts, requests wait for the new one (`held` in observed.json).
  if (restarting) { if (typeof tag === 'string') held[tag] = true; await restarting; }
  const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
  let closed = false;
  // `lost`: the server went away under the request (the restart), not the client closing it nor the hop's own fault.
  const lost = () => { if (!closed) act('lost'); res.destroy(); };
  up.on('error', lost);
  res.on('close', () => { closed = true; up.destroy(); });
  up.on('response', (ures) => {
    if (typeof tag === 'string') ups[tag] = ures.statusCode;
    ures.on('error', lost);
    const headers = { ...ures.headers };
    const sse = String(headers['content-type'] ?? '').startsWith('text/event-stream');
    if (fault === 'pass' || fault === 'delay' || !rpc || rpc.method !== 'tools/call') {
      act(fault);
      res.writeHead(ures.statusCode, headers);
      ures.pipe(res);
      return;
    }
    const chunks = [];
    if (sse && fault !== 'late') {
      // cut / truncated / reset-after on an SSE response: whole events pass until the response event, then the fault.
      delete headers['content-length'];
      let head = false;
      let buf = '';
      let held = false;
      ures.on('data', (chunk) => {
        if (held) return;
        buf += chunk.toString('utf8');
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0 || (i = buf.indexOf('\r\n\r\n')) >= 0) {
          const sep = buf.startsWith('\r\n\r\n', i) ? 4 : 2;
          const ev = buf.slice(0, i + sep);
          buf = buf.slice(i + sep);
          if (/"result"|"error"/.test(ev)) {
            held = true;
            closed = true;
            act(fault);
            if (fault === 'reset-after' && !head) { req.socket.destroy(); return; }
            if (!head) { res.writeHead(ures.statusCode, headers); res.flushHeaders(); }
            if (fault === 'cut') { res.end(); up.destroy(); } else req.socket.destroy();
            return;
          }
          if (!head && fault !== 'reset-after') { head = true; res.writeHead(ures.statusCode, headers); res.flushHeaders(); }
          if (head) res.write(ev);
        }
      });
      ures.on('end', () => { if (!held && !res.writableEnded) { act('ended'); if (!head) res.writeHead(ures.statusCode, headers); res.end(buf); } });
      return;
    }
    ures.on('data', (c) => chunks.push(c));
    ures.on('end', async () => {
      const body = Buffer.concat(chunks);
      closed = true;
      if (fault === 'reset-after') { act('reset-after'); req.socket.destroy(); return; }
      if (fault === 'late') {
        const wait = 2200 - (Date.now() - started);
        if (wait > 0) await sleep(wait);
        if (res.destroyed) { act('late-closed'); return; }
        act('late');
        res.writeHead(ures.statusCode, headers).end(body);
        return;
      }
      const half = body.subarray(0, Math.floor(body.length / 2));
      act(fault);
      if (fault === 'cut') {
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.end(half);
      } else {
        // truncated: the full Content-Length, half the bytes, then the socket reset.
        res.writeHead(ures.statusCode, headers);
        res.write(half, () => setTimeout(() => req.socket.destroy(), 20));
      }
    });
  });
  up.end(raw);
});

const rp = await startRecordProxy(hop.url, `${d}/proxy.ndjson`);
const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
const cp = await startRecordingProxy({ listen: '127.0.0.1:0', target: har.url, out: `${d}/client.ndjson`, side: 'client' });

// The TypeScript apps: one Client each (a new one after it fails to connect), 12 calls, the same policy as the Python apps.
const names = Object.keys(TOOLS);
const tsCalls = [];
const tsEvents = [];
async function runTsClient(ci) {
  const r = rng(SEED * 7919 + 100 + ci);
  const name = `ts-chaos-app-${ci}`;
  let current;
  const byId = new Map();
  const fetchSpy = async (url, init = {}) => {
    const headers = new Headers(init.headers);
    let m;
    try { m = typeof init.body === 'string' ? JSON.parse(init.body) : undefined; } catch {}
    const entry = { http: init.method ?? 'GET', method: m?.method ?? null, id: m?.id ?? null, session: headers.get('mcp-session-id'), wall: Date.now() / 1000 };
    if (m?.method === 'tools/call' && current) {
      entry.tag = `${current.key}#${current.n}#${current.posts.length + 1}`;
      current.posts.push(entry);
      byId.set(m.id, current);
    } else if (m?.method === 'notifications/cancelled' && byId.has(m.params?.requestId)) {
      const a = byId.get(m.params.requestId);
      entry.cancels = m.params.requestId;
      entry.tag = `${a.key}#${a.n}#cancel`;
      a.posts.push(entry);
    } else {
      entry.client = name;
      tsEvents.push(entry);
    }
    if (entry.tag) headers.set('x-chaos-attempt', entry.tag);
    try {
      const res = await fetch(url, { ...init, headers });
      entry.status = res.status;
      if (res.headers.get('retry-after')) entry.retryAfter = res.headers.get('retry-after');
      return res;
    } catch (e) {
      entry.fetchError = String(e?.cause?.code ?? e?.message ?? e);
      throw e;
    }
  };
  const plan = Array.from({ length: CALLS }, (_, k) => ({ tool: names[Math.floor(r() * names.length)], key: `ts${SEED}-c${ci}-k${k}`, ms: 10 + Math.floor(r() * 390), pause: r() * 0.06 }));
  let c;
  // A Client that connected (initialize, notifications/initialized, tools/list), up to 10 tries 0.2 s apart.
  const connect = async () => {
    for (let tries = 0; tries < 10; tries++) {
      const cl = new Client({ name, version: '1.0.0' });
      const t = new StreamableHTTPClientTransport(new URL(`${cp.url}/mcp`), { fetch: fetchSpy, reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1, maxRetries: 0 } });
      try { await cl.connect(t); await cl.listTools(); return cl; } catch (e) { tsEvents.push({ client: name, connectError: describeError(e) }); await cl.close().catch(() => {}); await sleep(200); }
    }
    throw new Error(`${name}: no connect in 10 tries`);
  };
  c = await connect();
  for (const p of plan) {
    const call = { client: name, key: p.key, tool: p.tool, arguments: { key: p.key, ms: p.ms }, attempts: [] };
    tsCalls.push(call);
    for (let n = 1; n <= 3; n++) {
      current = { key: p.key, n, posts: [] };
      const started = Date.now();
      let got;
      try {
        const res = await c.callTool({ name: p.tool, arguments: call.arguments }, undefined, { timeout: 1500, ...(p.tool === 'export_report' ? { onprogress: () => {} } : {}) });
        got = { ok: true, isError: res.isError === true, text: res.content?.[0]?.text };
      } catch (e) {
        got = { ok: false, error: describeError(e) };
      }
      const a = current;
      current = undefined;
      if (!got.ok && got.error.code === 404) {
        // The session is gone (the stateful server restarted): the TS SDK does not initialize again; the app does.
        got.reconnected = true;
        tsEvents.push({ client: name, lostAt: `${p.key}#${n}` });
        await c.close().catch(() => {});
        c = await connect();
      }
      call.attempts.push({ n, posts: a.posts, ms: Date.now() - started, doneWall: Date.now() / 1000, ...got });
      if (got.ok && !got.isError) break;
      const ra = a.posts.find((x) => x.retryAfter)?.retryAfter;
      if (n < 3) await sleep(ra ? Math.max(Number(ra) * 1000 + 100, 250 * n) : 250 * n);
    }
    await sleep(p.pause * 1000);
  }
  await sleep(1600);
  await c?.close().catch(() => {});
}

const tmp = join(mkdtempSync(join(tmpdir(), 'chaos-py-stateless-')), 'calls.json');
const t0 = Date.now();
const restartTimer = setTimeout(() => {
  restarting = (async () => {
    const at = Date.now();
    await py.stop('SIGKILL');
    py = await startPyServer(port, ranFile);
    restarts.push({ wall: at / 1000, upWall: Date.now() / 1000 });
    restarting = undefined;
  })();
}, 4000);
const [{ stderr }] = await Promise.all([
  promisify(execFile)(PYTHON, [`${R}/test/real-chaos-py/py_clients.py`, `${cp.url}/mcp`, String(SEED), String(PY_CLIENTS), String(CALLS), tmp, MODE === 'json' ? 'sessions' : 'calls'], { timeout: 140_000, maxBuffer: 64 << 20 }),
  Promise.all(Array.from({ length: TS_CLIENTS }, (_, i) => runTsClient(i + 1))),
]);
clearTimeout(restartTimer);
await restarting;
await sleep(2500);
const pyOut = JSON.parse(readFileSync(tmp, 'utf8'));
const ran = {};
for (const k of readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)) ran[k] = (ran[k] ?? 0) + 1;
const calls = [...pyOut.calls, ...tsCalls];
const events = [...pyOut.events, ...tsEvents];
const mark = (p) => { if (p.tag) { p.fault = faults[p.tag] ?? 'none'; p.did = acts[p.tag] ?? 'none'; if (held[p.tag]) p.held = true; if (ups[p.tag] !== undefined) p.upstream = ups[p.tag]; } };
for (const call of calls) {
  for (const a of call.attempts) for (const p of a.posts) mark(p);
  call.ran = ran[call.key] ?? 0;
}
await cp.close();
await har.close();
await rp.stop();
await hop.close();
await server.close();
await py.stop('SIGTERM');
for (const f of LOGS) { writeFileSync(`${d}/${f}.gz`, gzipSync(readFileSync(`${d}/${f}`), { level: 9 })); rmSync(`${d}/${f}`); }
const lines = (xs) => xs.map((x) => JSON.stringify(x)).join(',\n');
writeFileSync(`${d}/observed.json`, `{"seed": ${SEED}, "profile": "stateless", "mode": "${MODE}", "sdk": "mcp 2.3.0 (Python) server and clients, @modelcontextprotocol/sdk 1.32.2 clients", "tools": ${JSON.stringify(TOOLS)},\n"restarts": ${JSON.stringify(restarts)},\n"events": [\n${lines(events)}],\n"calls": [\n${lines(calls)}]}\n`);
process.stderr.write(`${stderr.split('\n').slice(-10).join('\n')}${MODE} seed ${SEED}: ${calls.length} calls, ${calls.reduce((s, c) => s + c.attempts.length, 0)} attempts, ${Date.now() - t0} ms\n`);
process.exit(0);
