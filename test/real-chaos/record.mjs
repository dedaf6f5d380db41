// Records test/fixtures/real-chaos/seed-N/ (the chaos audit): one SDK 1.32.2 server (stateful, recordingHandler), a
// seeded fault hop in front of it, the record proxy and the HAR-lines proxy in front of that, and 10 concurrent SDK
// clients (one recordingFetch each, conn = the client's name, all into client.ndjson) calling tools with an app-level
// retry policy. observed.json is the ground truth: every app call, every attempt's JSON-RPC id and session, what the SDK
// caller got, and how many times the server really ran the tool.
// Chain: client -> HAR proxy -> record proxy -> fault hop -> server. Usage: npm run build && node test/real-chaos/record.mjs SEED
// `--profile sessions SEED` records test/fixtures/real-chaos/sessions-seed-N/ instead: the hop also faults initialize,
// notifications/initialized and tools/list (503, or the socket reset), resets tools/call sockets before any response
// (before forwarding, or after the tool ran), and loses sessions (the server forgets the session, then answers 404);
// the app reconnects (a new client and session) after a failed connect or a 404 and retries. observed.json adds
// `connects` (every connect attempt's POSTs, what the caller got and, after a failure, the app's wait before its next
// try: `retryDelayMs`) and each attempt's POSTs carry their method.
// `--profile streams SEED` records test/fixtures/real-chaos/streams-seed-N/: the server has an event store (ids, a
// priming event), the clients resume cut streams themselves (reconnectionOptions.maxRetries 2); the hop cuts tools/call
// SSE streams after the priming event or a progress event (ended cleanly, or the socket destroyed), refuses (503) some
// POSTs, refuses (503, 404), resets or cuts again the SDK's resumption GETs (Last-Event-ID), refuses (409, 503) or cuts
// the standalone GET stream, and refuses (503) or resets some DELETEs of the sessions the apps end with. observed.json
// adds, per attempt, every GET the SDK sent meanwhile (its Last-Event-ID, fault, status, events) and per client its
// standalone GETs and DELETEs.
// `--sdk v2 SEED` (the calls profile) records test/fixtures/real-chaos/v2-seed-N/ with the v2 packages in place of 1.32.2
// (@modelcontextprotocol/client and /server 2.4.0, /node 2.1.2, the repo's devDependencies): a v2 McpServer on the
// stateful NodeStreamableHTTPServerTransport, v2 Clients on 2025-11-25; same hop, faults, app policy and observed.json
// (an error's HTTP status, which the v2 SdkHttpError keeps in data.status, is written as `status`). `--sdk v2modern SEED`
// records v2modern-seed-N/: the v2 clients on 2026-07-28 (versionNegotiation auto, no sessions) against the v2
// createMcpHandler server (responseMode 'sse').
// `--sdk v2 --profile sessions SEED` records v2-sessions-seed-N/: the sessions profile with the v2 server and v2 clients
// on 2025-11-25 (the same hop, faults, app and observed.json; an error's HTTP status, kept by the v2 SdkHttpError in
// data.status, is written as `status`, and a 404 is told by it). Sessions make no sense on 2026-07-28 (no v2modern).
// `--sdk v2 --profile streams SEED` records v2-streams-seed-N/ the same way: the v2 server with the same event store.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, sessionHandler, readBody, startHarProxy, startRecordProxy, describeError, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { rng, hash, TOOLS } = await import(`${R}/test/helpers/chaos-record.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

const args0 = process.argv.slice(2);
// `--sdk v2` (the v2 packages, the client on 2025-11-25 against a stateful v2 server: every profile) or
// `--sdk v2modern` (the v2 client on 2026-07-28, versionNegotiation auto, against the v2 createMcpHandler server, no
// sessions: the calls profile only).
const sdkAt = args0.indexOf('--sdk');
const SDK = sdkAt >= 0 ? args0[sdkAt + 1] : 'v1';
const argv = sdkAt >= 0 ? [...args0.slice(0, sdkAt), ...args0.slice(sdkAt + 2)] : args0;
const V2 = SDK === 'v2' || SDK === 'v2modern';
const MODERN = SDK === 'v2modern';
const v2 = V2 ? { ...(await import('@modelcontextprotocol/server')), ...(await import('@modelcontextprotocol/node')), ...(await import('@modelcontextprotocol/client')) } : undefined;
const PROFILE = argv[0] === '--profile' ? argv[1] : 'calls';
const SEED = Number((PROFILE === 'calls' ? argv[0] : argv[2]) ?? 1);
const SESSIONS = PROFILE === 'sessions';
const STREAMS = PROFILE === 'streams';
if (MODERN && PROFILE !== 'calls') throw new Error('--sdk v2modern: the calls profile only (no sessions on 2026-07-28)');
if (!['v1', 'v2', 'v2modern'].includes(SDK)) throw new Error(`--sdk ${SDK}: v2 or v2modern`);
const CLIENTS = 10;
const CALLS_PER_CLIENT = SESSIONS ? 8 : STREAMS ? 10 : 20;
stopAfter(180_000);


