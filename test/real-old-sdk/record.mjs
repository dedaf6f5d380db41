// Older TypeScript SDKs audit recorder: real traffic of @modelcontextprotocol/sdk 1.10.2, 1.13.3, 1.17.5 and 1.24.3
// against 1.32.2 (and each other), on 127.0.0.1.
// NOT run by `npm test`: CI does not have the old SDKs. They live in a scratch folder outside the repository:
//   mkdir -p /work/old-sdks && cd /work/old-sdks && npm init -y && npm install \
//     sdk110@npm:@modelcontextprotocol/sdk@1.10.2 sdk113@npm:@modelcontextprotocol/sdk@1.13.3 \
//     sdk117@npm:@modelcontextprotocol/sdk@1.17.5 sdk124@npm:@modelcontextprotocol/sdk@1.24.3
// then, from the repository: npm run build && node test/real-old-sdk/record.mjs [scenario...]   (OLD_SDKS=dir to move it)
// Writes test/fixtures/real-old-sdk/<scenario>/{client,server}.ndjson, and what each caller really got to
// test/fixtures/real-old-sdk/observed.json. The client side is recorded by recordingFetch where the SDK takes a `fetch`
// option (1.16 and later), else by the `mcp-triage record` proxy with --side client (1.10 to 1.15 call the global
// fetch); the server side by recordingHandler.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { recordingFetch, recordingHandler, withCallNote } from '../../dist/capture/index.js';
import { listen, readBody, sleep, describeError } from '../helpers/loopback.mjs';
import { startFaultHop } from '../real-audit2/lib.mjs';

