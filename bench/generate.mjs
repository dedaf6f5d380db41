// Deterministic generator of synthetic MCP Streamable HTTP traffic (client + server logs, canonical v1 and HAR lines) for the benchmark.
//
// Usage: node bench/generate.mjs [--size 100mb|1gb|<n>kb|<n>mb|<n>gb] [--out DIR] [--seed N] [--formats canonical,har]
// Writes DIR/client.ndjson, DIR/server.ndjson (canonical v1), DIR/client.har.ndjson, DIR/server.har.ndjson
// (one HAR entry per line), DIR/truth.ndjson (what each tools/call attempt was made to be: see TruthSink) and
// DIR/manifest.json. The size is the approximate size of the canonical pair.
//
// One simulation (seeded PRNG, no Math.random) drives every format, so `--formats canonical` and `--formats har`
// run in two processes produce exactly the files a single run would. The simulation keeps ~CONCURRENT_SESSIONS
// sessions alive; each makes a call every ~2 min, so open calls at any moment are few and the log spans hours.
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const GENERATOR_VERSION = 6;
/** Sessions alive at any moment (sessions that end are replaced). */
const CONCURRENT_SESSIONS = 2000;
/** Mean think time between two calls of one session, ms. */
const MEAN_THINK_MS = 120_000;
/** Measured average bytes of canonical output (client + server) per exchange; turns --size into an exchange budget. */
const CANONICAL_PAIR_BYTES_PER_EXCHANGE = 2900;
const START_MS = Date.UTC(2026, 2, 1, 8, 0, 0);
const ENDPOINT = 'https://mcp.example.com/mcp';

// ---------------------------------------------------------------------------------------------------------------
// Seeded PRNG (sfc32) and helpers.

export function createRng(seed) {
  let a = 0x9e3779b9 ^ seed, b = 0x243f6a88 ^ (seed * 31), c = 0xb7e15162 ^ (seed * 17), d = 1;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 20; i++) next();
  const rng = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    chance: (p) => next() < p,
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    exp: (mean) => -Math.log(1 - next()) * mean,
    hex: (n) => {
      let s = '';
      while (s.length < n) s += ((next() * 4294967296) >>> 0).toString(16).padStart(8, '0');
      return s.slice(0, n);
    },
    uuid: () => {
      const h = rng.hex(32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
    },
    words: (n) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(next() * WORDS.length)]);
      return out.join(' ');
    },
  };
  return rng;
}

// ---------------------------------------------------------------------------------------------------------------
// Vocabulary: tools (with annotations), clients, words.

const WORDS = (
  'invoice customer latency region cluster deploy rollback quota budget report weekly status pending review merge ' +
  'branch release ticket outage paging alert metric dashboard query index shard replica backup restore schema ' +
  'migration tenant account billing refund order shipment warehouse forecast anomaly trend spike error timeout ' +
  'retry cache token session upload download archive policy access audit compliance vendor contract renewal'
).split(' ');
const CITIES = ['Berlin', 'Lisbon', 'Osaka', 'Austin', 'Nairobi', 'Toronto', 'Lyon', 'Pune', 'Quito', 'Perth'];
const REPOS = ['acme/web', 'acme/api', 'acme/infra', 'acme/mobile', 'acme/docs'];

const TOOLS = [
  {
    name: 'search_docs', title: 'Search documentation', description: 'Full-text search over the product documentation.',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 50 } }, required: ['query'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
    args: (r) => ({ query: r.words(r.range(2, 5)), limit: r.pick([5, 10, 20]) }),
  },
  {
    name: 'get_weather', title: 'Current weather', description: 'Current conditions and a 3-day forecast for a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string', enum: ['metric', 'imperial'] } }, required: ['city'] },
    annotations: { readOnlyHint: true, openWorldHint: true },
    args: (r) => ({ city: r.pick(CITIES), units: r.pick(['metric', 'imperial']) }),
  },
  {
    name: 'run_sql', title: 'Run a read-only SQL query', description: 'Runs a SQL query against the analytics replica.',
    inputSchema: { type: 'object', properties: { sql: { type: 'string' }, timeoutMs: { type: 'integer' } }, required: ['sql'] },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    args: (r) => ({ sql: `select ${r.pick(WORDS)}, count(*) from ${r.pick(WORDS)}s where region = '${r.pick(CITIES)}' group by 1 limit ${r.range(10, 500)}` }),
  },
  {
    name: 'read_file', title: 'Read a file', description: 'Reads a UTF-8 text file from the workspace.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    annotations: { readOnlyHint: true },
    args: (r) => ({ path: `src/${r.pick(WORDS)}/${r.pick(WORDS)}.ts` }),
  },
  {
    name: 'create_issue', title: 'Create an issue', description: 'Opens an issue in a repository.',
    inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } }, required: ['repo', 'title'] },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: (r) => ({ repo: r.pick(REPOS), title: r.words(r.range(3, 7)), body: r.words(r.range(10, 40)) }),
  },
  {
    name: 'send_email', title: 'Send an email', description: 'Sends an email on behalf of the user.',
    inputSchema: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'subject', 'body'] },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    args: (r) => ({ to: `${r.pick(WORDS)}@example.org`, subject: r.words(r.range(2, 6)), body: r.words(r.range(15, 60)) }),
  },
  {
    name: 'list_files', title: 'List files', description: 'Lists the files of a workspace directory.',
    inputSchema: { type: 'object', properties: { dir: { type: 'string' }, recursive: { type: 'boolean' } }, required: ['dir'] },
    annotations: { readOnlyHint: true },
    args: (r) => ({ dir: `src/${r.pick(WORDS)}`, recursive: r.chance(0.3) }),
  },
  {
    name: 'translate', title: 'Translate text', description: 'Translates text to a target language.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' }, target: { type: 'string' } }, required: ['text', 'target'] },
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    args: (r) => ({ text: r.words(r.range(5, 25)), target: r.pick(['de', 'fr', 'ja', 'pt', 'es']) }),
  },
];
const TOOL_LIST_RESULT = {
  tools: TOOLS.map(({ name, title, description, inputSchema, annotations }) => ({ name, title, description, inputSchema, annotations })),
};

