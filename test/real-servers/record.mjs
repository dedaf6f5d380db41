// Other servers' recorder: real traffic against MCP servers whose Streamable HTTP transport is not the official SDK's (tmcp, @hono/mcp), on 127.0.0.1.
// NOT run by `npm test`: CI does not have these packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/npm-servers && cd /work/npm-servers && npm init -y && npm install tmcp@1.20.0 @tmcp/transport-http@0.9.0 \
//     @tmcp/adapter-zod@0.1.7 @remix-run/node-fetch-server@0.14.2 @hono/mcp@0.3.2 @hono/node-server@2.1.9 hono@4.13.19 \
//     @modelcontextprotocol/sdk@1.32.2 zod@4.6.7
// then, from the repository: npm run build && node test/real-servers/record.mjs [scenario...]   (NPM_SERVERS=dir to move it)
// Writes test/fixtures/real-servers/<scenario>/{client,server}.ndjson and observed.json: what the caller really got.
// The client is the repository's SDK 1.32.2 (recordingFetch: the client's view) and, for tmcp's 2026-07-28 mode, the
// v2 client 2.4.0; the server's view is a recording proxy right in front of the server; a fault hop sits between the
// two where a scenario needs faults. The py-client-* scenarios run the Python SDK 2.3.0 client (py-client.py) from the
// venv at /work/py-venv (PY_VENV=dir), pip-installed with mcp==2.3.0, through a recording proxy (side client).
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { listen, sleep } from '../helpers/loopback.mjs';
import { startFaultHop } from '../real-audit2/lib.mjs';

const NPM = process.env.NPM_SERVERS ?? '/work/npm-servers';
const ROOT = fileURLToPath(new URL('../fixtures/real-servers/', import.meta.url));
const PY = process.env.PY_VENV ?? '/work/py-venv';
const PY_CLIENT = fileURLToPath(new URL('./py-client.py', import.meta.url));
const load = (p) => import(pathToFileURL(join(NPM, 'node_modules', p)).href);
const { McpServer: Tmcp } = await load('tmcp/src/index.js');
const { HttpTransport } = await load('@tmcp/transport-http/src/index.js');
const { ZodJsonSchemaAdapter } = await load('@tmcp/adapter-zod/src/index.js');
const { createRequestListener } = await load('@remix-run/node-fetch-server/dist/index.js');
const { StreamableHTTPTransport } = await load('@hono/mcp/dist/index.mjs');
const { Hono } = await load('hono/dist/index.js');
const { getRequestListener } = await load('@hono/node-server/dist/index.mjs');
const { McpServer: SdkMcpServer } = await load('@modelcontextprotocol/sdk/dist/esm/server/mcp.js');
const { ElicitResultSchema } = await load('@modelcontextprotocol/sdk/dist/esm/types.js');
const { z } = await load('zod/index.js');

setTimeout(() => {
  process.stderr.write('still running after 240 s, giving up\n');
  process.exit(2);
}, 240_000).unref();

// ------------------------------------------------------------------ helpers

function summarize(r) {
  if (!r) return r ?? null;
  if (r.tools) return { tools: r.tools.map((t) => ({ name: t.name, annotations: t.annotations ?? null })) };
  if (r.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 240), isError: r.isError ?? false };
  return r;
}

function describeError(err) {
  const out = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 300) };
  if (err && err.code !== undefined) out.code = err.code;
  return out;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

// ------------------------------------------------------------------ tmcp 1.20 + @tmcp/transport-http 0.9

