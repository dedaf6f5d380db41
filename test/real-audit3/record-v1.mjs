// Third audit round, SDK 1.32.2 on both ends (127.0.0.1). Usage: node test/real-audit3/record-v1.mjs [scenario...]
// Writes test/fixtures/real-audit3/<scenario>/{client,server,proxy}.ndjson and observed.json (what the SDK caller saw).
// `node record-v1.mjs --serve OUT PORT` runs only the server (a child process the recorder can SIGKILL).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  ElicitResultSchema,
  CreateMessageResultSchema,
  ListRootsResultSchema,
  EmptyResultSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
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
  randomUUID,
} from './lib.mjs';
import { handleStateless } from '../helpers/loopback.mjs';

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const UNICODE = 'Zürich → 東京 🚚📦 «ok» مرحبا \u202eevil\u202c tab\tnl\nbell\u0007 esc\u001b[31mred\u001b[0m nul\u0000 ls\u2028ps\u2029 lone\ud800';

// ---------------------------------------------------------------- server

function buildMcpServer(hooks = {}) {
  const server = new McpServer(
    { name: 'audit3-server', version: '1.0.0' },
    { capabilities: { logging: {}, resources: { subscribe: true }, prompts: {}, completions: {} } },
  );
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string(), note: z.string().optional() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('slow_report', { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    hooks.onSlowStart?.(extra);
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (extra.signal.aborted) return text('report cancelled');
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
    }
    return text(`report ready after ${steps} steps`);
  });
  // elicitation on the call's stream; the server waits `timeoutMs` for the client's answer
  server.registerTool('confirm_refund', { inputSchema: { orderId: z.string(), timeoutMs: z.number().optional() } }, async ({ orderId, timeoutMs }, extra) => {
    const answer = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
      },
      ElicitResultSchema,
      { timeout: timeoutMs ?? 10_000 },
    );
    if (answer.action === 'accept') return text(`refund for ${orderId}: ${answer.content?.confirm ? 'done' : 'not confirmed'}`);
    if (answer.action === 'decline') return text(`refund for ${orderId} declined by the user`);
    return { ...text(`refund for ${orderId} cancelled by the user`), isError: true };
  });
  server.registerTool('summarize_with_model', { inputSchema: { topic: z.string() }, annotations: { readOnlyHint: true } }, async ({ topic }, extra) => {
    const r = await extra.sendRequest(
      { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}` } }], maxTokens: 50 } },
      CreateMessageResultSchema,
      { timeout: 5000 },
    );
    return text(`summary: ${r.content.text}`);
  });
  server.registerTool('list_client_roots', { inputSchema: {}, annotations: { readOnlyHint: true } }, async (_a, extra) => {
    const r = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema, { timeout: 5000 });
    return text(`roots: ${r.roots.map((x) => x.uri).join(', ')}`);
  });
  server.registerTool('ping_client', { inputSchema: {}, annotations: { readOnlyHint: true } }, async (_a, extra) => {
    await extra.sendRequest({ method: 'ping' }, EmptyResultSchema, { timeout: 5000 });
    return text('client answered ping');
  });
  server.registerTool('import_orders', { inputSchema: { count: z.number() } }, async ({ count }, extra) => {
    for (let i = 1; i <= count; i++) {
      await extra.sendNotification({ method: 'notifications/message', params: { level: i === count ? 'warning' : 'info', logger: 'import', data: { imported: i, of: count } } });
      await sleep(20);
    }
    hooks.onImported?.(extra);
    return text(`imported ${count} orders`);
  });
  server.registerTool(
    'check_stock',
    { inputSchema: { sku: z.string() }, outputSchema: { sku: z.string(), available: z.number() }, annotations: { readOnlyHint: true } },
    async ({ sku }) => {
      if (sku === 'gone') return { ...text(`sku ${sku} is discontinued`), structuredContent: { error: 'discontinued', sku }, isError: true };
      if (sku === 'err-plain') return { ...text(`warehouse for ${sku} unreachable`), isError: true };
      return { ...text(`${sku}: 4`), structuredContent: { sku, available: 4 } };
    },
  );
  server.registerTool('echo_text', { inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text: t }) => text(t));
  server.registerTool('fail_with_text', { inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text: t }) => ({ ...text(t), isError: true }));
  server.registerTool('big_result', { inputSchema: { kb: z.number() }, annotations: { readOnlyHint: true } }, async ({ kb }) => {
    const line = 'order-line ' + 'x'.repeat(1013) + '\n';
    return text(line.repeat(kb));
  });
  server.registerTool('upload_orders', { inputSchema: { blob: z.string() } }, async ({ blob }) => text(`uploaded ${blob.length} bytes`));

  server.registerPrompt(
    'order_summary',
    { description: 'summarize an order', argsSchema: { orderId: completable(z.string(), (v) => ['1001', '1002', '2001'].filter((x) => x.startsWith(v))) } },
    async ({ orderId }) => {
      if (orderId === 'boom') throw new Error('prompt backend unavailable');
      return { messages: [{ role: 'user', content: { type: 'text', text: `Summarize order ${orderId}` } }] };
    },
  );
  server.registerResource(
    'order',
    new ResourceTemplate('orders://{orderId}', { list: undefined, complete: { orderId: (v) => ['1001', '1002'].filter((x) => x.startsWith(v)) } }),
    { mimeType: 'application/json' },
    async (uri, { orderId }) => {
      if (orderId === 'boom') throw new Error('order store timed out');
      if (orderId === 'missing') throw new McpError(-32002, `Resource not found: ${uri.href}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ orderId, status: 'shipped' }) }] };
    },
  );
  server.registerResource('status', 'status://shop', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'open' }] }));
  server.server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
    hooks.onSubscribe?.(req.params.uri, extra);
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async () => ({}));
  hooks.onServer?.(server);
  return server;
}

