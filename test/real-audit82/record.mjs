// Records test/fixtures/real-audit82/ (the eighty-second audit: the eighty-first's out-of-order reconnects against the v2 server) on 127.0.0.1.
// Needs nothing beyond the repository's devDependencies; NOT run by `npm test`.
// Usage: npm run build && node test/real-audit82/record.mjs [--server v2|v1|py] [--audit 81] [scenario...]   (one at a time is best)
// `--server v2` (the default): a v2 McpServer (@modelcontextprotocol/server 2.4.0) on a stateful
// NodeStreamableHTTPServerTransport (@modelcontextprotocol/node 2.1.2) with an event store (a priming event on every
// POST stream of a 2025-11-25 session, replay from Last-Event-ID; a replay of a stream whose request has been answered
// is closed once replayed). `--server v1`: the SDK 1.32.2 server, the eighty-first audit's.
// `--server py`: the Python SDK 2.3.0 server (test/real-audit82/py_server.py, /work/py-venv, port 10090, an event store
// per session); server.ndjson is then recordingHandler around a plain forwarder in front of it (what the server sent).
// Folders: test/fixtures/real-audit82/<scenario> for the v2 server, <server>-<scenario> for the others (py-, v1-);
// with `--audit 81` (what test/real-audit81/record.mjs runs), test/fixtures/real-audit81/<scenario>.
// A scenario named `v2-<name>` runs <name> with the v2 client (@modelcontextprotocol/client 2.4.0, 2025-11-25) in place
// of 1.32.2's; `retry-<name>` runs <name> with the server's retryInterval set (a `retry:` field in each priming event).
// The chain: the SDK Client (StreamableHTTPClientTransport, 2025-11-25), a spy fetch that tags each request with
// the stream it opens or reconnects, mcp-triage's recordingFetch (client.ndjson) -> a small fault hop (cuts, holds,
// refuses by that tag) -> recordingHandler (server.ndjson) -> the server. Two calls run at once in one session.
// Which stream a GET reconnects is not on the wire: the recorder wraps the transport's _startOrAuthSse (the one place
// the SDK opens a GET, first or reconnect) and runs it in an AsyncLocalStorage holding the stream's owner, named by the
// onresumptiontoken the app passed with each call (the SDK keeps it in the reconnect's options; the standalone stream
// has none). observed.json: what each tool body did, what the app got per call, and in wire order every cut the hop
// made and every GET with the stream it belonged to.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { spawn } from 'node:child_process';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, readBody, describeError, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
const v2 = await import('@modelcontextprotocol/client');
const v2s = { ...(await import('@modelcontextprotocol/server')), ...(await import('@modelcontextprotocol/node')) };
const argv = process.argv.slice(2);
/** Takes `--name value` out of argv: its value, or `otherwise`. */
const option = (name, otherwise) => {
  const at = argv.indexOf(name);
  return at < 0 ? otherwise : argv.splice(at, 2)[1];
};
// `--audit 81` (test/real-audit81/record.mjs): the eighty-first audit's folders, tag header and names, the 1.32.2 server.
const AUDIT = option('--audit', '82');
if (!['81', '82'].includes(AUDIT)) throw new Error(`--audit ${AUDIT}: 81 or 82`);
const SERVER = option('--server', AUDIT === '81' ? 'v1' : 'v2');
if (!['v1', 'v2', 'py'].includes(SERVER)) throw new Error(`--server ${SERVER}: v1, v2 or py`);
const pick = argv;
/** The request header the spy fetch tags each request with (the stream it opened or reconnected). */
const TAG = `x-audit${AUDIT}-stream`;
stopAfter(120_000);

