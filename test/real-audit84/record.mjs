// Records test/fixtures/real-audit84/ (the eighty-fourth audit: the SDKs' own HTTP framework helpers and the Host/Origin/body guards they put in front of the MCP handler) on 127.0.0.1, ports 10140-10169.
// NOT run by `npm test`: CI does not have the helper packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/audit84-scratch && cd /work/audit84-scratch && npm init -y && npm i --save-exact \
//     @modelcontextprotocol/express@2.0.2 @modelcontextprotocol/hono@2.0.2 @modelcontextprotocol/server@2.4.0 \
//     @modelcontextprotocol/node@2.1.2 express@5.2.1 hono@4.11.4 @hono/node-server@2.1.11
// then, from the repository: npm run build && node test/real-audit84/record.mjs [scenario...]   (AUDIT84_NPM=dir to move it)
// The Python server and client need /work/py-venv (mcp 2.3.0).
// Servers: v1 = SDK 1.32.2 `createMcpExpressApp()` (its localhost Host check) + StreamableHTTPServerTransport (one per
// session; `v1-transport-*`: the transport's own enableDnsRebindingProtection/allowedHosts/allowedOrigins);
// v2x = `@modelcontextprotocol/express` createMcpExpressApp() (Host + Origin checks, express.json) + the v2 server's
// NodeStreamableHTTPServerTransport; v2h = `@modelcontextprotocol/hono` createMcpHonoApp() (Host + Origin checks, its
// own 4 MiB JSON body reader) + WebStandardStreamableHTTPServerTransport under @hono/node-server; py = the Python SDK
// 2.3.0 MCPServer's streamable_http_app(host 127.0.0.1) (its TransportSecurityMiddleware and 4 MiB body limit).
// The chain: the app's Client (SDK 1.32.2, v2 2.4.0 or the Python SDK 2.3.0), its fetch recordingFetch (client.ndjson;
// Python: the client's DEBUG log, client-debug.log) -> `mcp-triage record` (proxy.ndjson; it sends the hop its own
// address as Host) -> a reverse-proxy hop that forwards the Host it got, or a public one (`mcp.example.com`) from the
// start or once a tools/call has passed (the scenario's) -> the server, recordingHandler in front of the helper's app
// (server.ndjson; for py no server view: a recording proxy would set Host itself, so the server's own log lines are kept
// in observed.json). observed.json: what the app got or threw at each step, which tool bodies ran, what the hop did.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const NPM = process.env.AUDIT84_NPM ?? '/work/audit84-scratch';
const need = createRequire(`${NPM}/package.json`);
const { recordingFetch, recordingHandler, startRecordingProxy } = await import(`${R}/dist/capture/index.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { createMcpExpressApp: v1App } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/express.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
const v2c = await import('@modelcontextprotocol/client');
const imp = (name) => import(need.resolve(name));
const v2s = await imp('@modelcontextprotocol/server');
const v2n = await imp('@modelcontextprotocol/node');
const { createMcpExpressApp: v2ExpressApp } = await imp('@modelcontextprotocol/express');
const { createMcpHonoApp } = await imp('@modelcontextprotocol/hono');
const { getRequestListener } = await imp('@hono/node-server');

setTimeout(() => { process.stderr.write('still running after 300 s, giving up\n'); process.exit(2); }, 300_000).unref();
const uncaught = [];
process.on('uncaughtException', (e) => { uncaught.push(`${e.code ?? e.name}: ${e.message}`); process.stderr.write(`UNCAUGHT ${e.stack}\n`); });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PORT = { server: 10140, hop: 10141, proxy: 10142 };
/** Each scenario its own three ports (10140-10169, ten sets in turn): a pooled keep-alive socket to a closed one is never reused. */
let portSet = 0;
const nextPorts = () => { const b = 10140 + 3 * (portSet++ % 10); Object.assign(PORT, { server: b, hop: b + 1, proxy: b + 2 }); };
const PUBLIC_HOST = 'mcp.example.com';
const EVIL_ORIGIN = 'https://evil.example';
const uuid = /[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}/g;
const clean = (s) => String(s).replace(uuid, '<session>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>');
const errOf = (e) => ({ name: e?.constructor?.name ?? typeof e, message: clean(e?.message ?? e).slice(0, 300), ...(e?.code !== undefined ? { code: e.code } : {}), ...(e?.cause?.code ? { cause: e.cause.code } : {}) });
const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: x.content?.map((b) => b.text).join(' ').slice(0, 120) } : x && typeof x === 'object' && 'tools' in x ? { tools: x.tools.map((t) => t.name) } : x);

/** The two tools every server here has: lookup_order (readOnlyHint) and send_invoice (unannotated: unsafe to repeat). */
function v1Server(ran) {
  const s = new McpServer({ name: 'audit84-v1', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId.slice(0, 40)}`); return { content: [{ type: 'text', text: `order ${orderId.slice(0, 40)}: shipped` }] }; });
  s.registerTool('send_invoice', { description: 'Send the invoice of an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran.push(`send_invoice ${orderId.slice(0, 40)}`); return { content: [{ type: 'text', text: `invoice for ${orderId.slice(0, 40)} sent` }] }; });
  return s;
}
function v2Server(ran) {
  const s = new v2s.McpServer({ name: 'audit84-v2', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId.slice(0, 40)}`); return { content: [{ type: 'text', text: `order ${orderId.slice(0, 40)}: shipped` }] }; });
  s.registerTool('send_invoice', { description: 'Send the invoice of an order', inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { ran.push(`send_invoice ${orderId.slice(0, 40)}`); return { content: [{ type: 'text', text: `invoice for ${orderId.slice(0, 40)} sent` }] }; });
  return s;
}

/** Starts the server of `kind` at PORT.server; resolves { ran, logs, close }. `opts.transport`: extra options for the v1 transport. */
async function startServer(kind, dir, opts = {}) {
  const ran = [];
  const logs = [];
  if (kind === 'py') {
    const py = spawn('/work/py-venv/bin/python', [`${R}/test/real-audit84/py_server.py`, String(PORT.server), ...(opts.maxBody ? [String(opts.maxBody)] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
    py.stdout.on('data', (c) => { for (const l of String(c).split('\n')) { try { const o = JSON.parse(l); if (o.ran) ran.push(o.ran); } catch {} } });
    py.stderr.on('data', (c) => { for (const l of String(c).split('\n')) if (l.trim()) logs.push(clean(l.trim()).slice(0, 200)); });
    for (let i = 0; i < 100; i++) { await sleep(100); if (await fetch(`http://127.0.0.1:${PORT.server}/`).then(() => true, () => false)) break; }
    return { ran, logs, close: async () => { py.kill('SIGTERM'); await new Promise((r) => (py.exitCode !== null ? r() : py.once('exit', r))); } };
  }
  const transports = new Map();
  let app;
  if (kind === 'v2h') {
    app = createMcpHonoApp(opts.maxBody ? { maxRequestBodySize: opts.maxBody } : {});
    app.all('/mcp', async (c) => {
      const sid = c.req.header('mcp-session-id');
      let t = sid ? transports.get(sid) : undefined;
      const body = c.get('parsedBody');
      if (!t && !sid && c.req.method === 'POST' && body?.method === 'initialize') {
        t = new v2s.WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
        await v2Server(ran).connect(t);
      }
      if (!t) return c.json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }, sid ? 404 : 400);
      return t.handleRequest(c.req.raw, { parsedBody: body });
    });
  } else {
    app = kind === 'v1' ? v1App() : v2ExpressApp(opts.maxBody ? { jsonLimit: opts.maxBody } : {});
    const route = async (req, res) => {
      const sid = req.headers['mcp-session-id'];
      let t = sid ? transports.get(sid) : undefined;
      if (!t && !sid && req.method === 'POST' && types.isInitializeRequest(req.body)) {
        const o = { sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t), ...(opts.transport ?? {}) };
        t = kind === 'v1' ? new StreamableHTTPServerTransport(o) : new v2n.NodeStreamableHTTPServerTransport(o);
        t.onerror = (e) => logs.push(clean(e?.message ?? e));
        await (kind === 'v1' ? v1Server(ran) : v2Server(ran)).connect(t);
      }
      if (!t) { res.status(sid ? 404 : 400).json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }); return; }
      await t.handleRequest(req, res, req.body);
    };
    app.post('/mcp', route);
    app.get('/mcp', route);
    app.delete('/mcp', route);
  }
  const handler = kind === 'v2h' ? getRequestListener(app.fetch) : app;
  const server = createServer(recordingHandler(handler, { out: `${dir}/server.ndjson` }));
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('error', () => {}); s.on('close', () => sockets.delete(s)); });
  await new Promise((r) => server.listen(PORT.server, '127.0.0.1', r));
  return {
    ran, logs,
    close: async () => { for (const t of transports.values()) await t.close().catch(() => {}); await new Promise((r) => { server.close(r); for (const s of sockets) s.destroy(); }); },
  };
}

