// Seventh audit: the Python SDK's MCPServer (mcp 2.3.0, test/real-audit7/py_server.py) behind the fourth and fifth audits' hops, with the TypeScript clients: the SDK 1.32.2 client (sdk-*) and the v2 client 2.4.0 (v2-*, versionNegotiation auto).
// Usage: node test/real-audit7/record.mjs [scenario...]  (needs dist/: npm run build, and /work/py-venv with mcp 2.3.0, or PYTHON)
// Writes test/fixtures/real-audit7/<scenario>/{client,server}.ndjson and observed.json: what the caller saw (its steps, onerror messages, the protocol version it used) and what the server's tools really ran (serverRan).
// Client views come from recordingFetch; server views from the recording proxy (side server) in front of the Python server; the hop sits between the two.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy } from '../../dist/capture/index.js';
import { freePort, sleep, stopAfter } from '../helpers/loopback.mjs';
import { startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit7/', import.meta.url));
const PY_SERVER = fileURLToPath(new URL('py_server.py', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const NGINX_502 = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const reconnectionOptions = { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 };

// ---------------------------------------------------------------- the Python server

const tmp = mkdtempSync(join(tmpdir(), 'audit7-'));

/** py_server.py on a port (a free one unless given); `ran()` is what its tools ran since the last call of it. */
async function startPyServer(mode, port) {
  port ??= await freePort();
  const ranFile = join(tmp, `ran-${mode}-${port}.txt`);
  writeFileSync(ranFile, '');
  const proc = spawn(PYTHON, [PY_SERVER, mode, String(port), ranFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {}
  }
  let seen = 0;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    ran() {
      const lines = readFileSync(ranFile, 'utf8').split('\n').filter(Boolean);
      const out = lines.slice(seen);
      seen = lines.length;
      return out;
    },
    stop: () =>
      new Promise((r) => {
        if (proc.exitCode !== null) return r();
        proc.once('exit', r);
        proc.kill('SIGTERM');
      }),
  };
}

// ---------------------------------------------------------------- the hops (test/real-audit4 and real-audit5's, for SSE bodies with CRLF too)

const eol = (body) => (body.includes('\r\n') ? '\r\n' : '\n');
const sseEvents = (body) => body.split(/\r?\n\r?\n/).filter((e) => e.trim());
const dataOf = (ev) => ev.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
const firstCall = (action) => ({ method, nMethod }) => (method === 'tools/call' && nMethod === 1 ? action : {});
const afterRun502 = { afterRun: { status: 502, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_502 } };

const HOPS = {
  'empty-200-json': firstCall({ transform: ({ headers }) => ({ status: 200, headers, body: '' }) }),
  'duplicate-response-sse': firstCall({
    transform: ({ status, headers, body }) => {
      const evs = sseEvents(body);
      const second = evs[evs.length - 1].replace(/id: [^\r\n]*\r?\n/, '').replace(/ (sent|exported)\b/, ' FAILED');
      return { status, headers, body: body + second + eol(body).repeat(2) };
    },
  }),
  'error-then-result-same-id': firstCall({
    transform: ({ status, headers, body }) => {
      const evs = sseEvents(body);
      const id = JSON.parse(dataOf(evs[evs.length - 1])).id;
      const n = eol(body);
      const err = `event: message${n}data: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'upstream timeout' } })}${n}${n}`;
      return { status, headers, body: err + body };
    },
  }),
  'batch-of-one-response': firstCall({ transform: ({ status, headers, body }) => ({ status, headers, body: `[${body}]` }) }),
  'string-id-response': firstCall({ transform: ({ status, headers, body }) => ({ status, headers, body: body.replace(/"id":\s*(\d+)/, '"id":"$1"') }) }),
  'html-in-sse-after-head': firstCall({ htmlAfterHead: NGINX_502 }),
  '502-after-run': ({ method, n }) => (method === 'tools/call' && n === 1 ? afterRun502 : {}),
  'http-429-retry-after': ({ method, n }) => {
    if (method !== 'tools/call' || n > 2) return {};
    const retryAfter = n === 1 ? new Date(Date.now() + 2500).toUTCString() : '1';
    return { respond: { status: 429, headers: { 'content-type': 'application/json', 'retry-after': retryAfter }, body: JSON.stringify({ error: 'rate_limited', message: 'Too many requests' }) } };
  },
  'response-on-get-stream': firstCall({ moveToGet: 'end' }),
  'session-header-stripped': ({ method }) => (method === 'initialize' ? { stripSessionHeader: true } : {}),
  none: () => ({}),
};

// ---------------------------------------------------------------- the two TypeScript clients

/** A connected client of `kind` (sdk: 1.32.2, v2: 2.4.0) whose calls are observed steps; `era` the protocol version it used. */
async function connect(kind, url, fetch, observed) {
  const onerror = (e) => observed.onerror.push(describeError(e));
  if (kind === 'sdk') {
    const c = new SdkClient({ name: 'audit7-sdk-client', version: '1.32.2' });
    c.onerror = onerror;
    const transport = new SdkTransport(new URL('/mcp', url), { fetch, reconnectionOptions });
    await c.connect(transport);
    return { c, era: transport.protocolVersion ?? null, call: (params, opts) => c.callTool(params, undefined, opts) };
  }
  const c = new V2Client({ name: 'audit7-v2-client', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
  c.onerror = onerror;
  await c.connect(new V2Transport(new URL('/mcp', url), { fetch, reconnectionOptions }), { timeout: 5000 });
  return { c, era: c.getNegotiatedProtocolVersion?.() ?? null, call: (params, opts) => c.callTool(params, opts) };
}

// ---------------------------------------------------------------- the scenarios: the Python server's mode, the hop, what the app does

const invoice = (id) => ({ name: 'send_invoice', arguments: { orderId: id } });
const lookup = (id) => ({ name: 'lookup_order', arguments: { orderId: id } });

/** The fault on the first call, then a call through untouched. */
const oneFault = (mode, first, label) => ({
  mode,
  async run(t) {
    await t.step(`${first.name} ${first.arguments.orderId} (${label})`, () => t.call(first, { timeout: 1500 }));
    await t.step(`lookup_order 1002 after`, () => t.call(lookup('1002')));
  },
});

/** On 2026-07-28 the Python server answers SSE only once a tool sends a notification: export_report with progress, the hop altering its answer. */
const sseCall = (hop, label) => ({
  mode: 'stateful',
  hop,
  async run(t) {
    const seen = [];
    await t.step(`export_report 2026-11 with progress (${label})`, () => t.call({ name: 'export_report', arguments: { month: '2026-11' } }, { timeout: 1500, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) }));
    t.note({ progressSeen: seen });
    await t.step('lookup_order 1002 after', () => t.call(lookup('1002')));
    await sleep(300);
  },
});

const SPECS = {
  'empty-200-json': oneFault('json', invoice('1001'), 'hop empties the 200 body'),
  'duplicate-response-sse': oneFault('stateful', invoice('1001'), 'result event sent twice, the second different'),
  'error-then-result-same-id': oneFault('stateful', invoice('1001'), 'an error, then the result, same id'),
  'batch-of-one-response': oneFault('json', lookup('1001'), 'answered as a batch of one'),
  'string-id-response': oneFault('json', lookup('1001'), 'response id a string'),
  'html-in-sse-after-head': oneFault('stateful', invoice('1001'), '502 page after the 200 head'),
  '502-after-run': {
    // the server runs refund_order (destructiveHint), then lookup_order (readOnlyHint); the hop answers each first call 502; the app retries each after 300 ms
    mode: 'stateful',
    async run(t) {
      for (const args of [{ name: 'refund_order', arguments: { orderId: '1001' } }, lookup('1001')]) {
        const r = await t.step(`${args.name} 1001 (server ran it, hop answers 502)`, () => t.call(args));
        if (!r.ok) {
          await sleep(300);
          await t.step(`${args.name} 1001 (app retry)`, () => t.call(args));
        }
      }
    },
  },
  'http-429-retry-after': {
    // two 429s the server never sees: Retry-After an HTTP date (~2.5 s), then 1; the app retries after 250 ms, then 1.1 s
    mode: 'stateful',
    async run(t) {
      await t.step('send_invoice 1001 (429, Retry-After an HTTP date)', () => t.call(invoice('1001')));
      await sleep(250);
      await t.step('send_invoice 1001 (app retry after 250 ms: 429, Retry-After 1)', () => t.call(invoice('1001')));
      await sleep(1100);
      await t.step('send_invoice 1001 (app retry after 1.1 s)', () => t.call(invoice('1001')));
    },
  },
  'abort-between-progress': {
    // export_report sends progress every 150 ms; the caller's AbortSignal fires 60 ms after the second; the app re-calls
    mode: 'stateful',
    hop: 'none',
    async run(t) {
      const ac = new AbortController();
      const seen = [];
      await t.step('export_report 2026-11 (aborted after progress 2)', () =>
        t.call({ name: 'export_report', arguments: { month: '2026-11' } }, {
          signal: ac.signal,
          timeout: 400,
          resetTimeoutOnProgress: true,
          onprogress: (p) => {
            seen.push(p.progress);
            if (p.progress === 2) setTimeout(() => ac.abort(new Error('user pressed stop')), 60);
          },
        }),
      );
      t.note({ progressSeenBeforeAbort: [...seen] });
      await sleep(500);
      const seen2 = [];
      await t.step('export_report 2026-11 again (the app re-calls)', () =>
        t.call({ name: 'export_report', arguments: { month: '2026-11' } }, { timeout: 400, resetTimeoutOnProgress: true, onprogress: (p) => seen2.push(p.progress) }),
      );
      t.note({ progressSeenSecondCall: seen2 });
      await sleep(300);
    },
  },
  'session-expired-restart': {
    // the Python server process is stopped and started again on the same port between two calls: the session is gone;
    // the app starts anew (a new recorder appending to the same file, as a new process would), re-initializes, re-calls
    mode: 'stateful',
    hop: 'none',
    ownServer: true,
    async run(t) {
      await t.step('send_invoice 1001 (before the restart)', () => t.call(invoice('1001')));
      await t.restartServer();
      await sleep(300);
      const r = await t.step('send_invoice 1002 (old session)', () => t.call(invoice('1002')));
      if (!r.ok) {
        const again = await t.newClient();
        await t.step('send_invoice 1002 (new process, new session)', () => again.call(invoice('1002')));
      }
    },
  },
  'response-on-get-stream': {
    // the hop ends the call's POST stream without its response and writes it on the session's GET stream 30 ms later
    mode: 'stateful',
    async run(t) {
      await sleep(200); // the client opens its GET stream after notifications/initialized
      await t.step('send_invoice 1001 (response moved to the GET stream)', () => t.call(invoice('1001'), { timeout: 1500 }));
      await t.step('lookup_order 1002 after', () => t.call(lookup('1002')));
    },
  },
  'sse-duplicate-response': sseCall('duplicate-response-sse', 'result event sent twice, the second different'),
  'sse-error-then-result-same-id': sseCall('error-then-result-same-id', 'an error, then the result, same id'),
  'sse-html-after-head': sseCall('html-in-sse-after-head', '502 page after the 200 event-stream head'),
  'tool-mcperror-retry': {
    // reserve_stock holds the stock, then raises MCPError -32602 once (its own, the arguments are valid); the app calls again
    mode: 'stateful',
    hop: 'none',
    ownServer: true, // (the tool fails once per order id and server process)
    async run(t) {
      // first with a number for the string orderId: the server's own check refuses it before the tool runs
      await t.step('reserve_stock 5 (a number: the arguments break the inputSchema)', () => t.call({ name: 'reserve_stock', arguments: { orderId: 5 } }));
      const args = { name: 'reserve_stock', arguments: { orderId: '1001' } };
      const r = await t.step('reserve_stock 1001 (the tool raises -32602 after holding the stock)', () => t.call(args));
      if (!r.ok) {
        await sleep(300);
        await t.step('reserve_stock 1001 (app retry)', () => t.call(args));
      }
    },
  },
  'session-header-stripped': {
    // a proxy drops Mcp-Session-Id from the initialize response; the app tries to connect twice
    mode: 'stateful',
    noConnect: true,
    async run(t) {
      for (const k of [1, 2]) {
        const r = await t.step(`connect ${k}`, () => t.newClient());
        if (r.ok) await t.step(`lookup_order 1001 (client ${k})`, () => r.result.call(lookup('1001')));
        await sleep(300);
      }
    },
  },
};

const SCENARIOS = {
  ...Object.fromEntries(Object.keys(SPECS).filter((s) => !s.startsWith('sse-')).map((s) => [`sdk-${s}`, { kind: 'sdk', spec: s }])),
  ...Object.fromEntries(['empty-200-json', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head', '502-after-run', 'abort-between-progress', 'sse-duplicate-response', 'sse-error-then-result-same-id', 'sse-html-after-head', 'tool-mcperror-retry'].map((s) => [`v2-${s}`, { kind: 'v2', spec: s }])),
};

// ---------------------------------------------------------------- running one

const shared = {};

async function runScenario(name, { kind, spec: specName }) {
  const spec = SPECS[specName];
  const t0 = Date.now();
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  let py = spec.ownServer ? await startPyServer(spec.mode) : (shared[spec.mode] ??= await startPyServer(spec.mode));
  py.ran();
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: py.url, out: files.server, side: 'server' });
  const hop = await startAnswerHop(proxy.url, HOPS[spec.hop ?? specName]);
  const { observed, step, note } = makeObserver();
  const recorders = [];
  const clients = [];
  const serverRan = [];
  const newClient = async () => {
    const f = recordingFetch({ out: files.client });
    recorders.push(f);
    const client = await connect(kind, hop.url, f, observed);
    clients.push(client);
    observed.era ??= client.era;
    await step('tools/list', () => client.c.listTools());
    return client;
  };
  const restartServer = async () => {
    serverRan.push(...py.ran());
    await py.stop();
    py = await startPyServer(spec.mode, py.port);
  };
  try {
    const first = spec.noConnect ? undefined : await newClient();
    await spec.run({ call: (params, opts) => first.call(params, opts), step, note, observed, newClient, restartServer });
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.c.close().catch(() => {});
    await sleep(150);
    await hop.close();
    await proxy.close();
    for (const f of recorders) await f.close?.();
  }
  observed.serverRan = [...serverRan, ...py.ran()];
  if (spec.ownServer) await py.stop();
  writeObserved(dir, observed);
  rmSync(`${dir}/proxy.ndjson`, { force: true });
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}

stopAfter(90_000);
const only = process.argv.slice(2);
try {
  for (const [name, s] of Object.entries(SCENARIOS)) if (!only.length || only.includes(name)) await runScenario(name, s);
} finally {
  for (const py of Object.values(shared)) await py.stop();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(0);