const OLD = process.env.OLD_SDKS ?? '/work/old-sdks/node_modules';
const NEW = fileURLToPath(new URL('../../node_modules/@modelcontextprotocol/sdk', import.meta.url));
const ROOT = fileURLToPath(new URL('../fixtures/real-old-sdk/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const DIRS = { '1.10.2': join(OLD, 'sdk110'), '1.13.3': join(OLD, 'sdk113'), '1.17.5': join(OLD, 'sdk117'), '1.24.3': join(OLD, 'sdk124'), '1.32.2': NEW };

setTimeout(() => {
  process.stderr.write('still running after 300 s, giving up\n');
  process.exit(2);
}, 300_000).unref();

const cache = new Map();
async function sdk(version) {
  if (cache.has(version)) return cache.get(version);
  const dir = DIRS[version];
  const load = (p) => import(pathToFileURL(join(dir, 'dist/esm', p)).href);
  const m = {
    version,
    ...(await load('client/index.js')),
    ...(await load('client/streamableHttp.js')),
    ...(await load('server/index.js')),
    ...(await load('server/streamableHttp.js')),
    ...(await load('types.js')),
    ...(await load('examples/shared/inMemoryEventStore.js')),
  };
  cache.set(version, m);
  return m;
}

// ------------------------------------------------------------------ servers

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The same tools on every SDK line, through the low-level Server (1.10's McpServer.tool() has no annotations). */
function buildServer(S, { closeStream = false } = {}) {
  const server = new S.Server({ name: `old-sdk-server-${S.version}`, version: S.version }, { capabilities: { tools: {}, logging: {} } });
  server.setRequestHandler(S.ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'lookup_order', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: true } },
      { name: 'send_invoice', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } } },
      { name: 'validate_quantity', inputSchema: { type: 'object', properties: { quantity: { type: 'number' } } }, annotations: { readOnlyHint: true } },
      { name: 'slow_report', inputSchema: { type: 'object', properties: { steps: { type: 'number' }, stepMs: { type: 'number' } } }, annotations: { readOnlyHint: true } },
    ],
  }));
  server.setRequestHandler(S.CallToolRequestSchema, async (req, extra) => {
    const { name, arguments: a = {} } = req.params;
    if (name === 'lookup_order') return text(`order ${a.orderId}: shipped`);
    if (name === 'send_invoice') {
      await sleep(40);
      return text(`invoice for order ${a.orderId} sent`);
    }
    if (name === 'validate_quantity') return a.quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${a.quantity}`), isError: true };
    if (name === 'slow_report') {
      const token = req.params._meta?.progressToken;
      for (let i = 1; i <= a.steps; i++) {
        await sleep(a.stepMs);
        if (extra.signal.aborted) return text('report cancelled');
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: a.steps } });
        if (closeStream && i === 1) extra.closeSSEStream?.();
      }
      return text(`report ready after ${a.steps} steps`);
    }
    throw new S.McpError(S.ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  return server;
}

/** An SDK server of `version` behind recordingHandler. restart() forgets every session (a process restart). */
async function startServer(version, { out, mode = 'stateful', json = false, eventStore = false, closeStream = false, unknownSession }) {
  const S = await sdk(version);
  // How the app answers a session id it does not know: each version's example server (simpleStreamableHttp).
  unknownSession ??= version === '1.32.2' ? '404' : '400';
  let transports = new Map();
  let single;
  const handler = async (req, res) => {
    if (!req.url.startsWith('/mcp')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (mode === 'stateless') {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
        return;
      }
      const server = buildServer(S);
      const transport = new S.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
      res.on('close', () => void transport.close().then(() => server.close()));
      await server.connect(transport);
      const body = JSON.parse((await readBody(req)).toString('utf8'));
      await transport.handleRequest(req, res, body);
      return;
    }
    if (mode === 'single') {
      // One transport for the process (as many early deployments did): after a restart the new one is not initialized.
      if (!single) {
        single = new S.StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: json });
        await buildServer(S).connect(single);
      }
      if (req.method === 'POST') await single.handleRequest(req, res, JSON.parse((await readBody(req)).toString('utf8')));
      else await single.handleRequest(req, res);
      return;
    }
    const sid = req.headers['mcp-session-id'];
    // The body is read first, as express.json() in the SDK's example servers does.
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8')) : undefined;
    if (sid && transports.has(sid)) {
      const t = transports.get(sid);
      if (req.method === 'POST') await t.handleRequest(req, res, body);
      else await t.handleRequest(req, res);
      return;
    }
    if (req.method === 'POST' && !sid) {
      if (S.isInitializeRequest(body)) {
        const transport = new S.StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          ...(eventStore ? { eventStore: new S.InMemoryEventStore() } : {}),
          ...(closeStream ? { retryInterval: 200 } : {}),
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        await buildServer(S, { closeStream }).connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
    }
    if (sid && unknownSession === '404') {
      // A session this process does not know (after a restart): the 1.32.2 example server's answer, as the spec asks.
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      return;
    }
    if (req.method !== 'POST') {
      // The example servers of 1.10 to 1.24 (simpleStreamableHttp, handleSessionRequest) for GET and DELETE.
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' }).end('Invalid or missing session ID');
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
  };
  const srv = await listen(recordingHandler(handler, { out }));
  return {
    ...srv,
    restart: async () => {
      // As a process restart: every open connection drops (the GET streams end in error), and the sessions are gone.
      srv.server.closeAllConnections();
      const old = transports;
      transports = new Map();
      if (single) old.set('single', single);
      single = undefined;
      for (const t of old.values()) await t.close().catch(() => {});
    },
  };
}

// ------------------------------------------------------------------ clients

/** `mcp-triage record --side client` as a child process, for clients that call the global fetch. */
async function startProxy(target, out) {
  const probe = await listen(() => {});
  const port = probe.port;
  await probe.close();
  const child = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port}`, '--target', target, '--out', out, '--side', 'client'], { stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; i < 50; i++) {
    await sleep(100);
    const up = await new Promise((r) => {
      const sock = connect(port, '127.0.0.1', () => (sock.end(), r(true)));
      sock.on('error', () => r(false));
    });
    if (up) break;
  }
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => (child.once('exit', r), process.kill(child.pid, 'SIGTERM'))) };
}

/**
 * A client factory for `version` talking to `target` (the server, or a fault hop in front of it). Clients of 1.17 and
 * later record with recordingFetch; older ones go through the recording proxy.
 */