function makeClients(r) {
  const names = ['acme-agent', 'helpdesk-bot', 'ops-copilot', 'claude-code', 'cursor', 'vscode-copilot', 'nightly-etl', 'sales-assistant'];
  const clients = [];
  for (let i = 0; i < 48; i++) {
    const name = names[i % names.length];
    clients.push({
      name,
      version: `${r.range(0, 3)}.${r.range(0, 20)}.${r.range(0, 9)}`,
      identity: `${name}-${i}@${r.range(1, 4)}.${r.range(0, 9)}.0`,
      stringIds: r.chance(0.1), // ids like "req-12" instead of numbers
      annotatesRetries: r.chance(0.3), // writes note {retryOrigin, attempt, call} on its records
      logsSession: r.chance(0.25), // writes the session field next to the headers
      protocol: r.chance(0.6) ? '2025-11-25' : '2025-06-18',
      userAgent: r.chance(0.5) ? 'node' : `${name}/${r.range(1, 3)}.${r.range(0, 9)} (node 20)`,
    });
  }
  return clients;
}

// ---------------------------------------------------------------------------------------------------------------
// A min-heap keyed by a number, holding any value.

class Heap {
  constructor() { this.keys = []; this.vals = []; }
  get size() { return this.keys.length; }
  peekKey() { return this.keys[0]; }
  push(key, val) {
    const k = this.keys, v = this.vals;
    let i = k.length;
    k.push(key); v.push(val);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (k[p] <= key) break;
      k[i] = k[p]; v[i] = v[p]; i = p;
    }
    k[i] = key; v[i] = val;
  }
  pop() {
    const k = this.keys, v = this.vals;
    const top = v[0];
    const lastK = k.pop(), lastV = v.pop();
    const n = k.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && k[c + 1] < k[c]) c++;
        if (k[c] >= lastK) break;
        k[i] = k[c]; v[i] = v[c]; i = c;
      }
      k[i] = lastK; v[i] = lastV;
    }
    return top;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Timestamps.

let isoSecond = -1, isoPrefix = '';
/** ISO 8601 with milliseconds and Z (Chrome, most loggers). */
function isoZ(ms) {
  const whole = Math.floor(ms);
  const sec = Math.floor(whole / 1000);
  if (sec !== isoSecond) { isoSecond = sec; isoPrefix = new Date(sec * 1000).toISOString().slice(0, 19); }
  return `${isoPrefix}.${String(whole - sec * 1000).padStart(3, '0')}Z`;
}
/** Python isoformat() with microseconds and +00:00 (mitmproxy). */
function isoPython(ms) {
  const z = isoZ(ms);
  const micros = String(Math.floor((ms - Math.floor(ms)) * 1000)).padStart(3, '0');
  return `${z.slice(0, -1)}${micros}+00:00`;
}

// ---------------------------------------------------------------------------------------------------------------
// The simulation: sessions make exchanges; each exchange is an abstract model both serializers read.

const sse = (ev) => {
  let s = '';
  if (ev.event !== undefined) s += `event: ${ev.event}\n`;
  if (ev.id !== undefined) s += `id: ${ev.id}\n`;
  if (ev.retry !== undefined) s += `retry: ${ev.retry}\n`;
  return `${s}data: ${ev.data}\n\n`;
};

const SKIP = Symbol('skip');

class Simulation {
  constructor(seed, exchangeBudget) {
    this.r = createRng(seed);
    this.clients = makeClients(createRng(seed + 7));
    this.budget = exchangeBudget;
    this.started = 0;
    this.sessions = new Heap();
    this.serial = 0;
    // Small sets (the start-up probe) get a few whole sessions instead of thousands of first steps.
    const sessions = Math.min(CONCURRENT_SESSIONS, Math.max(2, Math.floor(exchangeBudget / 10)));
    for (let i = 0; i < sessions; i++) this.sessions.push(START_MS + this.r.next() * MEAN_THINK_MS, this.newSession());
  }

  newSession(client) {
    return {
      client: client ?? this.r.pick(this.clients),
      sid: null,
      nextId: 0,
      stage: 'init',
      callsLeft: Math.max(1, Math.round(this.r.exp(20))),
      sse: this.r.chance(0.65), // server answers with text/event-stream (SDK default) or application/json
      retry: null, // {call, tool, args, attempt} when the next exchange re-sends a failed call
      serial: ++this.serial,
    };
  }

  /** The next exchange in time order; SKIP when a session ended silently; null when the budget is spent. */
  next() {
    if (this.started >= this.budget) return null;
    const t0 = Math.round(this.sessions.peekKey());
    const s = this.sessions.pop();
    this.started++;
    const { ex, after } = this.step(s, t0);
    if (after === null) {
      const endedAt = ex === null ? t0 : ex.t0 + ex.durationMs;
      this.sessions.push(endedAt + this.r.exp(8000), this.newSession(this.r.chance(0.3) ? s.client : undefined));
    } else {
      this.sessions.push(after, s);
    }
    return ex ?? SKIP;
  }

  nextRpcId(s) {
    const n = s.nextId++;
    return s.client.stringIds ? `req-${n}` : n;
  }

