// Audit recorder: SDK 1.32.2 client <-> SDK 1.32.2 server on 127.0.0.1, recorded with recordingFetch (client),
// recordingHandler (server) and the recording proxy in between (optionally a fault hop between proxy and server).
// Usage: node test/real-audit/record-v1.mjs [scenario...]   Output: test/fixtures/real-audit/<scenario>/{client,server,proxy}.ndjson, observed.json
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  CreateMessageResultSchema,
  McpError,
  ErrorCode,
  isInitializeRequest,
} from '@modelcontextprotocol/sdk/types.js';
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
} from './lib.mjs';
import { handleStateless } from '../helpers/loopback.mjs';
import { startCliProxy } from '../real-audit2/lib.mjs';

stopAfter(120_000);
const text = (t) => ({ content: [{ type: 'text', text: t }] });

// ---------------------------------------------------------------- servers

/** High-level McpServer with the tools most scenarios use. */
function buildMcpServer() {
  const server = new McpServer({ name: 'audit-server', version: '1.0.0' }, { capabilities: { logging: {}, tools: { listChanged: true } } });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(30);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => text(`invoice for order ${orderId} sent`));
  server.registerTool('validate_quantity', { inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('mcp_error_tool', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    throw new McpError(ErrorCode.InvalidParams, `unknown order ${orderId}`, { field: 'orderId' });
  });
  server.registerTool(
    'slow_report',
    { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } },
    async ({ steps, stepMs }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        if (extra.signal.aborted) return text('report cancelled');
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
      }
      return text(`report ready after ${steps} steps`);
    },
  );
  server.registerTool('summarize_with_llm', { inputSchema: { topic: z.string() } }, async ({ topic }, extra) => {
    const r = await server.server.createMessage(
      { messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }], maxTokens: 50 },
      { relatedRequestId: extra.requestId, timeout: 3000 },
    );
    return text(`summary: ${r.content.text}`);
  });
  server.registerTool('approve_refund', { inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    const answer = await server.server.elicitInput(
      { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } },
      { relatedRequestId: extra.requestId, timeout: 3000 },
    );
    return answer.action === 'accept' ? text(`refund approved: ${answer.content.reason}`) : { ...text(`refund ${answer.action}`), isError: true };
  });
  server.registerTool('slow_invoice', { inputSchema: { orderId: z.string(), ms: z.number() } }, async ({ orderId, ms }) => {
    await sleep(ms);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('logging_tool', { inputSchema: {} }, async (_a, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working on it' } });
    // unrelated to the request: standalone GET stream
    await server.server.sendToolListChanged();
    await server.server.sendLoggingMessage({ level: 'warning', data: 'background note' });
    const roots = await server.server.listRoots();
    await server.server.ping();
    return text(`roots: ${roots.roots.map((r) => r.uri).join(',')}`);
  });
  server.registerTool('url_elicit_tool', { inputSchema: {} }, async () => {
    throw new McpError(-32042, 'This request requires more information.', { elicitations: [{ mode: 'url', elicitationId: 'e-1', url: 'https://example.com/auth', message: 'authorize' }] });
  });
  return server;
}

/** Low-level Server: real JSON-RPC errors, paginated tools/list, resources that fail, slow tools. */
function buildLowLevelServer() {
  const server = new Server({ name: 'audit-lowlevel', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  const pages = [
    [
      { name: 'lookup_order', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: true } },
      { name: 'send_invoice', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } } },
    ],
    [
      { name: 'validate_quantity', inputSchema: { type: 'object', properties: { quantity: { type: 'number' } } }, annotations: { readOnlyHint: true } },
      { name: 'get_stock', inputSchema: { type: 'object', properties: { sku: { type: 'string' } } }, annotations: { readOnlyHint: true, idempotentHint: true } },
    ],
    [{ name: 'strict_lookup', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
  ];
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    const cursor = req.params?.cursor;
    const idx = cursor === undefined ? 0 : Number(String(cursor).replace('page-', ''));
    if (!Number.isInteger(idx) || idx < 0 || idx >= pages.length) throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${JSON.stringify(cursor)}`);
    return { tools: pages[idx], ...(idx + 1 < pages.length ? { nextCursor: `page-${idx + 1}` } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const { name, arguments: a = {} } = req.params;
    if (name === 'lookup_order') {
      await sleep(a.delayMs ?? 20);
      return text(`order ${a.orderId}: shipped`);
    }
    if (name === 'send_invoice') {
      await sleep(a.delayMs ?? 20);
      return text(`invoice ${a.orderId} sent`);
    }
    if (name === 'validate_quantity') {
      await sleep(a.delayMs ?? 10);
      return a.quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${a.quantity}`), isError: true };
    }
    if (name === 'get_stock') return text(`stock of ${a.sku}: 12`);
    if (name === 'strict_lookup') {
      await sleep(a.delayMs ?? 10);
      if (a.orderId !== '1001') throw new McpError(ErrorCode.InvalidParams, `unknown order id ${JSON.stringify(a.orderId)}`, { field: 'orderId' });
      return text('order 1001: shipped');
    }
    throw new McpError(ErrorCode.InvalidParams, `Tool ${name} not found`);
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: 'file:///orders/1001.json', name: 'order 1001' }] }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    if (req.params.uri === 'file:///orders/1001.json') return { contents: [{ uri: req.params.uri, mimeType: 'application/json', text: '{"id":"1001"}' }] };
    throw new McpError(-32002, 'Resource not found', { uri: req.params.uri });
  });
  return server;
}