// Faults by tag (`<owner>#post`, `<owner>#get<n>`, `std#get<n>` for the standalone stream):
//   end-progress-N / reset-progress-N: a call's POST stream ended cleanly / its socket destroyed right after its N-th
//   progress event; hold-503-MS: the GET held MS ms, then 503; reset-head: the GET forwarded, its head passed, its
//   socket destroyed 20 ms later before any event; cut-MS: the standalone stream ended cleanly MS ms after its head.
// `retryInterval`: the server's `retry:` field in each POST stream's priming event (the SDK client then waits that long
// before every later reconnect, of any stream); `reconnect`: the client's reconnectionOptions.
const SCENARIOS = {
  // A's stream is cut first, B's later; A's first resumption is held and refused, so B resumes first; both resume with
  // Last-Event-ID and get their results.
  'resume-reversed': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 3 },
    calls: [{ key: 'A', steps: 4, ms: 250, after: 0 }, { key: 'B', steps: 4, ms: 250, after: 30 }],
    faults: { 'A#post': 'end-progress-1', 'B#post': 'reset-progress-2', 'A#get1': 'hold-503-150' },
    timeout: 8000,
  },
  // New here: A's stream cut after progress 1, B's after progress 1 too; A's resumption is held and refused, so its
  // retry comes after the tool returned (the v2 server replays the answered stream, then closes it); B resumes while
  // its tool still runs.
  'resume-after-answer': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 3 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 0 }, { key: 'B', steps: 3, ms: 200, after: 30 }],
    faults: { 'A#post': 'end-progress-1', 'B#post': 'reset-progress-1', 'A#get1': 'hold-503-150' },
    timeout: 8000,
  },
  // Both resumptions (Last-Event-ID) lose their socket after the head, before any event: the SDK reconnects each with a
  // plain GET (the new stream had no event id). A's breaks first, but its plain GET is held and refused, so B's plain
  // GET comes first. Neither call's result ever reaches the client (a plain GET opens the standalone stream).
  'plain-reversed': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 2 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 0 }, { key: 'B', steps: 3, ms: 260, after: 30 }],
    faults: { 'A#post': 'end-progress-1', 'B#post': 'end-progress-1', 'A#get1': 'reset-head', 'B#get1': 'reset-head', 'A#get2': 'hold-503-150' },
    timeout: 4000,
  },
  // The same breaks, no GET held: both plain GETs are refused (409: the standalone stream is open) and retried, each
  // stream's reconnects in the order the streams broke.
  'plain-in-order': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 2 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 0 }, { key: 'B', steps: 3, ms: 260, after: 30 }],
    faults: { 'A#post': 'end-progress-1', 'B#post': 'end-progress-1', 'A#get1': 'reset-head', 'B#get1': 'reset-head' },
    timeout: 4000,
  },
  // New here (the eighty-first audit's known gap): A's resumption breaks before any event and its plain GETs are refused
  // (409) twice, so its third comes 1800 ms after its second (grow factor 3); B's stream breaks later the same way, and
  // its second plain GET (600 ms after its first refusal) comes between A's second refusal and A's third plain GET.
  'plain-tries': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 3 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 0 }, { key: 'B', steps: 6, ms: 250, after: 30 }],
    faults: { 'A#post': 'end-progress-1', 'A#get1': 'reset-head', 'B#post': 'end-progress-4', 'B#get1': 'reset-head' },
    timeout: 6000,
  },
  // The standalone stream is cut first; its reconnect is held and refused, so its retry (after the grown delay) comes
  // after the plain GET of a call's stream that broke later (its resumption lost its socket before any event).
  'standalone-refused': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 3, maxRetries: 2 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 300 }],
    faults: { 'std#get1': 'cut-300', 'std#get2': 'hold-503-150', 'A#post': 'end-progress-1', 'A#get1': 'reset-head' },
    timeout: 4000,
  },
  // Near miss: the same without the server's `retry:` (every reconnect 200 ms after its break): the standalone stream's
  // reconnect comes first, as it broke first.
  'standalone-in-order': {
    reconnect: { initialReconnectionDelay: 200, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
    calls: [{ key: 'A', steps: 3, ms: 200, after: 320 }],
    faults: { 'std#get1': 'cut-300', 'A#post': 'end-progress-1', 'A#get1': 'reset-head' },
    timeout: 4000,
  },
};

// The event store, one per session: ids `<stream>.<n>`; replay sends the stream's events after the given one.
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