  baseExchange(s, t0, method) {
    const r = this.r;
    const lat = 1 + r.next() * 5;
    const reqHeaders = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'user-agent': s.client.userAgent,
    };
    if (s.sid !== null) {
      reqHeaders['mcp-session-id'] = s.sid;
      reqHeaders['mcp-protocol-version'] = s.client.protocol;
    }
    return {
      t0, lat, method, client: s.client, sid: s.sid, reqHeaders, body: null, rpcMethod: null,
      status: 200, resHeaders: {}, kind: 'json', recv: null, events: null, end: 'complete', error: undefined,
      ttfbMs: 0, durationMs: 0, server: 'same', serverEnd: undefined, serverError: undefined, serverExtraMs: 0,
      note: undefined, retryAfter: undefined,
      clientSplit: r.chance(0.1), serverSplit: r.chance(0.08), eventsArray: r.chance(0.05),
      jitterC: r.next() * 12, jitterS: r.next() * 12, serial: s.serial,
    };
  }

  step(s, t0) {
    switch (s.stage) {
      case 'init': return this.initialize(s, t0);
      case 'initialized': return this.initialized(s, t0);
      case 'list': return this.toolsList(s, t0);
      case 'calls': return s.callsLeft > 0 || s.retry ? this.toolsCall(s, t0) : this.terminate(s, t0);
      default: throw new Error(`bad stage ${s.stage}`);
    }
  }

  respondJson(ex, message, ms) {
    ex.kind = 'json';
    ex.resHeaders = { 'content-type': 'application/json', ...ex.resHeaders };
    ex.recv = message;
    ex.ttfbMs = ms;
    ex.durationMs = ms + 1;
  }

  /** SSE response: optional priming event, progress notifications, then the final message (unless cut). */
  respondSse(ex, s, message, ms, progress, proto) {
    const r = this.r;
    ex.kind = 'sse';
    ex.resHeaders = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...ex.resHeaders };
    const streamId = r.hex(8);
    let n = 0, at = ms * 0.1;
    ex.ttfbMs = at;
    const events = [];
    if (proto === '2025-11-25') events.push({ at, id: `${streamId}_${n++}`, data: '', retry: r.chance(0.3) ? 3000 : undefined });
    for (let p = 1; p <= progress; p++) {
      at += (ms * 0.8) / (progress + 1);
      events.push({
        at, event: 'message', id: proto === '2025-11-25' ? `${streamId}_${n++}` : undefined,
        data: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: ex.body.params._meta.progressToken, progress: p, total: progress + 1, message: `${r.pick(WORDS)} ${p}/${progress + 1}` } }),
      });
    }
    if (message !== null) {
      events.push({ at: ms, event: 'message', id: proto === '2025-11-25' ? `${streamId}_${n++}` : undefined, data: JSON.stringify(message) });
    }
    ex.events = events;
    ex.durationMs = ms + 1;
  }

  initialize(s, t0) {
    const r = this.r;
    const ex = this.baseExchange(s, t0, 'POST');
    const id = this.nextRpcId(s);
    ex.rpcMethod = 'initialize';
    ex.body = {
      jsonrpc: '2.0', id, method: 'initialize',
      params: { protocolVersion: s.client.protocol, capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} }, clientInfo: { name: s.client.name, version: s.client.version } },
    };
    if (r.chance(0.02)) return this.gateway503(s, ex, 'init');
    s.sid = r.uuid();
    ex.resHeaders = { 'mcp-session-id': s.sid };
    const result = {
      protocolVersion: s.client.protocol,
      capabilities: { tools: { listChanged: true }, logging: {}, resources: {} },
      serverInfo: { name: 'acme-mcp', version: '2.3.1' },
      instructions: 'Tools for the Acme workspace. Prefer search_docs before read_file.',
    };
    const ms = 8 + r.exp(25);
    if (s.sse) this.respondSse(ex, s, { jsonrpc: '2.0', id, result }, ms, 0, s.client.protocol); else this.respondJson(ex, { jsonrpc: '2.0', id, result }, ms);
    s.stage = 'initialized';
    return { ex, after: t0 + ex.durationMs + 2 + r.exp(5) };
  }

  initialized(s, t0) {
    const ex = this.baseExchange(s, t0, 'POST');
    ex.rpcMethod = 'notifications/initialized';
    ex.body = { jsonrpc: '2.0', method: 'notifications/initialized' };
    ex.status = 202;
    ex.kind = 'empty';
    ex.ttfbMs = 2 + this.r.exp(3);
    ex.durationMs = ex.ttfbMs;
    s.stage = 'list';
    return { ex, after: t0 + ex.durationMs + 5 + this.r.exp(20) };
  }

  toolsList(s, t0) {
    const r = this.r;
    const ex = this.baseExchange(s, t0, 'POST');
    const id = this.nextRpcId(s);
    ex.rpcMethod = 'tools/list';
    ex.body = { jsonrpc: '2.0', id, method: 'tools/list', params: {} };
    const message = { jsonrpc: '2.0', id, result: TOOL_LIST_RESULT };
    const ms = 5 + r.exp(30);
    if (s.sse) this.respondSse(ex, s, message, ms, 0, s.client.protocol); else this.respondJson(ex, message, ms);
    s.stage = 'calls';
    // An app that lost its session re-sends the failed call as soon as the new session is ready.
    return { ex, after: t0 + ex.durationMs + (s.retry ? 20 + r.exp(200) : r.exp(MEAN_THINK_MS / 4)) };
  }

  /** A load balancer in front of the server answered 503: the server never saw the request. */
  gateway503(s, ex, stage) {
    const r = this.r;
    ex.status = 503;
    ex.kind = 'text';
    ex.resHeaders = { 'content-type': 'text/html', server: 'envoy' };
    if (r.chance(0.5)) ex.resHeaders['retry-after'] = String(r.range(1, 5));
    ex.recvText = '<html><body><h1>503 Service Unavailable</h1>upstream connect error or disconnect/reset before headers</body></html>';
    ex.ttfbMs = 1 + r.exp(4);
    ex.durationMs = ex.ttfbMs;
    ex.server = 'none';
    const wait = ex.resHeaders['retry-after'] ? Number(ex.resHeaders['retry-after']) * 1000 : 1000 + r.exp(1000);
    return { ex, after: ex.t0 + ex.durationMs + wait };
  }

  toolsCall(s, t0) {
    const r = this.r;
    const ex = this.baseExchange(s, t0, 'POST');
    const id = this.nextRpcId(s);
    let call = s.retry;
    if (call === null) {
      const tool = r.pick(TOOLS);
      call = { call: `c-${r.hex(10)}`, tool, args: tool.args(r), attempt: 1 };
      s.callsLeft--;
    } else {
      call.attempt++;
    }
    s.retry = null;
    const withProgress = s.sse && r.chance(0.5);
    const params = { name: call.tool.name, arguments: call.args };
    if (withProgress) params._meta = { progressToken: id };
    ex.rpcMethod = 'tools/call';
    ex.body = { jsonrpc: '2.0', id, method: 'tools/call', params };
    if (s.client.annotatesRetries) ex.note = { retryOrigin: call.attempt > 1 ? 'app' : 'none', attempt: call.attempt, call: call.call };
    const think = () => t0 + ex.durationMs + r.exp(MEAN_THINK_MS);
    const retryLater = (wait) => {
      if (call.attempt < 3) s.retry = call;
      return { ex, after: t0 + ex.durationMs + wait };
    };
    const ms = 40 + r.exp(900);
    const progress = withProgress ? r.range(1, 4) : 0;
    const roll = r.next();
    // What this attempt is made to be, in each side's view (the server's undefined: it never saw the request).
    const truth = (outcome, serverOutcome) => { ex.truth = { tool: call.tool.name, call: call.call, attempt: call.attempt, outcome, serverOutcome }; };

    if (roll < 0.03) {
      // 429 from the server's rate limiter, with Retry-After; the app waits and re-sends with a new id.
      ex.status = 429;
      ex.retryAfter = r.range(1, 10);
      this.respondJson(ex, { jsonrpc: '2.0', id, error: { code: -32000, message: 'Rate limit exceeded, retry later' } }, 3 + r.exp(5));
      ex.resHeaders['retry-after'] = String(ex.retryAfter);
      truth('HTTP_ERROR', 'HTTP_ERROR');
      return retryLater(ex.retryAfter * 1000 + r.exp(200));
    }
    if (roll < 0.05) {
      const out = this.gateway503(s, ex, 'call');
      truth('HTTP_ERROR', undefined);
      if (call.attempt < 3) s.retry = call;
      return out;
    }
    if (roll < 0.053) {
      // The session expired on the server: 404 with the SDK's "Session not found"; the app starts a new client.
      ex.status = 404;
      this.respondJson(ex, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 2 + r.exp(3));
      s.sid = null; s.nextId = 0; s.stage = 'init';
      truth('HTTP_ERROR', 'HTTP_ERROR');
      if (call.attempt < 3) s.retry = call;
      return { ex, after: t0 + ex.durationMs + 50 + r.exp(300) };
    }
    if (roll < 0.073 && s.sse) {
      // The stream was cut before the final response (proxy idle timeout, pod restart).
      params._meta ??= { progressToken: id };
      this.respondSse(ex, s, null, ms, Math.max(1, progress), s.client.protocol);
      ex.end = 'aborted';
      ex.error = r.pick(['TypeError: terminated', 'Error: socket hang up', 'other side closed']);
      const cutAt = ex.events.at(-1).at + 5 + r.exp(2000);
      ex.durationMs = cutAt;
      if (r.chance(0.5)) {
        ex.server = 'completed'; // the server finished and wrote its final event into a dead connection
        ex.serverFinal = this.toolResult(call, id, false);
        ex.serverExtraMs = 200 + r.exp(3000);
        truth('STREAM_INCOMPLETE', 'TOOL_SUCCESS');
      } else {
        ex.serverEnd = 'aborted';
        ex.serverError = 'client closed the connection';
        truth('STREAM_INCOMPLETE', 'STREAM_INCOMPLETE');
      }
      return r.chance(0.6) ? retryLater(500 + r.exp(2000)) : { ex, after: think() };
    }
    if (roll < 0.083) {
      // No response within the client's timeout; the server answers late.
      ex.status = null;
      ex.kind = 'none';
      ex.end = 'timeout';
      ex.error = 'The operation was aborted due to timeout';
      ex.durationMs = 30_000;
      ex.server = 'late';
      ex.serverFinal = this.toolResult(call, id, false);
      ex.serverExtraMs = 1000 + r.exp(8000);
      truth('NO_RESPONSE', 'TOOL_SUCCESS');
      return r.chance(0.5) ? retryLater(1000) : { ex, after: think() };
    }
    let message;
    if (roll < 0.113) {
      message = { jsonrpc: '2.0', id, error: r.chance(0.7)
        ? { code: -32602, message: `Invalid arguments for tool ${call.tool.name}: ${r.pick(Object.keys(call.args))}: Expected string, received number` }
        : { code: -32603, message: 'Internal error', data: { reason: `${r.pick(WORDS)} backend unavailable` } } };
      truth('JSONRPC_ERROR', 'JSONRPC_ERROR');
    } else {
      message = this.toolResult(call, id, roll < 0.173);
      truth(roll < 0.173 ? 'TOOL_ERROR' : 'TOOL_SUCCESS', roll < 0.173 ? 'TOOL_ERROR' : 'TOOL_SUCCESS');
    }
    if (s.sse) this.respondSse(ex, s, message, ms, progress, s.client.protocol); else this.respondJson(ex, message, ms);
    return { ex, after: think() };
  }

  toolResult(call, id, isError) {
    const r = this.r;
    const text = isError
      ? `Error: ${call.tool.name} failed: ${r.pick(['permission denied', 'not found', 'upstream timeout', 'quota exceeded'])} (${r.words(r.range(2, 8))})`
      : r.words(r.range(8, 90));
    const result = { content: [{ type: 'text', text }] };
    if (isError) result.isError = true;
    else if (r.chance(0.2)) result.structuredContent = { count: r.range(0, 200), items: [r.pick(WORDS), r.pick(WORDS)] };
    return { jsonrpc: '2.0', id, result };
  }

  terminate(s, t0) {
    const r = this.r;
    if (r.chance(0.3)) return { ex: null, after: null }; // the client just went away
    const ex = this.baseExchange(s, t0, 'DELETE');
    delete ex.reqHeaders['content-type'];
    ex.rpcMethod = null;
    ex.kind = 'empty';
    ex.status = r.chance(0.9) ? 200 : 405;
    ex.ttfbMs = 1 + r.exp(5);
    ex.durationMs = ex.ttfbMs;
    return { ex, after: null };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Serializers: canonical v1 (client and server) and HAR entry lines. Each returns [orderKey, line] pairs.

const sseText = (events) => events.map(sse).join('');

function serverTimes(ex) {
  const t0 = ex.t0 + ex.lat;
  const duration = Math.max(0.5, ex.durationMs - 2 * ex.lat + ex.serverExtraMs);
  return { t0, duration };
}

/** The server's view of the response: for cut and late exchanges the server saw more than the client. */
function serverEvents(ex) {
  if (ex.kind !== 'sse') return ex.events;
  if (ex.server !== 'completed') return ex.events;
  const last = ex.events.at(-1);
  return [...ex.events, { at: last.at + ex.serverExtraMs, event: 'message', id: last.id ? `${last.id.split('_')[0]}_${ex.events.length}` : undefined, data: JSON.stringify(ex.serverFinal) }];
}

function canonicalLines(ex, side, xid, out) {
  const isServer = side === 'server';
  if (isServer && ex.server === 'none') return;
  const { t0, duration } = isServer ? serverTimes(ex) : { t0: ex.t0, duration: ex.durationMs };
  const jitter = isServer ? ex.jitterS : ex.jitterC;
  const split = isServer ? ex.serverSplit : ex.clientSplit;
  const reqHeaders = isServer ? { host: 'mcp.example.com', ...ex.reqHeaders, 'x-forwarded-for': '10.1.0.7' } : ex.reqHeaders;
  const common = { v: 1, ts: isoZ(t0), side };
  if (!isServer) common.client = ex.client.identity;
  if (!isServer && ex.client.logsSession && ex.sid !== null) common.session = ex.sid;
  let status = ex.status, end = ex.end, error = ex.error, events = ex.events, recv = ex.recv;
  let resHeaders = ex.resHeaders;
  if (isServer) {
    if (ex.server === 'late') {
      status = 200; end = 'complete'; error = undefined; recv = ex.serverFinal;
      resHeaders = { 'content-type': 'application/json' };
    } else if (ex.server === 'completed') {
      end = 'complete'; error = undefined; events = serverEvents(ex);
    } else if (ex.serverEnd) {
      end = ex.serverEnd; error = ex.serverError;
    }
    if (resHeaders['mcp-session-id']) resHeaders = { ...resHeaders, 'Mcp-Session-Id': resHeaders['mcp-session-id'], 'mcp-session-id': undefined };
  }
  const kind = isServer && ex.server === 'late' ? 'json' : ex.kind;
  const body = ex.body;
  // Offsets from the start of the exchange as this side saw them: the server sends each event one latency before
  // the client gets it and started one latency after the client, so its offsets are 2 latencies smaller.
  const at = (clientOffset) => t0 + (isServer ? Math.max(0.5, clientOffset - 2 * ex.lat) : clientOffset);
  const ttfbAt = isServer && ex.server === 'late' ? t0 + duration - 1 : at(ex.ttfbMs);
  let seq = 0; // keeps the records of one exchange in order when two fall on the same millisecond
  const key = (ms) => ms - START_MS + jitter + ++seq * 1e-6; // relative to the start: the tie-breaker must not vanish

  if (!split) {
    const rec = { ...common, kind: 'exchange', method: ex.method, url: ENDPOINT, requestHeaders: reqHeaders };
    if (body !== null) rec.send = body;
    if (ex.note) rec.note = ex.note;
    rec.status = status;
    if (status !== null) rec.responseHeaders = resHeaders;
    if (kind === 'json') rec.recv = recv;
    else if (kind === 'text') rec.recvText = ex.recvText;
    else if (kind === 'sse') {
      if (ex.eventsArray) rec.events = events.map((e) => ({ ts: isoZ(at(e.at)), id: e.id, event: e.event, data: e.data, retry: e.retry }));
      else rec.recvText = sseText(events);
    }
    rec.end = end;
    if (error !== undefined) rec.error = error;
    rec.durationMs = Math.round(duration);
    if (isServer) rec.xid = xid;
    out.push(key(t0), JSON.stringify(rec));
    return;
  }
  const req = { ...common, kind: 'request', xid, method: ex.method, url: ENDPOINT, requestHeaders: reqHeaders };
  if (body !== null) req.send = body;
  if (ex.note) req.note = ex.note;
  out.push(key(t0), JSON.stringify(req));
  if (status !== null) {
    const res = { v: 1, ts: isoZ(ttfbAt), side, kind: 'response', xid, status, responseHeaders: resHeaders };
    if (kind === 'json') res.recv = recv;
    else if (kind === 'text') res.recvText = ex.recvText;
    out.push(key(ttfbAt), JSON.stringify(res));
    if (kind === 'sse') {
      for (const e of events) {
        const eventAt = Math.max(at(e.at), ttfbAt);
        const rec = { v: 1, ts: isoZ(eventAt), side, kind: 'event', xid, id: e.id, event: e.event, data: e.data, retry: e.retry };
        out.push(key(eventAt), JSON.stringify(rec));
      }
    }
  }
  const endAt = t0 + duration;
  const endRec = { v: 1, ts: isoZ(endAt), side, kind: 'end', xid, end, error, durationMs: Math.round(duration) };
  out.push(key(endAt), JSON.stringify(endRec));
}

const STATUS_TEXT = { 200: 'OK', 202: 'Accepted', 404: 'Not Found', 405: 'Method Not Allowed', 429: 'Too Many Requests', 503: 'Service Unavailable' };
const harHeaders = (h) => {
  const list = [];
  for (const name in h) if (h[name] !== undefined) list.push({ name, value: h[name] });
  return list;
};

function harLine(ex, side, out) {
  const isServer = side === 'server';
  if (isServer && ex.server === 'none') return;
  const { t0, duration } = isServer ? serverTimes(ex) : { t0: ex.t0, duration: ex.durationMs };
  const sendText = ex.body === null ? undefined : JSON.stringify(ex.body);
  const request = {
    method: ex.method, url: ENDPOINT, httpVersion: isServer ? 'HTTP/1.1' : 'http/2.0',
    headers: harHeaders(isServer ? { host: 'mcp.example.com', ...ex.reqHeaders } : ex.reqHeaders),
    queryString: [], cookies: [], headersSize: -1, bodySize: sendText === undefined ? 0 : sendText.length,
  };
  if (sendText !== undefined) request.postData = { mimeType: 'application/json', text: sendText };
  let status = ex.status, text = '', mime = 'x-unknown', errorText;
  let headers = ex.resHeaders;
  if (isServer && ex.server === 'late') {
    status = 200; text = JSON.stringify(ex.serverFinal); mime = 'application/json'; headers = { 'content-type': 'application/json' };
  } else if (ex.kind === 'json') { text = JSON.stringify(ex.recv); mime = 'application/json'; }
  else if (ex.kind === 'sse') { text = sseText(isServer ? serverEvents(ex) : ex.events); mime = 'text/event-stream'; }
  else if (ex.kind === 'text') { text = ex.recvText; mime = 'text/html'; }
  if (!isServer || ex.server !== 'late') {
    if (ex.end !== 'complete' && !(isServer && ex.server === 'completed')) errorText = isServer ? ex.serverError ?? ex.error : ex.error;
  }
  const response = {
    status: status ?? 0, statusText: status === null ? '' : STATUS_TEXT[status] ?? '', httpVersion: request.httpVersion,
    headers: status === null ? [] : harHeaders(headers), cookies: [],
    content: { size: text.length, mimeType: mime },
    redirectURL: '', headersSize: -1, bodySize: status === null ? -1 : text.length,
  };
  if (text !== '') response.content.text = text;
  if (errorText !== undefined) response._error = errorText;
  const entry = {
    startedDateTime: isServer ? isoPython(t0) : isoZ(t0), time: Math.round(duration * 1000) / 1000,
    request, response, cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0.1, wait: Math.round(ex.ttfbMs * 1000) / 1000, receive: Math.round((duration - ex.ttfbMs) * 1000) / 1000 },
    serverIPAddress: '10.1.0.20',
  };
  if (!isServer) entry._resourceType = 'fetch';
  out.push(t0 - START_MS + (isServer ? ex.jitterS : ex.jitterC), JSON.stringify(entry));
}