/**
 * An SDK server behind recordingHandler. Stateful (one transport per session, SDK recipe) or stateless (server +
 * transport per request). `port` lets a restarted server listen where the old one did.
 */
async function startMcpServer({ out, mode = 'stateful', build = buildMcpServer, json = false, port = 0 }) {
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      if (mode === 'stateless') {
        await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: build, options: { enableJsonResponse: json } });
        return;
      }
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8')) : undefined;
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
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) transports.delete(transport.sessionId);
        };
        const mcp = build();
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

// ---------------------------------------------------------------- harness

async function runScenario(name, spec) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  let mcp = await startMcpServer({ out: files.server, ...spec.server });
  const serverPort = mcp.port;
  const hop = spec.fault ? await startFaultHop(mcp.url, spec.fault) : null;
  const proxy = spec.cliProxy
    ? await startCliProxy(hop ? hop.url : mcp.url, files.proxy)
    : await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : mcp.url, out: files.proxy });
  const fetches = [];
  const clients = [];
  const ctx = {
    observed,
    step,
    note,
    files,
    proxyUrl: proxy.url,
    recorder(opts = {}) {
      const f = recordingFetch({ out: files.client, ...opts });
      fetches.push(f);
      return f;
    },
    async client({ name: clientName = 'audit-client', version = '1.0.0', fetch, recorderOpts, capabilities = {}, handlers = {}, url } = {}) {
      const client = new Client({ name: clientName, version }, { capabilities });
      for (const [schema, h] of handlers.list ?? []) client.setRequestHandler(schema, h);
      client.onerror = (e) => observed.onerror.push({ client: clientName, ...describeError(e) });
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', url ?? proxy.url), {
        fetch: fetch ?? ctx.recorder(recorderOpts),
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
      });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    /** Stop the server (process gone) and start a new instance on the same port: every session id is unknown. */
    async restartServer() {
      await mcp.close();
      await sleep(50);
      mcp = await startMcpServer({ out: files.server, ...spec.server, port: serverPort });
      return mcp;
    },
    get mcp() {
      return mcp;
    },
  };
  try {
    await spec.run(ctx);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await proxy.close();
    if (hop) await hop.close();
    await mcp.close();
    for (const f of fetches) await f.close?.();
  }
  writeObserved(dir, observed);
  process.stderr.write(`recorded ${name}\n`);
}

// ---------------------------------------------------------------- scenarios