/**
 * Stateful: the SDK example's session map, body parsed before the transport (so its size limit does not apply).
 * raw: stateless, the transport reads the body itself (its 406/415/413 checks and maxRequestBodySize apply).
 * refuseGetDelete: a server that answers 405 to GET and DELETE on /mcp (no standalone stream, no session end).
 */
async function startServer({ out, mode = 'stateful', json = false, eventStore, refuseGetDelete = false, maxRequestBodySize, hooks = {}, port = 0 }) {
  const transports = new Map();
  const servers = [];
  const handler = async (req, res) => {
    try {
      if (refuseGetDelete && (req.method === 'GET' || req.method === 'DELETE')) {
        res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }));
        return;
      }
      if (mode === 'raw') {
        await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: () => buildMcpServer(hooks), options: { enableJsonResponse: json, ...(maxRequestBodySize ? { maxRequestBodySize } : {}) } });
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
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: json,
          onsessioninitialized: (id) => transports.set(id, transport),
          ...(eventStore ? { eventStore, retryInterval: 100 } : {}),
        });
        transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
        const mcp = buildMcpServer(hooks);
        servers.push(mcp);
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
    transports,
    servers,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- child-process server (SIGKILL scenarios)

if (process.argv[2] === '--serve') {
  const [out, port] = process.argv.slice(3);
  const s = await startServer({ out, port: Number(port) });
  process.stdout.write(`${s.port}\n`);
  await new Promise(() => {});
}

async function spawnServer(out, port = 0) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve', out, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const got = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
  return { child, port: got, url: `http://127.0.0.1:${got}`, kill: () => new Promise((r) => { child.once('exit', r); process.kill(child.pid, 'SIGKILL'); }) };
}

// ---------------------------------------------------------------- harness