// ---------------------------------------------------------------------------------------------------------------
// Output: lines wait in a heap until no later exchange can produce an earlier line, then go out in big writes.

/**
 * truth.ndjson: one line per tools/call attempt, in the order they start, with what the simulation made it: the
 * session and JSON-RPC id it was sent with, its tool, the logical call it belongs to and its attempt number in that
 * call, the outcome the client's view must have and the server's (absent: the server never saw it), and who sent it
 * with what (client identity, User-Agent, the arguments' JSON: two calls alike in all the input shows cannot be told
 * apart from a call and its retry). Broken lines
 * (LineSink) can spoil the attempts they belong to; bench/check-truth.mjs allows for them.
 */
class TruthSink {
  constructor(path) {
    this.path = path;
    this.fd = openSync(`${path}.partial`, 'w');
    this.chunks = [];
    this.size = 0;
    this.lines = 0;
  }
  add(ex) {
    const t = ex.truth;
    const line = `${JSON.stringify({ session: ex.sid, id: ex.body.id, tool: t.tool, call: t.call, attempt: t.attempt, outcome: t.outcome, serverOutcome: t.serverOutcome, client: ex.client.identity, userAgent: ex.client.userAgent, request: JSON.stringify(ex.body.params.arguments) })}\n`;
    this.chunks.push(line);
    this.size += line.length;
    this.lines++;
    if (this.size > 1 << 20) this.flush();
  }
  flush() {
    if (this.chunks.length > 0) writeSync(this.fd, this.chunks.join(''));
    this.chunks = [];
    this.size = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
    renameSync(`${this.path}.partial`, this.path);
  }
}

