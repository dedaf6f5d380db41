// Second audit round, SDK 1.32.2 on both ends (127.0.0.1). Usage: node test/real-audit2/record-v1.mjs [scenario...]
// Writes test/fixtures/real-audit2/<scenario>/{client,server,proxy}.ndjson and observed.json (what the SDK caller saw).
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import {
  recordingFetch,
  recordingHandler,
  startRecordingProxy,
  withCallNote,
  listen,
  readBody,
  sleep,
  startFaultHop,
  scenarioFiles,
  makeObserver,
  writeObserved,
  describeError,
  stopAfter,
  startCliProxy,
  randomUUID,
} from './lib.mjs';
import { handleStateless } from '../helpers/loopback.mjs';

stopAfter(300_000);
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

// ---------------------------------------------------------------- servers

function buildMcpServer(hooks = {}) {
  const server = new McpServer({ name: 'audit2-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(30);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(30);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('validate_quantity', { inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool(
    'slow_report',
    { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } },
    async ({ steps, stepMs }, extra) => {
      hooks.onSlowStart?.(extra);
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        if (extra.signal.aborted) return text('report cancelled');
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
      }
      return text(`report ready after ${steps} steps`);
    },
  );
  server.registerTool(
    'typed_count',
    { inputSchema: { mode: z.string() }, outputSchema: { count: z.number() }, annotations: { readOnlyHint: true } },
    async ({ mode }) => (mode === 'ok' ? { ...text('3'), structuredContent: { count: 3 } } : { ...text('three'), structuredContent: { count: 'three' } }),
  );
  server.registerTool('media_result', { inputSchema: {}, annotations: { readOnlyHint: true } }, async () => ({
    content: [
      { type: 'text', text: 'here are the files' },
      { type: 'resource_link', uri: 'file:///orders/1001.json', name: 'order 1001', mimeType: 'application/json' },
      { type: 'image', data: PNG_1PX, mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///orders/1002.json', mimeType: 'application/json', text: '{"id":"1002"}' } },
    ],
  }));
  server.registerTool('big_result', { inputSchema: { mb: z.number() }, annotations: { readOnlyHint: true } }, async ({ mb }) => {
    const line = 'order-line ' + 'x'.repeat(1013) + '\n'; // 1 KiB
    return text(line.repeat(Math.round(mb * 1024)));
  });
  return server;
}

/** Low-level server: tools/list declares an outputSchema; tools/call returns structuredContent that does not match it. */
function buildLowLevelServer() {
  const server = new Server({ name: 'audit2-lowlevel', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'typed_count',
        inputSchema: { type: 'object', properties: { mode: { type: 'string' } } },
        outputSchema: { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] },
        annotations: { readOnlyHint: true },
      },
      { name: 'strict_lookup', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: true } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: a = {} } = req.params;
    if (name === 'typed_count') {
      if (a.mode === 'ok') return { ...text('3'), structuredContent: { count: 3 } };
      if (a.mode === 'wrong-type') return { ...text('three'), structuredContent: { count: 'three' } };
      if (a.mode === 'missing-field') return { ...text('none'), structuredContent: { total: 3 } };
      if (a.mode === 'not-object') return { ...text('3'), structuredContent: [3] };
    }
    if (name === 'strict_lookup') throw new McpError(ErrorCode.InvalidParams, `unknown order id ${JSON.stringify(a.orderId)}`);
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  return server;
}