async function runScenario(name, spec) {
  const { dir, files } = scenarioFiles(name);
  const { observed, step, note } = makeObserver();
  const hooks = {};
  const mcp = spec.child ? null : await startServer({ out: files.server, hooks, ...spec.server });
  const upstream = spec.child ? await spec.child(files) : mcp.url;
  const proxyRef = {};
  const hop = spec.fault ? await startFaultHop(upstream, (i) => spec.fault({ ...i, proxyUrl: proxyRef.url })) : null;
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop ? hop.url : upstream, out: files.proxy });
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
    async client({ name: clientName = 'audit3-client', fetch, recorderOpts, capabilities = {}, handlers = {}, transportOptions = {}, connect = true } = {}) {
      const client = new Client({ name: clientName, version: '1.0.0' }, { capabilities });
      client.onerror = (e) => observed.onerror.push({ client: clientName, at: Date.now(), ...describeError(e) });
      if (handlers.elicit) client.setRequestHandler(ElicitRequestSchema, handlers.elicit);
      if (handlers.sample) client.setRequestHandler(CreateMessageRequestSchema, handlers.sample);
      if (handlers.roots) client.setRequestHandler(ListRootsRequestSchema, handlers.roots);
      const f = fetch ?? ctx.recorder(recorderOpts);
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.url), {
        fetch: f,
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 2 },
        ...transportOptions,
      });
      clients.push(client);
      if (connect) await client.connect(transport);
      return Object.assign(client, { _t: transport });
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
    if (mcp) await mcp.close();
    await spec.cleanup?.();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  writeObserved(dir, observed);
  if (spec.gzip) {
    // results of many MB: kept gzipped (mcp-triage reads gzip by its bytes)
    for (const f of Object.values(files)) {
      writeFileSync(`${f}.gz`, gzipSync(readFileSync(f), { level: 9 }));
      rmSync(f);
    }
  }
  process.stderr.write(`recorded ${name}\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
const elicitCaps = { elicitation: { form: {} } };

// ---------------------------------------------------------------- scenarios

const scenarios = {
  // ---- server-to-client requests during a tool call
  'elicitation-decline-cancel': {
    async run(t) {
      const answers = [{ action: 'accept', content: { confirm: true } }, { action: 'decline' }, { action: 'cancel' }];
      const c = await t.client({ capabilities: elicitCaps, handlers: { elicit: async () => answers.shift() } });
      await t.step('confirm_refund 1001 (accepted)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1001' } }));
      await t.step('confirm_refund 1002 (declined)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1002' } }));
      await t.step('confirm_refund 1003 (cancelled in the dialog)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1003' } }));
    },
  },

  'elicitation-never-answered': {
    // the client's elicitation handler never returns; the server gives up after 400 ms (its request timeout)
    async run(t) {
      const c = await t.client({ capabilities: elicitCaps, handlers: { elicit: () => new Promise(() => {}) } });
      await t.step('confirm_refund 1001 (server waits 400 ms for the answer)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1001', timeoutMs: 400 } }));
      await t.step('lookup_order 1001 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'elicitation-answered-late': {
    // the client answers after 700 ms; the server stopped waiting at 300 ms, the tool already failed
    async run(t) {
      const c = await t.client({ capabilities: elicitCaps, handlers: { elicit: async () => (await sleep(700), { action: 'accept', content: { confirm: true } }) } });
      await t.step('confirm_refund 1001 (answer comes after the server gave up)', () => c.callTool({ name: 'confirm_refund', arguments: { orderId: '1001', timeoutMs: 300 } }));
      await sleep(800);
      await t.step('lookup_order 1001 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'sampling-roots-ping': {
    async run(t) {
      const c = await t.client({
        capabilities: { sampling: {}, roots: { listChanged: true } },
        handlers: {
          sample: async () => ({ role: 'assistant', model: 'fake-model', content: { type: 'text', text: 'all good' } }),
          roots: async () => ({ roots: [{ uri: 'file:///srv/orders', name: 'orders' }] }),
        },
      });
      await t.step('ping (client to server)', () => c.ping());
      await t.step('summarize_with_model (sampling/createMessage on the call stream)', () => c.callTool({ name: 'summarize_with_model', arguments: { topic: 'orders' } }));
      await t.step('list_client_roots (roots/list on the call stream)', () => c.callTool({ name: 'list_client_roots', arguments: {} }));
      await t.step('ping_client (server pings the client during a call)', () => c.callTool({ name: 'ping_client', arguments: {} }));
      const s = t.hooks.server;
      await t.step('server pings the client outside a call (GET stream)', () => s.server.ping());
    },
  },

  'sampling-roots-unsupported': {
    // the client declares no sampling and no roots: the client answers the server's requests with -32601
    async run(t) {
      const c = await t.client();
      await t.step('summarize_with_model (client has no sampling)', () => c.callTool({ name: 'summarize_with_model', arguments: { topic: 'orders' } }));
      await t.step('list_client_roots (client has no roots)', () => c.callTool({ name: 'list_client_roots', arguments: {} }));
    },
  },

  'logging-resource-updated': {
    async run(t) {
      const got = [];
      const c = await t.client();
      c.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema, (n) => got.push({ log: n.params.data }));
      c.setNotificationHandler((await import('@modelcontextprotocol/sdk/types.js')).ResourceUpdatedNotificationSchema, (n) => got.push({ updated: n.params.uri }));
      await t.step('logging/setLevel info', () => c.setLoggingLevel('info'));
      await t.step('resources/subscribe orders://1001', () => c.subscribeResource({ uri: 'orders://1001' }));
      await sleep(200);
      await t.step('import_orders 3 (logging/message on the call stream)', () => c.callTool({ name: 'import_orders', arguments: { count: 3 } }));
      const s = t.hooks.server;
      await s.server.sendResourceUpdated({ uri: 'orders://1001' });
      await s.server.sendLoggingMessage({ level: 'error', logger: 'store', data: 'order store reconnected' });
      await sleep(200);
      await t.step('resources/read orders://1001 after the update', () => c.readResource({ uri: 'orders://1001' }));
      t.note({ notificationsSeen: got });
    },
  },

  // ---- other methods than tools/call, failing in each layer
  'prompts-resources-completion': {
    async run(t) {
      const c = await t.client();
      await t.step('prompts/list', () => c.listPrompts());
      await t.step('prompts/get order_summary 1001', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: '1001' } }));
      await t.step('prompts/get unknown prompt', () => c.getPrompt({ name: 'no_such_prompt', arguments: {} }));
      await t.step('prompts/get without its required argument', () => c.getPrompt({ name: 'order_summary', arguments: {} }));
      await t.step('prompts/get whose handler throws', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: 'boom' } }));
      await t.step('resources/read orders://1001', () => c.readResource({ uri: 'orders://1001' }));
      await t.step('resources/read unknown scheme', () => c.readResource({ uri: 'nowhere://x' }));
      await t.step('resources/read orders://missing (-32002)', () => c.readResource({ uri: 'orders://missing' }));
      await t.step('resources/read orders://boom (handler throws)', () => c.readResource({ uri: 'orders://boom' }));
      await t.step('completion/complete prompt arg', () => c.complete({ ref: { type: 'ref/prompt', name: 'order_summary' }, argument: { name: 'orderId', value: '10' } }));
      await t.step('completion/complete unknown prompt', () => c.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'orderId', value: '1' } }));
      await t.step('completion/complete resource template', () => c.complete({ ref: { type: 'ref/resource', uri: 'orders://{orderId}' }, argument: { name: 'orderId', value: '1' } }));
    },
  },

  'non-tool-http-faults': {
    // the hop fails resources/read, prompts/get and completion/complete at the HTTP and stream layers
    fault: (i) => {
      if (i.rpcMethod === 'resources/read' && i.n === 1) return { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' };
      if (i.rpcMethod === 'prompts/get' && i.n === 1) return { destroy: true };
      if (i.rpcMethod === 'completion/complete' && i.n === 1) return { respond: 502, headers: { 'content-type': 'text/html' }, body: '<html><head><title>502 Bad Gateway</title></head><body>bad gateway</body></html>' };
      if (i.rpcMethod === 'resources/read' && i.n === 2) return { cutAfterEvents: 0 };
      return undefined;
    },
    async run(t) {
      const c = await t.client();
      const read = await t.step('resources/read orders://1001 (503)', () => c.readResource({ uri: 'orders://1001' }));
      if (!read.ok) {
        await sleep(1000);
        await t.step('resources/read orders://1001 again after 1 s (noted app retry; stream cut before the result)', () =>
          withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.readResource({ uri: 'orders://1001' }, { timeout: 800 })),
        );
      }
      await t.step('prompts/get (connection destroyed)', () => c.getPrompt({ name: 'order_summary', arguments: { orderId: '1001' } }));
      await t.step('completion/complete (502 HTML)', () => c.complete({ ref: { type: 'ref/prompt', name: 'order_summary' }, argument: { name: 'orderId', value: '10' } }));
      await t.step('resources/read orders://1002 (ok)', () => c.readResource({ uri: 'orders://1002' }));
    },
  },

  // ---- tool results
  'tool-error-structured': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('check_stock A1 (structuredContent ok)', () => c.callTool({ name: 'check_stock', arguments: { sku: 'A1' } }));
      await t.step('check_stock gone (isError with structuredContent off-schema)', () => c.callTool({ name: 'check_stock', arguments: { sku: 'gone' } }));
      await t.step('check_stock err-plain (isError, no structuredContent)', () => c.callTool({ name: 'check_stock', arguments: { sku: 'err-plain' } }));
    },
  },

  'unicode-control-results': {
    async run(t) {
      const c = await t.client();
      await t.step('echo_text with emoji, bidi and control characters', () => c.callTool({ name: 'echo_text', arguments: { text: UNICODE } }));
      await t.step('fail_with_text with ANSI escapes (isError)', () => c.callTool({ name: 'fail_with_text', arguments: { text: `\u001b[2J\u001b[1;1Hdisk full \u{1F4A5} at /srv/\u202etxt.exe` } }));
      await t.step('unknown tool named with ANSI and emoji', () => c.callTool({ name: 'no_such_tool_\u001b[31m\u{1F525}', arguments: {} }));
    },
  },

  'big-result': {
    gzip: true,
    // results of 3 MiB and 12 MiB on the SSE stream (the fixture keeps the logs gzipped: they compress to a few KB)
    async run(t) {
      const c = await t.client();
      await t.step('big_result 3 MiB', () => c.callTool({ name: 'big_result', arguments: { kb: 3 * 1024 } }));
      await t.step('big_result 12 MiB', () => c.callTool({ name: 'big_result', arguments: { kb: 12 * 1024 } }));
      await t.step('lookup_order after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    },
  },

  'unknown-tool-invalid-params': {
    async run(t) {
      const c = await t.client();
      await t.step('unknown tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('send_invoice with a number for orderId (invalid params)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: 1001 } }));
      await t.step('send_invoice again with the same invalid params (app retry, noted)', () =>
        withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'send_invoice', arguments: { orderId: 1001 } })),
      );
      await t.step('unknown method (raw request)', () => c.request({ method: 'orders/export', params: {} }, EmptyResultSchema));
    },
  },

  // ---- clients and connections
  'two-clients-one-session': {
    // a second Client adopts the first one's session id (sessionId option: no initialize) and both call at once
    async run(t) {
      const a = await t.client({ name: 'agent-a', recorderOpts: { conn: 'a' } });
      const sid = a._t.sessionId;
      t.note({ session: sid });
      const b = await t.client({ name: 'agent-b', recorderOpts: { conn: 'b' }, transportOptions: { sessionId: sid } });
      await Promise.all([
        t.step('a: slow_report 3x100 (id 1)', () => a.callTool({ name: 'slow_report', arguments: { steps: 3, stepMs: 100 } }, undefined, { timeout: 2000 })),
        t.step('b: lookup_order 1001 (id 0, same session)', () => b.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, { timeout: 2000 })),
        (async () => {
          await sleep(20);
          return t.step('b: send_invoice 77 (id 1 again, while a\'s id 1 is open)', () => b.callTool({ name: 'send_invoice', arguments: { orderId: '77' } }, undefined, { timeout: 2000 }));
        })(),
      ]);
    },
  },

  'client-close-in-flight': {
    async run(t) {
      const c = await t.client();
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      const p = t.step('slow_report 6x100 (client.close() at 150 ms)', () => c.callTool({ name: 'slow_report', arguments: { steps: 6, stepMs: 100 } }, undefined, { onprogress: () => {} }));
      await sleep(150);
      t.note({ closedAt: Date.now() });
      await c.close();
      await p;
      await sleep(800);
    },
  },

  'server-killed-mid-stream': {
    // the server process is SIGKILLed while a call streams progress; a new process comes up on the same port and
    // the app reconnects with a new Client and calls again
    child: async (files) => {
      const first = await spawnServer(files.server);
      scenarios['server-killed-mid-stream'].proc = first;
      return first.url;
    },
    cleanup: async () => {
      const s = scenarios['server-killed-mid-stream'];
      for (const p of [s.proc, s.proc2]) if (p && p.child.exitCode === null && p.child.signalCode === null) await p.kill();
    },
    async run(t) {
      const s = scenarios['server-killed-mid-stream'];
      const c = await t.client({ recorderOpts: { client: 'killed-app@1.0.0' } });
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      const p = t.step('slow_report 8x100 (server SIGKILLed at 350 ms), timeout 1500', () =>
        c.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, undefined, { timeout: 1500, onprogress: () => {} }),
      );
      await sleep(350);
      t.note({ killedAt: Date.now() });
      await s.proc.kill();
      await p;
      s.proc2 = await spawnServer(t.files.server, s.proc.port);
      await sleep(300);
      await c.close().catch(() => {});
      const c2 = await t.client({ recorderOpts: { client: 'killed-app@1.0.0' } });
      await t.step('slow_report 2x50 from a new Client (app retry, no note)', () => c2.callTool({ name: 'slow_report', arguments: { steps: 8, stepMs: 100 } }, undefined, { timeout: 3000 }));
    },
  },

  'get-delete-405': {
    server: { refuseGetDelete: true },
    async run(t) {
      const c = await t.client();
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('terminateSession (DELETE: 405)', () => c._t.terminateSession());
      await t.step('lookup_order 1002 after the refused DELETE', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    },
  },

  'refusals-406-415-413': {
    // stateless server whose transport reads the body itself (64 KiB limit); the hop rewrites Accept / Content-Type
    server: { mode: 'raw', json: true, maxRequestBodySize: 65536 },
    fault: (i) => {
      if (isCall(i, 'lookup_order') && i.rpc.params.arguments.orderId === 'accept') {
        i.req.headers.accept = 'application/json';
        return {};
      }
      if (isCall(i, 'lookup_order') && i.rpc.params.arguments.orderId === 'ctype') {
        i.req.headers['content-type'] = 'text/plain';
        return {};
      }
      return undefined;
    },
    async run(t) {
      const c = await t.client();
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('lookup_order (hop rewrites Accept: 406)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'accept' } }));
      await t.step('lookup_order (hop rewrites Content-Type: 415)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'ctype' } }));
      await t.step('upload_orders 100 KiB (413 from the SDK)', () => c.callTool({ name: 'upload_orders', arguments: { blob: 'o'.repeat(100 * 1024) } }));
    },
  },

  'protocol-version-mismatch': {
    // after initialize, a hop rewrites MCP-Protocol-Version on one call; the app retries it (noted)
    fault: (i) => {
      if (isCall(i, 'send_invoice') && i.n === 1) {
        i.req.headers['mcp-protocol-version'] = '2099-01-01';
        return {};
      }
      return undefined;
    },
    async run(t) {
      const c = await t.client();
      const r = await t.step('send_invoice 1001 (header rewritten: 400)', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }));
      if (!r.ok) await t.step('send_invoice 1001 again (noted app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } })));
    },
  },
};

if (process.argv[2] !== "--serve") stopAfter(300_000);
// hooks.server: the latest McpServer built (its low-level Server sends the pings and notifications)
const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  const run = spec.run;
  spec.run = async (t) => {
    t.hooks.onServer = (s) => (t.hooks.server = s);
    await run(t);
  };
  await runScenario(name, spec);
}
process.exit(0);