class LineSink {
  constructor(path, seed) {
    this.path = path;
    this.tmp = `${path}.partial`;
    this.fd = openSync(this.tmp, 'w');
    this.pending = new Heap();
    this.buf = Buffer.allocUnsafe(8 << 20);
    this.used = 0;
    this.bytes = 0;
    this.lines = 0;
    this.broken = 0;
    this.r = createRng(seed);
  }
  /** Queue a line; key is its time in ms since START_MS (small numbers, so sub-microsecond tie-breakers stay exact). */
  push(key, line) { this.pending.push(key, line); }
  /** Write every pending line whose key is at most upTo. */
  release(upTo) {
    const p = this.pending;
    const limit = upTo - START_MS;
    while (p.size > 0 && p.peekKey() <= limit) this.emit(p.pop());
  }
  emit(line) {
    const r = this.r;
    if (r.next() < 0.0003) {
      this.broken++;
      const kind = r.int(4);
      const before = line;
      if (kind === 1) line = line.replace('"status":', '"status":"').replace(/("status":"\d+|"status":"null)/, '$1"'); // status as a string
      else if (kind === 2) this.add(r.pick(['    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', 'Error: socket hang up', '', '{"v":1,"kind":"exchange","ts":"garbage","method":42}']));
      else if (kind === 3) line = line.replace('"ts":"', '"ts":').replace(/"ts":(\d{4}-[^"]*)"/, '"ts":["$1"]'); // ts of a wrong type
      if (kind === 0 || (kind !== 2 && line === before)) line = line.slice(0, r.range(10, Math.max(11, line.length - 2))); // writer crashed mid-line
    }
    this.add(line);
  }
  add(line) {
    // Lines are copied straight into one reusable buffer (no join, no big temporary strings).
    if (this.used + line.length * 3 + 1 > this.buf.length) this.flush();
    if (line.length * 3 + 1 > this.buf.length) {
      writeSync(this.fd, `${line}\n`);
      this.bytes += Buffer.byteLength(line) + 1;
    } else {
      this.used += this.buf.write(line, this.used, 'utf8');
      this.buf[this.used++] = 0x0a;
    }
    this.lines++;
  }
  flush() {
    if (this.used === 0) return;
    writeSync(this.fd, this.buf, 0, this.used);
    this.bytes += this.used;
    this.used = 0;
  }
  close() {
    this.release(Infinity);
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }
}

export function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)\s*(kb|mb|gb)$/i.exec(String(text).trim());
  if (!m) throw new Error(`bad --size "${text}" (expected e.g. 100mb, 1gb, 500kb)`);
  const mult = { kb: 1e3, mb: 1e6, gb: 1e9 }[m[2].toLowerCase()];
  return Math.round(Number(m[1]) * mult);
}

