// Records real MCP traffic (official SDK client <-> official SDK server on 127.0.0.1) for every fault scenario,
// through mcp-triage's own capture: recordingFetch on the client, recordingHandler on the server, the recording proxy
// in between, and a small fault-injecting hop between the proxy and the server.
//   client --recordingFetch--> proxy (records) --> fault hop --> server (recordingHandler) --> SDK transport
// Output: test/fixtures/real/<scenario>.{client,server,proxy}.ndjson and test/real/observed.json (what the SDK
// caller saw: results, thrown errors, onerror reports). Run with: npm run fixtures (tsc first, this imports dist/).
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { CallToolRequestSchema, ElicitRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { describeError, handleStateless, listen, readBody, recordScenarios, recordStep, sleep, startFaultHop } from '../helpers/loopback.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, '..', 'fixtures', 'real');
const OBSERVED = join(here, 'observed.json');
const SAMPLES = join(here, '..', '..', 'samples', 'real');
/** Representative recordings copied to samples/real/ (client and server side of each). */
const SAMPLE_SCENARIOS = ['http-503-app-retry', 'sse-cut-no-resume', 'sse-resumed-last-event-id'];
const CLIENT_ID = 'triage-fixture-client@1.0.0';
/** Client-side timeout for calls that are expected to hang (the SDK default is 60 s). */
const SHORT_TIMEOUT_MS = 1200;

// ---------------------------------------------------------------- MCP servers (fixed tool outputs)

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The high-level server: three annotated/unannotated tools plus tools for the fault scenarios. */
function buildMcpServer() {
  const server = new McpServer({ name: 'triage-fixture-server', version: '1.0.0' });
  server.registerTool(
    'lookup_order',
    { description: 'Look up an order by id', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } },
    async ({ orderId }) => text(`order ${orderId}: shipped`),
  );
  server.registerTool(
    'set_shipping_address',
    {
      description: 'Replace the shipping address of an order',
      inputSchema: { orderId: z.string(), address: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ orderId }) => text(`address of order ${orderId} updated`),
  );
  server.registerTool(
    'send_invoice',
    { description: 'Email the invoice of an order', inputSchema: { orderId: z.string() } },
    async ({ orderId }) => text(`invoice for order ${orderId} sent`),
  );
  server.registerTool(
    'validate_quantity',
    { description: 'Check an order quantity', inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } },
    async ({ quantity }) =>
      quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool(
    'slow_report',
    { description: 'Build a report (takes a moment)', inputSchema: { delayMs: z.number() }, annotations: { readOnlyHint: true } },
    async ({ delayMs }, extra) => {
      await sleep(delayMs);
      if (extra.signal.aborted) return text('report cancelled');
      return text('report ready');
    },
  );
  server.registerTool(
    'export_archive',
    { description: 'Long job that closes its SSE stream and finishes later', inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => {
      await sleep(50);
      // Polling mode (SEP-1699): close the POST's SSE stream; the client resumes on GET with Last-Event-ID.
      extra.closeSSEStream?.();
      await sleep(400);
      return text('archive exported: 3 files');
    },
  );
  server.registerTool(
    'approve_refund',
    { description: 'Refund an order after asking the user', inputSchema: { orderId: z.string() } },
    async ({ orderId }, extra) => {
      // relatedRequestId routes elicitation/create onto this call's SSE stream (not the standalone GET stream).
      const answer = await server.server.elicitInput(
        { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } },
        { relatedRequestId: extra.requestId },
      );
      return answer.action === 'accept' ? text(`refund of order ${orderId} approved: ${answer.content.reason}`) : { ...text(`refund ${answer.action}`), isError: true };
    },
  );
  return server;
}

/** The low-level server: tools/call failures become real JSON-RPC errors (McpServer would turn them into isError). */
function buildLowLevelServer() {
  const server = new Server({ name: 'triage-fixture-lowlevel', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'lookup_order', description: 'Look up an order by id', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] }, annotations: { readOnlyHint: true } },
      {
        name: 'order_totals',
        description: 'Totals of an order (declares an outputSchema, but this server forgets structuredContent)',
        inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const orderId = request.params.arguments?.orderId;
    if (request.params.name === 'order_totals') return text('total: 42.50');
    if (orderId !== '1001') throw new McpError(ErrorCode.InvalidParams, `unknown order id ${JSON.stringify(orderId)}`, { field: 'orderId' });
    return text('order 1001: shipped');
  });
  return server;
}

