// Healthy traffic under load: real SDK 1.32.2 clients and servers on 127.0.0.1, nothing injected, and what mcp-triage
// must NOT say of it. Usage: npm run build && node test/real-healthy/record.mjs [scenario...]
// NOT run by `npm test` (it starts servers and client processes); test/real-healthy/real-healthy.test.ts reads the
// recordings in test/fixtures/real-healthy/<scenario>/{client,server}.ndjson and observed.json (what each caller got).
// The server's view is recordingHandler around the SDK's StreamableHTTPServerTransport; the client's view is one
// recordingFetch per Client (conn = its name). `node record.mjs --client URL OUT NAME CONN N` runs one client process (the
// multi-process scenario): it initializes and calls N tools at once, and prints what it got as JSON.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';
import { handleStateless, listen, readBody, sleep } from '../helpers/loopback.mjs';
import { describeError, summarize } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-healthy/', import.meta.url));
const PYTHON = process.env.PY_VENV ? `${process.env.PY_VENV}/bin/python` : '/work/py-venv/bin/python';
const PY_SERVER = fileURLToPath(new URL('./py_server.py', import.meta.url));
const PY_CLIENTS = fileURLToPath(new URL('./py_clients.py', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

// ---------------------------------------------------------------- server

function buildMcpServer() {
  const server = new McpServer({ name: 'healthy-server', version: '1.0.0' }, { capabilities: { logging: {}, resources: {}, prompts: {}, completions: {}, tools: { listChanged: true } } });
  // write tools whose answer says nothing of the request: different arguments, identical results
  server.registerTool('update_setting', { inputSchema: { key: z.string(), value: z.string() }, annotations: { idempotentHint: true } }, async () => {
    await sleep(5 + Math.floor(Math.random() * 20));
    return text('ok');
  });
  server.registerTool('clear_cache', { inputSchema: { region: z.string() }, annotations: { idempotentHint: true } }, async () => {
    await sleep(5 + Math.floor(Math.random() * 20));
    return { content: [] };
  });
  server.registerTool('record_event', { inputSchema: { name: z.string(), ms: z.number().optional() } }, async ({ ms }) => {
    await sleep(ms ?? 10);
    return text('ok');
  });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(10);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('slow_report', { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (extra.signal.aborted) return text('report cancelled');
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text(`report ready after ${steps} steps`);
  });
  server.registerTool(
    'check_stock',
    { inputSchema: { sku: z.string() }, outputSchema: { sku: z.string(), available: z.number() }, annotations: { readOnlyHint: true } },
    async ({ sku }) => {
      await sleep(Math.floor(Math.random() * 15));
      return { ...text(`${sku}: 4`), structuredContent: { sku, available: 4 } };
    },
  );
  server.registerTool('validate_quantity', { inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text(`quantity ${quantity} ok`) : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('enable_beta_tools', { inputSchema: {} }, async () => {
    if (!server.isRegistered) {
      server.isRegistered = true;
      server.registerTool('beta_echo', { inputSchema: { msg: z.string() }, annotations: { readOnlyHint: true } }, async ({ msg }) => text(msg));
    }
    return text('beta tools enabled');
  });
  server.registerPrompt(
    'order_summary',
    { description: 'summarize an order', argsSchema: { orderId: completable(z.string(), (v) => ['1001', '1002', '2001'].filter((x) => x.startsWith(v))) } },
    async ({ orderId }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize order ${orderId}` } }] }),
  );
  server.registerResource('status', 'status://shop', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'open' }] }));
  return server;
}

/** The v2 SDK's server (@modelcontextprotocol/server): the same write tools, served per request by createMcpHandler (2026-07-28, and 2025 stateless). */
function buildV2Server() {
  const server = new McpServerV2({ name: 'healthy-v2-server', version: '1.0.0' });
  server.registerTool('update_setting', { inputSchema: z.object({ key: z.string(), value: z.string() }), annotations: { idempotentHint: true } }, async () => {
    await sleep(5 + Math.floor(Math.random() * 20));
    return text('ok');
  });
  server.registerTool('clear_cache', { inputSchema: z.object({ region: z.string() }), annotations: { idempotentHint: true } }, async () => {
    await sleep(5 + Math.floor(Math.random() * 20));
    return { content: [] };
  });
  server.registerTool('record_event', { inputSchema: z.object({ name: z.string(), ms: z.number().optional() }) }, async ({ ms }) => {
    await sleep(ms ?? 10);
    return text('ok');
  });
  server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(10);
    return text(`order ${orderId}: shipped`);
  });
  return server;
}

async function startV2Server(out) {
  const handler = createMcpHandler(() => buildV2Server(), { keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const s = await listen(recordingHandler(async (req, res) => {
    try {
      await node(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  }, { out }));
  return { ...s, async close() { await handler.close().catch(() => {}); await s.close(); } };
}

/** stateful: the SDK example's session map; stateless: a new server and transport per POST (sessionIdGenerator undefined). */
async function startServer({ out, mode = 'stateful', json = false, port = 0 }) {
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      if (mode === 'stateless') {
        await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: buildMcpServer, options: { enableJsonResponse: json } });
        return;
      }
      const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
      const body = raw !== undefined ? JSON.parse(raw) : undefined;
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const transport = transports.get(sid);
        if (!transport) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await transport.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: json, onsessioninitialized: (id) => transports.set(id, transport) });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        const mcp = buildMcpServer();
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  };
  const s = await listen(recordingHandler(handler, { out }), port);
  return {
    ...s,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

async function startPython(mode, out) {
  const probe = await listen(() => {});
  const port = probe.port;
  await probe.close();
  const child = spawn(PYTHON, [PY_SERVER, mode, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  for (let i = 0; i < 50; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }).then(() => true, () => false);
    if (up) break;
    await sleep(100);
  }
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: `http://127.0.0.1:${port}`, out, side: 'server' });
  return {
    url: proxy.url,
    async close() {
      await proxy.close();
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
    },
  };
}

// ---------------------------------------------------------------- client process (multi-process scenario)

async function connectClient(url, out, name, conn, v2 = false) {
  const f = recordingFetch({ out, conn });
  const c = v2 ? new ClientV2({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name, version: '1.0.0' });
  const transport = v2 ? new TransportV2(new URL('/mcp', url), { fetch: f }) : new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: f });
  await c.connect(transport);
  return Object.assign(c, { _t: transport, _f: f });
}

if (process.argv[2] === '--client') {
  const [url, out, name, conn, n] = process.argv.slice(3);
  const c = await connectClient(url, out, name, conn);
  const got = await Promise.all(
    Array.from({ length: Number(n) }, (_, i) =>
      (i % 3 === 0
        ? c.callTool({ name: 'update_setting', arguments: { key: `${conn}-k${i}`, value: String(i) } })
        : i % 3 === 1
          ? c.callTool({ name: 'clear_cache', arguments: { region: `${conn}-r${i}` } })
          : c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } })
      ).then(summarize, describeError),
    ),
  );
  await c.close();
  await c._f.close?.();
  process.stdout.write(JSON.stringify(got) + '\n');
  process.exit(0);
}

// ---------------------------------------------------------------- harness

setTimeout(() => {
  process.stderr.write('still running after 300 s, giving up\n');
  process.exit(2);
}, 300_000).unref();

async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, steps: [], notes: [] };
  // the SDK 1.32.2 server in this process (recordingHandler: the server's view), or the Python SDK's in a child
  // process with a recording proxy right in front of it (the server's view)
  const server = spec.python ? await startPython(spec.python, files.server) : spec.v2 ? await startV2Server(files.server) : await startServer({ out: files.server, ...spec.server });
  const clients = [];
  const t0 = Date.now();
  const t = {
    observed,
    files,
    url: server.url,
    note: (n) => observed.notes.push(n),
    async client(clientName, { conn = clientName } = {}) {
      const c = await connectClient(server.url, files.client, clientName, conn, spec.v2 === true);
      c.onerror = (e) => observed.notes.push({ client: clientName, onerror: describeError(e).message });
      clients.push(c);
      return c;
    },
    async step(label, fn) {
      const started = Date.now();
      try {
        const r = await fn();
        observed.steps.push({ step: label, ok: true, got: summarize(r), atMs: started - t0, ms: Date.now() - started });
        return r;
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: describeError(err), atMs: started - t0, ms: Date.now() - started });
        return undefined;
      }
    },
    /** A client in a process of its own: N calls at once; resolves with what it got. */
    process(clientName, conn, n) {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [SELF, '--client', server.url, files.client, clientName, conn, String(n)], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${clientName} exited ${code}`))));
      });
    },
  };
  try {
    await spec.run(t);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    await server.close();
    for (const c of clients) await c._f.close?.();
  }
  for (const f of Object.values(files)) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  if (spec.gzip) {
    // hundreds of calls: kept gzipped (mcp-triage reads gzip by its bytes)
    for (const f of Object.values(files)) {
      writeFileSync(`${f}.gz`, gzipSync(readFileSync(f), { level: 9 }));
      rmSync(f);
    }
  }
  process.stderr.write(`recorded ${name}\n`);
}

const call = (c, name, args, opts) => c.callTool({ name, arguments: args }, undefined, opts);

// ---------------------------------------------------------------- scenarios

/** Four clients, one stateful server, each numbering from 0: the same ids at the same moment, different arguments, identical results. */
async function fourClients(t) {
  const names = ['agent-a', 'agent-b', 'agent-c', 'agent-d'];
  const cs = [];
  for (const n of names) cs.push(await t.client(n));
  // id 1 in every session: update_setting with each client's own key, all at once ("ok" for all)
  await Promise.all(cs.map((c, i) => t.step(`${names[i]} update_setting theme=${names[i]}`, () => call(c, 'update_setting', { key: 'theme', value: names[i] }))));
  // id 2: clear_cache of each client's own region ({"content":[]} for all)
  await Promise.all(cs.map((c, i) => t.step(`${names[i]} clear_cache ${names[i]}`, () => call(c, 'clear_cache', { region: names[i] }))));
  // id 3: the same request from all
  await Promise.all(cs.map((c, i) => t.step(`${names[i]} lookup_order 1001`, () => call(c, 'lookup_order', { orderId: '1001' }))));
  // ids 4-5: two tools, interleaved, in every session at once ("ok" from two different tools)
  await Promise.all(
    cs.flatMap((c, i) => [
      t.step(`${names[i]} record_event ${names[i]}-login`, () => call(c, 'record_event', { name: `${names[i]}-login` })),
      t.step(`${names[i]} update_setting lang=${i}`, () => call(c, 'update_setting', { key: 'lang', value: String(i) })),
    ]),
  );
  // then ten rounds of mixed calls, each client with its own arguments
  for (let round = 0; round < 10; round++) {
    await Promise.all(
      cs.map((c, i) => {
        const k = (round + i) % 3;
        return k === 0
          ? t.step(`${names[i]} r${round} update_setting`, () => call(c, 'update_setting', { key: `k${round}`, value: `${names[i]}` }))
          : k === 1
            ? t.step(`${names[i]} r${round} clear_cache`, () => call(c, 'clear_cache', { region: `r${round}-${i}` }))
            : t.step(`${names[i]} r${round} record_event`, () => call(c, 'record_event', { name: `e${round}-${i}` }));
      }),
    );
  }
}

const scenarios = {
  'many-clients-stateful': { server: { mode: 'stateful' }, run: fourClients },
  'many-clients-stateful-json': { server: { mode: 'stateful', json: true }, run: fourClients },
  'many-clients-stateless': { server: { mode: 'stateless' }, run: fourClients },
  'many-clients-stateless-json': { server: { mode: 'stateless', json: true }, run: fourClients },

  // the Python SDK's server (mcp 2.3.0, uvicorn), stateful with SSE answers and stateless with JSON answers
  'py-many-clients-stateful': { python: 'stateful', run: fourClients },
  'py-many-clients-stateless-json': { python: 'json-stateless', run: fourClients },

  // the v2 SDK on both ends: 2026-07-28, no sessions, every request on its own
  'v2-many-clients': { v2: true, run: fourClients },

  'py-clients': {
    // four Python SDK clients in one process against the SDK 1.32.2 server; the client's view is a recording proxy
    // (side client) in front of the server, which has its own view (recordingHandler)
    server: { mode: 'stateful' },
    async run(t) {
      const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: t.url, out: t.files.client, side: 'client' });
      try {
        const got = await new Promise((resolve, reject) => {
          const child = spawn(PYTHON, [PY_CLIENTS, `${proxy.url}/mcp`], { stdio: ['ignore', 'pipe', 'inherit'] });
          let out = '';
          child.stdout.on('data', (d) => (out += d));
          child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`py_clients.py exited ${code}`))));
        });
        t.note({ pythonClients: got });
      } finally {
        await proxy.close();
      }
    },
  },

  'many-processes': {
    // five client processes, each its own Client named "worker" (one app run five times), 12 calls at once each
    server: { mode: 'stateful' },
    async run(t) {
      const got = await Promise.all([1, 2, 3, 4, 5].map((i) => t.process('worker', `worker-${i}`, 12)));
      got.forEach((g, i) => t.note({ process: `worker-${i + 1}`, results: g.map((r) => (r.content ? (r.content[0]?.text ?? '[]') : `error: ${r.message}`)) }));
    },
  },

  'one-session-burst': {
    // one client, 40 calls at once on one session: progress on some, structuredContent on others, identical "ok"s
    server: { mode: 'stateful' },
    async run(t) {
      const c = await t.client('burst-app');
      await t.step('tools/list', () => c.listTools());
      const progress = [];
      await Promise.all(
        Array.from({ length: 40 }, (_, i) => {
          const k = i % 5;
          if (k === 0) return t.step(`slow_report #${i} with progress`, () => call(c, 'slow_report', { steps: 3, stepMs: 20 }, { onprogress: (p) => progress.push(p.progress) }));
          if (k === 1) return t.step(`check_stock sku-${i}`, () => call(c, 'check_stock', { sku: `sku-${i}` }));
          if (k === 2) return t.step(`update_setting k${i}`, () => call(c, 'update_setting', { key: `k${i}`, value: 'x' }));
          if (k === 3) return t.step(`lookup_order 1001 #${i}`, () => call(c, 'lookup_order', { orderId: '1001' }));
          return t.step(`clear_cache r${i}`, () => call(c, 'clear_cache', { region: `r${i}` }));
        }),
      );
      t.note({ progressSeen: progress.length });
    },
  },

  'long-session': {
    // hundreds of calls on one session, list_changed, ping, resources/read, prompts/get, completion/complete
    server: { mode: 'stateful' },
    gzip: true,
    async run(t) {
      const c = await t.client('long-app');
      let listChanged = 0;
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
      await t.step('tools/list', () => c.listTools());
      for (let i = 0; i < 60; i++) {
        await Promise.all([
          t.step(`update_setting #${i}`, () => call(c, 'update_setting', { key: `k${i % 7}`, value: String(i) })),
          t.step(`lookup_order #${i}`, () => call(c, 'lookup_order', { orderId: String(1000 + (i % 4)) })),
          t.step(`record_event #${i}`, () => call(c, 'record_event', { name: `e${i}`, ms: 2 })),
          t.step(`clear_cache #${i}`, () => call(c, 'clear_cache', { region: 'eu' })),
        ]);
        if (i % 10 === 0) await t.step(`ping #${i}`, () => c.ping());
        if (i % 15 === 0) await t.step(`resources/read #${i}`, () => c.readResource({ uri: 'status://shop' }));
        if (i % 20 === 0) await t.step(`prompts/get #${i}`, () => c.getPrompt({ name: 'order_summary', arguments: { orderId: '1001' } }));
        if (i % 20 === 5) await t.step(`completion/complete #${i}`, () => c.complete({ ref: { type: 'ref/prompt', name: 'order_summary' }, argument: { name: 'orderId', value: '10' } }));
        if (i === 30) {
          await t.step('enable_beta_tools (list_changed)', () => call(c, 'enable_beta_tools', {}));
          await sleep(50);
          await t.step('tools/list again', () => c.listTools());
          await t.step('beta_echo', () => call(c, 'beta_echo', { msg: 'hi' }));
        }
      }
      t.note({ listChanged });
    },
  },

  'close-reconnect': {
    // a client that ends its session (DELETE accepted), connects again and goes on; a tool that answers isError
    server: { mode: 'stateful' },
    async run(t) {
      const c1 = await t.client('app', { conn: 'app-1' });
      await t.step('update_setting theme=dark', () => call(c1, 'update_setting', { key: 'theme', value: 'dark' }));
      await t.step('validate_quantity -3 (isError)', () => call(c1, 'validate_quantity', { quantity: -3 }));
      await t.step('terminateSession (DELETE)', () => c1._t.terminateSession());
      await t.step('close', () => c1.close());
      const c2 = await t.client('app', { conn: 'app-2' });
      await t.step('validate_quantity -3 again (isError again, new session)', () => call(c2, 'validate_quantity', { quantity: -3 }));
      await t.step('validate_quantity 3', () => call(c2, 'validate_quantity', { quantity: 3 }));
      await t.step('update_setting theme=dark again', () => call(c2, 'update_setting', { key: 'theme', value: 'dark' }));
      await t.step('terminateSession (DELETE)', () => c2._t.terminateSession());
    },
  },

  'slow-tool-busy-server': {
    // a tool that works 90 s without a word (no progress asked), its caller's request timeout raised to 150 s, while
    // another client calls every 2 s: minutes of silence on one call while the logs go on are not a failure
    server: { mode: 'stateful' },
    async run(t) {
      const slow = await t.client('report-app');
      const busy = await t.client('shop-app');
      const done = t.step('slow_report 1x90000, timeout 150 s, no progress', () => call(slow, 'slow_report', { steps: 1, stepMs: 90_000 }, { timeout: 150_000 }));
      let n = 0;
      let finished = false;
      done.then(() => (finished = true));
      while (!finished) {
        await t.step(`lookup_order ${1000 + n}`, () => call(busy, 'lookup_order', { orderId: String(1000 + n) }));
        n++;
        await sleep(2000);
      }
      await done;
      await t.step('lookup_order after', () => call(busy, 'lookup_order', { orderId: 'after' }));
      t.note({ busyCalls: n });
    },
  },

  'cancel-and-timeout': {
    // client decisions: an AbortSignal the caller fired, then the same call again with the request option `timeout`
    // (the SDK server stops the tool on notifications/cancelled and sends no result); then a call that completes
    server: { mode: 'stateful' },
    async run(t) {
      const c = await t.client('app');
      await t.step('tools/list', () => c.listTools());
      const ac = new AbortController();
      setTimeout(() => ac.abort('user pressed stop'), 150);
      await t.step('slow_report 5x100, aborted by the caller at 150 ms', () => call(c, 'slow_report', { steps: 5, stepMs: 100 }, { signal: ac.signal }));
      await sleep(600);
      await t.step('slow_report 5x100 again, request timeout 250 ms', () => call(c, 'slow_report', { steps: 5, stepMs: 100 }, { timeout: 250 }));
      await sleep(600);
      await t.step('slow_report 2x50, completes', () => call(c, 'slow_report', { steps: 2, stepMs: 50 }));
      await t.step('lookup_order after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