/** The reverse-proxy hop: forwards to the server with the Host it got, or PUBLIC_HOST when hostRule says so. */
async function startHop(hostRule) {
  const log = [];
  const state = { callsPassed: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let rpc;
      try { rpc = JSON.parse(body.toString('utf8')); } catch {}
      const rewrite = hostRule(state, req, rpc);
      const headers = { ...req.headers, ...(rewrite ? { host: PUBLIC_HOST } : {}) };
      log.push({ request: `${req.method} ${rpc?.method ?? ''}${rpc?.params?.name ? ` ${rpc.params.name}` : ''}`.trim(), host: rewrite ? PUBLIC_HOST : 'as received' });
      const up = httpRequest({ host: '127.0.0.1', port: PORT.server, method: req.method, path: req.url, headers }, (ures) => {
        if (rpc?.method === 'tools/call' && ures.statusCode === 200) state.callsPassed++;
        res.writeHead(ures.statusCode, ures.statusMessage, ures.rawHeaders);
        ures.pipe(res);
      });
      up.on('error', () => res.destroy());
      res.on('close', () => { if (!res.writableFinished) up.destroy(); });
      up.end(body);
    });
  });
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('error', () => {}); s.on('close', () => sockets.delete(s)); });
  await new Promise((r) => server.listen(PORT.hop, '127.0.0.1', r));
  return { log, close: () => new Promise((r) => { server.close(r); for (const s of sockets) s.destroy(); }) };
}