/** A tmcp server with the tools every scenario uses. `capabilities` as tmcp's options take them. */
function buildTmcp() {
  const server = new Tmcp(
    { name: 'servers-tmcp', version: '1.0.0', description: 'orders' },
    { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: { listChanged: true }, logging: {} } },
  );
  server.tool(
    { name: 'lookup_order', description: 'Look an order up', schema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } },
    async ({ orderId }) => ({ content: [{ type: 'text', text: `order ${orderId}: shipped` }] }),
  );
  server.tool({ name: 'send_invoice', description: 'Send an invoice', schema: z.object({ orderId: z.string() }) }, async ({ orderId }) => ({ content: [{ type: 'text', text: `invoice sent for ${orderId}` }] }));
  server.tool(
    { name: 'validate_quantity', description: 'Check a quantity', schema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } },
    async ({ quantity }) => (quantity > 0 ? { content: [{ type: 'text', text: 'quantity ok' }] } : { content: [{ type: 'text', text: `quantity must be positive, got ${quantity}` }], isError: true }),
  );
  server.tool({ name: 'crash', description: 'Always throws' }, async () => {
    throw new Error('database connection refused');
  });
  server.tool(
    { name: 'slow_report', description: 'A report in steps, with progress', schema: z.object({ steps: z.number(), stepMs: z.number() }), annotations: { readOnlyHint: true } },
    async ({ steps, stepMs }) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        server.progress(i, steps, `step ${i}`);
        if (i === 1) server.log('info', { report: 'started' }, 'reports');
      }
      return { content: [{ type: 'text', text: `report of ${steps} steps` }] };
    },
  );
  server.tool(
    { name: 'confirm_refund', description: 'Refund after the user confirms', schema: z.object({ orderId: z.string() }), replayable: true },
    async ({ orderId }) => {
      const answer = await server.elicitation(`Refund order ${orderId}?`, z.object({ confirm: z.boolean() }));
      return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.confirm ? `refunded ${orderId}` : `refund of ${orderId} not confirmed (${answer.action})` }] };
    },
  );
  server.tool({ name: 'summarize_order', description: 'Asks the client model', schema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    const r = await server.message({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize order ${orderId}` } }], maxTokens: 50 });
    return { content: [{ type: 'text', text: `summary: ${r.content?.text ?? ''}` }] };
  });
  return server;
}

/** tmcp over @tmcp/transport-http, served by @remix-run/node-fetch-server as its README shows; restart() starts over with fresh in-memory sessions on the same port. */
async function startTmcp(options = {}) {
  let transport;
  const fresh = () => {
    transport = new HttpTransport(buildTmcp(), { path: '/mcp', ...options });
  };
  fresh();
  const s = await listen(
    createRequestListener(async (request) => {
      const response = await transport.respond(request);
      return response ?? new Response(null, { status: 404 });
    }),
  );
  return {
    url: s.url,
    async restart() {
      await transport.close();
      fresh();
    },
    close: async () => {
      await transport.close();
      await s.close();
    },
  };
}

// ------------------------------------------------------------------ @hono/mcp 0.3 + the SDK 1.32.2 McpServer

function buildSdkServer() {
  const server = new SdkMcpServer({ name: 'servers-hono', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { description: 'Look an order up', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => ({ content: [{ type: 'text', text: `order ${orderId}: shipped` }] }));
  server.registerTool('send_invoice', { description: 'Send an invoice', inputSchema: { orderId: z.string() } }, async ({ orderId }) => ({ content: [{ type: 'text', text: `invoice sent for ${orderId}` }] }));
  server.registerTool('validate_quantity', { description: 'Check a quantity', inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? { content: [{ type: 'text', text: 'quantity ok' }] } : { content: [{ type: 'text', text: `quantity must be positive, got ${quantity}` }], isError: true },
  );
  server.registerTool('crash', { description: 'Always throws' }, async () => {
    throw new Error('database connection refused');
  });
  server.registerTool('slow_report', { description: 'A report in steps, with progress', inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      const token = extra._meta?.progressToken;
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
    }
    return { content: [{ type: 'text', text: `report of ${steps} steps` }] };
  });
  server.registerTool('confirm_refund', { description: 'Refund after the user confirms', inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: { message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } } }, ElicitResultSchema);
    return { content: [{ type: 'text', text: answer.action === 'accept' && answer.content?.confirm ? `refunded ${orderId}` : `refund of ${orderId} not confirmed (${answer.action})` }] };
  });
  return server;
}

/**
 * A Hono app on @hono/node-server with one StreamableHTTPTransport for the process, as @hono/mcp's README writes it:
 * `app.all('/mcp', …)` connects the McpServer once and hands every request to the transport. `transport` holds the
 * transport's options (`sessionIdGenerator` for a session, `enableJsonResponse`); restart() starts over.
 */
async function startHono(transportOptions = {}) {
  let state;
  const fresh = () => {
    state = { mcp: buildSdkServer(), transport: new StreamableHTTPTransport(transportOptions) };
  };
  fresh();
  const app = new Hono();
  app.all('/mcp', async (c) => {
    const { mcp, transport } = state;
    if (!mcp.isConnected()) await mcp.connect(transport);
    return transport.handleRequest(c);
  });
  const s = await listen(getRequestListener(app.fetch));
  return {
    url: s.url,
    async restart() {
      await state.mcp.close().catch(() => {});
      fresh();
    },
    close: async () => {
      await state.mcp.close().catch(() => {});
      await s.close();
    },
  };
}

const sessions = () => ({ sessionIdGenerator: () => randomUUID() });

// ------------------------------------------------------------------ harness

/**
 * One scenario: the server, a recording proxy right in front of it (side server), an optional fault hop, and SDK
 * clients whose fetch is recordingFetch (side client).
 */
async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, steps: [], notes: [] };
  const server = await spec.server();
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const base = hop ? hop.url : serverView.url;
  const fetches = [];
  const clients = [];
  const t = {
    observed,
    server,
    note: (n) => observed.notes.push(n),
    url: new URL('/mcp', base),
    /** A recordingFetch of the client's view, for raw requests. */
    fetch(conn) {
      const f = recordingFetch({ out: files.client, ...(conn ? { conn } : {}) });
      fetches.push(f);
      return f;
    },
    /** An SDK 1.32.2 client (or the v2 client with `v2: true`), connected. Answers elicitation and sampling when asked to. */
    async sdkClient({ name: clientName = 'servers-app', conn, elicit, sampling, v2 = false, connect = true } = {}) {
      const f = t.fetch(conn);
      const capabilities = { ...(elicit ? { elicitation: v2 ? { form: {} } : {} } : {}), ...(sampling ? { sampling: {} } : {}) };
      const c = v2
        ? new ClientV2({ name: clientName, version: '1.0.0' }, { capabilities, versionNegotiation: { mode: 'auto' } })
        : new Client({ name: clientName, version: '1.0.0' }, { capabilities });
      c.onerror = (e) => observed.notes.push({ client: clientName, onerror: { ...describeError(e), message: describeError(e).message.replace(uuid, '<session>') } });
      if (elicit) {
        const handler = async (req) => {
          observed.notes.push({ client: clientName, elicitation: req.params.message });
          return elicit;
        };
        if (v2) c.setRequestHandler('elicitation/create', handler);
        else c.setRequestHandler(ElicitRequestSchema, handler);
      }
      if (sampling) c.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: 'assistant', model: 'stub-model', content: { type: 'text', text: sampling } }));
      if (!v2) c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => observed.notes.push({ client: clientName, log: n.params }));
      const transport = v2
        ? new TransportV2(t.url, { fetch: f, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } })
        : new StreamableHTTPClientTransport(t.url, { fetch: f, reconnectionOptions: { initialReconnectionDelay: 300, maxReconnectionDelay: 600, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
      clients.push(c);
      c.transportRef = transport;
      if (connect) await c.connect(transport);
      return c;
    },
    async step(label, fn) {
      const t0 = Date.now();
      try {
        const r = await fn();
        observed.steps.push({ step: label, ok: true, got: r instanceof Client || r instanceof ClientV2 ? 'connected' : summarize(r), ms: Date.now() - t0 });
        return r;
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: describeError(err), ms: Date.now() - t0 });
        return undefined;
      }
    },
    /**
     * The Python SDK client (py-client.py) running `scenario`, through a recording proxy (side client); its restart
     * requests restart the server. What it saw goes into observed.
     */
    async python(scenario) {
      const view = await startRecordingProxy({ listen: '127.0.0.1:0', target: base, out: files.client, side: 'client' });
      const child = spawn(join(PY, 'bin/python'), [PY_CLIENT, scenario, `${view.url}/mcp`], { stdio: ['pipe', 'pipe', 'pipe'] });
      const stderr = [];
      createInterface({ input: child.stderr }).on('line', (l) => stderr.length < 40 && stderr.push(l.slice(0, 240)));
      let result;
      for await (const line of createInterface({ input: child.stdout })) {
        const msg = JSON.parse(line);
        if (msg.restart) {
          await server.restart();
          await sleep(200);
          child.stdin.write('restarted\n');
          continue;
        }
        result = msg;
      }
      await view.close();
      Object.assign(observed, { steps: result?.steps ?? [], progress: result?.progress });
      observed.notes.push(...(result?.notes ?? []));
      if (!result) observed.notes.push({ pythonStderr: stderr });
    },
    /** A raw request through recordingFetch: what came back (status, content type, body text). */
    async raw(label, f, init) {
      try {
        const res = await f(t.url, { signal: AbortSignal.timeout(2000), ...init });
        const text = await res.text();
        const got = { status: res.status, contentType: res.headers.get('content-type'), body: text.replace(uuid, '<session>').slice(0, 300) };
        observed.steps.push({ step: label, raw: got });
        return { res, text };
      } catch (err) {
        observed.steps.push({ step: label, raw: { error: describeError(err) } });
        return {};
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
    if (hop) await hop.close();
    await serverView.close();
    await server.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  for (const f of Object.values(files)) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name}\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
const call = (c, name, args, opts) => c.callTool({ name, arguments: args }, undefined, opts);
const rawHeaders = (extra = {}) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra });
const sessionOf = (c) => c.transportRef.sessionId;

// ------------------------------------------------------------------ scenarios

const scenarios = {
  // ---- tmcp 1.20.0 with @tmcp/transport-http 0.9.0, the SDK 1.32.2 client
  'tmcp-baseline': {
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      t.note({ negotiated: c.getServerVersion(), protocolVersion: c.transportRef.protocolVersion });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('validate_quantity 5', () => call(c, 'validate_quantity', { quantity: 5 }));
      await t.step('ping', () => c.ping());
    },
  },

  'tmcp-errors': {
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('validate_quantity -3 (the tool returns isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('lookup_order with a number (invalid arguments)', () => call(c, 'lookup_order', { orderId: 1001 }));
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await sleep(300);
      await t.step('crash again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'crash', {})));
    },
  },

  'tmcp-503-app-retry': {
    server: () => startTmcp(),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(1100);
      await t.step('send_invoice 1001 again (the app retries after 1.1 s, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
    },
  },

  'tmcp-server-restart': {
    // tmcp keeps no list of sessions it issued: after a restart the old Mcp-Session-Id is taken as it is
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1', elicit: { action: 'accept', content: { confirm: true } } });
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('confirm_refund 1001 (elicitation)', () => call(c, 'confirm_refund', { orderId: '1001' }));
      const before = sessionOf(c);
      await t.server.restart();
      t.note('server restarted: a new McpServer and HttpTransport, every in-memory session forgotten');
      await sleep(200);
      await t.step('lookup_order 1002 (old session id, after the restart)', () => call(c, 'lookup_order', { orderId: '1002' }));
      await t.step('confirm_refund 1002 (elicitation, after the restart)', () => call(c, 'confirm_refund', { orderId: '1002' }));
      t.note({ sameSessionAfterRestart: sessionOf(c) === before });
    },
  },

  'tmcp-delete-then-call': {
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      const before = sessionOf(c);
      await t.step('terminateSession (DELETE)', () => c.transportRef.terminateSession());
      await t.step('lookup_order 1002 after DELETE', () => call(c, 'lookup_order', { orderId: '1002' }));
      const after = sessionOf(c);
      t.note({ sessionAfterDelete: after === undefined ? 'none' : after === before ? 'same' : 'new, minted on the tools/call response' });
      // the old session id, sent again by hand after its DELETE
      const f = t.fetch('raw');
      await t.raw('tools/call with the deleted session id', f, {
        method: 'POST',
        headers: rawHeaders({ 'mcp-session-id': before, 'mcp-protocol-version': '2025-06-18' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1003' } } }),
      });
    },
  },

  'tmcp-progress-log': {
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      const seen = [];
      await t.step('slow_report 4x80 with progress (and a log message)', () => call(c, 'slow_report', { steps: 4, stepMs: 80 }, { onprogress: (p) => seen.push(p.progress) }));
      await t.step('slow_report 2x50 without a progress token', () => call(c, 'slow_report', { steps: 2, stepMs: 50 }));
      t.note({ progressSeen: seen });
    },
  },

  'tmcp-elicitation-sampling': {
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1', elicit: { action: 'accept', content: { confirm: true } }, sampling: 'two widgets, shipped' });
      await t.step('confirm_refund 1001 (elicitation/create on the call stream)', () => call(c, 'confirm_refund', { orderId: '1001' }));
      await t.step('summarize_order 1001 (sampling/createMessage on the call stream)', () => call(c, 'summarize_order', { orderId: '1001' }));
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'tmcp-sse-cut': {
    server: () => startTmcp(),
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 2 } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 6x100 with progress, stream cut after 2 events, timeout 1.5 s', () => call(c, 'slow_report', { steps: 6, stepMs: 100 }, { onprogress: () => {}, timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'tmcp-timeout-cancel': {
    // the client gives up after 300 ms and sends notifications/cancelled; tmcp only cancels subscriptions with it
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 8x100, client timeout 300 ms', () => call(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
      await sleep(1200);
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'tmcp-raw-requests': {
    // what the transport answers to requests the SDK client would not send: a batch, a wrong Content-Type, a second GET stream, a GET without a session
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await sleep(200);
      const sid = sessionOf(c);
      const f = t.fetch('raw');
      const h = rawHeaders({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' });
      await t.raw('batch of two tools/call', f, {
        method: 'POST',
        headers: h,
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 101, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1001' } } },
          { jsonrpc: '2.0', id: 102, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1002' } } },
        ]),
      });
      await t.raw('tools/call as text/plain', f, { method: 'POST', headers: { ...h, 'content-type': 'text/plain' }, body: JSON.stringify({ jsonrpc: '2.0', id: 103, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1003' } } }) });
      await t.raw('tools/call with a broken JSON body', f, { method: 'POST', headers: h, body: '{"jsonrpc":"2.0","id":104,"method":"tools/call",' });
      await t.raw('a second GET stream for the session (the SDK client holds one)', f, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' } });
      await t.raw('tools/call without a session id and without initialize', f, { method: 'POST', headers: rawHeaders({ 'mcp-protocol-version': '2025-06-18' }), body: JSON.stringify({ jsonrpc: '2.0', id: 105, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1005' } } }) });
      await t.step('lookup_order 1006 by the SDK client after', () => call(c, 'lookup_order', { orderId: '1006' }));
    },
  },

  'tmcp-per-request-v2': {
    // the v2 client 2.4.0 with versionNegotiation auto: tmcp answers server/discover and serves 2026-07-28 per request
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v2', v2: true });
      t.note({ negotiated: c.getNegotiatedProtocolVersion?.() ?? null });
      // the v2 client does not send what the server did not announce: a raw 2026-07-28 request for a method tmcp lacks
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'servers-app', version: '1.0.0' } };
      await t.raw('resources/list by hand (tmcp has no resources)', t.fetch('app-v2'), {
        method: 'POST',
        headers: rawHeaders({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/list' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 'raw-1', method: 'resources/list', params: { _meta: meta } }),
      });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('validate_quantity -3 (isError)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('crash (the tool throws)', () => c.callTool({ name: 'crash', arguments: {} }));
    },
  },

  'tmcp-per-request-header-mismatch': {
    // a proxy rewrites Mcp-Name on the first call: tmcp refuses it with 400 HeaderMismatch, the v2 client sends it again
    server: () => startTmcp(),
    fault: (i) => {
      if (isCall(i) && i.n === 1) i.req.headers['mcp-name'] = 'send_invoice';
      return undefined;
    },
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v2', v2: true });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001 (Mcp-Name rewritten by the hop on the first send)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'tmcp-per-request-mrtr': {
    // 2026-07-28: the elicitation comes back as an input_required result; the v2 client asks its handler and calls again
    server: () => startTmcp(),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-v2', v2: true, elicit: { action: 'accept', content: { confirm: true } } });
      await t.step('confirm_refund 1001 (MRTR)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1001' } }));
      await t.step('lookup_order 1001 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  // ---- the Python SDK 2.3.0 client (py-client.py), through a recording proxy
  'py-client-tmcp-legacy': {
    server: () => startTmcp(),
    run: (t) => t.python('py-client-tmcp-legacy'),
  },

  'py-client-tmcp-auto': {
    // mode auto: the Python client probes server/discover, and tmcp serves it 2026-07-28
    server: () => startTmcp(),
    run: (t) => t.python('py-client-tmcp-auto'),
  },

  'py-client-hono-restart': {
    server: () => startHono(sessions()),
    run: (t) => t.python('py-client-hono-restart'),
  },

  // ---- @hono/mcp 0.3.2 (StreamableHTTPTransport) with the SDK 1.32.2 McpServer, on @hono/node-server 2.1.9
  'hono-baseline': {
    server: () => startHono(sessions()),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.step('validate_quantity -3 (the tool returns isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('crash (the tool throws)', () => call(c, 'crash', {}));
      await t.step('no_such_tool', () => call(c, 'no_such_tool', {}));
      await t.step('lookup_order with a number (invalid arguments)', () => call(c, 'lookup_order', { orderId: 1001 }));
      await t.step('ping', () => c.ping());
    },
  },

  'hono-restart-not-initialized': {
    // the process restarts; its one transport has not seen an initialize, so the old session gets 400 "Server not initialized"
    server: () => startHono(sessions()),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers-app', conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('send_invoice 1001', () => call(c, 'send_invoice', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: a new McpServer and StreamableHTTPTransport');
      await sleep(200);
      await t.step('send_invoice 1002 (old session)', () => call(c, 'send_invoice', { orderId: '1002' }));
      await c.close();
      const c2 = await t.sdkClient({ name: 'servers-app', conn: 'app-2' });
      await t.step('send_invoice 1002 again in a new session (the app reconnected)', () => call(c2, 'send_invoice', { orderId: '1002' }));
    },
  },

  'hono-restart-other-client-first': {
    // after the restart another client initializes first: the old session now gets 404 "Session not found" (-32001),
    // and its client's new initialize is refused, since the process holds one session
    server: () => startHono(sessions()),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha-1' });
      await t.step('alpha lookup_order 1001', () => call(a, 'lookup_order', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: a new McpServer and StreamableHTTPTransport');
      await sleep(200);
      const b = await t.sdkClient({ name: 'agent-beta', conn: 'beta' });
      await t.step('beta lookup_order 2001 (the first session after the restart)', () => call(b, 'lookup_order', { orderId: '2001' }));
      await t.step('alpha lookup_order 1002 (old session)', () => call(a, 'lookup_order', { orderId: '1002' }));
      await a.close();
      const again = await t.step('alpha reconnects (initialize)', () => t.sdkClient({ name: 'agent-alpha', conn: 'alpha-2' }));
      if (again) await t.step('alpha lookup_order 1002 again', () => call(again, 'lookup_order', { orderId: '1002' }));
    },
  },

  'hono-second-client-refused': {
    // one transport for the process with a session id generator: one session per process, a second client is refused
    server: () => startHono(sessions()),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha' });
      await t.step('alpha lookup_order 1001', () => call(a, 'lookup_order', { orderId: '1001' }));
      const b = await t.step('beta connects (initialize)', () => t.sdkClient({ name: 'agent-beta', conn: 'beta' }));
      if (b) await t.step('beta lookup_order 1002', () => call(b, 'lookup_order', { orderId: '1002' }));
      await t.step('alpha lookup_order 1003 after', () => call(a, 'lookup_order', { orderId: '1003' }));
    },
  },

  'hono-protocol-version-404': {
    // a proxy rewrites MCP-Protocol-Version on one call; Hono answers an unsupported version with 404, not 400
    server: () => startHono(sessions()),
    fault: (i) => {
      if (isCall(i, 'send_invoice') && i.n === 1) i.req.headers['mcp-protocol-version'] = '2099-01-01';
      return undefined;
    },
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('send_invoice 1001 (MCP-Protocol-Version rewritten to 2099-01-01 by the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(300);
      await t.step('send_invoice 1001 again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
    },
  },

  'hono-progress-elicitation': {
    server: () => startHono(sessions()),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1', elicit: { action: 'accept', content: { confirm: true } } });
      const seen = [];
      await t.step('slow_report 4x80 with progress', () => call(c, 'slow_report', { steps: 4, stepMs: 80 }, { onprogress: (p) => seen.push(p.progress) }));
      await t.step('confirm_refund 1001 (elicitation/create on the call stream)', () => call(c, 'confirm_refund', { orderId: '1001' }));
      t.note({ progressSeen: seen });
    },
  },

  'hono-sse-cut': {
    server: () => startHono(sessions()),
    fault: (i) => (isCall(i, 'slow_report') ? { cutAfterEvents: 2 } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 6x100 with progress, stream cut after 2 events, timeout 1.5 s', () => call(c, 'slow_report', { steps: 6, stepMs: 100 }, { onprogress: () => {}, timeout: 1500 }));
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'hono-timeout-cancel': {
    // the client gives up after 300 ms and sends notifications/cancelled; the SDK server aborts the handler
    server: () => startHono(sessions()),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('slow_report 8x100, client timeout 300 ms', () => call(c, 'slow_report', { steps: 8, stepMs: 100 }, { timeout: 300 }));
      await sleep(1200);
      await t.step('lookup_order 1001 after', () => call(c, 'lookup_order', { orderId: '1001' }));
    },
  },

  'hono-json-response': {
    server: () => startHono({ ...sessions(), enableJsonResponse: true }),
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.sdkClient({ conn: 'app-1' });
      await t.step('tools/list', () => c.listTools());
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      await t.step('validate_quantity -3 (isError)', () => call(c, 'validate_quantity', { quantity: -3 }));
      await t.step('send_invoice 1001 (503 from the hop)', () => call(c, 'send_invoice', { orderId: '1001' }));
      await sleep(400);
      await t.step('send_invoice 1001 again (the app retries, noted)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => call(c, 'send_invoice', { orderId: '1001' })));
      const f = t.fetch('raw');
      await t.raw('batch of two tools/call', f, {
        method: 'POST',
        headers: rawHeaders({ 'mcp-session-id': sessionOf(c), 'mcp-protocol-version': '2025-11-25' }),
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 101, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1101' } } },
          { jsonrpc: '2.0', id: 102, method: 'tools/call', params: { name: 'validate_quantity', arguments: { quantity: 0 } } },
        ]),
      });
    },
  },

  'hono-shared-transport-two-clients': {
    // @hono/mcp's README verbatim: one transport, no session id generator, one McpServer for every client. Two
    // clients count their ids alike; the transport maps a response to a stream by id alone.
    server: () => startHono({}),
    async run(t) {
      const a = await t.sdkClient({ name: 'agent-alpha', conn: 'alpha' });
      const b = await t.step('beta connects (initialize)', () => t.sdkClient({ name: 'agent-beta', conn: 'beta' }));
      await t.step('alpha tools/list', () => a.listTools());
      if (b) await t.step('beta tools/list', () => b.listTools());
      await Promise.all([
        t.step('alpha slow_report 3x100 (id 2)', () => call(a, 'slow_report', { steps: 3, stepMs: 100 }, { timeout: 2000 })),
        sleep(30).then(() => b && t.step('beta lookup_order 2002 (id 2, sent while alpha\'s runs)', () => call(b, 'lookup_order', { orderId: '2002' }, { timeout: 2000 }))),
      ]);
    },
  },

  'hono-delete-then-call': {
    server: () => startHono(sessions()),
    async run(t) {
      const c = await t.sdkClient({ name: 'servers-app', conn: 'app-1' });
      await t.step('lookup_order 1001', () => call(c, 'lookup_order', { orderId: '1001' }));
      const before = sessionOf(c);
      await t.step('terminateSession (DELETE)', () => c.transportRef.terminateSession());
      await t.step('lookup_order 1002 after DELETE (no session id now)', () => call(c, 'lookup_order', { orderId: '1002' }));
      const f = t.fetch('raw');
      await t.raw('tools/call with the deleted session id', f, {
        method: 'POST',
        headers: rawHeaders({ 'mcp-session-id': before, 'mcp-protocol-version': '2025-11-25' }),
        body: JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'lookup_order', arguments: { orderId: '1003' } } }),
      });
      await c.close();
      await t.step('a new client connects after the DELETE', () => t.sdkClient({ name: 'servers-app', conn: 'app-2' }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