/**
 * Start an SDK server behind recordingHandler. Stateful mode keeps one transport per session (SDK example recipe)
 * and passes the parsed body; stateless mode makes a server + transport per request and lets it read the body.
 */
async function startMcpServer({ out, mode = 'stateful', lowLevel = false, eventStore = false, json = false }) {
  const build = lowLevel ? buildLowLevelServer : buildMcpServer;
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      if (!req.url?.startsWith('/mcp')) {
        res.writeHead(404).end();
        return;
      }
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
          ...(eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 100 } : {}),
          onsessioninitialized: (id) => transports.set(id, transport),
        });
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
  const s = await listen(recordingHandler(handler, { out }));
  return {
    ...s,
    /** Forget every session, as a restarted server would. */
    async expireSessions() {
      const all = [...transports.values()];
      transports.clear();
      for (const t of all) await t.close();
    },
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- scenario harness

/** Runs one scenario with fresh servers, proxy and files; returns what the SDK caller observed. */
async function runScenario(name, spec) {
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((side) => [side, join(FIXTURES, `${name}.${side}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const mcp = await startMcpServer({ out: files.server, ...spec.server });
  let proxyUrl = '';
  const hop = await startFaultHop(mcp.url, (info) => spec.fault?.({ ...info, proxyUrl }));
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop.url, out: files.proxy });
  proxyUrl = proxy.url;
  const observed = { steps: [], onerror: [] };
  const fetches = [];
  const ctx = {
    mcp,
    proxyUrl,
    observed,
    /** A recording fetch on the client file (one per logical client instance when `conn` is given). */
    recorder(conn) {
      const f = recordingFetch({ out: files.client, client: CLIENT_ID, ...(conn ? { conn } : {}) });
      fetches.push(f);
      return f;
    },
    /** A connected SDK client whose fetch records; `transportOptions` extend StreamableHTTPClientTransport's. */
    async client({ conn, fetch, transportOptions = {}, onElicit } = {}) {
      const client = new Client({ name: 'triage-fixture-client', version: '1.0.0' }, onElicit ? { capabilities: { elicitation: { form: {} } } } : {});
      if (onElicit) client.setRequestHandler(ElicitRequestSchema, onElicit);
      client.onerror = (e) => observed.onerror.push(describeError(e));
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxyUrl), {
        fetch: fetch ?? ctx.recorder(conn),
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
        ...transportOptions,
      });
      await client.connect(transport);
      return client;
    },
    /** Run one call, note what came back or what was thrown. */
    step: (label, fn) => recordStep(observed.steps, label, fn),
  };
  const clients = [];
  const track = ctx.client;
  ctx.client = async (o) => {
    const c = await track(o);
    clients.push(c);
    return c;
  };
  try {
    await spec.run(ctx);
  } finally {
    await sleep(150);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await proxy.close();
    await hop.close();
    await mcp.close();
    for (const f of fetches) await f.close();
  }
  for (const e of observed.onerror) e.message = e.message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<session>');
  return observed;
}

const isToolCall = ({ rpcMethod }) => rpcMethod === 'tools/call';

// ---------------------------------------------------------------- scenarios

const scenarios = {
  /** initialize, tools/list (readOnly, idempotent and unannotated tools), one call of each: all succeed. */
  baseline: {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('call set_shipping_address', () => c.callTool({ name: 'set_shipping_address', arguments: { orderId: '1001', address: '1 Main St' } }));
      await t.step('call send_invoice', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
    },
  },

  /** The tool answers with isError: true (a tool-level failure inside a successful JSON-RPC response). */
  'tool-error': {
    async run(t) {
      const c = await t.client();
      await t.step('call validate_quantity (-3)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
    },
  },

  /** The low-level Server throws McpError(InvalidParams): a real JSON-RPC error on tools/call, HTTP 200. */
  'jsonrpc-error': {
    server: { lowLevel: true },
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order (unknown id)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '9999' } }));
    },
  },

  /** The hop answers the first tools/call with 503; the application retries the same call (new JSON-RPC id). */
  'http-503-app-retry': {
    fault: (i) => (isToolCall(i) && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.client();
      const args = { name: 'lookup_order', arguments: { orderId: '1001' } };
      const first = await t.step('call lookup_order (attempt 1)', () => withCallNote({ retryOrigin: 'none', attempt: 1 }, () => c.callTool(args)));
      if (!first.ok) await t.step('call lookup_order (attempt 2, app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args)));
    },
  },

  /** 429 with Retry-After: 1; the application reads the header itself (the SDK error does not carry it) and waits. */
  'http-429-retry-after-honoured': {
    fault: (i) => (isToolCall(i) && i.n === 1 ? { respond: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'rate limited' } : undefined),
    async run(t) {
      let retryAfter = null;
      const recorder = t.recorder();
      const rememberRetryAfter = async (url, init) => {
        const res = await recorder(url, init);
        retryAfter = res.headers.get('retry-after');
        return res;
      };
      const c = await t.client({ fetch: rememberRetryAfter });
      const args = { name: 'lookup_order', arguments: { orderId: '1001' } };
      const first = await t.step('call lookup_order (attempt 1)', () => c.callTool(args));
      if (!first.ok) {
        await sleep(Number(retryAfter ?? '1') * 1000);
        await t.step(`call lookup_order (attempt 2 after Retry-After ${retryAfter}s)`, () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args)));
      }
    },
  },

  /** 429 with Retry-After: 1, and the application retries at once (the second attempt still succeeds here). */
  'http-429-retry-after-ignored': {
    fault: (i) => (isToolCall(i) && i.n === 1 ? { respond: 429, headers: { 'retry-after': '1', 'content-type': 'text/plain' }, body: 'rate limited' } : undefined),
    async run(t) {
      const c = await t.client();
      const args = { name: 'lookup_order', arguments: { orderId: '1001' } };
      const first = await t.step('call lookup_order (attempt 1)', () => c.callTool(args));
      if (!first.ok) await t.step('call lookup_order (attempt 2, immediately)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args)));
    },
  },

  /**
   * The hop forwards the SSE head of tools/call, then ends the body before the result (no event ids, so no resume).
   * The SDK client waits for its timeout, then POSTs notifications/cancelled.
   */
  'sse-cut-no-resume': {
    fault: (i) => (isToolCall(i) ? { cut: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call slow_report', () => c.callTool({ name: 'slow_report', arguments: { delayMs: 300 } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /** The server (eventStore + retryInterval) closes the POST's SSE stream early; the client resumes with GET + Last-Event-ID. */
  'sse-resumed-last-event-id': {
    server: { eventStore: true },
    async run(t) {
      const c = await t.client();
      await t.step('call export_archive', () => c.callTool({ name: 'export_archive', arguments: {} }, undefined, { timeout: 5000 }));
    },
  },

  /** The server forgets the session (restart); tools/call gets 404; the application re-initializes and retries. */
  'session-expired-404-reinit': {
    async run(t) {
      const fetch = t.recorder();
      const c = await t.client({ fetch });
      await t.step('call lookup_order (before expiry)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.mcp.expireSessions();
      await sleep(50);
      const args = { name: 'lookup_order', arguments: { orderId: '1002' } };
      const failed = await t.step('call lookup_order (expired session)', () => c.callTool(args));
      if (!failed.ok) {
        await c.close();
        const fresh = await t.client({ fetch });
        await t.step('call lookup_order (new session, app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => fresh.callTool(args)));
      }
    },
  },

  /** JSON-response server; the hop truncates the tools/call response body by two bytes (malformed JSON). */
  'malformed-json-body': {
    server: { json: true },
    fault: (i) => (isToolCall(i) ? { corrupt: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /**
   * A 503 from the hop carries someone else's Mcp-Session-Id header: the SDK client adopts it anyway (it reads the
   * header before looking at the status), so the application's retry goes out on that session and gets 404.
   */
  'session-id-adopted-from-error': {
    fault: (i) =>
      isToolCall(i) && i.n === 1
        ? { respond: 503, headers: { 'content-type': 'text/plain', 'mcp-session-id': 'session-of-another-client' }, body: 'upstream unavailable' }
        : undefined,
    async run(t) {
      const c = await t.client();
      const args = { name: 'lookup_order', arguments: { orderId: '1001' } };
      const first = await t.step('call lookup_order (attempt 1)', () => c.callTool(args));
      if (!first.ok) await t.step('call lookup_order (attempt 2, app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args)));
    },
  },

  /** The hop changes the id of the tools/call response (id 1 -> 1001); the client cannot match it and times out. */
  'wrong-response-id': {
    fault: (i) => (isToolCall(i) ? { rewriteId: [i.rpc.id, 1000 + i.rpc.id] } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /** The hop destroys the connection of tools/call: no HTTP response at all. */
  'socket-destroyed': {
    fault: (i) => (isToolCall(i) ? { destroy: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /** The hop answers tools/call with 202 Accepted and no body, as if it were a notification. */
  'accepted-202-for-request': {
    fault: (i) => (isToolCall(i) ? { respond: 202 } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /** The hop corrupts the JSON inside the SSE event of the tools/call result; the client reports it and times out. */
  'malformed-sse-event': {
    fault: (i) => (isToolCall(i) ? { corruptSse: true } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: SHORT_TIMEOUT_MS }));
    },
  },

  /**
   * The server asks the user through elicitation/create on the call's SSE stream (server->client request id 0);
   * the client answers with a POST carrying a JSON-RPC response with id 0 (202), then the call completes.
   */
  'elicitation-roundtrip': {
    async run(t) {
      const c = await t.client({ onElicit: async () => ({ action: 'accept', content: { reason: 'damaged in transit' } }) });
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1001' } }));
    },
  },

  /**
   * The tool declares an outputSchema and returns no structuredContent: the wire shows a normal result, but the
   * SDK client raises McpError(InvalidRequest) locally. Nothing on the wire says the caller got an error.
   */
  'client-output-schema-rejected': {
    server: { lowLevel: true },
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call order_totals', () => c.callTool({ name: 'order_totals', arguments: { orderId: '1001' } }));
    },
  },

  /** Stateless server (no Mcp-Session-Id): two Client instances reuse ids 0, 1, 2; GET answers 405. */
  'stateless-ids-reused': {
    server: { mode: 'stateless' },
    async run(t) {
      const a = await t.client({ conn: 'client-a' });
      await t.step('A tools/list', () => a.listTools());
      await t.step('A call lookup_order', () => a.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      const b = await t.client({ conn: 'client-b' });
      await t.step('B tools/list', () => b.listTools());
      await t.step('B call send_invoice', () => b.callTool({ name: 'send_invoice', arguments: { orderId: '2002' } }));
    },
  },

  /**
   * 401 on tools/call with an OAuth client-credentials authProvider: the SDK discovers metadata, fetches a token
   * (all through the proxy) and re-POSTs the same message with the same JSON-RPC id.
   */
  'auth-401-same-id-retry': {
    fault(i) {
      const base = i.proxyUrl;
      if (i.path === '/.well-known/oauth-protected-resource/mcp' || i.path === '/.well-known/oauth-protected-resource') {
        return { respond: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [base] }) };
      }
      if (i.path === '/.well-known/oauth-authorization-server') {
        return {
          respond: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ issuer: base, authorization_endpoint: `${base}/authorize`, token_endpoint: `${base}/token`, response_types_supported: ['code'], grant_types_supported: ['client_credentials'] }),
        };
      }
      if (i.path === '/token') {
        return { respond: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ access_token: 'fixture-access-token-2', token_type: 'Bearer', expires_in: 3600 }) };
      }
      if (i.path.startsWith('/.well-known/')) return { respond: 404 };
      if (isToolCall(i) && i.n === 1) {
        return {
          respond: 401,
          headers: { 'content-type': 'application/json', 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
          body: JSON.stringify({ error: 'invalid_token', error_description: 'token expired' }),
        };
      }
      return undefined;
    },
    async run(t) {
      const provider = new ClientCredentialsProvider({ clientId: 'fixture-client', clientSecret: 'fixture-client-secret', expectedIssuer: t.proxyUrl });
      provider.saveTokens({ access_token: 'fixture-access-token-1', token_type: 'Bearer' });
      const c = await t.client({ transportOptions: { authProvider: provider } });
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },
};

// ---------------------------------------------------------------- main

const { ms } = await recordScenarios(scenarios, runScenario, { fixtures: FIXTURES, observed: OBSERVED });
mkdirSync(SAMPLES, { recursive: true });
for (const name of SAMPLE_SCENARIOS) {
  for (const side of ['client', 'server']) copyFileSync(join(FIXTURES, `${name}.${side}.ndjson`), join(SAMPLES, `${name}.${side}.ndjson`));
}
process.stderr.write(`all scenarios recorded in ${ms} ms\n`);