const BIG = (n) => `INV-${'x'.repeat(n)}`;
const HOST_RULES = {
  never: () => false,
  always: () => true,
  afterCall: (st) => st.callsPassed >= 1,
};

/**
 * The scenarios: the server kind, the client (v1, v2, py), the hop's Host rule, extra server options, the Origin the
 * client sends, the app's plan: steps of { op: connect | list | call | preflight | close | wait, ... } and what it does on
 * a failure (retry: the same call again on the same Client; reconnect: a new Client, then the call again).
 */
const SCENARIOS = {};
const plans = {
  ok: [{ op: 'connect' }, { op: 'list' }, { op: 'call', tool: 'lookup_order', id: 'A-1001' }, { op: 'call', tool: 'send_invoice', id: 'A-1001' }, { op: 'close' }],
  // a refused initialize: the app tries to connect 3 times with a new Client, 300 ms apart, then gives up
  refusedConnect: [{ op: 'connect', tries: 3, waitMs: 300 }, { op: 'call', tool: 'send_invoice', id: 'A-2002' }, { op: 'close' }],
  // the hop starts sending the public Host once a tools/call passed: the next call is refused; the app retries it once,
  // then reconnects with a new Client (refused) and gives up
  midSession: [{ op: 'connect' }, { op: 'list' }, { op: 'call', tool: 'lookup_order', id: 'A-3003' }, { op: 'call', tool: 'send_invoice', id: 'A-3003', retry: 1, reconnect: true }, { op: 'close' }],
  // a browser-like client: a CORS preflight first, then connect with its Origin (refused: retried once with a new Client)
  origin: [{ op: 'preflight' }, { op: 'connect', tries: 2, waitMs: 300 }, { op: 'call', tool: 'lookup_order', id: 'A-4004' }, { op: 'close' }],
  // a tools/call over the helper's body limit: the app retries it once, then sends a small one
  body: (n) => [{ op: 'connect' }, { op: 'call', tool: 'send_invoice', id: BIG(n), big: n, retry: 1 }, { op: 'call', tool: 'send_invoice', id: 'A-5005' }, { op: 'close' }],
};
// Bodies over the limit, kept small: SDK 1.32.2's helper has express.json's default (100 kb); the others are given
// 32768 bytes (v2 express `jsonLimit`, hono `maxRequestBodySize`, Python `max_request_body_size`; their defaults:
// 100 kb, 4 MiB, 4 MiB, which refuse the same way).
const SMALL_LIMIT = 32_768;
for (const [kind, client] of [['v1', 'v1'], ['v2x', 'v2'], ['v2h', 'v2'], ['py', 'py']]) {
  SCENARIOS[`${kind}-ok`] = { kind, client, host: 'never', plan: plans.ok };
  SCENARIOS[`${kind}-host-proxy`] = { kind, client, host: 'always', plan: plans.refusedConnect };
  SCENARIOS[`${kind}-host-mid`] = { kind, client, host: 'afterCall', plan: plans.midSession };
  SCENARIOS[`${kind}-body`] = { kind, client, host: 'never', ...(kind === 'v1' ? {} : { maxBody: SMALL_LIMIT }), plan: plans.body(kind === 'v1' ? 103_000 : 34_000) };
  if (kind !== 'v1') SCENARIOS[`${kind}-origin`] = { kind, client, host: 'never', origin: EVIL_ORIGIN, plan: plans.origin };
}
// SDK 1.32.2's createMcpExpressApp has no Origin check: the transport's own (allowedOrigins) refuses it
SCENARIOS['v1-transport-origin'] = { kind: 'v1', client: 'v1', host: 'never', origin: EVIL_ORIGIN, transport: { enableDnsRebindingProtection: true, allowedOrigins: ['http://localhost:5173'] }, plan: plans.origin };
// the transport's allowedHosts compares the whole Host header, port included: a list of bare names refuses every request
SCENARIOS['v1-transport-hosts'] = { kind: 'v1', client: 'v1', host: 'never', transport: { enableDnsRebindingProtection: true, allowedHosts: ['127.0.0.1', 'localhost'] }, plan: plans.refusedConnect };
// the TypeScript clients against the Python server's 421 (Node's fetch re-sends it once)
SCENARIOS['py-host-mid-ts'] = { kind: 'py', client: 'v1', host: 'afterCall', plan: plans.midSession };
SCENARIOS['py-host-mid-v2'] = { kind: 'py', client: 'v2', host: 'afterCall', plan: plans.midSession };
// the Python client against the v2 express helper's JSON refusals
SCENARIOS['v2x-host-mid-py'] = { kind: 'v2x', client: 'py', host: 'afterCall', plan: plans.midSession };