async function clientSide(version, target, out, observed) {
  if (version === 'v2-auto') return v2ClientSide(target, out, observed);
  const S = await sdk(version);
  const withFetch = !['1.10.2', '1.13.3'].includes(version);
  const proxy = withFetch ? undefined : await startProxy(target, out);
  const rf = withFetch ? recordingFetch({ out, client: `old-sdk-client@${version}` }) : undefined;
  const base = proxy ? proxy.url : target;
  const open = [];
  const make = async (name = `old-sdk-client-${version}`, opts = {}) => {
    const transport = new S.StreamableHTTPClientTransport(new URL(`${base}/mcp`), { ...(rf ? { fetch: rf } : {}), ...opts });
    const client = new S.Client({ name, version });
    client.onerror = (e) => observed.onerror.push(String(e?.message ?? e).slice(0, 200));
    await client.connect(transport);
    observed.protocolVersion ??= transport.protocolVersion ?? null;
    open.push({ client, transport });
    return { client, transport, S };
  };
  return {
    make,
    S,
    close: async () => {
      for (const { client } of open) await client.close().catch(() => {});
      await sleep(100);
      await proxy?.close();
      rf?.close?.();
    },
  };
}

/** The v2 client (@modelcontextprotocol/client 2.4.0, the project's dev dependency) with versionNegotiation 'auto'. */
async function v2ClientSide(target, out, observed) {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const rf = recordingFetch({ out, client: 'old-sdk-client@v2-auto' });
  const open = [];
  const make = async (name = 'old-sdk-client-v2-auto') => {
    const client = new Client({ name, version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } });
    client.onerror = (e) => observed.onerror.push(String(e?.message ?? e).slice(0, 200));
    const transport = new StreamableHTTPClientTransport(new URL(`${target}/mcp`), { fetch: rf });
    await client.connect(transport);
    observed.protocolVersion ??= client.getNegotiatedProtocolVersion?.() ?? null;
    open.push(client);
    return { client, transport };
  };
  return {
    make,
    close: async () => {
      for (const c of open) await c.close().catch(() => {});
      await sleep(100);
      rf.close?.();
    },
  };
}

function summarize(r) {
  if (r?.tools) return { tools: r.tools.map((t) => t.name) };
  if (r?.content) return { text: r.content.map((c) => c.text).join(' '), isError: r.isError ?? false };
  return r ?? null;
}

function observer() {
  const observed = { steps: [], onerror: [], notes: [] };
  const t0 = Date.now();
  const step = async (label, fn) => {
    const at = Date.now() - t0;
    try {
      const r = await fn();
      observed.steps.push({ step: label, ok: true, result: summarize(r), atMs: at });
      return r;
    } catch (err) {
      observed.steps.push({ step: label, ok: false, error: describeError(err), atMs: at });
      return undefined;
    }
  };
  return { observed, step };
}

async function discoverThenCall({ c, step }) {
  let client;
  await step('connect (versionNegotiation auto)', async () => {
    ({ client } = await c.make());
    return null;
  });
  if (client) await step('lookup_order', () => call(client, 'lookup_order', { orderId: '1001' }));
}

const call = (client, name, args, opts) => client.callTool({ name, arguments: args }, undefined, opts);

/** tools/list, a success, a tool error, an unknown tool, then the DELETE that ends the session. */
async function baseline({ c, step }) {
  const { client, transport } = await c.make();
  await step('tools/list', () => client.listTools());
  await step('lookup_order', () => call(client, 'lookup_order', { orderId: '1001' }));
  await step('validate_quantity -3 (tool error)', () => call(client, 'validate_quantity', { quantity: -3 }));
  await step('no_such_tool (-32602)', () => call(client, 'no_such_tool', {}));
  await step('terminateSession (DELETE)', () => transport.terminateSession());
}