export const FILES = {
  canonical: { client: 'client.ndjson', server: 'server.ndjson' },
  har: { client: 'client.har.ndjson', server: 'server.har.ndjson' },
};

/** Generate the files of the given formats into outDir; returns per-file statistics. */
export function generate({ sizeBytes, outDir, seed = 1, formats = ['canonical', 'har'], truth = true }) {
  mkdirSync(outDir, { recursive: true });
  const budget = Math.max(20, Math.round(sizeBytes / CANONICAL_PAIR_BYTES_PER_EXCHANGE));
  const sim = new Simulation(seed, budget);
  const sinks = {};
  for (const f of formats) {
    const i = Object.keys(FILES).indexOf(f); // broken lines depend on the format, not on which formats run together
    sinks[f] = { client: new LineSink(join(outDir, FILES[f].client), seed * 101 + i * 2), server: new LineSink(join(outDir, FILES[f].server), seed * 101 + i * 2 + 1) };
  }
  const truthSink = truth ? new TruthSink(join(outDir, 'truth.ndjson')) : undefined;
  let xidSerial = 0, exchanges = 0, firstMs, lastMs;
  for (let ex = sim.next(); ex !== null; ex = sim.next()) {
    if (ex === SKIP) continue; // a session that ended without DELETE
    exchanges++;
    firstMs ??= ex.t0;
    lastMs = ex.t0;
    const xid = `x${(++xidSerial).toString(36)}`;
    if (ex.truth) truthSink?.add(ex);
    if (sinks.canonical) {
      const c = sinks.canonical;
      canonicalLines(ex, 'client', xid, c.client);
      canonicalLines(ex, 'server', `s${xid}`, c.server);
      c.client.release(ex.t0);
      c.server.release(ex.t0);
    }
    if (sinks.har) {
      const h = sinks.har;
      harLine(ex, 'client', h.client);
      harLine(ex, 'server', h.server);
      h.client.release(ex.t0);
      h.server.release(ex.t0);
    }
  }
  const stats = { exchanges, spanHours: (lastMs - firstMs) / 3.6e6, files: {} };
  if (truthSink) {
    truthSink.close();
    stats.truthLines = truthSink.lines;
  }
  for (const f of formats) {
    for (const side of ['client', 'server']) {
      const sink = sinks[f][side];
      sink.close();
      stats.files[FILES[f][side]] = { bytes: sink.bytes, lines: sink.lines, broken: sink.broken };
    }
  }
  return stats;
}