const d = `${R}/test/fixtures/real-chaos/${V2 ? `${SDK}-` : ''}${SESSIONS ? 'sessions-' : STREAMS ? 'streams-' : ''}seed-${SEED}`;
mkdirSync(d, { recursive: true });
const LOGS = ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson'];
for (const f of [...LOGS, ...LOGS.map((x) => `${x}.gz`), 'observed.json']) rmSync(`${d}/${f}`, { force: true });

// ran[key] counts the tools' real runs per app call key (the tools and their annotations: test/helpers/chaos-record.mjs).
const ran = {};
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const build = () => {
  const s = new McpServer({ name: 'chaos', version: '1.0.0' });
  for (const [name, annotations] of Object.entries(TOOLS)) {
    s.registerTool(name, { inputSchema: { key: z.string(), ms: z.number() }, annotations }, async ({ key, ms }, extra) => {
      // The streams profile: every tool sends progress (three steps) when the caller asked for it.
      if ((name === 'export_report' || STREAMS) && extra._meta?.progressToken !== undefined) {
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

// The streams profile's event store, one per session: ids `<stream>.<n>` (the SDK example's InMemoryEventStore splits
// ids at '_', which its own standalone stream id `_GET_stream` has, and orders events by id text within a millisecond).
class EventStore {
  constructor() { this.events = []; this.n = 0; }
  async storeEvent(streamId, message) { const id = `${streamId}.${++this.n}`; this.events.push({ id, streamId, message }); return id; }
  async getStreamIdForEventId(id) { return this.events.find((e) => e.id === id)?.streamId; }
  async replayEventsAfter(lastEventId, { send }) {
    const i = this.events.findIndex((e) => e.id === lastEventId);
    if (i < 0) return '';
    const { streamId } = this.events[i];
    for (const e of this.events.slice(i + 1)) if (e.streamId === streamId) await send(e.id, e.message);
    return streamId;
  }
}
// The v2 server, the same five tools: a v2 McpServer (the handler gets `ctx.mcpReq`, not `extra`).
const buildV2 = () => {
  const s = new v2.McpServer({ name: 'chaos', version: '1.0.0' });
  for (const [name, annotations] of Object.entries(TOOLS)) {
    s.registerTool(name, { inputSchema: z.object({ key: z.string(), ms: z.number() }), annotations }, async ({ key, ms }, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      if ((name === 'export_report' || STREAMS) && token !== undefined) {
        for (let i = 1; i <= 3; i++) {
          await sleep(ms / 3);
          await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3 } });
        }
      } else await sleep(ms);
      ran[key] = (ran[key] ?? 0) + 1;
      return text(`${name} ${key} done`);
    });
  }
  return s;
};
// v2: stateful sessions as the v1 server has them (NodeStreamableHTTPServerTransport, SSE answers); v2modern: the
// per-request handler, answering over SSE (responseMode 'sse', so the hop can cut a stream as it does for the others).
const modernHandler = MODERN ? v2.createMcpHandler(() => buildV2(), { responseMode: 'sse', keepAliveMs: 0 }) : undefined;
const h = MODERN ? { handle: v2.toNodeHandler(modernHandler), transports: new Map() } : V2 ? sessionHandler({ Transport: v2.NodeStreamableHTTPServerTransport, isInitializeRequest: (b) => b?.method === 'initialize', buildServer: buildV2, ...(STREAMS ? { options: () => ({ eventStore: new EventStore() }) } : {}) }) : sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: build, ...(STREAMS ? { options: () => ({ eventStore: new EventStore() }) } : {}) });
const server = await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }));