/** A call, a server restart, `wait` ms, the same call on the old session (answered `status`), then the app's retry with a new Client. */
const restartThenRetry = (tool, status, wait = 300) => async ({ c, server, step }) => {
  const { client } = await c.make();
  await step(tool, () => call(client, tool, { orderId: '1001' }));
  await server.restart();
  await sleep(wait);
  await step(`${tool} after restart (${status})`, () => call(client, tool, { orderId: '1002' }));
  await sleep(300);
  const again = await c.make();
  await step('app retry with a new Client', () => call(again.client, tool, { orderId: '1002' }));
};

/** The fault hop's rule: the SSE stream of the first slow_report call is destroyed after `events` events. */
const cutSlowReport = (events) => ({ rpcMethod, tool }) => (rpcMethod === 'tools/call' && tool === 'slow_report' ? { cutAfterEvents: events } : {});

const slowReport = (client, timeout) => client.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 200 } }, undefined, { onprogress: () => {}, timeout });

/** One slow_report whose stream the hop cuts after `events` events (request timeout `timeout` ms), then `after` ms. */
const slowReportCut = (events, timeout, after = 0) => async ({ c, step }) => {
  const { client } = await c.make();
  await step(`slow_report (stream cut after ${events} event${events === 1 ? '' : 's'})`, () => slowReport(client, timeout));
  if (after) await sleep(after);
};

/** slow_report's stream is cut and the server restarts 400 ms in, before the client could resume it. */
async function cutThenRestart({ c, server, step }) {
  const { client } = await c.make();
  const pending = step('slow_report (stream cut, server restarted)', () => slowReport(client, 4000));
  await sleep(400);
  await server.restart();
  await pending;
  await sleep(500);
}

// ------------------------------------------------------------------ scenarios

/**
 * Each scenario: { client, server, serverOpts, hop?, run(ctx) }. ctx: { c (client factory), server, step, observed }.
 */
