// Vercel AI SDK recorder: real traffic of @ai-sdk/mcp's own MCP client (createMCPClient, HTTP and SSE transports) against the SDK 1.32.2 server and the v2 2026-07-28 server, on 127.0.0.1.
// NOT run by `npm test`: CI does not have the AI SDK, and mcp-triage does not depend on it. Install it in a scratch
// folder outside the repository:
//   mkdir -p /work/npm-aisdk && cd /work/npm-aisdk && npm init -y && npm install @ai-sdk/mcp@2.0.99
// then, from the repository: npm run build && node test/real-ai-sdk/record.mjs [scenario...]   (NPM_AISDK=dir to move it)
// Writes test/fixtures/real-ai-sdk/<scenario>/{client,server}.ndjson and observed.json (what the AI SDK caller got).
// Client view: recordingFetch passed as the transport's `fetch`; server view: a recording proxy (side server) in front
// of the server; a fault hop between them.
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, createMcpHandler, inputRequired, inputResponse, acceptedContent } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { listen, restartableServer, sessionHandler, sleep, stopAfter } from '../helpers/loopback.mjs';
import { recordingFetch, startRecordingProxy, startFaultHop, withCallNote } from '../real-audit2/lib.mjs';
import { buildSdkServer } from '../real-bridges/tools.mjs';

const NPM = process.env.NPM_AISDK ?? '/work/npm-aisdk';
const ROOT = fileURLToPath(new URL('../fixtures/real-ai-sdk/', import.meta.url));
const { createMCPClient, ElicitationRequestSchema } = await import(pathToFileURL(join(NPM, 'node_modules/@ai-sdk/mcp/dist/index.js')).href);