// The fault hop: for each tools/call POST, a fault drawn from a generator seeded by (SEED, call key, attempt number at
// the hop), so the faults do not depend on the order in which concurrent POSTs arrive. Other requests pass.
const faults = {};
const hopCount = new Map();
const target = new URL(server.url);
function drawFault(key, n) {
  const x = rng(SEED * 1000003 + hash(`${key}#${n}`))();
  if (x < 0.42) return 'pass';
  if (x < 0.52) return '503';
  if (x < 0.60) return '429';
  if (x < 0.72) return '502-after';
  if (x < 0.86) return 'cut';
  return 'delay';
}
// The sessions profile: the app's spy names each POST `key#n` (x-chaos-attempt), the hop draws from that.
function drawSessionFault(method, tag) {
  const x = rng(SEED * 1000003 + hash(tag))();
  if (method === 'initialize') return x < 0.1 ? '503' : x < 0.16 ? 'reset' : 'pass';
  if (method === 'notifications/initialized') return x < 0.08 ? '503' : 'pass';
  if (method === 'tools/list') return x < 0.08 ? '503' : x < 0.15 ? 'reset' : 'pass';
  if (x < 0.45) return 'pass';
  if (x < 0.6) return 'reset';
  if (x < 0.72) return 'reset-after';
  if (x < 0.87) return '404';
  return 'delay';
}
// The streams profile: a fault per tagged request (x-chaos-attempt `<tag>#<kind>#<n>`, kind tools/call, resume (a GET
// with Last-Event-ID), stream (the standalone GET) or DELETE), drawn from the tag and the seed.
function drawStreamFault(kind, tag) {
  const x = rng(SEED * 1000003 + hash(tag))();
  if (kind === 'tools/call') return x < 0.34 ? 'pass' : x < 0.46 ? 'end-priming' : x < 0.58 ? 'end-progress' : x < 0.67 ? 'reset-priming' : x < 0.76 ? 'reset-progress' : x < 0.86 ? '503' : 'delay';
  if (kind === 'resume') return x < 0.5 ? 'pass' : x < 0.64 ? '503' : x < 0.74 ? '404' : x < 0.88 ? 'cut' : 'reset';
  if (kind === 'stream') return x < 0.55 ? 'pass' : x < 0.7 ? '409' : x < 0.8 ? '503' : 'cut';
  if (kind === 'DELETE') return x < 0.55 ? 'pass' : x < 0.8 ? '503' : 'reset';
  return 'pass';
}
// What the hop really did with each streams-profile request (a cut fault whose stream ended first did nothing).
const acts = {};
const hop = await listen(async (req, res) => {
  if (STREAMS) return streamsHop(req, res);
  const raw = await readBody(req);
  let rpc;
  try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
  let fault = 'pass';
  const tag = req.headers['x-chaos-attempt'];
  if (SESSIONS && req.method === 'POST' && typeof tag === 'string') {
    fault = drawSessionFault(rpc?.method, tag);
    faults[tag] = fault;
    if (fault === 'reset') { req.socket.destroy(); return; }
    if (fault === '404') {
      // The server forgets the session (as after a restart), then answers this POST itself.
      const sid = req.headers['mcp-session-id'];
      const t = h.transports.get(sid);
      h.transports.delete(sid);
      t?.close().catch(() => {});
    }
  } else if (rpc?.method === 'tools/call') {
    const key = rpc.params?.arguments?.key;
    const n = (hopCount.get(key) ?? 0) + 1;
    hopCount.set(key, n);
    fault = drawFault(key, n);
    (faults[key] ??= []).push(fault);
  }
  if (fault === '503') { res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'); return; }
  if (fault === '429') { res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('Too Many Requests'); return; }
  if (fault === 'delay') await sleep(150);
  const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
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
    if (fault === 'cut') delete headers['content-length'];
    res.writeHead(ures.statusCode, headers);
    res.flushHeaders();
    ures.on('data', (chunk) => {
      if (fault === 'cut' && /"result"|"error"/.test(chunk.toString('utf8'))) {
        // End the stream cleanly before the response event (progress before it passes).
        res.end();
        up.destroy();
        return;
      }
      if (!res.writableEnded) res.write(chunk);
    });
    ures.on('end', () => { if (!res.writableEnded) res.end(); });
  });
  up.end(raw);
});