const scenarios = {
  // 1.10.2 asks for 2024-11-05 over Streamable HTTP and sends no MCP-Protocol-Version header; the close is DELETE.
  'c110-baseline': {
    client: '1.10.2',
    server: '1.32.2',
    run: baseline,
  },
  // 1.32.2 client against a 1.10.2 server: the server only knows 2024-11-05 and answers initialize with it.
  's110-baseline': {
    client: '1.32.2',
    server: '1.10.2',
    run: baseline,
  },
  // The server restarts between two calls; the old client gets 404, throws a plain Error, and the app builds a new
  // Client and calls again (its ids start from 0 again).
  'c110-restart-404': {
    client: '1.10.2',
    server: '1.32.2',
    run: restartThenRetry('send_invoice', 404),
  },
  'c110-s110-restart-400': {
    client: '1.10.2',
    server: '1.10.2',
    run: restartThenRetry('lookup_order', 400),
  },
  's110-restart-400': {
    client: '1.32.2',
    server: '1.10.2',
    run: async ({ c, server, step }) => {
      const { client } = await c.make();
      await step('send_invoice', () => call(client, 'send_invoice', { orderId: '1001' }));
      await server.restart();
      await sleep(300);
      await step('send_invoice after restart (400)', () => call(client, 'send_invoice', { orderId: '1002' }));
      await sleep(300);
      const again = await c.make();
      await step('app retry with a new Client (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(again.client, 'send_invoice', { orderId: '1002' })));
    },
  },
  // 1.17 reconnects the standalone GET stream when it ends, without Last-Event-ID (twice, after 1 s and 1.5 s); after
  // a restart of a server written like the 1.17 example, those GETs and the next call get 400, not 404.
  'c117-s117-restart-400': {
    client: '1.17.5',
    server: '1.17.5',
    run: restartThenRetry('lookup_order', 400, 3300),
  },
  // 1.24.3 against the 1.32.2 server: after the restart its standalone GET reconnects (404, twice), then the call
  // gets 404 and the app calls again with a new Client.
  'c124-restart-404': {
    client: '1.24.3',
    server: '1.32.2',
    run: restartThenRetry('lookup_order', 404, 3000),
  },
  // The same restart, and the client makes no call after it: only its GET reconnections meet the unknown session.
  'c117-s117-restart-idle': {
    client: '1.17.5',
    server: '1.17.5',
    run: async ({ c, server, step }) => {
      const { client } = await c.make();
      await step('lookup_order', () => call(client, 'lookup_order', { orderId: '1001' }));
      await server.restart();
      await sleep(3000);
    },
  },
  // A server with one transport for the whole process (no session map): after its restart the new transport is not
  // initialized, and the SDK's own check answers the old session id with 400 "Server not initialized".
  'c113-s113-single-transport-restart': {
    client: '1.13.3',
    server: '1.13.3',
    serverOpts: { mode: 'single' },
    run: restartThenRetry('lookup_order', 400),
  },
  // The v2 client's server/discover probe (2026-07-28) against servers that predate it, then its fallback to initialize.
  'v2auto-s110': { client: 'v2-auto', server: '1.10.2', run: (ctx) => discoverThenCall(ctx) },
  'v2auto-s117': { client: 'v2-auto', server: '1.17.5', run: (ctx) => discoverThenCall(ctx) },
  // The hop destroys the POST's SSE stream after the first progress event. The server has an event store, so the
  // events carry ids. 1.10.2 (and 1.13) reconnect a broken POST stream with a GET and Last-Event-ID after 1 s.
  'c110-sse-cut-resumed': {
    client: '1.10.2',
    server: '1.32.2',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(1),
    run: slowReportCut(1, 8000),
  },
  // 1.17.5 no longer reconnects a POST stream: the call waits for its timeout, then cancels.
  'c117-sse-cut-not-resumed': {
    client: '1.17.5',
    server: '1.32.2',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(1),
    run: slowReportCut(1, 2500, 500),
  },
  // 1.24.3 speaks 2025-11-25: the 1.32.2 server sends a priming event; after the cut the client resumes.
  'c124-sse-cut-resumed': {
    client: '1.24.3',
    server: '1.32.2',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(2),
    run: slowReportCut(2, 8000),
  },
  // The 1.32.2 client against a 1.10.2 server with an event store: no priming event, but event ids on the messages.
  's110-sse-cut-resumed': {
    client: '1.32.2',
    server: '1.10.2',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(1),
    run: slowReportCut(1, 8000),
  },
  // 1.13.3 against a 1.13.3 server with an event store: the hop cuts the call's stream and the server restarts before
  // the client's resumption (GET with Last-Event-ID after 1 s, again after 1.5 s): both GETs, and the cancellation
  // after the timeout, meet the unknown session (400, as the 1.13 example server answers).
  'c113-s113-cut-then-restart': {
    client: '1.13.3',
    server: '1.13.3',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(1),
    run: cutThenRestart,
  },
  // The same with 1.17.5, which does not resume a POST stream: only its standalone GET reconnects (400, a body the
  // client never reads), and the cancellation after the timeout gets the 400 with its JSON-RPC body.
  'c117-s117-cut-then-restart': {
    client: '1.17.5',
    server: '1.17.5',
    serverOpts: { eventStore: true },
    hop: cutSlowReport(1),
    run: cutThenRestart,
  },
  // Without an event store nothing has an id: no client resumes; the call times out and is cancelled.
  'c113-s110-sse-cut-no-store': {
    client: '1.13.3',
    server: '1.10.2',
    hop: cutSlowReport(1),
    run: slowReportCut(1, 2000, 500),
  },
  // A hop answers 503, then 429 with Retry-After: 1; the app retries each (after 1 s for the 429).
  'c113-503-429-app-retry': {
    client: '1.13.3',
    server: '1.32.2',
    hop: ({ rpcMethod, n }) =>
      rpcMethod === 'tools/call' && n === 1
        ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' }
        : rpcMethod === 'tools/call' && n === 2
          ? { respond: 429, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'slow down' }
          : {},
    run: async ({ c, step }) => {
      const { client } = await c.make();
      await step('lookup_order (503)', () => call(client, 'lookup_order', { orderId: '1001' }));
      await sleep(300);
      await step('app retry (429, Retry-After: 1)', () => call(client, 'lookup_order', { orderId: '1001' }));
      await sleep(1100);
      await step('app retry after 1 s', () => call(client, 'lookup_order', { orderId: '1001' }));
    },
  },
  // Two identical calls at once, then one that times out (request timeout 300 ms) and is cancelled.
  'c117-s117-parallel-timeout': {
    client: '1.17.5',
    server: '1.17.5',
    run: async ({ c, step }) => {
      const { client } = await c.make();
      await Promise.all([step('send_invoice #1', () => call(client, 'send_invoice', { orderId: '7' })), step('send_invoice #2', () => call(client, 'send_invoice', { orderId: '7' }))]);
      await step('slow_report (times out)', () => client.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 200 } }, undefined, { timeout: 300 }));
      await sleep(1000);
    },
  },
  // A stateless 1.17.5 server with JSON responses; two 1.24.3 clients with the same ids and no session.
  'c124-s117-stateless-json': {
    client: '1.24.3',
    server: '1.17.5',
    serverOpts: { mode: 'stateless', json: true },
    run: async ({ c, step }) => {
      const a = await c.make('agent-a');
      const b = await c.make('agent-b');
      await step('a lookup_order', () => call(a.client, 'lookup_order', { orderId: '1' }));
      await step('b lookup_order', () => call(b.client, 'lookup_order', { orderId: '2' }));
      await step('a validate_quantity 0 (tool error)', () => call(a.client, 'validate_quantity', { quantity: 0 }));
    },
  },
  // A stateless 1.10.2 server (SSE bodies, no session id) and two 1.10.2 clients with the same ids.
  'c110-s110-stateless': {
    client: '1.10.2',
    server: '1.10.2',
    serverOpts: { mode: 'stateless' },
    run: async ({ c, step }) => {
      const a = await c.make('agent-a');
      const b = await c.make('agent-b');
      await Promise.all([step('a send_invoice', () => call(a.client, 'send_invoice', { orderId: '1' })), step('b send_invoice', () => call(b.client, 'send_invoice', { orderId: '1' }))]);
      await step('a validate_quantity 0 (tool error)', () => call(a.client, 'validate_quantity', { quantity: 0 }));
    },
  },
  // 1.24.3 against a 1.24.3 server that closes the call's stream (closeSSEStream, retryInterval 200 ms).
  'c124-s124-close-sse-resumed': {
    client: '1.24.3',
    server: '1.24.3',
    serverOpts: { eventStore: true, closeStream: true },
    run: async ({ c, step }) => {
      const { client } = await c.make();
      await step('slow_report (server closes the stream)', () => client.callTool({ name: 'slow_report', arguments: { steps: 2, stepMs: 300 } }, undefined, { onprogress: () => {}, timeout: 8000 }));
    },
  },
};

// ------------------------------------------------------------------ run

async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const { observed, step } = observer();
  observed.client = spec.client;
  observed.server = spec.server;
  const server = await startServer(spec.server, { out: files.server, ...(spec.serverOpts ?? {}) });
  const hop = spec.hop ? await startFaultHop(server.url, spec.hop) : undefined;
  const c = await clientSide(spec.client, hop ? hop.url : server.url, files.client, observed);
  try {
    await spec.run({ c, server, step, observed });
  } finally {
    await c.close();
    await sleep(200);
    await hop?.close();
    await server.close();
  }
  for (const f of Object.values(files)) if (!existsSync(f)) writeFileSync(f, '');
  return observed;
}

const only = process.argv.slice(2);
const observedFile = join(ROOT, 'observed.json');
mkdirSync(ROOT, { recursive: true });
const all = existsSync(observedFile) && only.length ? JSON.parse(readFileSync(observedFile, 'utf8')) : {};
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  const t0 = Date.now();
  all[name] = await runScenario(name, spec);
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}
writeFileSync(observedFile, JSON.stringify(all, null, 2) + '\n');
process.exit(0);