async function runTs(sc, url, dir, observed) {
  const V2 = sc.client === 'v2';
  const rf = recordingFetch({ out: `${dir}/client.ndjson` });
  const f = sc.origin ? (u, init) => { const h = new Headers(init?.headers); h.set('origin', sc.origin); return rf(u, { ...init, headers: h }); } : rf;
  let c = null;
  const newClient = async () => {
    const cl = new (V2 ? v2c.Client : Client)({ name: `audit84-${sc.kind}-app`, version: '1.0.0' });
    const t = new (V2 ? v2c.StreamableHTTPClientTransport : StreamableHTTPClientTransport)(new URL(`${url}/mcp`), { fetch: f });
    await cl.connect(t);
    return cl;
  };
  const note = (step, ok, x) => observed.steps.push({ step, ...(ok ? { ok: short(x) } : { threw: errOf(x) }) });
  const attempt = async (label, fn) => { try { const r = await fn(); note(label, true, r); return true; } catch (e) { note(label, false, e); return false; } };
  for (const s of sc.plan) {
    if (s.op === 'connect') {
      for (let i = 1; i <= (s.tries ?? 1); i++) {
        if (await attempt(`connect (new Client, try ${i})`, async () => { c = await newClient(); return 'connected'; })) break;
        if (i < (s.tries ?? 1)) await sleep(s.waitMs);
      }
      if (!c) { observed.steps.push({ step: 'the app gives up: no connection' }); break; }
    } else if (s.op === 'list') await attempt('tools/list', () => c.listTools());
    else if (s.op === 'preflight') {
      await attempt('OPTIONS /mcp (CORS preflight)', async () => { const r = await rf(`${url}/mcp`, { method: 'OPTIONS', headers: { origin: sc.origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,mcp-protocol-version' } }); return { status: r.status, allowOrigin: r.headers.get('access-control-allow-origin'), allow: r.headers.get('allow'), body: (await r.text()).slice(0, 120) }; });
    } else if (s.op === 'call') {
      const label = `${s.tool} ${s.id.length > 40 ? `${s.id.slice(0, 12)}... (${s.id.length} chars)` : s.id}`;
      let good = await attempt(label, () => c.callTool({ name: s.tool, arguments: { orderId: s.id } }));
      for (let i = 0; !good && i < (s.retry ?? 0); i++) { await sleep(200); good = await attempt(`${label} (the app's retry ${i + 1}, same Client)`, () => c.callTool({ name: s.tool, arguments: { orderId: s.id } })); }
      if (!good && s.reconnect) {
        await sleep(200);
        await c.close().catch(() => {});
        c = null;
        if (await attempt('connect (new Client after the failures)', async () => { c = await newClient(); return 'connected'; })) await attempt(`${label} (after reconnecting)`, () => c.callTool({ name: s.tool, arguments: { orderId: s.id } }));
        else { observed.steps.push({ step: 'the app gives up' }); break; }
      }
    } else if (s.op === 'close') { await c?.close().catch(() => {}); c = null; }
  }
  await c?.close().catch(() => {});
  await sleep(150);
  await rf.close?.();
}

async function runPy(sc, url, dir, observed) {
  const py = spawn('/work/py-venv/bin/python', [`${R}/test/real-audit84/py_app.py`, `${url}/mcp`, JSON.stringify({ plan: sc.plan.map((s) => (s.big ? { ...s, id: 'INV-' } : s)), origin: sc.origin ?? null }), `${dir}/client-debug.log`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  py.stdout.on('data', (c) => { out += c; });
  await new Promise((r) => py.once('exit', r));
  for (const l of out.split('\n')) if (l.trim()) { try { observed.steps.push(JSON.parse(l)); } catch { observed.steps.push({ stdout: clean(l).slice(0, 200) }); } }
}

const only = process.argv.slice(2);
for (const [name, sc] of Object.entries(SCENARIOS)) {
  if (only.length && !only.includes(name)) continue;
  const dir = `${R}/test/fixtures/real-audit84/${name}`;
  nextPorts();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startServer(sc.kind, dir, { transport: sc.transport, maxBody: sc.maxBody });
  const hop = await startHop(HOST_RULES[sc.host]);
  const proxy = await startRecordingProxy({ listen: `127.0.0.1:${PORT.proxy}`, target: `http://127.0.0.1:${PORT.hop}`, out: `${dir}/proxy.ndjson` });
  const observed = {
    scenario: name,
    sdk: `server ${{ v1: '@modelcontextprotocol/sdk 1.32.2 createMcpExpressApp', v2x: '@modelcontextprotocol/express 2.0.2 createMcpExpressApp + @modelcontextprotocol/node 2.1.2', v2h: '@modelcontextprotocol/hono 2.0.2 createMcpHonoApp + @modelcontextprotocol/server 2.4.0 (@hono/node-server 2.1.11)', py: 'Python mcp 2.3.0 MCPServer.streamable_http_app' }[sc.kind]}; client ${{ v1: '@modelcontextprotocol/sdk 1.32.2', v2: '@modelcontextprotocol/client 2.4.0', py: 'Python mcp 2.3.0' }[sc.client]}`,
    ...(sc.transport ? { transportOptions: sc.transport } : {}),
    ...(sc.maxBody ? { maxBody: sc.maxBody } : {}),
    hostRule: { never: 'the hop forwards the Host it got', always: `the hop sends Host ${PUBLIC_HOST} on every request`, afterCall: `the hop sends Host ${PUBLIC_HOST} once a tools/call has passed` }[sc.host],
    ...(sc.origin ? { origin: sc.origin } : {}),
    steps: [],
  };
  try {
    if (sc.client === 'py') await runPy(sc, proxy.url, dir, observed);
    else await runTs(sc, proxy.url, dir, observed);
  } finally {
    await sleep(200);
    await proxy.close();
    await hop.close();
    await server.close();
    await sleep(300);
  }
  observed.serverRan = server.ran;
  if (server.logs.length) observed.serverLog = server.logs.filter((l) => /Invalid|refus|too large|Payload/i.test(l));
  observed.hop = hop.log;
  // an EPIPE of a socket of the rig (the hop or @hono/node-server writing to a connection the other end closed after an early 413)
  if (uncaught.length) observed.rigErrors = uncaught.splice(0);
  writeFileSync(`${dir}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  process.stdout.write(`${name}: ${observed.steps.map((s) => (s.ok !== undefined ? 'ok' : s.threw ? `threw ${s.threw.message.slice(0, 60)}` : s.step ?? '?')).join(' | ')}\n`);
}
process.exit(0);