stopAfter(180_000);

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The bridges' SDK server (lookup_order, send_invoice, validate_quantity, slow_report, confirm_refund, crash) plus two tools of its own. */
function buildServer() {
  const server = buildSdkServer('aisdk-sdk-server');
  // closes the POST's SSE stream early and finishes later (polling mode, SEP-1699): the result goes to the event store
  server.registerTool('export_archive', { inputSchema: {}, annotations: { readOnlyHint: true } }, async (_args, extra) => {
    await sleep(50);
    extra.closeSSEStream?.();
    await sleep(400);
    return text('archive exported: 3 files');
  });
  // asks the client (elicitation/create only) on the call's stream
  server.registerTool('approve_refund', { inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    const answer = await server.server.elicitInput({ message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } }, { relatedRequestId: extra.requestId });
    return text(`refund of ${orderId}: ${answer.action}${answer.content?.confirm ? ' (confirmed)' : ''}`);
  });
  // a prompt and a resource, so that an unknown name gets the server's JSON-RPC error (its unknown tool is an isError result)
  server.registerPrompt('order_summary', { description: 'Summarize an order', argsSchema: { orderId: z.string() } }, ({ orderId }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize order ${orderId}` } }] }));
  server.registerResource('order-1001', 'orders://1001', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'order 1001: shipped' }] }));
  return server;
}

/** The SDK 1.32.2 server over Streamable HTTP at /mcp, stateful as its example; restart() forgets every session. */
async function startHttpServer({ eventStore = false } = {}) {
  const { handle, transports } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer,
    options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 100 } : {}),
  });
  const s = await listen(handle);
  return restartableServer(s, transports);
}

const reasonSchema = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };

/** The v2 SDK 2.4.0 server (createMcpHandler): protocol 2026-07-28, no sessions, input_required (MRTR) instead of server requests. */
async function startModernServer() {
  let seq = 0;
  const handler = createMcpHandler(() => {
    const server = new McpServerV2({ name: 'aisdk-v2-server', version: '1.0.0' });
    server.registerTool('lookup_order', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
    server.registerTool('send_invoice', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => text(`invoice for order ${orderId} sent`));
    server.registerTool('validate_quantity', { inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
      quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
    );
    server.registerTool('slow_report', { inputSchema: z.object({ delayMs: z.number() }), annotations: { readOnlyHint: true } }, async ({ delayMs }, ctx) => {
      await sleep(delayMs);
      return text(ctx.mcpReq.signal.aborted ? 'report cancelled' : 'report ready');
    });
    // MRTR: asks for a reason with an input_required result; the follow-up carries inputResponses and the requestState
    server.registerTool('approve_refund', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'reason');
      if (answer.kind === 'missing') {
        return inputRequired({ inputRequests: { reason: inputRequired.elicit({ message: `Refund order ${orderId}?`, requestedSchema: reasonSchema }) }, requestState: `refund:${orderId}:${++seq}` });
      }
      if (answer.kind === 'elicit' && answer.action === 'accept') return text(`refund of order ${orderId} approved: ${answer.content?.reason}`);
      return { ...text(`refund ${answer.kind === 'elicit' ? answer.action : 'refused'}`), isError: true };
    });
    // MRTR with requestState only (load shedding): the client calls again without answering anything
    server.registerTool('queue_export', { inputSchema: z.object({ name: z.string() }), annotations: { readOnlyHint: true } }, async ({ name }, ctx) =>
      ctx.mcpReq.requestState() ? text(`export ${name} queued`) : inputRequired({ requestState: `later:${name}` }),
    );
    return server;
  }, { keepAliveMs: 0 });
  const node = toNodeHandler(handler);
  const s = await listen(async (req, res) => {
    try {
      await node(req, res);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  return {
    url: s.url,
    async close() {
      await handler.close().catch(() => {});
      await s.close();
    },
  };
}

/** The deprecated 2024-11-05 HTTP+SSE server of the SDK 1.32.2: GET /sse (endpoint event), POST /messages?sessionId=… answered 202. */
async function startSseServer() {
  const transports = new Map();
  const s = await listen(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://x');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const t = new SSEServerTransport('/messages', res);
        transports.set(t.sessionId, t);
        res.on('close', () => transports.delete(t.sessionId));
        await buildServer().connect(t);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const t = transports.get(url.searchParams.get('sessionId'));
        if (!t) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
          return;
        }
        await t.handlePostMessage(req, res);
        return;
      }
      res.writeHead(404).end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  return {
    url: s.url,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

function describeError(err) {
  const out = { name: err?.name ?? err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 400) };
  for (const k of ['code', 'statusCode']) if (err && err[k] !== undefined) out[k] = err[k];
  if (err?.responseBody !== undefined) out.responseBody = String(err.responseBody).slice(0, 200);
  if (err?.cause) out.cause = `${err.cause.name ?? ''}: ${String(err.cause.message ?? err.cause).slice(0, 200)}${err.cause.cause ? ` (${err.cause.cause.code ?? err.cause.cause.message})` : ''}`;
  return out;
}

function summarize(r) {
  if (r == null) return null;
  if (typeof r.callTool === 'function') return { client: true, serverInfo: r.serverInfo, protocolVersion: r.initializeResult?.protocolVersion };
  if (r.tools && Array.isArray(r.tools)) return { tools: r.tools.map((t) => t.name) };
  if (r.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 200), isError: r.isError ?? false };
  if (typeof r === 'object' && !Array.isArray(r)) {
    const keys = Object.keys(r);
    if (keys.length && keys.every((k) => typeof r[k]?.execute === 'function')) return { aiSdkTools: keys };
  }
  return r;
}

// ------------------------------------------------------------------ harness

async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, steps: [], uncaught: [], unhandledRejections: [], notes: [] };
  const t0 = Date.now();
  const server = await spec.server();
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = await startFaultHop(serverView.url, spec.fault ?? (() => undefined));
  const fetches = [];
  const clients = [];
  // The AI SDK's SSE transport leaves a rejected promise behind when its GET stream died (close() cancels the errored
  // reader and never catches it): an application without this handler exits. Recorded, not fatal here.
  const onUnhandled = (e) => observed.unhandledRejections.push({ atMs: Date.now() - t0, error: describeError(e) });
  process.on('unhandledRejection', onUnhandled);
  const t = {
    observed,
    server,
    note: (n) => observed.notes.push(n),
    /** createMCPClient with the transport `type` ('http' or 'sse') on the hop's URL, its fetch recorded. */
    async client({ type = 'http', path = type === 'sse' ? '/sse' : '/mcp', conn = `app-${clients.length + 1}`, ...config } = {}) {
      const f = recordingFetch({ out: files.client, conn });
      fetches.push(f);
      const label = conn;
      const c = await createMCPClient({
        transport: { type, url: hop.url + path, fetch: f },
        onUncaughtError: (e) => observed.uncaught.push({ client: label, atMs: Date.now() - t0, error: describeError(e) }),
        ...config,
      });
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
  };
  try {
    await spec.run(t);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(300);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(200);
    await hop.close();
    await serverView.close();
    await server.close();
    for (const f of fetches) await f.close?.();
  }
  process.off('unhandledRejection', onUnhandled);
  observed.hop = hop.log.filter((l) => l.action.length);
  for (const f of Object.values(files)) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
const call = (c, name, args, options) => c.callTool({ name, arguments: args, ...(options ? { options } : {}) });

// ------------------------------------------------------------------ scenarios

const scenarios = {
  baseline: {
    // discovery probe, initialize, tools() and a call through its execute, direct calls, close (DELETE)
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.step('createMCPClient (http)', () => t.client());
      const tools = await t.step('tools()', () => c.tools());
      await t.step('tools().lookup_order.execute 1001', () => tools.lookup_order.execute({ orderId: '1001' }, { toolCallId: 'call-1', messages: [] }));
      await t.step('callTool send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('listTools', () => c.listTools());
      await t.step('close (DELETE)', () => c.close());
    },
  },

  'tool-error': {
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.client();
      const tools = await t.step('tools()', () => c.tools());
      await t.step('callTool validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('tools().validate_quantity.execute -3 (isError, returned, not thrown)', () => tools.validate_quantity.execute({ quantity: -3 }, { toolCallId: 'call-2', messages: [] }));
      await t.step('callTool crash (the tool throws)', () => call(c, 'crash', {}));
    },
  },

  'jsonrpc-error': {
    // the SDK 1.32.2 McpServer answers an unknown tool and bad arguments with isError results; an unknown prompt or
    // resource with a JSON-RPC error
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.client({ maxRetries: 2 });
      await t.step('callTool no_such_tool (maxRetries 2)', () => call(c, 'no_such_tool', {}));
      await t.step('callTool lookup_order with a number (invalid params)', () => call(c, 'lookup_order', { orderId: 1001 }));
      await t.step('getPrompt no_such_prompt', () => c.getPrompt({ name: 'no_such_prompt', arguments: {} }));
      await t.step('readResource orders://9999', () => c.readResource({ uri: 'orders://9999' }));
      await t.step('getPrompt order_summary 1001', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: '1001' } }));
      await t.step('callTool lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'http-500-jsonrpc-body': {
    // a gateway answers 500 with a JSON-RPC error body: the AI SDK hands the caller the JSON-RPC error (code -32603, no
    // statusCode) and, because the error has a code, maxRetries does not retry it
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 500, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: i.rpc.id, error: { code: -32603, message: 'Internal error: upstream timed out' } }) } : undefined),
    async run(t) {
      const c = await t.client({ maxRetries: 2 });
      await t.step('callTool send_invoice 1001 (500 with a JSON-RPC error body, maxRetries 2)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'http-503-app-retry': {
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('callTool send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(1000);
      await t.step('the app retries after 1 s (withCallNote app, attempt 2)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
    },
  },

  'http-503-sdk-retry': {
    // maxRetries: 2 - the AI SDK retries a tools/call after 408/409/429/5xx itself, after 2 s, then 4 s, with a new id
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'lookup_order') && i.n <= 2 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.client({ maxRetries: 2 });
      await t.step('callTool lookup_order 1001 (503 twice, maxRetries 2)', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'http-429-retry-after': {
    // maxRetries: 1 - the 429 says Retry-After: 3, the AI SDK's retry comes after its own 2 s
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'lookup_order') && i.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '3' }, body: JSON.stringify({ error: 'rate_limited' }) } : undefined),
    async run(t) {
      const c = await t.client({ maxRetries: 1 });
      await t.step('callTool lookup_order 1001 (429 Retry-After: 3, maxRetries 1)', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'session-expired-404': {
    // the server forgets every session; the AI SDK drops its session id on the 404, its next request goes without one
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.client();
      await t.step('callTool lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await sleep(200);
      await t.step('callTool send_invoice 1001 (old session: 404)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('callTool lookup_order 1002 on the same client (no session id now)', () => call(c, 'lookup_order', { orderId: '1002' }));
      await t.step('close the old client', () => c.close());
      const c2 = await t.step('the app creates a new client', () => t.client());
      if (c2) await t.step('the app re-sends send_invoice 1001 (withCallNote app, attempt 2)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c2, 'send_invoice', { orderId: '1001' })));
    },
  },

  'sse-cut-no-resume': {
    // the hop destroys the call's SSE stream 200 ms in, before the result; no event ids, and the AI SDK resumes no POST stream
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterMs: 200 } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('callTool slow_report 6x100 (stream cut at 200 ms), timeout 1500', () => call(c, 'slow_report', { steps: 6, stepMs: 100 }, { timeout: 1500 }));
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'sse-server-close-event-store': {
    // event store on: the server closes the POST stream after its priming event and puts the result in the store; the
    // AI SDK never resumes a POST stream (only its GET stream, with Last-Event-ID)
    server: () => startHttpServer({ eventStore: true }),
    async run(t) {
      const c = await t.client();
      await t.step('callTool export_archive (server closes the stream), timeout 2000', () => call(c, 'export_archive', {}, { timeout: 2000 }));
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'socket-destroyed': {
    server: () => startHttpServer(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { destroy: true } : undefined),
    async run(t) {
      const c = await t.client({ maxRetries: 2 });
      await t.step('callTool send_invoice 1001 (connection destroyed, maxRetries 2)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'timeout-abort': {
    // a request timeout, then an AbortSignal through tools() execute: the fetch is aborted, nothing else is sent
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.client();
      const tools = await t.step('tools()', () => c.tools());
      await t.step('callTool slow_report 10x100, timeout 300', () => call(c, 'slow_report', { steps: 10, stepMs: 100 }, { timeout: 300 }));
      await sleep(1200);
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('user pressed stop')), 300);
      await t.step('tools().slow_report.execute 8x100, aborted after 300 ms', () => tools.slow_report.execute({ steps: 8, stepMs: 100 }, { toolCallId: 'call-3', messages: [], abortSignal: ac.signal }));
      await sleep(1200);
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  elicitation: {
    // the tool asks the user (elicitation/create on the call's stream); the AI SDK POSTs the answer
    server: () => startHttpServer(),
    async run(t) {
      const c = await t.client({ capabilities: { elicitation: {} } });
      c.onElicitationRequest(ElicitationRequestSchema, async (req) => {
        t.note({ elicitation: req.params.message });
        return { action: 'accept', content: { confirm: true } };
      });
      await t.step('callTool approve_refund 1001 (elicitation, accepted)', () => call(c, 'approve_refund', { orderId: '1001' }));
      await t.step('callTool confirm_refund 1001 (elicitation, then roots/list: the AI SDK does not do roots)', () => call(c, 'confirm_refund', { orderId: '1001' }, { timeout: 3000 }));
    },
  },

  // ---- the v2 SDK 2.4.0 server: the probe succeeds and the AI SDK speaks 2026-07-28
  'modern-baseline': {
    server: () => startModernServer(),
    async run(t) {
      const c = await t.step('createMCPClient (http) against a 2026-07-28 server', () => t.client());
      const tools = await t.step('tools()', () => c.tools());
      await t.step('tools().lookup_order.execute 1001', () => tools.lookup_order.execute({ orderId: '1001' }, { toolCallId: 'call-1', messages: [] }));
      await t.step('callTool validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('callTool no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('close', () => c.close());
    },
  },

  'modern-mrtr': {
    // input_required (MRTR): the AI SDK answers form elicitations with its handler and calls again with inputResponses
    server: () => startModernServer(),
    async run(t) {
      const c = await t.client({ capabilities: { elicitation: {} } });
      c.onElicitationRequest(ElicitationRequestSchema, async (req) => {
        t.note({ elicitation: req.params.message });
        return { action: 'accept', content: { reason: 'damaged in transit' } };
      });
      await t.step('callTool approve_refund 1001 (input_required, then the answer)', () => call(c, 'approve_refund', { orderId: '1001' }));
      await t.step('callTool queue_export q3 (requestState only: called again after 250 ms)', () => call(c, 'queue_export', { name: 'q3' }));
    },
  },

  'modern-elicitation-undeclared': {
    // a handler registered without declaring the elicitation capability: the v2 server refuses to ask (400, -32021)
    server: () => startModernServer(),
    async run(t) {
      const c = await t.client();
      c.onElicitationRequest(ElicitationRequestSchema, async () => ({ action: 'accept', content: { reason: 'damaged in transit' } }));
      await t.step('callTool approve_refund 1001 (no elicitation capability declared)', () => call(c, 'approve_refund', { orderId: '1001' }));
    },
  },

  'modern-timeout': {
    // on 2026-07-28 closing the stream is the cancellation: the AI SDK's timeout does just that
    server: () => startModernServer(),
    async run(t) {
      const c = await t.client();
      await t.step('callTool slow_report 1500 ms, timeout 300', () => call(c, 'slow_report', { delayMs: 1500 }, { timeout: 300 }));
      await sleep(1500);
      await t.step('callTool lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'modern-503-sdk-retry': {
    server: () => startModernServer(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.client({ maxRetries: 1 });
      await t.step('callTool send_invoice 1001 (503 once, maxRetries 1)', () => call(c, 'send_invoice', { orderId: '1001' }));
    },
  },

  'sse-transport': {
    // type: 'sse' - the deprecated HTTP+SSE transport: GET /sse, POSTs to the endpoint it names, responses on the GET
    server: () => startSseServer(),
    async run(t) {
      const c = await t.step('createMCPClient (sse)', () => t.client({ type: 'sse' }));
      await t.step('tools()', () => c.tools());
      await t.step('callTool lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('callTool validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('callTool no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('close', () => c.close());
    },
  },

  'sse-transport-stream-cut': {
    // the hop destroys the GET /sse stream 400 ms after it opened, while a call runs: its result has nowhere to go
    server: () => startSseServer(),
    fault: (i) => (i.method === 'GET' && i.path === '/sse' ? { cutAfterMs: 400 } : undefined),
    async run(t) {
      const c = await t.step('createMCPClient (sse)', () => t.client({ type: 'sse' }));
      await t.step('callTool slow_report 5x100, timeout 2000 (the GET stream is cut meanwhile)', () => call(c, 'slow_report', { steps: 5, stepMs: 100 }, { timeout: 2000 }));
      await t.step('callTool lookup_order 1001 after, timeout 1000', () => call(c, 'lookup_order', { orderId: '1001' }, { timeout: 1000 }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
