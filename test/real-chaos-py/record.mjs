// Records test/fixtures/real-chaos-py/seed-N/ (chaos under load with the Python SDK): the SDK 1.32.2 McpServer (stateful,
// recordingHandler) with the chaos audit's five annotated tools, a seeded fault hop in front of it, and 8 concurrent
// Python SDK (mcp 2.3.0) clients (test/real-chaos-py/py_clients.py, one Client and httpx2 client each) with an app-level
// retry policy. observed.json is the ground truth: every app call, each attempt's POSTs (JSON-RPC method, id, session,
// status, the fault the hop drew), what the Python caller got, and how many times the server really ran the tool.
// Chain: Python clients -> client recording proxy (side client: client.ndjson) -> HAR proxy -> record proxy
// (proxy.ndjson) -> fault hop -> server (server.ndjson). The Python SDK has no recording fetch: its view is the
// recording proxy right in front of it (as in test/real-audit5-py).
// Usage: npm run build && node test/real-chaos-py/record.mjs SEED
// `--profile sessions SEED` records test/fixtures/real-chaos-py/sessions-seed-N/: sessions lost under load. The app
// names its connect's POSTs too; the hop faults initialize, notifications/initialized and tools/list (503, or the socket
// reset before any response), resets tools/call sockets (before forwarding, or after the tool ran), and loses sessions
// (the TS server forgets the session, as after a restart, then answers the POST itself: its 404); the app connects
// again (a new Client, a new session) after a failed connect or a lost session and retries the call. observed.json's
// connect events carry their POSTs with the fault each drew.
// `--profile modern SEED` records test/fixtures/real-chaos-py/modern-seed-N/: the pyserver profile's Python server and
// faults, the Python clients in mode="auto", which speaks 2026-07-28 to it (stateless: no session, no initialize).
// `--profile streams SEED` records test/fixtures/real-chaos-py/streams-seed-N/: the Python server with an event store
// (py_server.py streams: a priming event, retry 250 ms), 6 Python apps with 3 workers each calling at once on one Client
// (read timeout 2 s); the hop cuts tools/call SSE streams before their response (ended cleanly, or the socket reset),
// stalls some (the SDK times out and sends notifications/cancelled), refuses (503) some POSTs, resumption GETs and
// standalone GETs, resets or cuts again resumptions, cuts or resets standalone GETs, refuses (503) or delays (1 s) the
// cancels, and restarts the Python server once (SIGKILL, the same port, 4 s in; new requests wait for it): the old
// sessions then get the Python server's own 404. Every request is named by the app (py_clients.py run_stream_client).
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingHandler, startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
const { freePort, listen, sleep, sessionHandler, readBody, startHarProxy, startRecordProxy, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { rng, hash, TOOLS } = await import(`${R}/test/helpers/chaos-record.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const argv = process.argv.slice(2);
// `--profile pyserver SEED`: the Python SDK's own MCPServer (test/real-chaos-py/py_server.py) instead of the TS one,
// its view recorded by a recording proxy (side server) in front of it: test/fixtures/real-chaos-py/pyserver-seed-N/.
const PROFILE = argv[0] === '--profile' ? argv[1] : 'tsserver';
const MODERN = PROFILE === 'modern';
const STREAMS = PROFILE === 'streams';
const PYSERVER = PROFILE === 'pyserver' || MODERN || STREAMS;
const SESSIONS = PROFILE === 'sessions';
if (!['tsserver', 'pyserver', 'sessions', 'modern', 'streams'].includes(PROFILE)) throw new Error(`unknown profile ${PROFILE}`);
const SEED = Number((argv[0] === '--profile' ? argv[2] : argv[0]) ?? 1);
const CLIENTS = STREAMS ? 6 : 8;
const CALLS_PER_CLIENT = SESSIONS ? 10 : STREAMS ? 12 : 16;
stopAfter(180_000);


const d = `${R}/test/fixtures/real-chaos-py/${PROFILE === 'tsserver' ? '' : `${PROFILE}-`}seed-${SEED}`;
mkdirSync(d, { recursive: true });
const LOGS = ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson'];
for (const f of [...LOGS, ...LOGS.map((x) => `${x}.gz`), 'observed.json']) rmSync(`${d}/${f}`, { force: true });

// ran[key] counts the tools' real runs per app call key (the tools and their annotations: test/helpers/chaos-record.mjs).
const ran = {};
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const build = () => {
  const s = new McpServer({ name: 'chaos-py', version: '1.0.0' });
  for (const [name, annotations] of Object.entries(TOOLS)) {
    s.registerTool(name, { inputSchema: { key: z.string(), ms: z.number() }, annotations }, async ({ key, ms }, extra) => {
      if (name === 'export_report' && extra._meta?.progressToken !== undefined) {
        for (let i = 1; i <= 3; i++) {
          await sleep(ms / 3);
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: 3 } });
        }
      } else await sleep(ms);
      ran[key] = (ran[key] ?? 0) + 1;
      return text(`${name} ${key} done`);
    });
  }
  return s;
};

let server;
let pyServer;
let h;
if (PYSERVER) {
  pyServer = await startPyServer();
  server = await startRecordingProxy({ listen: '127.0.0.1:0', target: pyServer.url, out: `${d}/server.ndjson`, side: 'server' });
} else {
  h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: build });
  server = await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }));
}

/** The Python MCPServer as a child process on a free port; ran() is its RAN_FILE counted per call key. */
async function startPyServer(port, ranFile) {
  port ??= await freePort();
  if (!ranFile) { ranFile = join(mkdtempSync(join(tmpdir(), 'chaos-py-server-')), 'ran.txt'); writeFileSync(ranFile, ''); }
  const proc = spawn(PYTHON, [`${R}/test/real-chaos-py/py_server.py`, String(port), ranFile, ...(STREAMS ? ['streams'] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }); break; } catch {} }
  return { url: `http://127.0.0.1:${port}`, port, ranFile, ran: () => { const out = {}; for (const k of readFileSync(ranFile, 'utf8').split('\n').filter(Boolean)) out[k] = (out[k] ?? 0) + 1; return out; },
    stop: (sig = 'SIGTERM') => new Promise((r) => { if (proc.exitCode !== null) return r(); proc.once('exit', r); proc.kill(sig); }) };
}