async function record(name, sc) {
  const d = AUDIT === '81' ? `${R}/test/fixtures/real-audit81/${name}` : `${R}/test/fixtures/real-audit82/${SERVER === 'v2' ? '' : `${SERVER}-`}${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const t0 = Date.now();
  const rel = () => Date.now() - t0;
  const wire = [];
  const bodies = {};

  // The server: one McpServer per session, the tool `work` sends progress after each step, then its result.
  const tool = async ({ key, steps, ms }, token, notify) => {
    const b = (bodies[key] = { started: rel(), progressSent: 0 });
    for (let i = 1; i <= steps; i++) {
      await sleep(ms);
      if (token !== undefined) {
        await notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
        b.progressSent = i;
      }
    }
    b.returned = rel();
    return { content: [{ type: 'text', text: `work ${key} done` }] };
  };
  const buildServer = () => {
    if (SERVER === 'v2') {
      // The v2 McpServer: the handler gets `ctx.mcpReq` (its _meta and notify), not `extra`.
      const s = new v2s.McpServer({ name: `audit${AUDIT}`, version: '1.0.0' });
      s.registerTool('work', { inputSchema: z.object({ key: z.string(), steps: z.number(), ms: z.number() }) }, (args, ctx) => tool(args, ctx.mcpReq._meta?.progressToken, (n) => ctx.mcpReq.notify(n)));
      return s;
    }
    const s = new McpServer({ name: `audit${AUDIT}`, version: '1.0.0' });
    s.registerTool('work', { inputSchema: { key: z.string(), steps: z.number(), ms: z.number() } }, (args, extra) => tool(args, extra._meta?.progressToken, (n) => extra.sendNotification(n)));
    return s;
  };
  const transports = new Map();
  const handle = async (req, res) => {
    const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
    const body = raw ? JSON.parse(raw) : undefined;
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const t = transports.get(sid);
      if (!t) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })); return; }
      await t.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && (SERVER === 'v2' ? body?.method === 'initialize' : types.isInitializeRequest(body))) {
      const t = new (SERVER === 'v2' ? v2s.NodeStreamableHTTPServerTransport : StreamableHTTPServerTransport)({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t), eventStore: new EventStore(), ...(sc.retryInterval !== undefined ? { retryInterval: sc.retryInterval } : {}) });
      await buildServer().connect(t);
      await t.handleRequest(req, res, body);
      return;
    }
    res.writeHead(400).end();
  };
  let py;
  let pyHandle;
  if (SERVER === 'py') {
    // The Python server in its own process; its tool body's notes (JSON lines on stdout) fill `bodies`.
    const port = 10090;
    py = spawn('/work/py-venv/bin/python', [`${R}/test/real-audit82/py_server.py`, String(port), String(sc.retryInterval ?? 0)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    py.stdout.on('data', (c) => {
      buf += c.toString('utf8');
      for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) {
        const n = JSON.parse(buf.slice(0, i));
        const b = (bodies[n.key] ??= { progressSent: 0 });
        b[n.what] = n.what === 'progressSent' ? n.value : n.at - t0;
      }
    });
    for (let i = 0; i < 100; i++) { await sleep(100); try { await fetch(`http://127.0.0.1:${port}/mcp`, { signal: AbortSignal.timeout(1000) }); break; } catch {} }
    pyHandle = async (req, res) => {
      const raw = await readBody(req);
      const up = httpRequest({ hostname: '127.0.0.1', port, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${port}` } });
      up.on('error', () => res.destroy());
      res.on('close', () => up.destroy());
      up.on('response', (ures) => { res.writeHead(ures.statusCode, ures.headers); res.flushHeaders(); ures.pipe(res); });
      up.end(raw);
    };
  }
  const server = await listen(recordingHandler(pyHandle ?? handle, { out: `${d}/server.ndjson` }));
  const target = new URL(server.url);

  // The fault hop: reads the spy's tag (TAG), does what the scenario says, and notes every cut it made.
  const hop = await listen(async (req, res) => {
    const raw = await readBody(req);
    const tag = req.headers[TAG];
    const fault = (typeof tag === 'string' && sc.faults[tag]) || 'pass';
    const m = /^hold-503-(\d+)$/.exec(fault);
    if (m) {
      await sleep(Number(m[1]));
      wire.push({ at: rel(), what: 'refused', tag, status: 503 });
      res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (fault !== 'pass') delete headers['content-length'];
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      if (fault === 'reset-head') {
        setTimeout(() => { wire.push({ at: rel(), what: 'cut', tag, how: 'socket destroyed after the head, before any event' }); req.socket.destroy(); up.destroy(); }, 20);
        ures.resume();
        return;
      }
      const cm = /^cut-(\d+)$/.exec(fault);
      let timer;
      if (cm) timer = setTimeout(() => { wire.push({ at: rel(), what: 'cut', tag, how: `ended cleanly ${cm[1]} ms after its head` }); res.end(); up.destroy(); }, Number(cm[1]));
      res.on('close', () => clearTimeout(timer));
      const pm = /^(end|reset)-progress-(\d+)$/.exec(fault);
      let progress = 0;
      ures.on('data', (chunk) => {
        if (res.writableEnded || res.destroyed) return;
        if (pm) {
          progress += (chunk.toString('utf8').match(/notifications\/progress/g) ?? []).length;
          if (progress >= Number(pm[2])) {
            up.destroy();
            wire.push({ at: rel(), what: 'cut', tag, how: `${pm[1] === 'end' ? 'ended cleanly' : 'socket destroyed'} after progress ${pm[2]}` });
            if (pm[1] === 'end') res.end(chunk); else res.write(chunk, () => req.socket.destroy());
            return;
          }
        }
        res.write(chunk);
      });
      ures.on('end', () => { if (!res.writableEnded) res.end(); });
    });
    up.end(raw);
  });

  // The client: which stream each GET opens comes from the AsyncLocalStorage the wrapped _startOrAuthSse runs in.
  const owner = new AsyncLocalStorage();
  const rf = recordingFetch({ out: `${d}/client.ndjson`, conn: name });
  const count = {};
  const ids = {};
  const spy = async (url, init) => {
    const method = init?.method ?? 'GET';
    const headers = new Headers(init?.headers);
    let rec;
    if (method === 'POST' && typeof init.body === 'string') {
      const msg = JSON.parse(init.body);
      if (msg.method === 'tools/call') {
        const key = msg.params.arguments.key;
        ids[key] = msg.id;
        rec = { at: rel(), what: 'post', tag: `${key}#post`, id: msg.id };
      }
    } else if (method === 'GET') {
      const who = owner.getStore() ?? 'std';
      count[who] = (count[who] ?? 0) + 1;
      rec = { at: rel(), what: 'get', tag: `${who}#get${count[who]}`, stream: who === 'std' ? 'standalone' : `call ${who}`, lastEventId: headers.get('last-event-id') };
    }
    if (!rec) return rf(url, init);
    wire.push(rec);
    headers.set(TAG, rec.tag);
    try {
      const res = await rf(url, { ...init, headers });
      rec.status = res.status;
      return res;
    } catch (e) {
      rec.error = describeError(e).message;
      throw e;
    }
  };
  const onerrors = [];
  const V2 = name.startsWith('v2-');
  const c = new (V2 ? v2.Client : Client)({ name: `audit${AUDIT}-${name}`, version: '1.0.0' });
  c.onerror = (e) => onerrors.push({ at: rel(), message: String(e?.message ?? e) });
  const t = new (V2 ? v2.StreamableHTTPClientTransport : StreamableHTTPClientTransport)(new URL(`${hop.url}/mcp`), { fetch: spy, reconnectionOptions: sc.reconnect });
  const orig = t._startOrAuthSse.bind(t);
  t._startOrAuthSse = (options) => owner.run(options?.onresumptiontoken?.owner ?? 'std', () => orig(options));
  await c.connect(t);
  const lastToken = {};
  const apps = await Promise.all(sc.calls.map(async ({ key, steps, ms, after }) => {
    await sleep(after);
    const onresumptiontoken = Object.assign((id) => { lastToken[key] = id; }, { owner: key });
    const started = rel();
    let got;
    try {
      // The v1 client's callTool takes (params, resultSchema, options), the v2 client's (params, options).
      const opts = { timeout: sc.timeout, onprogress: () => {}, onresumptiontoken };
      const r = await (V2 ? c.callTool({ name: 'work', arguments: { key, steps, ms } }, opts) : c.callTool({ name: 'work', arguments: { key, steps, ms } }, undefined, opts));
      got = { ok: true, isError: r.isError === true, text: r.content?.[0]?.text };
    } catch (e) {
      got = { ok: false, error: { ...describeError(e), ...(typeof e?.data?.status === 'number' ? { status: e.data.status } : {}) } };
    }
    return { key, id: ids[key], started, ended: rel(), lastEventIdSeen: lastToken[key], ...got };
  }));
  await sleep(1500);
  await c.close().catch(() => {});
  rf.close?.();
  await hop.close();
  for (const x of transports.values()) await x.close().catch(() => {});
  await server.close();
  if (py) { py.kill('SIGKILL'); await new Promise((r) => (py.exitCode !== null ? r() : py.once('exit', r))); }
  wire.sort((a, b) => a.at - b.at);
  const observed = {
    scenario: name,
    sdk: `client ${V2 ? '@modelcontextprotocol/client 2.4.0' : '@modelcontextprotocol/sdk 1.32.2'}, server ${SERVER === 'v2' ? '@modelcontextprotocol/server 2.4.0 + @modelcontextprotocol/node 2.1.2' : SERVER === 'py' ? 'Python mcp 2.3.0' : '@modelcontextprotocol/sdk 1.32.2'}`,
    server: SERVER,
    scenarioSpec: sc,
    session: t.sessionId,
    calls: apps.map((a) => ({ ...a, tool: bodies[a.key] ?? null })),
    wire,
    onerrors,
  };
  writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  process.stderr.write(`recorded ${name}\n`);
}

// Every scenario, with the 1.32.2 client and (v2-) with the v2 client; retry- with the server's retry: (300 ms).
const all = {};
for (const [n, sc] of Object.entries(SCENARIOS)) Object.assign(all, { [n]: sc, [`v2-${n}`]: sc, [`retry-${n}`]: { ...sc, retryInterval: 300 }, [`v2-retry-${n}`]: { ...sc, retryInterval: 300 } });
for (const n of pick) if (!all[n]) throw new Error(`no scenario ${n}`);
for (const [name, sc] of Object.entries(all)) if (pick.length === 0 || pick.includes(name)) await record(name, sc);
process.exit(0);