async function streamsHop(req, res) {
  const raw = await readBody(req);
  const tag = req.headers['x-chaos-attempt'];
  const kind = typeof tag === 'string' ? tag.split('#')[1] : undefined;
  const fault = kind ? drawStreamFault(kind, tag) : 'pass';
  if (kind) { faults[tag] = fault; acts[tag] = fault === 'pass' || fault === 'delay' ? 'passed' : 'not reached'; }
  const act = (x) => { if (kind) acts[tag] = x; };
  const json = (status, code, message) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
  if (fault === '503') { act('503'); res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable'); return; }
  if (fault === '404') { act('404'); res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found'); return; }
  if (fault === '409') { act('409'); json(409, -32000, 'Conflict: Only one SSE stream is allowed per session'); return; }
  if (fault === 'reset' && kind !== 'resume') { act('reset'); req.socket.destroy(); return; }
  if (fault === 'delay') await sleep(150);
  const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
  up.on('error', () => res.destroy());
  res.on('close', () => up.destroy());
  up.on('response', (ures) => {
    const headers = { ...ures.headers };
    if (fault !== 'pass' && fault !== 'delay') delete headers['content-length'];
    res.writeHead(ures.statusCode, headers);
    res.flushHeaders();
    if (fault === 'reset' && kind === 'resume') {
      // The resumption GET's socket destroyed after its response head, before any event.
      act('reset after the head'); setTimeout(() => { req.socket.destroy(); up.destroy(); }, 20);
      return;
    }
    let timer;
    if (kind === 'stream' && fault === 'cut') timer = setTimeout(() => { act('cut after 300 ms'); res.end(); up.destroy(); }, 300);
    res.on('close', () => clearTimeout(timer));
    const cut = (how, chunk, what) => {
      act(what);
      up.destroy();
      if (how === 'end') { if (chunk) res.write(chunk); res.end(); return; }
      if (chunk) res.write(chunk, () => req.socket.destroy()); else req.socket.destroy();
    };
    ures.on('data', (chunk) => {
      if (res.writableEnded || res.destroyed) return;
      const t = chunk.toString('utf8');
      const result = /"result"|"error"/.test(t);
      if (kind === 'tools/call' && fault !== 'pass' && fault !== 'delay') {
        const [how, after] = fault.split('-');
        if (result) return cut(how, undefined, `${how} before the result (no ${after} event first)`);
        if (after === 'priming' || /notifications\/progress/.test(t)) return cut(how, chunk, `${how} after the ${after} event`);
      }
      if (kind === 'resume' && fault === 'cut') {
        // Cut again: the first replayed event passes (not the result), then the stream ends cleanly.
        if (result) return cut('end', undefined, 'ended before the result');
        if (/^data:/m.test(t)) return cut('end', chunk, 'ended after an event');
      }
      res.write(chunk);
    });
    ures.on('end', () => { if (!res.writableEnded) res.end(); });
  });
  up.end(raw);
}

const rp = await startRecordProxy(hop.url, `${d}/proxy.ndjson`);
const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);

const names = Object.keys(TOOLS);
const calls = [];
const onerrors = [];
const connects = [];
const clientsSeen = [];
// The v2 SDK's SdkHttpError keeps the HTTP status in `data.status` (its code is a string): written as `status`.
const errorOf = (e) => ({ ...describeError(e), ...(V2 && typeof e?.data?.status === 'number' ? { status: e.data.status } : {}) });
async function runClient(ci) {
  if (SESSIONS) return runSessionClient(ci);
  if (STREAMS) return runStreamClient(ci);
  const r = rng(SEED * 7919 + ci);
  const name = `chaos-app-${ci}`;
  const rf = recordingFetch({ out: `${d}/client.ndjson`, conn: name });
  let current;
  // In front of the recording fetch: which JSON-RPC id and session each POST of the current app attempt carried.
  const spy = async (url, init) => {
    if (current && init?.method === 'POST' && typeof init.body === 'string') {
      try {
        const m = JSON.parse(init.body);
        if (m.method === 'tools/call') current.posts.push({ id: m.id, session: new Headers(init.headers).get('mcp-session-id') });
      } catch {}
    }
    return rf(url, init);
  };
  const c = V2 ? new v2.Client({ name, version: '1.0.0' }, MODERN ? { versionNegotiation: { mode: 'auto' } } : {}) : new Client({ name, version: '1.0.0' });
  c.onerror = (e) => onerrors.push(`${name}: ${String(e?.message ?? e)}`);
  const Transport = V2 ? v2.StreamableHTTPClientTransport : StreamableHTTPClientTransport;
  const t = new Transport(new URL(`${har.url}/mcp`), { fetch: spy, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 0 } });
  await c.connect(t);
  await c.listTools();
  // The v1 client's callTool takes (params, resultSchema, options), the v2 client's (params, options).
  const callTool = (params, opts) => (V2 ? c.callTool(params, opts) : c.callTool(params, undefined, opts));
  for (let k = 0; k < CALLS_PER_CLIENT; k++) {
    const tool = names[Math.floor(r() * names.length)];
    const key = `s${SEED}-c${ci}-k${k}`;
    const args = { key, ms: 10 + Math.floor(r() * 390) };
    const noted = k % 3 === 0; // the app's word (withCallNote) for every third call only
    const call = { client: name, key, tool, arguments: args, noted, attempts: [] };
    calls.push(call);
    for (let n = 1; n <= 3; n++) {
      current = { n, posts: [] };
      const started = Date.now();
      const fn = () => callTool({ name: tool, arguments: args }, { timeout: 1500, ...(tool === 'export_report' ? { onprogress: () => {} } : {}) });
      let got;
      try {
        const res = await (noted ? withCallNote({ retryOrigin: n > 1 ? 'app' : 'none', attempt: n }, fn) : fn());
        got = { ok: true, isError: res.isError === true, text: res.content?.[0]?.text };
      } catch (e) {
        // The v2 SDK's SdkHttpError keeps the HTTP status in `data.status` (its code is a string).
        got = { ok: false, error: { ...describeError(e), ...(V2 && typeof e?.data?.status === 'number' ? { status: e.data.status } : {}) } };
      }
      call.attempts.push({ n, posts: current.posts, ms: Date.now() - started, ...got });
      current = undefined;
      if (got.ok) break;
      if (n < 3) await sleep((got.error?.status ?? got.error?.code) === 429 ? 1100 : 250 * n);
    }
    await sleep(Math.floor(r() * 60));
  }
  await sleep(200);
  await c.close().catch(() => {});
  rf.close?.();
}
// The sessions profile's app: connect (initialize, notifications/initialized, tools/list) with up to 8 tries, each a
// new client, 0.2 s apart (no backoff); calls with up to 3 attempts; after a 404 (the session is gone) reconnect, then
// retry on the new session (after a third attempt's 404 it reconnects too, and the next call goes to the new session).
async function runSessionClient(ci) {
  const r = rng(SEED * 7919 + ci);
  const name = `chaos-app-${ci}`;
  const rf = recordingFetch({ out: `${d}/client.ndjson`, conn: name });
  let current;
  let nconn = 0;
  const spy = async (url, init) => {
    if (current && init?.method === 'POST' && typeof init.body === 'string') {
      try {
        const m = JSON.parse(init.body);
        const tag = `${current.tag}#${m.method}#${current.posts.length + 1}`;
        const headers = new Headers(init.headers);
        current.posts.push({ method: m.method, id: m.id, session: headers.get('mcp-session-id'), tag });
        headers.set('x-chaos-attempt', tag);
        init = { ...init, headers };
      } catch {}
    }
    return rf(url, init);
  };
  let c;
  const connect = async () => {
    for (let n = 1; n <= 8; n++) {
      nconn++;
      current = { tag: `s${SEED}-c${ci}-connect${nconn}`, posts: [] };
      const cl = V2 ? new v2.Client({ name, version: '1.0.0' }) : new Client({ name, version: '1.0.0' });
      cl.onerror = (e) => onerrors.push(`${name}: ${String(e?.message ?? e)}`);
      const t = new (V2 ? v2.StreamableHTTPClientTransport : StreamableHTTPClientTransport)(new URL(`${har.url}/mcp`), { fetch: spy, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 0 } });
      const rec = { client: name, n: nconn, posts: current.posts };
      connects.push(rec);
      try {
        await cl.connect(t, { timeout: 1500 });
        await cl.listTools(undefined, { timeout: 1500 });
        rec.ok = true;
        current = undefined;
        return cl;
      } catch (e) {
        rec.ok = false;
        rec.error = errorOf(e);
        // The app's wait before its next connect try (constant: no backoff), kept so a test can tell its delays.
        rec.retryDelayMs = 200;
        current = undefined;
        await cl.close().catch(() => {});
        await sleep(rec.retryDelayMs);
      }
    }
    throw new Error(`${name}: could not connect ${JSON.stringify(connects.filter((x) => x.client === name))}`);
  };
  c = await connect();
  for (let k = 0; k < CALLS_PER_CLIENT; k++) {
    const tool = names[Math.floor(r() * names.length)];
    const key = `s${SEED}-c${ci}-k${k}`;
    const args = { key, ms: 10 + Math.floor(r() * 390) };
    const noted = k % 3 === 0;
    const call = { client: name, key, tool, arguments: args, noted, attempts: [] };
    calls.push(call);
    for (let n = 1; n <= 3; n++) {
      current = { tag: `${key}-a${n}`, posts: [] };
      const started = Date.now();
      const fn = () => (V2 ? c.callTool({ name: tool, arguments: args }, { timeout: 1500 }) : c.callTool({ name: tool, arguments: args }, undefined, { timeout: 1500 }));
      let got;
      try {
        const res = await (noted ? withCallNote({ retryOrigin: n > 1 ? 'app' : 'none', attempt: n }, fn) : fn());
        got = { ok: true, isError: res.isError === true, text: res.content?.[0]?.text };
      } catch (e) {
        got = { ok: false, error: errorOf(e) };
      }
      const posts = current.posts;
      current = undefined;
      call.attempts.push({ n, posts, ms: Date.now() - started, ...got });
      if (got.ok) break;
      // After a 404 the session is gone: reconnect, even when the call gets no more attempts.
      const gone = (got.error?.status ?? got.error?.code) === 404;
      if (n < 3 || gone) await sleep(250 * n);
      if (gone) { c = await connect(); call.attempts[call.attempts.length - 1].reconnected = nconn; }
    }
    await sleep(Math.floor(r() * 60));
  }
  await sleep(200);
  await c.close().catch(() => {});
  rf.close?.();
}
// The streams profile's app: connect once (those requests pass), calls with up to 3 attempts (a retry after 0.25 s then
// 0.5 s when the caller gets an error), progress asked for, the SDK resuming cut streams (maxRetries 2, 100 ms apart);
// at the end some apps DELETE the session (terminateSession, once more after a failure), then close.
async function runStreamClient(ci) {
  const r = rng(SEED * 7919 + ci);
  const name = `chaos-app-${ci}`;
  const rf = recordingFetch({ out: `${d}/client.ndjson`, conn: name });
  const me = { client: name, streams: [], deletes: [] };
  clientsSeen.push(me);
  let current;
  const count = { stream: 0, DELETE: 0 };
  // Watch what a response's body carried: events with ids, progress, the result.
  const watch = (res, rec) => {
    if (!res.body) return res;
    const dec = new TextDecoder();
    let buf = '';
    const tap = new TransformStream({
      transform(chunk, ctl) {
        buf += dec.decode(chunk, { stream: true });
        rec.ids = (buf.match(/^id: /gm) ?? []).length;
        rec.progress = (buf.match(/notifications\/progress/g) ?? []).length;
        rec.result = /"result"/.test(buf);
        ctl.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(tap), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  const spy = async (url, init) => {
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    let rec;
    if (method === 'POST' && current && typeof init.body === 'string') {
      try {
        const m = JSON.parse(init.body);
        if (m.method === 'tools/call') {
          rec = { id: m.id, session: headers.get('mcp-session-id'), tag: `${current.tag}#tools/call#1` };
          current.posts.push(rec);
        }
      } catch {}
    } else if (method === 'GET') {
      const last = headers.get('last-event-id');
      if (last && current) { rec = { lastEventId: last, session: headers.get('mcp-session-id'), tag: `${current.tag}#resume#${current.gets.length + 1}` }; current.gets.push(rec); }
      else { rec = { lastEventId: last, session: headers.get('mcp-session-id'), during: current?.tag, tag: `${name}#stream#${++count.stream}` }; me.streams.push(rec); }
    } else if (method === 'DELETE') {
      rec = { session: headers.get('mcp-session-id'), tag: `${name}#DELETE#${++count.DELETE}` };
      me.deletes.push(rec);
    }
    if (!rec) return rf(url, init);
    rec.at = Date.now();
    headers.set('x-chaos-attempt', rec.tag);
    try {
      const res = await rf(url, { ...init, headers });
      rec.status = res.status;
      return watch(res, rec);
    } catch (e) {
      rec.error = errorOf(e);
      throw e;
    }
  };
  const c = V2 ? new v2.Client({ name, version: '1.0.0' }) : new Client({ name, version: '1.0.0' });
  c.onerror = (e) => onerrors.push(`${name}: ${String(e?.message ?? e)}`);
  const t = new (V2 ? v2.StreamableHTTPClientTransport : StreamableHTTPClientTransport)(new URL(`${har.url}/mcp`), { fetch: spy, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 2 } });
  await c.connect(t);
  await c.listTools();
  me.session = t.sessionId;
  for (let k = 0; k < CALLS_PER_CLIENT; k++) {
    const tool = names[Math.floor(r() * names.length)];
    const key = `s${SEED}-c${ci}-k${k}`;
    const args = { key, ms: 30 + Math.floor(r() * 370) };
    const noted = k % 3 === 0;
    const call = { client: name, key, tool, arguments: args, noted, attempts: [] };
    calls.push(call);
    for (let n = 1; n <= 3; n++) {
      current = { tag: `${key}-a${n}`, posts: [], gets: [] };
      const started = Date.now();
      const opts = { timeout: 2000, onprogress: () => {} };
      const fn = () => (V2 ? c.callTool({ name: tool, arguments: args }, opts) : c.callTool({ name: tool, arguments: args }, undefined, opts));
      let got;
      try {
        const res = await (noted ? withCallNote({ retryOrigin: n > 1 ? 'app' : 'none', attempt: n }, fn) : fn());
        got = { ok: true, isError: res.isError === true, text: res.content?.[0]?.text };
      } catch (e) {
        got = { ok: false, error: errorOf(e) };
      }
      call.attempts.push({ n, started, posts: current.posts, gets: current.gets, ms: Date.now() - started, ...got });
      // Resumption GETs still under way belong to this attempt: wait for them before the next attempt's tag.
      await sleep(got.ok ? 0 : 250 * n);
      current = undefined;
      if (got.ok) break;
    }
    await sleep(Math.floor(r() * 60));
  }
  await sleep(200);
  if (r() < 0.7) {
    me.deleted = true;
    for (let n = 1; n <= 2; n++) {
      try { await t.terminateSession(); break; } catch (e) { me.deletes[me.deletes.length - 1].caller = errorOf(e); await sleep(200); }
    }
  }
  await c.close().catch(() => {});
  rf.close?.();
}
await Promise.all(Array.from({ length: CLIENTS }, (_, i) => runClient(i + 1)));
await sleep(300);
for (const call of calls) {
  if (SESSIONS) { for (const a of call.attempts) for (const p of a.posts) p.fault = faults[p.tag] ?? 'none'; call.ran = ran[call.key] ?? 0; continue; }
  if (STREAMS) { for (const a of call.attempts) for (const p of [...a.posts, ...a.gets]) { p.fault = faults[p.tag] ?? 'none'; p.did = acts[p.tag]; } call.ran = ran[call.key] ?? 0; continue; }
  call.faults = faults[call.key] ?? [];
  call.ran = ran[call.key] ?? 0;
}
await har.close();
await rp.stop();
await hop.close();
await modernHandler?.close().catch(() => {});
await server.close();
// Kept gzipped (mcp-triage detects gzip by its bytes): the four logs are ~2.4 MB plain per seed.
for (const f of LOGS) { writeFileSync(`${d}/${f}.gz`, gzipSync(readFileSync(`${d}/${f}`), { level: 9 })); rmSync(`${d}/${f}`); }
for (const x of connects) for (const p of x.posts) p.fault = faults[p.tag] ?? 'none';
for (const x of clientsSeen) for (const p of [...x.streams, ...x.deletes]) { p.fault = faults[p.tag] ?? 'none'; p.did = acts[p.tag]; }
writeFileSync(`${d}/observed.json`, JSON.stringify({ seed: SEED, profile: PROFILE, ...(V2 ? { sdk: SDK } : {}), tools: TOOLS, onerrors, ...(SESSIONS ? { connects } : {}), ...(STREAMS ? { clients: clientsSeen } : {}), calls }, null, 1) + '\n');
process.stderr.write(`seed ${SEED}: ${calls.length} calls, ${calls.reduce((s, c) => s + c.attempts.length, 0)} attempts\n`);
process.exit(0);