// The fault hop: for each tools/call POST the app named (x-chaos-attempt: key#attempt#post), a fault drawn from a
// generator seeded by (SEED, that name), so the faults do not depend on the order in which concurrent POSTs arrive.
// Other requests (initialize, notifications, tools/list, GET, DELETE) pass, but in the sessions profile, where the app
// names its connect's POSTs too.
/** The sessions profile's faults (as test/real-chaos/record.mjs --profile sessions draws them). */
function drawSessionFault(method, x) {
  if (method === 'initialize') return x < 0.1 ? '503' : x < 0.16 ? 'reset' : 'pass';
  if (method === 'notifications/initialized') return x < 0.1 ? '503' : 'pass';
  if (method === 'tools/list') return x < 0.08 ? '503' : x < 0.15 ? 'reset' : 'pass';
  if (x < 0.45) return 'pass';
  if (x < 0.6) return 'reset';
  if (x < 0.72) return 'reset-after';
  if (x < 0.87) return '404';
  return 'delay';
}
const faults = {};
const target = new URL(server.url);
function drawFault(tag, method) {
  const x = rng(SEED * 1000003 + hash(tag))();
  if (SESSIONS) return drawSessionFault(method, x);
  if (x < 0.30) return 'pass';
  if (x < 0.38) return '503';
  if (x < 0.45) return '429';
  if (x < 0.55) return '502-after';
  if (x < 0.65) return 'cut';
  if (x < 0.75) return 'stall';
  if (x < 0.83) return 'reset';
  if (x < 0.91) return 'reset-after';
  return 'delay';
}
const hop = await listen(async (req, res) => {
  if (STREAMS) return streamsHop(req, res);
  const raw = await readBody(req);
  let rpc;
  try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
  let fault = 'pass';
  const tag = req.headers['x-chaos-attempt'];
  if (req.method === 'POST' && (rpc?.method === 'tools/call' || SESSIONS) && typeof tag === 'string') {
    fault = drawFault(tag, rpc?.method);
    faults[tag] = fault;
  }
  if (fault === '404') {
    // The server forgets the session (as after a restart), then answers this POST itself (its 404).
    const sid = req.headers['mcp-session-id'];
    const t = h.transports.get(sid);
    h.transports.delete(sid);
    await t?.close().catch(() => {});
  }
  if (fault === 'reset') { req.socket.destroy(); return; }
  if (fault === '503') { res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'); return; }
  if (fault === '429') { res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Too Many Requests'); return; }
  if (fault === 'delay') await sleep(150);
  const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
  let stalled = false;
  up.on('response', (ures) => {
    if (fault === 'reset-after') {
      // The server ran the tool and answered; the hop resets the client's socket before any byte of it.
      ures.resume();
      ures.on('end', () => req.socket.destroy());
      return;
    }
    if (fault === '502-after') {
      // The server ran the tool and answered; the hop drops that answer and says 502.
      ures.resume();
      ures.on('end', () => res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway'));
      return;
    }
    const headers = { ...ures.headers };
    if (fault === 'cut' || fault === 'stall') delete headers['content-length'];
    res.writeHead(ures.statusCode, headers);
    res.flushHeaders();
    ures.on('data', (chunk) => {
      if (fault === 'cut' && /"result"|"error"/.test(chunk.toString('utf8'))) {
        // End the stream cleanly before the response event (progress before it passes).
        res.end();
        up.destroy();
        return;
      }
      if (fault === 'stall' && /"result"|"error"/.test(chunk.toString('utf8'))) {
        // Hold the stream open without the response event (progress before it passes): the caller's read timeout
        // (1.5 s) ends the call; the hop ends the stream 4 s later if the client has not closed it.
        stalled = true;
        setTimeout(() => { if (!res.writableEnded) res.end(); }, 4000).unref();
        return;
      }
      if (!res.writableEnded) res.write(chunk);
    });
    ures.on('end', () => { if (!res.writableEnded && !stalled) res.end(); });
  });
  up.end(raw);
});

// The streams profile's faults, by the kind of request the app named (x-chaos-attempt `…#call`, `…#resume#k`,
// `…#cancel`, `…#stream#k`); DELETEs and the connect's POSTs pass.
function drawStreamFault(tag) {
  const x = rng(SEED * 1000003 + hash(tag))();
  if (tag.endsWith('#call')) return x < 0.35 ? 'pass' : x < 0.45 ? '503' : x < 0.65 ? 'cut' : x < 0.75 ? 'reset-mid' : x < 0.87 ? 'stall' : 'delay';
  if (tag.includes('#resume#')) return x < 0.5 ? 'pass' : x < 0.65 ? '503' : x < 0.8 ? 'reset' : 'cut';
  if (tag.endsWith('#cancel')) return x < 0.4 ? 'pass' : x < 0.7 ? '503' : 'late';
  if (tag.includes('#stream#')) return x < 0.4 ? 'pass' : x < 0.6 ? '503' : x < 0.8 ? 'cut' : 'reset';
  return 'pass';
}
// What the hop really did with each streams-profile request: `cut`, `reset-mid` and `stall` only when the response
// event came (else the stream ended first: `ended`), `lost` when the server went away under it (the restart).
const acts = {};
let restarting;
const restarts = [];
async function streamsHop(req, res) {
  const raw = await readBody(req);
  const tag = req.headers['x-chaos-attempt'];
  const fault = typeof tag === 'string' ? drawStreamFault(tag) : 'pass';
  if (typeof tag === 'string') faults[tag] = fault;
  const act = (a) => { if (typeof tag === 'string') acts[tag] = a; };
  if (fault === '503') { act('503'); res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'); return; }
  if (fault === 'reset') { act('reset'); req.socket.destroy(); return; }
  if (fault === 'delay') await sleep(150);
  if (fault === 'late') await sleep(1000);
  // While the server restarts, requests wait for the new one.
  if (restarting) await restarting;
  const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
  // `lost`: the server went away under the request (not the client closing it, nor the hop's own cut).
  let closed = false;
  const lost = () => { if (!closed) act('lost'); res.destroy(); };
  up.on('error', lost);
  res.on('close', () => { closed = true; up.destroy(); });
  up.on('response', (ures) => {
    ures.on('error', lost);
    const headers = { ...ures.headers };
    const sse = String(headers['content-type'] ?? '').startsWith('text/event-stream');
    if (!sse || !['cut', 'reset-mid', 'stall'].includes(fault)) {
      if (sse && (fault === 'cut' || fault === 'reset')) {
        // A standalone GET stream: ended cleanly or its socket reset 500 ms after it opened.
        act('ended');
        setTimeout(() => { if (res.writableEnded || res.destroyed) return; act(fault); closed = true; if (fault === 'cut') { res.end(); up.destroy(); } else req.socket.destroy(); }, 500).unref();
      } else act(['cut', 'reset-mid', 'stall'].includes(fault) ? 'ended' : fault);
      res.writeHead(ures.statusCode, headers);
      ures.pipe(res);
      return;
    }
    delete headers['content-length'];
    res.writeHead(ures.statusCode, headers);
    res.flushHeaders();
    let held = false;
    let buf = '';
    ures.on('data', (chunk) => {
      if (held || res.writableEnded) return;
      buf += chunk.toString('utf8');
      // Whole SSE events only: the ones before the response event pass, then the fault.
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0 || (i = buf.indexOf('\r\n\r\n')) >= 0) {
        const sep = buf.startsWith('\r\n\r\n', i) ? 4 : 2;
        const ev = buf.slice(0, i + sep);
        buf = buf.slice(i + sep);
        if (/"result"|"error"/.test(ev)) {
          held = true;
          closed = true;
          act(fault);
          if (fault === 'cut') { res.end(); up.destroy(); }
          else if (fault === 'reset-mid') req.socket.destroy();
          else setTimeout(() => { if (!res.writableEnded) res.end(); up.destroy(); }, 3000).unref();
          return;
        }
        res.write(ev);
      }
    });
    ures.on('end', () => { if (!held && !res.writableEnded) { act('ended'); res.end(buf); } });
  });
  up.end(raw);
}

const rp = await startRecordProxy(hop.url, `${d}/proxy.ndjson`);
const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
const cp = await startRecordingProxy({ listen: '127.0.0.1:0', target: har.url, out: `${d}/client.ndjson`, side: 'client' });

const tmp = join(mkdtempSync(join(tmpdir(), 'chaos-py-')), 'calls.json');
const t0 = Date.now();
// The streams profile: the Python server restarts once, 4 s in (killed, a new one on the same port).
const restartTimer = STREAMS && setTimeout(() => {
  restarting = (async () => {
    const at = Date.now();
    await pyServer.stop('SIGKILL');
    pyServer = await startPyServer(pyServer.port, pyServer.ranFile);
    restarts.push({ wall: at / 1000, upWall: Date.now() / 1000 });
    restarting = undefined;
  })();
}, 4000);
const { stderr } = await promisify(execFile)(PYTHON, [`${R}/test/real-chaos-py/py_clients.py`, `${cp.url}/mcp`, String(SEED), String(CLIENTS), String(CALLS_PER_CLIENT), tmp, SESSIONS ? 'sessions' : MODERN ? 'modern' : STREAMS ? 'streams' : 'calls'], { timeout: 170_000, maxBuffer: 64 << 20 });
if (restartTimer) clearTimeout(restartTimer);
await restarting;
const py = JSON.parse(readFileSync(tmp, 'utf8'));
await sleep(300);
const ranNow = PYSERVER ? pyServer.ran() : ran;
const mark = (p) => { p.fault = faults[p.tag] ?? 'none'; if (STREAMS) p.did = acts[p.tag] ?? 'none'; };
for (const call of py.calls) {
  for (const a of call.attempts) for (const p of [...a.posts, ...(a.gets ?? [])]) mark(p);
  call.ran = ranNow[call.key] ?? 0;
}
for (const e of py.events) for (const p of [...(e.posts ?? []), ...(e.streams ?? []), ...(e.deletes ?? []), ...(e.connects ?? [])]) mark(p);
await cp.close();
await har.close();
await rp.stop();
await hop.close();
await server.close();
await pyServer?.stop();
// Kept gzipped (mcp-triage detects gzip by its bytes).
for (const f of LOGS) { writeFileSync(`${d}/${f}.gz`, gzipSync(readFileSync(`${d}/${f}`), { level: 9 })); rmSync(`${d}/${f}`); }
// One call or event a line: the file stays small and readable.
const lines = (xs) => xs.map((x) => JSON.stringify(x)).join(',\n');
writeFileSync(`${d}/observed.json`, `{"seed": ${SEED}, "profile": "${PROFILE}", "sdk": "mcp 2.3.0 (Python)", "tools": ${JSON.stringify(TOOLS)},${STREAMS ? `\n"restarts": ${JSON.stringify(restarts)},` : ''}\n"events": [\n${lines(py.events)}],\n"calls": [\n${lines(py.calls)}]}\n`);
process.stderr.write(`${stderr.split('\n').slice(-20).join('\n')}seed ${SEED}: ${py.calls.length} calls, ${py.calls.reduce((s, c) => s + c.attempts.length, 0)} attempts, ${Date.now() - t0} ms\n`);
process.exit(0);