const scenarios = {
  /** 1. Parallel calls in one session (low-level server): ok, two isError, one JSON-RPC error, two identical failing calls in flight together, then a real retry. */
  'parallel-mixed': {
    server: { build: buildLowLevelServer },
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'audit-agent@1.0.0' } });
      await t.step('tools/list', () => c.listTools());
      await Promise.all([
        t.step('P lookup_order 1001 (slow 200ms)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001', delayMs: 200 } })),
        t.step('P validate_quantity -3', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } })),
        t.step('P validate_quantity -5', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -5 } })),
        t.step('P strict_lookup 9999 (McpError) #1', () => c.callTool({ name: 'strict_lookup', arguments: { orderId: '9999', delayMs: 100 } })),
        t.step('P strict_lookup 9999 (McpError) #2 same args, concurrent', () => c.callTool({ name: 'strict_lookup', arguments: { orderId: '9999', delayMs: 100 } })),
        t.step('P send_invoice 1001', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001', delayMs: 50 } })),
      ]);
      await sleep(300);
      // a real app retry of the JSON-RPC error (sequential, after it failed)
      await t.step('strict_lookup 9999 again (app retry, after failure)', () => c.callTool({ name: 'strict_lookup', arguments: { orderId: '9999', delayMs: 100 } }));
    },
  },

  /** 1b. Same with the high-level McpServer: a thrown McpError becomes isError; the -32042 URL elicitation error stays a JSON-RPC error. */
  'parallel-mcpserver': {
    async run(t) {
      const c = await t.client();
      await Promise.all([
        t.step('P lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } })),
        t.step('P validate_quantity 0', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: 0 } })),
        t.step('P mcp_error_tool (McpError thrown in McpServer)', () => c.callTool({ name: 'mcp_error_tool', arguments: { orderId: 'x' } })),
        t.step('P no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} })),
        t.step('P url_elicit_tool (-32042)', () => c.callTool({ name: 'url_elicit_tool', arguments: {} })),
        t.step('P lookup_order bad args (validation)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 42 } })),
      ]);
    },
  },

  /** 2a. Progress keeps a short-timeout call alive (resetTimeoutOnProgress); then the same without reset times out. */
  'progress-reset-timeout': {
    async run(t) {
      const c = await t.client();
      const seen = [];
      await t.step('slow_report 5x200ms, timeout 500, resetTimeoutOnProgress', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 200 } }, undefined, { timeout: 500, resetTimeoutOnProgress: true, onprogress: (p) => seen.push(p.progress) }),
      );
      t.note({ progressSeen: seen });
      const seen2 = [];
      await t.step('slow_report 5x200ms, timeout 500, no reset (times out)', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 5, stepMs: 200 } }, undefined, { timeout: 500, onprogress: (p) => seen2.push(p.progress) }),
      );
      t.note({ progressSeen2: seen2 });
      const seen3 = [];
      await t.step('slow_report 6x200ms, timeout 500 reset, maxTotalTimeout 700', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 200 } }, undefined, { timeout: 500, resetTimeoutOnProgress: true, maxTotalTimeout: 700, onprogress: (p) => seen3.push(p.progress) }),
      );
      t.note({ progressSeen3: seen3 });
      await sleep(1500);
    },
  },

  /** 2b. The caller aborts a long call with an AbortSignal (notifications/cancelled); then a user re-runs it. */
  'abort-signal': {
    async run(t) {
      const c = await t.client();
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('user pressed stop')), 300);
      await t.step('slow_report 10x100ms, aborted at 300ms', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, undefined, { signal: ac.signal, timeout: 5000 }));
      await sleep(1200);
      await t.step('slow_report again (user re-run, same args)', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, undefined, { timeout: 5000 }));
      // A parallel pair where only one is aborted.
      const ac2 = new AbortController();
      setTimeout(() => ac2.abort(), 150);
      await Promise.all([
        t.step('P slow_report 3x100 (aborted at 150ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 100 } }, undefined, { signal: ac2.signal })),
        t.step('P slow_report 4x100 (completes)', () => c.callTool({ name: 'slow_report', arguments: { steps: 4, stepMs: 100 } })),
      ]);
      await sleep(600);
    },
  },

  /** 3a. The server process restarts between calls (new instance, same port): 404 on the old session; the app re-initializes and retries (no note). */
  'server-restart-between-calls': {
    async run(t) {
      const fetch = t.recorder();
      const c = await t.client({ fetch });
      await t.step('lookup_order 1001 (before restart)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.restartServer();
      await sleep(600); // the standalone GET stream was cut; the client tries to reconnect it
      const args = { name: 'send_invoice', arguments: { orderId: '2002' } };
      const failed = await t.step('send_invoice 2002 (old session)', () => c.callTool(args));
      if (!failed.ok) {
        await c.close();
        const fresh = await t.client({ fetch });
        await t.step('send_invoice 2002 (new client, app retry, no note)', () => fresh.callTool(args));
      }
    },
  },

  /** 3a'. As 3a, but the app reconnects the SAME Client object with a new transport (ids keep counting), then retries. */
  'server-restart-reconnect-same-client': {
    async run(t) {
      const fetch = t.recorder();
      const c = await t.client({ fetch });
      await t.step('lookup_order 1001 (before restart)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.restartServer();
      await sleep(400);
      const args = { name: 'send_invoice', arguments: { orderId: '2002' } };
      const failed = await t.step('send_invoice 2002 (old session: 404)', () => c.callTool(args));
      if (!failed.ok) {
        await c.close();
        await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.proxyUrl), { fetch }));
        await t.step('send_invoice 2002 (same Client reconnected, app retry, no note)', () => c.callTool(args));
      }
    },
  },

  /** 3b. The server restarts while a call is in flight: its SSE stream is cut; the client waits for its timeout, cancels (to the new server: 404), then re-initializes and retries. */
  'server-restart-mid-call': {
    async run(t) {
      const fetch = t.recorder({ client: 'audit-agent@1.0.0' });
      const c = await t.client({ fetch });
      const args = { name: 'slow_report', arguments: { steps: 4, stepMs: 200 } };
      const p = t.step('slow_report (server restarts mid-call, timeout 1500)', () => c.callTool(args, undefined, { timeout: 1500 }));
      await sleep(300);
      await t.restartServer();
      const r = await p;
      await sleep(300);
      if (!r.ok) {
        await c.close();
        const fresh = await t.client({ fetch });
        await t.step('slow_report (new client, retry noted app)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => fresh.callTool(args, undefined, { timeout: 3000 })));
      }
    },
  },

  /** 3c. Session terminated by the client itself (DELETE), then a call on the dead session; reconnect without a session id. */
  'client-terminate-session': {
    async run(t) {
      const fetch = t.recorder();
      const c = await t.client({ fetch });
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      const transport = c.transport;
      await t.step('terminateSession (DELETE)', () => transport.terminateSession());
      await t.step('lookup_order 1002 after DELETE', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },

  /** 4a. sampling/createMessage during a call; the client's sampling handler throws: the client answers the server request with an error. */
  'sampling-handler-throws': {
    async run(t) {
      let n = 0;
      const c = await t.client({
        capabilities: { sampling: {} },
        handlers: {
          list: [
            [
              CreateMessageRequestSchema,
              async () => {
                n++;
                if (n === 1) throw new Error('LLM provider quota exceeded');
                return { model: 'fake', role: 'assistant', content: { type: 'text', text: 'short summary' } };
              },
            ],
          ],
        },
      });
      await t.step('summarize_with_llm (handler throws)', () => c.callTool({ name: 'summarize_with_llm', arguments: { topic: 'orders' } }));
      await t.step('summarize_with_llm again (handler answers)', () => c.callTool({ name: 'summarize_with_llm', arguments: { topic: 'orders' } }));
    },
  },

  /** 4b. elicitation/create during a call: handler throws; then a client without the elicitation capability; then a handler that never answers (server-side timeout). */
  'elicitation-handler-throws': {
    async run(t) {
      const c = await t.client({
        name: 'elicit-client',
        capabilities: { elicitation: { form: {} } },
        handlers: {
          list: [
            [
              ElicitRequestSchema,
              async (req) => {
                if (req.params.message.includes('1001')) throw new McpError(ErrorCode.InternalError, 'UI not available');
                await sleep(4000);
                return { action: 'accept', content: { reason: 'late' } };
              },
            ],
          ],
        },
      });
      await t.step('approve_refund 1001 (elicit handler throws)', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1001' } }));
      await t.step('approve_refund 1002 (elicit handler too slow; server timeout 3 s)', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1002' } }, undefined, { timeout: 8000 }));
      const d = await t.client({ name: 'no-elicit-client' });
      await t.step('approve_refund 1003 (client lacks elicitation capability)', () => d.callTool({ name: 'approve_refund', arguments: { orderId: '1003' } }));
      await sleep(1500);
    },
  },

  /** 5. tools/list pagination with cursors, a bad cursor, resources/list, a resources/read that fails with -32002, ping. */
  'pagination-resources-ping': {
    server: { build: buildLowLevelServer },
    async run(t) {
      const c = await t.client();
      let cursor;
      let page = 0;
      do {
        const r = await t.step(`tools/list page ${page}`, () => c.listTools(cursor ? { cursor } : undefined));
        cursor = r.ok ? r.result.nextCursor : undefined;
        page++;
      } while (cursor && page < 5);
      await t.step('tools/list bad cursor', () => c.listTools({ cursor: 'page-9' }));
      await t.step('ping', () => c.ping());
      await t.step('resources/list', () => c.listResources());
      await t.step('resources/read ok', () => c.readResource({ uri: 'file:///orders/1001.json' }));
      await t.step('resources/read missing (-32002)', () => c.readResource({ uri: 'file:///orders/9999.json' }));
      await t.step('resources/read missing again (app retry)', () => c.readResource({ uri: 'file:///orders/9999.json' }));
      await t.step('ping 2', () => c.ping());
    },
  },

  /** 5b. Annotations spread over tools/list pages: each tool's first call reaches the server, which answers, but the hop drops the connection; the app retries. Only send_invoice is unannotated. */
  'pagination-annotations-retry': {
    server: { build: buildLowLevelServer },
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { dropResponse: true } : undefined),
    async run(t) {
      const c = await t.client({ recorderOpts: { client: 'audit-agent@1.0.0' } });
      let cursor;
      do {
        const r = await t.step('tools/list', () => c.listTools(cursor ? { cursor } : undefined));
        cursor = r.ok ? r.result.nextCursor : undefined;
      } while (cursor);
      for (const [tool, args] of [
        ['lookup_order', { orderId: '1001' }],
        ['get_stock', { sku: 'A-1' }],
        ['strict_lookup', { orderId: '1001' }],
        ['send_invoice', { orderId: '1001' }],
      ]) {
        const first = await t.step(`${tool} (response dropped after the server ran it)`, () => c.callTool({ name: tool, arguments: args }));
        await sleep(300);
        if (!first.ok) await t.step(`${tool} (app retry)`, () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: tool, arguments: args })));
      }
    },
  },

  /** 6. Two different clients (clientInfo differs, separate sessions), same tool and arguments at the same time; the first one's call fails (hop 503). */
  'two-clients-same-call': {
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const fetch = t.recorder();
      const a = await t.client({ name: 'agent-alpha', version: '1.0.0', fetch });
      const b = await t.client({ name: 'agent-beta', version: '2.0.0', fetch });
      const args = { name: 'send_invoice', arguments: { orderId: '1001' } };
      const pa = t.step('alpha send_invoice 1001 (503)', () => a.callTool(args));
      await sleep(40);
      const pb = t.step('beta send_invoice 1001 (40ms later, ok)', () => b.callTool(args));
      await Promise.all([pa, pb]);
      await sleep(250);
      await t.step('beta send_invoice 1001 again (beta own repeat, after alpha failed)', () => b.callTool(args));
    },
  },

  /** 6b. Same as 6 but each client has its own recordingFetch, without any client option (the common setup), and one more pair a second later. */
  'two-clients-same-call-separate-recorders': {
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const a = await t.client({ name: 'agent-alpha', version: '1.0.0' });
      const b = await t.client({ name: 'agent-beta', version: '2.0.0' });
      const args = { name: 'send_invoice', arguments: { orderId: '1001' } };
      await t.step('alpha send_invoice 1001 (503)', () => a.callTool(args));
      await sleep(300);
      await t.step('beta send_invoice 1001 (300ms after alpha failed)', () => b.callTool(args));
    },
  },

  /** 7. Stateless server + enableJsonResponse, low-level tools, concurrent calls from one client and from two clients (conn keys). */
  'stateless-json-concurrent': {
    server: { mode: 'stateless', json: true, build: buildLowLevelServer },
    async run(t) {
      const a = await t.client({ name: 'stateless-a', recorderOpts: { conn: 'conn-a' } });
      const b = await t.client({ name: 'stateless-b', recorderOpts: { conn: 'conn-b' } });
      await Promise.all([
        t.step('A lookup_order 1001 (slow)', () => a.callTool({ name: 'lookup_order', arguments: { orderId: '1001', delayMs: 150 } })),
        t.step('A validate_quantity -1', () => a.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } })),
        t.step('A strict_lookup 9999', () => a.callTool({ name: 'strict_lookup', arguments: { orderId: '9999' } })),
        t.step('B lookup_order 1001 (slow)', () => b.callTool({ name: 'lookup_order', arguments: { orderId: '1001', delayMs: 150 } })),
        t.step('B strict_lookup 9999', () => b.callTool({ name: 'strict_lookup', arguments: { orderId: '9999' } })),
        t.step('B send_invoice 1001', () => b.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } })),
      ]);
    },
  },

  /** 7b. Stateless JSON, two clients sharing ONE recordingFetch without conn (the simple setup): ids collide concurrently. */
  'stateless-json-shared-recorder': {
    server: { mode: 'stateless', json: true, build: buildLowLevelServer },
    async run(t) {
      const fetch = t.recorder();
      const a = await t.client({ name: 'stateless-a', fetch });
      const b = await t.client({ name: 'stateless-b', fetch });
      await Promise.all([
        t.step('A lookup_order 1001 (slow)', () => a.callTool({ name: 'lookup_order', arguments: { orderId: '1001', delayMs: 150 } })),
        t.step('A strict_lookup 9999', () => a.callTool({ name: 'strict_lookup', arguments: { orderId: '9999' } })),
        t.step('B lookup_order 1002 (slow)', () => b.callTool({ name: 'lookup_order', arguments: { orderId: '1002', delayMs: 150 } })),
        t.step('B strict_lookup 9999', () => b.callTool({ name: 'strict_lookup', arguments: { orderId: '9999' } })),
      ]);
    },
  },

  /** 7c. Stateless JSON, ONE client, each recorder call separate (separate recordingFetch per client, no conn). */
  'stateless-json-separate-recorders': {
    server: { mode: 'stateless', json: true, build: buildLowLevelServer },
    async run(t) {
      const a = await t.client({ name: 'stateless-a' });
      const b = await t.client({ name: 'stateless-b' });
      await Promise.all([
        t.step('A strict_lookup 9999', () => a.callTool({ name: 'strict_lookup', arguments: { orderId: '9999', delayMs: 100 } })),
        t.step('B strict_lookup 9999', () => b.callTool({ name: 'strict_lookup', arguments: { orderId: '9999', delayMs: 100 } })),
      ]);
      await sleep(250);
      await t.step('B strict_lookup 9999 again', () => b.callTool({ name: 'strict_lookup', arguments: { orderId: '9999' } }));
    },
  },

  /**
   * Extra: the client times out at 500 ms; the hop is slow to pass on its notifications/cancelled (400 ms), so the
   * tool (600 ms) finishes and its result reaches the client after the caller already got -32001. The app retries at
   * once: the non-idempotent send_invoice runs twice.
   */
  'late-result-after-timeout': {
    fault: (i) => (i.rpcMethod === 'notifications/cancelled' ? { delayMs: 400 } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      const args = { name: 'slow_invoice', arguments: { orderId: '1001', ms: 600 } };
      const first = await t.step('slow_invoice (timeout 500; result arrives at ~600)', () => c.callTool(args, undefined, { timeout: 500 }));
      if (!first.ok) await t.step('slow_invoice (app retry at once)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args, undefined, { timeout: 3000 })));
      await sleep(500);
    },
  },

  /** Extra: stateful server with enableJsonResponse; one call aborted (no response head ever comes), one times out, parallel with successes. */
  'json-mode-abort': {
    server: { json: true },
    async run(t) {
      const c = await t.client();
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 200);
      await Promise.all([
        t.step('P slow_report 10x100 (aborted at 200ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 10, stepMs: 100 } }, undefined, { signal: ac.signal })),
        t.step('P slow_report 6x100 (timeout 300)', () => c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, undefined, { timeout: 300 })),
        t.step('P lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } })),
        t.step('P validate_quantity -1', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -1 } })),
      ]);
      await sleep(1500);
    },
  },

  /** Extra: server-initiated traffic outside calls (standalone GET stream): logging, tools/list_changed, a roots/list request and a ping the client answers by POST; plus a call that logs on its own stream. */
  'server-initiated-get-stream': {
    async run(t) {
      const c = await t.client({ capabilities: { roots: { listChanged: true } }, handlers: { list: [[ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] })]] } });
      await sleep(200);
      const r = await t.step('call logging_tool', () => c.callTool({ name: 'logging_tool', arguments: {} }));
      await sleep(800);
      await t.step('lookup_order after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  /** Extra: many parallel calls (30), distinct args, a few isError, results out of order. */
  'parallel-many': {
    server: { build: buildLowLevelServer },
    async run(t) {
      const c = await t.client();
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          i % 7 === 3
            ? t.step(`validate_quantity ${-i}`, () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -i, delayMs: 100 - i * 3 } }))
            : i % 11 === 5
              ? t.step(`strict_lookup ${i}`, () => c.callTool({ name: 'strict_lookup', arguments: { orderId: String(i), delayMs: 100 - i * 3 } }))
              : t.step(`lookup_order ${i}`, () => c.callTool({ name: 'lookup_order', arguments: { orderId: String(i), delayMs: 100 - i * 3 } })),
        ),
      );
    },
  },

  /** Extra: the CLI recording proxy (`mcp-triage record`) in front of a server, parallel calls and an abort; analyse the proxy file alone. */
  'cli-proxy-parallel': {
    cliProxy: true,
    server: { build: buildLowLevelServer },
    async run(t) {
      const c = await t.client();
      await Promise.all([
        t.step('P lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001', delayMs: 150 } })),
        t.step('P validate_quantity -2', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -2 } })),
        t.step('P strict_lookup 9', () => c.callTool({ name: 'strict_lookup', arguments: { orderId: '9' } })),
        t.step('P lookup_order timeout 50', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '7', delayMs: 300 } }, undefined, { timeout: 50 })),
      ]);
      await sleep(400);
    },
  },

  /** Extra: timeout then an app retry while the first call's tool still runs (1.x does not abort the POST stream). */
  'timeout-then-retry': {
    async run(t) {
      const c = await t.client();
      const args = { name: 'slow_report', arguments: { steps: 4, stepMs: 200 } };
      const first = await t.step('slow_report (timeout 300)', () => c.callTool(args, undefined, { timeout: 300 }));
      if (!first.ok) await t.step('slow_report (app retry, timeout 3000)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args, undefined, { timeout: 3000 })));
      await sleep(300);
    },
  },
};

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