/** How big each of the huge-lines set's large results is (characters of tool output). */
const HUGE_RESULT_CHARS = 12_000_000;

/**
 * The huge-lines pair: one session of small calls with eight calls whose results are 12 MB each, carried every way a
 * log keeps a body (an SSE body as text, a JSON body as text, a parsed body, split records with the result in one SSE
 * event). A log of a tool that returns files or query dumps looks like this; the set checks that reading a line costs
 * time in proportion to its length. Deterministic: no random numbers.
 */
export function generateHugeLines({ outDir }) {
  mkdirSync(outDir, { recursive: true });
  const t0 = Date.parse('2026-11-30T09:00:00.000Z');
  const session = 'huge-session-1';
  const iso = (ms) => new Date(ms).toISOString();
  const stats = { exchanges: 0, spanHours: 0, files: {} };
  for (const side of ['client', 'server']) {
    const lag = side === 'server' ? 3 : 0;
    const lines = [];
    const post = (n, ms, send, rest) => ({ v: 1, kind: 'exchange', ts: iso(ms + lag), side, session: n === 0 ? null : session, method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json', ...(n === 0 ? {} : { 'mcp-session-id': session }) }, send, ...rest });
    lines.push(post(0, t0, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-huge', version: '1.0.0' } } }, { status: 200, responseHeaders: { 'content-type': 'application/json', 'mcp-session-id': session }, recv: { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'bench-server', version: '1.0.0' } } }, durationMs: 4 }));
    for (let i = 1; i <= 200; i++) {
      const ms = t0 + i * 1000;
      const id = i;
      const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: i % 25 === 0 ? 'export_table' : 'lookup', arguments: { key: `k${i}` } } };
      if (i % 25 !== 0) {
        const result = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `value ${i}` }] } };
        lines.push(post(i, ms, call, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, recvText: `id: e${i}\ndata: ${JSON.stringify(result)}\n\n`, durationMs: 12 }));
        continue;
      }
      const big = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `${i}:`.padEnd(HUGE_RESULT_CHARS, 'row,') }] } };
      const text = JSON.stringify(big);
      const way = (i / 25) % 4;
      if (way === 0) lines.push(post(i, ms, call, { status: 200, responseHeaders: { 'content-type': 'text/event-stream' }, recvText: `id: e${i}\nevent: message\ndata: ${text}\n\n`, durationMs: 900 }));
      else if (way === 1) lines.push(post(i, ms, call, { status: 200, responseHeaders: { 'content-type': 'application/json' }, recvText: text, durationMs: 900 }));
      else if (way === 2) lines.push(post(i, ms, call, { status: 200, responseHeaders: { 'content-type': 'application/json' }, recv: big, durationMs: 900 }));
      else {
        const xid = `${side[0]}-huge-${i}`;
        const common = { v: 1, side, session, xid };
        lines.push({ ...common, kind: 'request', ts: iso(ms + lag), method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'mcp-session-id': session }, send: call });
        lines.push({ ...common, kind: 'response', ts: iso(ms + lag + 5), status: 200, responseHeaders: { 'content-type': 'text/event-stream' } });
        lines.push({ ...common, kind: 'event', ts: iso(ms + lag + 800), id: `e${i}`, data: text });
        lines.push({ ...common, kind: 'end', ts: iso(ms + lag + 900), end: 'complete' });
      }
    }
    const name = FILES.canonical[side];
    const body = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    writeFileSync(join(outDir, name), body);
    stats.files[name] = { bytes: Buffer.byteLength(body), lines: lines.length, broken: 0 };
    stats.exchanges = 201;
    stats.spanHours = 200 / 3600;
  }
  return stats;
}