async function startStreamableServer({ out, mode = 'stateful', json = false, eventStore = false, keepAliveMs, build = buildMcpServer, hooks = {}, port = 0 }) {
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      if (mode === 'stateless') {
        await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: () => build(hooks), options: { enableJsonResponse: json } });
        return;
      }
      if (!req.url.startsWith('/mcp')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : undefined;
      let body;
      try {
        body = raw !== undefined ? JSON.parse(raw) : undefined;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
        return;
      }
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const transport = transports.get(sid);
        if (!transport) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await transport.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && (isInitializeRequest(body) || (Array.isArray(body) && body.some(isInitializeRequest)))) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          onsessioninitialized: (id) => transports.set(id, transport),
          ...(eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 100 } : {}),
          ...(keepAliveMs ? { keepAliveMs } : {}),
        });
        transport.onclose = () => {
          if (transport.sessionId) transports.delete(transport.sessionId);
        };
        const mcp = build(hooks);
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  };
  const s = await listen(recordingHandler(handler, { out }), port);
  return {
    ...s,
    transports,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

/** The deprecated 2024-11-05 HTTP+SSE server: GET /sse opens the stream (endpoint event), POST /messages?sessionId=… answers 202. */
async function startLegacyServer({ out, build = buildMcpServer, hooks = {}, port = 0 }) {
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      const url = new URL(req.url, 'http://x');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        res.on('close', () => transports.delete(transport.sessionId));
        const mcp = build({ ...hooks, transport });
        await mcp.connect(transport);
        hooks.onConnect?.(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = transports.get(url.searchParams.get('sessionId'));
        if (!transport) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
          return;
        }
        await transport.handlePostMessage(req, res);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/mcp') {
        // a legacy-only server: the new transport's endpoint does not exist
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot POST /mcp');
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  };
  const s = await listen(recordingHandler(handler, { out }), port);
  return {
    ...s,
    transports,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- harness

async function runScenario(name, spec) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  const hooks = {};
  const mcp = spec.legacy ? await startLegacyServer({ out: files.server, hooks, ...spec.server }) : await startStreamableServer({ out: files.server, hooks, ...spec.server });
  let hopRef = { url: undefined };
  const hop = spec.fault ? await startFaultHop(mcp.url, (i) => spec.fault({ ...i, proxyUrl: proxyRef.url })) : null;
  const proxyRef = {};
  const proxy = spec.cliProxy
    ? await startCliProxy(hop ? hop.url : mcp.url, files.proxy)
    : await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : mcp.url, out: files.proxy });
  proxyRef.url = proxy.url;
  const fetches = [];
  const clients = [];
  const ctx = {
    observed,
    step,
    note,
    files,
    hooks,
    mcp,
    proxyUrl: proxy.url,
    recorder(opts = {}) {
      const f = recordingFetch({ out: files.client, ...opts });
      fetches.push(f);
      return f;
    },
    async client({ name: clientName = 'audit2-client', version = '1.0.0', fetch, recorderOpts, capabilities = {}, transportOptions = {}, legacy = false, url } = {}) {
      const client = new Client({ name: clientName, version }, { capabilities });
      client.onerror = (e) => observed.onerror.push({ client: clientName, at: Date.now(), ...describeError(e) });
      const f = fetch ?? ctx.recorder(recorderOpts);
      const transport = legacy
        ? new SSEClientTransport(new URL('/sse', url ?? proxy.url), { fetch: f, ...transportOptions })
        : new StreamableHTTPClientTransport(new URL('/mcp', url ?? proxy.url), {
            fetch: f,
            reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
            ...transportOptions,
          });
      clients.push(client);
      await client.connect(transport);
      return client;
    },
  };
  try {
    await spec.run(ctx);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    await proxy.close();
    if (hop) await hop.close();
    await mcp.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  writeObserved(dir, observed);
  process.stderr.write(`recorded ${name}\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);

// ---------------------------------------------------------------- scenarios

const scenarios = {
  // ---- 1. deprecated HTTP+SSE transport (2024-11-05)
  'legacy-sse-basic': {
    legacy: true,
    async run(t) {
      const c = await t.client({ legacy: true, recorderOpts: { conn: 'legacy-1' } });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -3 (isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('resources/list (not supported: -32601)', () => c.listResources());
      await t.step('slow_report 5x100 timeout 250 (times out, cancels)', () => c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 100 } }, undefined, { timeout: 250 }));
      await sleep(700);
      await t.step('lookup_order 1002', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },

  'legacy-sse-get-dropped': {
    legacy: true,
    async run(t) {
      let slowTransport;
      t.hooks.onConnect = (tr) => (slowTransport ??= tr);
      const c = await t.client({ legacy: true, recorderOpts: { conn: 'legacy-1' } });
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      const p = t.step('slow_report 4x200 (server drops the GET stream at 300 ms), timeout 2000', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 200 } }, undefined, { timeout: 2000 }),
      );
      await sleep(300);
      t.note({ droppedSession: slowTransport.sessionId, at: Date.now() });
      slowTransport.res.socket.destroy();
      await p;
      await sleep(2500);
      await t.step('lookup_order 1002 (after the drop)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }, undefined, { timeout: 2000 }));
      t.note({ transports: [...t.mcp.transports.keys()] });
    },
  },

  'legacy-sse-two-clients': {
    legacy: true,
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const a = await t.client({ legacy: true, name: 'agent-alpha', recorderOpts: { conn: 'alpha' } });
      const b = await t.client({ legacy: true, name: 'agent-beta', recorderOpts: { conn: 'beta' } });
      const args = { name: 'send_invoice', arguments: { orderId: '1001' } };
      await Promise.all([
        t.step('alpha send_invoice 1001 (503 from hop)', () => a.callTool(args)),
        t.step('beta lookup_order 1001 (same id 1, same time)', () => b.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } })),
      ]);
      await sleep(300);
      await Promise.all([
        t.step('alpha validate_quantity -1 (id 2)', () => a.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } })),
        t.step('beta send_invoice 1001 (id 2; not a retry of alpha)', () => b.callTool(args)),
      ]);
    },
  },

  'legacy-sse-two-clients-concurrent': {
    legacy: true,
    async run(t) {
      const a = await t.client({ legacy: true, name: 'agent-alpha', recorderOpts: { conn: 'alpha' } });
      const b = await t.client({ legacy: true, name: 'agent-beta', recorderOpts: { conn: 'beta' } });
      await Promise.all([
        t.step('alpha id1 slow_report 3x100 (ok, slow)', () => a.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 100 } })),
        t.step('beta id1 validate_quantity -1 (isError, fast)', () => b.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } })),
      ]);
      await Promise.all([t.step('alpha ping', () => a.ping()), t.step('beta ping', () => b.ping())]);
      await Promise.all([
        t.step('alpha id3 send_invoice 1 (ok)', () => a.callTool({ name: 'send_invoice', arguments: { orderId: '1' } })),
        t.step('beta id3 slow_report timeout 150 (times out, cancelled)', () => b.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 100 } }, undefined, { timeout: 150 })),
      ]);
      await sleep(600);
    },
  },

  'fallback-streamable-to-sse': {
    legacy: true,
    async run(t) {
      const fetch = t.recorder({ conn: 'app-1' });
      const first = await t.step('connect with Streamable HTTP (POST /mcp: 404)', () => t.client({ fetch }));
      if (!first.ok) {
        const c = await t.client({ legacy: true, fetch });
        await t.step('lookup_order over SSE after fallback', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      }
    },
  },

  // ---- 2. resumption after a cut connection (event store), client reconnects with Last-Event-ID
  'resume-cut-connection': {
    server: { eventStore: true },
    // POST stream of slow_report: priming + 2 progress events, then the TCP connection is destroyed
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 3 } : undefined),
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 6x100 (POST stream cut after 3 events)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, undefined, { timeout: 5000, onprogress: (p) => seen.push(p.progress) }),
      );
      t.note({ progressSeen: seen });
      await t.step('lookup_order after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'resume-cut-twice': {
    server: { eventStore: true },
    fault: (() => {
      let resumes = 0;
      return (i) => {
        if (isCall(i, 'slow_report')) return { cutAfterEvents: 3 };
        if (i.method === 'GET' && i.req.headers['last-event-id'] && ++resumes === 1) return { cutAfterEvents: 2 };
        return undefined;
      };
    })(),
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 8x100 (POST cut after 3 events, first resumed GET cut after 2)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, undefined, { timeout: 5000, onprogress: (p) => seen.push(p.progress) }),
      );
      t.note({ progressSeen: seen });
    },
  },

  'resume-cut-before-event': {
    server: { eventStore: true },
    fault: (i) => {
      if (isCall(i, 'slow_report')) return { cutAfterEvents: 2 };
      // the resumed GET is cut before it delivers anything: the SDK then reconnects WITHOUT Last-Event-ID
      if (i.method === 'GET' && i.req.headers['last-event-id']) return { cutAfterEvents: 0 };
      return undefined;
    },
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 6x100 (POST cut after 2 events, resumed GET cut at once), timeout 2500', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, undefined, { timeout: 2500, onprogress: (p) => seen.push(p.progress) }),
      );
      t.note({ progressSeen: seen });
      await sleep(300);
    },
  },

  // ---- 3. a network error, the app builds a new Client + transport and repeats the call
  'reconnect-retry-no-note': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { dropResponse: true } : undefined),
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '3003' } };
      const a = await t.client({ recorderOpts: { conn: 'client-1' } });
      const r = await t.step('send_invoice 3003 (server ran it, connection dropped)', () => a.callTool(args));
      if (!r.ok) {
        await a.close();
        await sleep(300);
        const b = await t.client({ recorderOpts: { conn: 'client-2' } });
        await t.step('send_invoice 3003 (new Client+transport+recorder conn, app retry, no note)', () => b.callTool(args));
      }
    },
  },

  'reconnect-retry-noted': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { dropResponse: true } : undefined),
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '3003' } };
      const a = await t.client({ recorderOpts: { conn: 'client-1' } });
      const r = await t.step('send_invoice 3003 (server ran it, connection dropped)', () => withCallNote({ retryOrigin: 'app', attempt: 1, call: 'invoice-3003' }, () => a.callTool(args)));
      if (!r.ok) {
        await a.close();
        await sleep(300);
        const b = await t.client({ recorderOpts: { conn: 'client-2' } });
        await t.step('send_invoice 3003 (new Client, noted app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2, call: 'invoice-3003' }, () => b.callTool(args)));
      }
    },
  },

  'reconnect-retry-shared-recorder': {
    // refused before reaching the server (the hop destroys the socket), the app reconnects on the same recordingFetch
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { destroy: true } : undefined),
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '4004' } };
      const fetch = t.recorder({ client: 'billing-agent@3.1.0' });
      const a = await t.client({ fetch });
      const r = await t.step('send_invoice 4004 (socket destroyed before the server)', () => a.callTool(args));
      if (!r.ok) {
        await a.close();
        await sleep(300);
        const b = await t.client({ fetch });
        await t.step('send_invoice 4004 (new Client, same recorder, no note)', () => b.callTool(args));
      }
    },
  },

  // ---- 4. JSON-RPC batches, hand-crafted on protocol 2025-03-26
  'jsonrpc-batch': {
    async run(t) {
      const f = t.recorder({ conn: 'batcher', client: 'batch-script@0.1' });
      const url = new URL('/mcp', t.proxyUrl);
      const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const post = async (label, body, headers = {}) => {
        const r = await f(url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) });
        const txt = await r.text();
        t.note({ label, status: r.status, contentType: r.headers.get('content-type'), body: txt.slice(0, 1500) });
        return r;
      };
      const init = await post('initialize 2025-03-26', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch-script', version: '0.1' } } });
      const sid = init.headers.get('mcp-session-id');
      const h = { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-03-26' };
      await post('initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
      await post('batch of two calls', [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1001' } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'validate_quantity', arguments: { quantity: -3 } } },
      ], h);
      await post('batch call + notification + tools/list', [
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'send_invoice', arguments: { orderId: '1001' } } },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      ], h);
      await post('batch with an unknown method', [
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1002' } } },
        { jsonrpc: '2.0', id: 7, method: 'no/such/method' },
      ], h);
      await post('batch with an invalid member (400 for the whole batch)', [
        { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1003' } } },
        { jsonrpc: '1.0', id: 9, method: 'tools/call' },
      ], h);
      await post('empty batch', [], h);
      await post('batch of only notifications', [{ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }], h);
    },
  },

  'jsonrpc-batch-json-mode': {
    server: { json: true },
    async run(t) {
      const f = t.recorder({ conn: 'batcher', client: 'batch-script@0.1' });
      const url = new URL('/mcp', t.proxyUrl);
      const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const post = async (label, body, headers = {}) => {
        const r = await f(url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) });
        const txt = await r.text();
        t.note({ label, status: r.status, contentType: r.headers.get('content-type'), body: txt.slice(0, 1500) });
        return r;
      };
      const init = await post('initialize 2025-03-26', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch-script', version: '0.1' } } });
      const h = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-03-26' };
      await post('initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
      await post('batch of two calls (JSON array answer)', [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1001' } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'validate_quantity', arguments: { quantity: -3 } } },
      ], h);
      await post('batch of two: one unknown tool', [
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
        { jsonrpc: '2.0', id: 5, method: 'ping' },
      ], h);
    },
  },

  'jsonrpc-batch-cut': {
    // the batch's SSE stream is cut after the first response (no event store): one request answered, one not
    fault: (i) => (i.rpcMethod === 'batch' ? { cutAfterEvents: 1 } : undefined),
    async run(t) {
      const f = t.recorder({ conn: 'batcher', client: 'batch-script@0.1' });
      const url = new URL('/mcp', t.proxyUrl);
      const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const post = async (label, body, headers = {}) => {
        try {
          const r = await f(url, { method: 'POST', headers: { ...base, ...headers }, body: JSON.stringify(body) });
          const txt = await r.text();
          t.note({ label, status: r.status, body: txt.slice(0, 1500) });
          return r;
        } catch (e) {
          t.note({ label, error: describeError(e) });
        }
      };
      const init = await post('initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batch-script', version: '0.1' } } });
      const h = { 'mcp-session-id': init.headers.get('mcp-session-id'), 'mcp-protocol-version': '2025-03-26' };
      await post('initialized', { jsonrpc: '2.0', method: 'notifications/initialized' }, h);
      await post('batch: fast lookup + slow report, cut after the first event', [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1001' } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow_report', arguments: { steps: 3, stepMs: 100 } } },
      ], h);
      await sleep(600);
    },
  },

  // ---- 5. results
  'output-schema-invalid': {
    server: { build: buildLowLevelServer },
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('typed_count ok', () => c.callTool({ name: 'typed_count', arguments: { mode: 'ok' } }));
      await t.step('typed_count wrong-type (count:"three")', () => c.callTool({ name: 'typed_count', arguments: { mode: 'wrong-type' } }));
      await t.step('typed_count missing-field', () => c.callTool({ name: 'typed_count', arguments: { mode: 'missing-field' } }));
      await t.step('typed_count not-object', () => c.callTool({ name: 'typed_count', arguments: { mode: 'not-object' } }));
    },
  },

  'output-schema-invalid-mcpserver': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('typed_count ok', () => c.callTool({ name: 'typed_count', arguments: { mode: 'ok' } }));
      await t.step('typed_count wrong-type (server-side validation)', () => c.callTool({ name: 'typed_count', arguments: { mode: 'wrong-type' } }));
    },
  },

  'media-and-large-results': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('media_result (link, image, audio, embedded resource)', () => c.callTool({ name: 'media_result', arguments: {} }));
      await t.step('big_result 6 MB over SSE', () => c.callTool({ name: 'big_result', arguments: { mb: 6 } }));
      await t.step('lookup_order after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'large-result-json-mode': {
    server: { json: true },
    async run(t) {
      const c = await t.client();
      await t.step('big_result 6 MB as application/json', () => c.callTool({ name: 'big_result', arguments: { mb: 6 } }));
    },
  },

  // ---- 6. long progress, maxTotalTimeout
  'progress-long-max-total': {
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 50x100ms, timeout 1000 reset on progress (completes, 50 progress events)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 50, stepMs: 100 } }, undefined, { timeout: 1000, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) }),
      );
      t.note({ progressSeen: seen.length });
      const seen2 = [];
      await t.step('slow_report 50x100ms, reset on progress, maxTotalTimeout 2000 (fails at 2 s)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 50, stepMs: 100 } }, undefined, { timeout: 1000, resetTimeoutOnProgress: true, maxTotalTimeout: 2000, onprogress: (p) => seen2.push(p.progress) }),
      );
      t.note({ progressSeen2: seen2.length });
      await sleep(3500);
    },
  },

  // ---- 7. HTTP errors from a hop
  'http-errors-hop': {
    fault: (() => {
      const seen = new Map();
      return (i) => {
        if (!isCall(i)) return undefined;
        const oid = `${i.tool}:${i.rpc.params.arguments?.orderId}`;
        const n = (seen.get(oid) ?? 0) + 1;
        seen.set(oid, n);
        if (n > 1) return undefined; // only the first POST of each order fails
        if (oid === 'lookup_order:h500')
          return {
            respond: 500,
            headers: { 'content-type': 'text/html' },
            body: '<!DOCTYPE html><html><head><title>500 Internal Server Error</title></head><body><center><h1>500 Internal Server Error</h1></center><hr><center>nginx/1.25.3</center></body></html>',
          };
        if (oid === 'lookup_order:h502') return { respond: 502 };
        if (oid === 'lookup_order:h504') return { respond: 504, headers: { 'content-length': '0' } };
        if (oid === 'send_invoice:h504') return { respond: 504, headers: { 'content-length': '0' } };
        if (oid === 'lookup_order:h429') return { respond: 429, headers: { 'retry-after': new Date(Date.now() + 3000).toUTCString(), 'content-type': 'application/json' }, body: '{"error":"rate_limited"}' };
        if (oid === 'lookup_order:h429b') return { respond: 429, headers: { 'retry-after': new Date(Date.now() + 1000).toUTCString() } };
        return undefined;
      };
    })(),
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'ops-agent@1.0.0' } });
      await t.step('tools/list', () => c.listTools());
      const call = (oid) => ({ name: 'lookup_order', arguments: { orderId: oid } });
      const r1 = await t.step('lookup h500 (HTML 500 from hop)', () => c.callTool(call('h500')));
      await sleep(400);
      if (!r1.ok) await t.step('lookup h500 retry (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(call('h500'))));
      const r2 = await t.step('lookup h502 (empty 502)', () => c.callTool(call('h502')));
      await sleep(400);
      if (!r2.ok) await t.step('lookup h502 retry (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(call('h502'))));
      const r3 = await t.step('lookup h504 (empty 504)', () => c.callTool(call('h504')));
      await sleep(400);
      if (!r3.ok) await t.step('lookup h504 retry (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(call('h504'))));
      // send_invoice (unannotated) behind a 504: it may have run
      const r3b = await t.step('send_invoice after 504', () => c.callTool({ name: 'send_invoice', arguments: { orderId: 'h504' } }));
      await sleep(400);
      if (!r3b.ok) await t.step('send_invoice retry (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'send_invoice', arguments: { orderId: 'h504' } })));
      const r4 = await t.step('lookup h429 (Retry-After: HTTP date +3 s)', () => c.callTool(call('h429')));
      await sleep(500);
      if (!r4.ok) await t.step('lookup h429 retry after 0.5 s (ignores Retry-After, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(call('h429'))));
      const r5 = await t.step('lookup h429b (Retry-After: HTTP date +1 s)', () => c.callTool(call('h429b')));
      await sleep(2100);
      if (!r5.ok) await t.step('lookup h429b retry after 2.1 s (honours it, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(call('h429b'))));
    },
  },

  // ---- 8. OAuth
  'oauth-401-no-provider': {
    fault: (i) =>
      i.path === '/mcp' && !i.req.headers.authorization
        ? {
            respond: 401,
            headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer resource_metadata="${i.proxyUrl}/.well-known/oauth-protected-resource/mcp"` },
            body: JSON.stringify({ error: 'invalid_token', error_description: 'No authorization provided' }),
          }
        : undefined,
    async run(t) {
      const r = await t.step('connect without authProvider', () => t.client());
      t.note({ connected: r.ok });
    },
  },

  'oauth-token-endpoint-fails': {
    fault(i) {
      const base = i.proxyUrl;
      if (i.path === '/.well-known/oauth-protected-resource/mcp' || i.path === '/.well-known/oauth-protected-resource')
        return { respond: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }) };
      if (i.path === '/.well-known/oauth-authorization-server')
        return {
          respond: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'], grant_types_supported: ['client_credentials'] }),
        };
      if (i.path === '/token') {
        if (i.n === 1) return { respond: 503, headers: { 'content-type': 'text/html' }, body: '<html><head><title>503 Service Temporarily Unavailable</title></head><body>down</body></html>' };
        return { respond: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }) };
      }
      if (i.path.startsWith('/.well-known/')) return { respond: 404 };
      if (isCall(i))
        return {
          respond: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
          body: JSON.stringify({ error: 'invalid_token', error_description: 'token expired' }),
        };
      return undefined;
    },
    async run(t) {
      const provider = new ClientCredentialsProvider({ clientId: 'audit2-client', clientSecret: 'audit2-client-secret', expectedIssuer: t.proxyUrl });
      provider.saveTokens({ access_token: 'audit2-access-token-1', token_type: 'Bearer' });
      const c = await t.client({ transportOptions: { authProvider: provider }, recorderOpts: { client: 'auth-agent@1.0.0' } });
      await t.step('lookup_order (401, token endpoint 503)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await sleep(300);
      await t.step('lookup_order again (401, token endpoint 400 invalid_client)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'oauth-401-after-token': {
    fault(i) {
      const base = i.proxyUrl;
      if (i.path === '/.well-known/oauth-protected-resource/mcp' || i.path === '/.well-known/oauth-protected-resource')
        return { respond: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }) };
      if (i.path === '/.well-known/oauth-authorization-server')
        return {
          respond: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'], grant_types_supported: ['client_credentials'] }),
        };
      if (i.path === '/token') return { respond: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: 'audit2-new-token', token_type: 'Bearer', expires_in: 3600 }) };
      if (i.path.startsWith('/.well-known/')) return { respond: 404 };
      if (isCall(i))
        return {
          respond: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
          body: JSON.stringify({ error: 'invalid_token', error_description: 'audience mismatch' }),
        };
      return undefined;
    },
    async run(t) {
      const provider = new ClientCredentialsProvider({ clientId: 'audit2-client', clientSecret: 'audit2-client-secret', expectedIssuer: t.proxyUrl });
      provider.saveTokens({ access_token: 'audit2-access-token-1', token_type: 'Bearer' });
      const c = await t.client({ transportOptions: { authProvider: provider }, recorderOpts: { client: 'auth-agent@1.0.0' } });
      await t.step('send_invoice (401, new token, 401 again)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
    },
  },

  // ---- 9. the CLI recording proxy, read alone
  'cli-proxy-http-errors': {
    cliProxy: true,
    fault: (i) => {
      if (!isCall(i)) return undefined;
      const oid = i.rpc.params.arguments?.orderId;
      if (oid === 'h500' && i.n === 1)
        return { respond: 500, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><head><title>502 Bad Gateway</title></head><body>bad gateway</body></html>' };
      if (oid === 'h502' && i.n === 3) return { respond: 502 };
      return undefined;
    },
    async run(t) {
      const c = await t.client();
      const r1 = await t.step('lookup h500 (HTML body)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'h500' } }));
      await sleep(300);
      if (!r1.ok) await t.step('lookup h500 retry (noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'h500' } })));
      await t.step('lookup h502 (empty 502)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'h502' } }));
    },
  },

  'cli-proxy-resume-cut': {
    cliProxy: true,
    server: { eventStore: true },
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 3 } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('slow_report 6x100 (POST stream cut after 3 events; resumed)', () => c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, undefined, { timeout: 5000, onprogress: () => {} }));
    },
  },

  'cli-proxy-legacy-sse': {
    cliProxy: true,
    legacy: true,
    async run(t) {
      const c = await t.client({ legacy: true, recorderOpts: { conn: 'legacy-1' } });
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -3 (isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('slow_report timeout 250', () => c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 100 } }, undefined, { timeout: 250 }));
      await sleep(700);
    },
  },

  // ---- own additions
  'gzip-reverse-proxy': {
    // a compressing reverse proxy between the recording proxy and the server (JSON responses gzipped)
    server: { json: true },
    fault: (i) => (i.method === 'POST' && i.req.headers['accept-encoding']?.includes('gzip') ? { gzip: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('tools/list (gzip)', () => c.listTools());
      await t.step('lookup_order (gzip)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -1 (gzip, isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } }));
    },
  },

  'crlf-sse-keepalive': {
    // SSE written with CRLF line endings (as Python servers behind sse-starlette write them) and keep-alive comments
    server: { keepAliveMs: 150 },
    fault: (i) => (i.method === 'POST' || i.method === 'GET' ? { crlf: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('lookup_order (CRLF SSE)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('slow_report 4x200 with keep-alive comments (CRLF)', () => c.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 200 } }, undefined, { onprogress: () => {} }));
      await t.step('validate_quantity -2 (CRLF, isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -2 } }));
    },
  },

  'redirect-trailing-slash': {
    // a Starlette-style mount: /mcp answers 307 Location /mcp/ (every request), the SDK follows it within the origin
    fault: (i) => (i.path === '/mcp' ? { respond: 307, headers: { location: `${i.proxyUrl}/mcp/`, 'content-length': '0' } } : undefined),
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'redirect-agent@1.0.0' } });
      await t.step('tools/list', () => c.listTools());
      await t.step('send_invoice 7007 (307 then 200)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '7007' } }));
      await t.step('validate_quantity -1 (307 then isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } }));
    },
  },

  'stateless-app-retry-new-conn': {
    // stateless server: a 503 from the hop, the app creates a new Client (and, as the README suggests, a new conn)
    server: { mode: 'stateless', json: true },
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'overloaded' } : undefined),
    async run(t) {
      const args = { name: 'send_invoice', arguments: { orderId: '5005' } };
      const a = await t.client({ recorderOpts: { conn: 'conn-a1' } });
      const r = await t.step('send_invoice (503)', () => a.callTool(args));
      await a.close();
      await sleep(1100);
      const b = await t.client({ recorderOpts: { conn: 'conn-a2' } });
      if (!r.ok) await t.step('send_invoice again from a new Client/conn (no note)', () => b.callTool(args));
    },
  },
};

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