function parseArgs(argv) {
  const opts = { size: '100mb', out: null, seed: 1, formats: 'canonical,har', parallel: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--size') opts.size = argv[++i];
    else if (a === '--out') opts.out = argv[++i];
    else if (a === '--seed') opts.seed = Number(argv[++i]);
    else if (a === '--formats') opts.formats = argv[++i];
    else if (a === '--no-parallel') opts.parallel = false;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node bench/generate.mjs [--size 100mb|1gb] [--out DIR] [--seed N] [--formats canonical,har] [--no-parallel]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  opts.out ??= join(fileURLToPath(new URL('.', import.meta.url)), 'data', opts.size.toLowerCase());
  return opts;
}

/** Generate with one process per format (two cores), then write manifest.json. */
export async function generateAll({ size, out, seed, formats, parallel = true }) {
  const sizeBytes = parseSize(size);
  const list = formats.split(',').map((f) => f.trim()).filter(Boolean);
  for (const f of list) if (!FILES[f]) throw new Error(`unknown format ${f}`);
  const started = performance.now();
  let results;
  if (parallel && list.length > 1) {
    const self = fileURLToPath(import.meta.url);
    results = await Promise.all(list.map((f, i) => new Promise((resolve, reject) => {
      const child = fork(self, ['--child', JSON.stringify({ sizeBytes, outDir: out, seed, formats: [f], truth: i === 0 })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.on('message', resolve);
      child.on('exit', (code) => { if (code !== 0) reject(new Error(`generator for ${f} exited with ${code}`)); });
    })));
  } else {
    results = [generate({ sizeBytes, outDir: out, seed, formats: list })];
  }
  const manifest = { generator: GENERATOR_VERSION, seed, size, sizeBytes, exchanges: results[0].exchanges, spanHours: results[0].spanHours, truthLines: results[0].truthLines, files: {} };
  for (const r of results) Object.assign(manifest.files, r.files);
  manifest.seconds = Math.round((performance.now() - started) / 100) / 10;
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  if (process.argv[2] === '--child') {
    const stats = generate(JSON.parse(process.argv[3]));
    process.send(stats, () => process.exit(0));
  } else {
    const opts = parseArgs(process.argv.slice(2));
    const manifest = await generateAll(opts);
    const total = Object.values(manifest.files).reduce((n, f) => n + f.bytes, 0);
    console.log(`${opts.out}: ${manifest.exchanges} exchanges over ${manifest.spanHours.toFixed(1)} h, ${(total / 1e6).toFixed(1)} MB in ${manifest.seconds} s`);
    for (const [name, f] of Object.entries(manifest.files)) console.log(`  ${name.padEnd(20)} ${(f.bytes / 1e6).toFixed(1).padStart(8)} MB ${String(f.lines).padStart(9)} lines ${f.broken} broken`);
  }
}
