// Agent frameworks' MCP clients recorder: real traffic of LangChain's @langchain/mcp-adapters, OpenAI's @openai/agents-core and mcp-use against the SDK 1.32.2 server, on 127.0.0.1.
// NOT run by `npm test`: CI does not have these packages. They live in a scratch folder outside the repository:
//   mkdir -p /work/npm-agents && cd /work/npm-agents && npm init -y && npm install @langchain/mcp-adapters@1.1.4 \
//     @langchain/core@1.4.0 @langchain/langgraph@1.7.3 @openai/agents-core@0.20.0 zod@4 mcp-use@1.34.6
// then, from the repository: npm run build && node test/real-agents/record.mjs [scenario...]   (NPM_AGENTS=dir to move it)
// Writes test/fixtures/real-agents/<scenario>/{client,server}.ndjson and observed.json: what the framework's caller
// really got (results, thrown errors), the framework's own log lines and what the fault hop did.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { listen, restartableServer, sessionHandler, sleep, stopAfter } from '../helpers/loopback.mjs';
import { recordingFetch, startFaultHop, startRecordingProxy } from '../real-audit2/lib.mjs';
import { buildSdkServer } from '../real-bridges/tools.mjs';

const NPM = process.env.NPM_AGENTS ?? '/work/npm-agents';
const ROOT = fileURLToPath(new URL('../fixtures/real-agents/', import.meta.url));
const mod = (p) => import(pathToFileURL(join(NPM, 'node_modules', p)).href);

// The frameworks log through `debug`; their lines go to observed.json, without colours or dates.
process.env.DEBUG_COLORS = 'no';
process.env.DEBUG_HIDE_DATE = 'yes';
const debug = (await mod('debug/src/index.js')).default;
let frameworkLog = [];
// (one line each: an error's stack, with the install folder's paths, is left out)
const logLine = (...args) => format(...args).split('\n')[0].slice(0, 300);
debug.log = (...args) => frameworkLog.push(logLine(...args));
debug.enable('@langchain/mcp-adapters:*');
const { MultiServerMCPClient } = await mod('@langchain/mcp-adapters/dist/index.js');
const { MCPServerStreamableHttp, getAllMcpTools, RunContext } = await mod('@openai/agents-core/dist/index.mjs');
process.env.MCP_USE_ANONYMIZED_TELEMETRY = 'false'; // mcp-use would post events to PostHog
const { MCPClient: McpUseClient } = await mod('mcp-use/dist/src/client.js');

stopAfter(240_000);

// ------------------------------------------------------------------ helpers

function describeError(err) {
  const out = { name: err?.name ?? err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 400) };
  if (err && err.code !== undefined) out.code = err.code;
  if (err && err.status !== undefined) out.status = err.status;
  if (err?.cause) out.cause = { name: err.cause.name, message: String(err.cause.message ?? err.cause).slice(0, 300), ...(err.cause.code !== undefined ? { code: err.cause.code } : {}) };
  return out;
}

function summarize(r) {
  if (r === undefined || r === null) return r ?? null;
  if (typeof r === 'string') return { text: r.slice(0, 200) };
  if (r.connector) return { session: { tools: r.tools?.map((t) => t.name) ?? null } }; // an mcp-use MCPSession
  if (Array.isArray(r)) {
    // LangChain's DynamicStructuredTools, MCP tools, OpenAI's FunctionTools
    if (r.every((t) => t && typeof t === 'object' && typeof t.name === 'string' && ('schema' in t || 'inputSchema' in t || t.type === 'function'))) return { tools: r.map((t) => t.name) };
    // OpenAI's callTool() content, which carries the result's isError as a hidden property
    return { items: r.map((c) => (c?.type === 'text' ? { text: c.text.slice(0, 200) } : c)).slice(0, 5), isError: r.isError === true };
  }
  if (r.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 200), isError: r.isError ?? false };
  return r;
}

/**
 * The SDK 1.32.2 server, stateful, as the SDK's examples write it; with `legacySse` it also serves the deprecated
 * HTTP+SSE transport (GET /sse, POST /messages?sessionId=...) as the SDK's sseAndStreamableHttpCompatibleServer
 * example does. restart() forgets every session and ends every SSE stream, as a restarted process does.
 */
async function startServer({ eventStore = false, legacySse = false } = {}) {
  const { handle, transports } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer: () => buildSdkServer('agents-sdk-server'),
    options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 200 } : {}),
  });
  const sse = new Map();
  const s = await listen(async (req, res) => {
    const path = req.url.split('?')[0];
    if (legacySse && req.method === 'GET' && path === '/sse') {
      const t = new SSEServerTransport('/messages', res);
      sse.set(t.sessionId, t);
      res.on('close', () => sse.delete(t.sessionId));
      await buildSdkServer('agents-sdk-server').connect(t);
      return;
    }
    if (legacySse && req.method === 'POST' && path === '/messages') {
      const t = sse.get(new URL(req.url, 'http://127.0.0.1').searchParams.get('sessionId'));
      if (!t) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
        return;
      }
      await t.handlePostMessage(req, res);
      return;
    }
    await handle(req, res);
  });
  return restartableServer(s, transports, sse);
}

// ------------------------------------------------------------------ harness

/**
 * One scenario: the server, a recording proxy right in front of it (the server's view, side server), an optional
 * fault hop, and the client's view: a recording proxy that LangChain talks to (side client: it takes no fetch), or
 * recordingFetch passed to OpenAI's MCPServerStreamableHttp as its `fetch`.
 */
async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, framework: spec.framework, steps: [], notes: [] };
  frameworkLog = [];
  const server = await startServer(spec.serverOptions);
  const serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.server, side: 'server' });
  const hop = spec.fault ? await startFaultHop(serverView.url, spec.fault) : null;
  const upstream = hop ? hop.url : serverView.url;
  const clientView = await startRecordingProxy({ listen: '127.0.0.1:0', target: upstream, out: files.client, side: 'client' });
  const fetches = [];
  const closers = [];
  const t0 = Date.now();
  // mcp-use logs through console.*: its lines go to observed.json, without its local-time prefix
  const consoleWas = {};
  if (spec.framework === 'mcp-use') {
    for (const level of ['error', 'warn', 'info', 'debug', 'log']) {
      consoleWas[level] = console[level];
      console[level] = (...a) => frameworkLog.push(logLine(...a).replace(/^\d\d:\d\d:\d\d /, ''));
    }
  }
  const t = {
    observed,
    server,
    clientUrl: clientView.url,
    note: (n) => observed.notes.push(n),
    /** LangChain's MultiServerMCPClient with one server, "orders", reached through the client-view proxy. */
    langchain(connection = {}, config = {}) {
      const c = new MultiServerMCPClient({ mcpServers: { orders: { transport: 'http', url: `${clientView.url}/mcp`, ...connection } }, ...config });
      closers.push(() => c.close());
      return c;
    },
    /** OpenAI's MCPServerStreamableHttp; its fetch is recordingFetch (the client-view proxy is not used). */
    openai(options = {}) {
      const f = recordingFetch({ out: files.client });
      fetches.push(f);
      const logger = {
        namespace: 'openai-agents:mcp',
        debug: (...a) => frameworkLog.push(`debug ${logLine(...a)}`),
        warn: (...a) => frameworkLog.push(`warn ${logLine(...a)}`),
        error: (...a) => frameworkLog.push(`error ${logLine(...a)}`),
        dontLogModelData: false,
        dontLogToolData: false,
      };
      const s = new MCPServerStreamableHttp({ url: `${upstream}/mcp`, name: 'orders', fetch: f, logger, ...options });
      closers.push(() => s.close());
      return s;
    },
    /** Leave the clients open at the end (their close() is what the scenario looks at). */
    forget: () => closers.splice(0),
    /** mcp-use's MCPClient with one server, "orders"; its fetch is recordingFetch (the client-view proxy is not used). */
    mcpUse(server = {}) {
      const f = recordingFetch({ out: files.client });
      fetches.push(f);
      const c = new McpUseClient({ mcpServers: { orders: { url: `${upstream}/mcp`, fetch: f, ...server } } });
      closers.push(() => c.closeAllSessions());
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
    for (const c of closers) await c().catch(() => {});
    Object.assign(console, consoleWas);
    await sleep(300);
    await clientView.close();
    if (hop) await hop.close();
    await serverView.close();
    await server.close();
    for (const f of fetches) await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  // (LangChain logs every tool it wraps, and that it finds no LangGraph state on every call outside a graph: left out)
  observed.frameworkLog = frameworkLog.filter((l) => !/Successfully loaded tool:|Found \d+ MCP tools|State can't be derrived/.test(l)).slice(0, 80);
  for (const f of Object.values(files)) appendFileSync(f, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
const tool = (tools, name) => tools.find((x) => x.name === name);

// ------------------------------------------------------------------ scenarios

const scenarios = {
  // ---- LangChain @langchain/mcp-adapters 1.1.4 (its SDK: @modelcontextprotocol/sdk 1.32.2)
  'lc-baseline': {
    framework: 'langchain',
    async run(t) {
      const progress = [];
      const c = t.langchain({}, { onProgress: (p) => progress.push(p) });
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
      await t.step('send_invoice 1001', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      await t.step('validate_quantity 3', () => tool(tools, 'validate_quantity').invoke({ quantity: 3 }));
      await t.step('slow_report 3 steps (onProgress)', () => tool(tools, 'slow_report').invoke({ steps: 3, stepMs: 50 }));
      t.note({ progressSeen: progress.length });
      await t.step('getTools() again (cached: nothing on the wire)', () => c.getTools());
      await t.step('close()', () => c.close());
    },
  },

  'lc-tool-errors': {
    framework: 'langchain',
    async run(t) {
      const c = t.langchain();
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('validate_quantity -3 (isError)', () => tool(tools, 'validate_quantity').invoke({ quantity: -3 }));
      await t.step('crash (the tool throws)', () => tool(tools, 'crash').invoke({}));
      await t.step('lookup_order with a number (LangChain validates first)', () => tool(tools, 'lookup_order').invoke({ orderId: 1001 }));
      const raw = await c.getClient('orders');
      await t.step('getClient().callTool no_such_tool', () => raw.callTool({ name: 'no_such_tool', arguments: {} }));
      await t.step('lookup_order 1002', () => tool(tools, 'lookup_order').invoke({ orderId: '1002' }));
    },
  },

  'lc-http-503': {
    framework: 'langchain',
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : {}),
    async run(t) {
      const c = t.langchain();
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('send_invoice 1001 (hop: 503, Retry-After: 1)', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      await sleep(1100);
      t.note('the app invokes the tool again after 1.1 s (the framework did not)');
      await t.step('send_invoice 1001 again', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
    },
  },

  'lc-initialize-429-no-sse': {
    framework: 'langchain',
    fault: (i) => (i.rpcMethod === 'initialize' && i.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests' }, id: null }) } : {}),
    async run(t) {
      const c = t.langchain();
      await t.step('getTools() (initialize: 429)', () => c.getTools());
      await sleep(1100);
      t.note('the app calls getTools() again after 1.1 s');
      const tools = await t.step('getTools() again', () => c.getTools());
      if (tools) await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
    },
  },

  'lc-initialize-429-sse-fallback': {
    framework: 'langchain',
    serverOptions: { legacySse: true },
    fault: (i) => (i.rpcMethod === 'initialize' && i.path === '/mcp' && i.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests' }, id: null }) } : {}),
    async run(t) {
      const c = t.langchain();
      const tools = await t.step('getTools() (initialize: 429; the server also serves HTTP+SSE at /sse)', () => c.getTools());
      if (tools) await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
      if (tools) await t.step('send_invoice 1001', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
    },
  },

  'lc-sse-transport-restart': {
    framework: 'langchain',
    serverOptions: { legacySse: true },
    async run(t) {
      const c = t.langchain({ transport: 'sse', url: `${t.clientUrl}/sse`, reconnect: { enabled: true, maxAttempts: 2, delayMs: 300 } });
      let tools = await t.step('getTools() (HTTP+SSE, reconnect enabled)', () => c.getTools());
      await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: its SSE streams ended, every session forgotten');
      await sleep(1500);
      await t.step('send_invoice 1001 (a tool from the first getTools())', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      tools = await t.step('getTools() again', () => c.getTools());
      if (tools) await t.step('send_invoice 1001 (a tool from the new getTools())', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      await t.step('close()', () => c.close());
      await sleep(1500);
      t.note('1.5 s after close(): the SSE reconnect handler ran on the close (see frameworkLog); the recorder does not close again');
      t.forget();
    },
  },

  'lc-session-expired': {
    framework: 'langchain',
    async run(t) {
      let c = t.langchain({ reconnect: { enabled: true, maxAttempts: 2, delayMs: 200 } });
      let tools = await t.step('getTools()', () => c.getTools());
      await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await t.step('send_invoice 1001 (old session: 404)', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      await t.step('send_invoice 1001 again (the same client)', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      t.note('the app closes the MultiServerMCPClient and gets the tools again');
      await t.step('close()', () => c.close());
      tools = await t.step('getTools() (new session)', () => c.getTools());
      await t.step('send_invoice 1001 (new session)', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
    },
  },

  'lc-tool-timeout': {
    framework: 'langchain',
    async run(t) {
      const c = t.langchain({}, { defaultToolTimeout: 400 });
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('slow_report 6 x 150 ms (defaultToolTimeout 400)', () => tool(tools, 'slow_report').invoke({ steps: 6, stepMs: 150 }));
      await sleep(800);
      await t.step('lookup_order 1001', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
    },
  },

  'lc-sse-cut-resumed': {
    framework: 'langchain',
    serverOptions: { eventStore: true },
    fault: (i) => (isCall(i, 'slow_report') && i.n === 1 ? { cutAfterEvents: 2 } : {}),
    async run(t) {
      const progress = [];
      const c = t.langchain({ reconnect: { enabled: true, maxAttempts: 2, delayMs: 300 } }, { onProgress: (p) => progress.push(p) });
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('slow_report 4 x 150 ms (stream cut after the priming event and one progress)', () => tool(tools, 'slow_report').invoke({ steps: 4, stepMs: 150 }));
      t.note({ progressSeen: progress.length });
    },
  },

  'lc-sse-cut-timeout': {
    framework: 'langchain',
    fault: (i) => (isCall(i, 'slow_report') && i.n === 1 ? { cutAfterEvents: 1 } : {}),
    async run(t) {
      const progress = [];
      const c = t.langchain({ reconnect: { enabled: true, maxAttempts: 2, delayMs: 300 } }, { defaultToolTimeout: 1500, onProgress: (p) => progress.push(p) });
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('slow_report 4 x 150 ms (stream cut after one progress, no event ids)', () => tool(tools, 'slow_report').invoke({ steps: 4, stepMs: 150 }));
      t.note({ progressSeen: progress.length });
    },
  },

  'lc-socket-destroyed': {
    framework: 'langchain',
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { destroy: true } : {}),
    async run(t) {
      const c = t.langchain();
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('send_invoice 1001 (hop destroys the socket)', () => tool(tools, 'send_invoice').invoke({ orderId: '1001' }));
      await t.step('lookup_order 1001 (same client)', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
    },
  },

  'lc-fork-headers': {
    framework: 'langchain',
    async run(t) {
      let n = 0;
      const c = t.langchain({}, { beforeToolCall: () => ({ headers: { 'x-request-id': `req-${++n}` } }) });
      const tools = await t.step('getTools()', () => c.getTools());
      await t.step('lookup_order 1001 (beforeToolCall adds a header)', () => tool(tools, 'lookup_order').invoke({ orderId: '1001' }));
      await t.step('lookup_order 1002 (beforeToolCall adds another)', () => tool(tools, 'lookup_order').invoke({ orderId: '1002' }));
      await t.step('close()', () => c.close());
    },
  },

  // ---- OpenAI @openai/agents-core 0.20.0 (its SDK: the v2 client, @modelcontextprotocol/client 2.4.0)
  'oa-baseline': {
    framework: 'openai',
    async run(t) {
      const s = t.openai({ cacheToolsList: true });
      await t.step('connect()', () => s.connect());
      t.note({ sessionId: s.sessionId ? 'set' : 'none' });
      await t.step('listTools()', () => s.listTools());
      await t.step('listTools() again (cacheToolsList: nothing on the wire)', () => s.listTools());
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.step('callTool send_invoice 1001', () => s.callTool('send_invoice', { orderId: '1001' }));
      await t.step('callToolResult validate_quantity -3 (isError)', () => s.callToolResult('validate_quantity', { quantity: -3 }));
      await t.step('invalidateToolsCache(), listTools()', async () => {
        await s.invalidateToolsCache();
        return s.listTools();
      });
      await t.step('close()', () => s.close());
    },
  },

  'oa-errors': {
    framework: 'openai',
    async run(t) {
      const s = t.openai();
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      await t.step('callTool no_such_tool', () => s.callTool('no_such_tool', {}));
      await t.step('callTool lookup_order with a number', () => s.callTool('lookup_order', { orderId: 1001 }));
      await t.step('callToolResult crash (the tool throws)', () => s.callToolResult('crash', {}));
      await t.step('callTool lookup_order 1002', () => s.callTool('lookup_order', { orderId: '1002' }));
      await t.step('close()', () => s.close());
    },
  },

  'oa-session-expired': {
    framework: 'openai',
    async run(t) {
      const s = t.openai({ cacheToolsList: true });
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await t.step('callTool send_invoice 1001 (old session: 404)', () => s.callTool('send_invoice', { orderId: '1001' }));
      await t.step('callTool send_invoice 1001 again (the same server object)', () => s.callTool('send_invoice', { orderId: '1001' }));
      t.note('the app calls connect() again');
      await t.step('connect() again', () => s.connect());
      await t.step('callTool send_invoice 1001 (new session)', () => s.callTool('send_invoice', { orderId: '1001' }));
      await t.step('close()', () => s.close());
    },
  },

  'oa-timeout': {
    framework: 'openai',
    async run(t) {
      const s = t.openai({ timeout: 400 });
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      await t.step('callTool slow_report 6 x 150 ms (timeout 400)', () => s.callTool('slow_report', { steps: 6, stepMs: 150 }));
      await sleep(800);
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.step('close()', () => s.close());
    },
  },

  'oa-sse-cut-resumed': {
    framework: 'openai',
    serverOptions: { eventStore: true },
    fault: (i) => (isCall(i, 'slow_report') && i.n === 1 ? { cutAfterEvents: 1 } : {}),
    async run(t) {
      const s = t.openai({ reconnectionOptions: { initialReconnectionDelay: 300, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 } });
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      await t.step('callTool slow_report 4 x 150 ms (stream cut after the priming event)', () => s.callTool('slow_report', { steps: 4, stepMs: 150 }));
      await t.step('close()', () => s.close());
    },
  },

  'oa-function-tool-503': {
    framework: 'openai',
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : {}),
    async run(t) {
      const s = t.openai();
      await t.step('connect()', () => s.connect());
      const ctx = new RunContext({});
      const tools = await t.step('getAllMcpTools() (FunctionTools, as an Agent gets them)', () => getAllMcpTools({ mcpServers: [s], runContext: ctx }));
      const send = tools?.find((x) => x.name === 'send_invoice');
      await t.step('send_invoice tool invoke (hop: 503): what the model is given', () => send.invoke(ctx, JSON.stringify({ orderId: '1001' })));
      await sleep(1100);
      t.note('the model would now call the tool again, as the text it got asks; the script does so after 1.1 s');
      await t.step('send_invoice tool invoke again', () => send.invoke(ctx, JSON.stringify({ orderId: '1001' })));
      await t.step('close()', () => s.close());
    },
  },

  'oa-close-during-call': {
    framework: 'openai',
    async run(t) {
      const s = t.openai();
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      const pending = t.step('callTool slow_report 6 x 150 ms', () => s.callTool('slow_report', { steps: 6, stepMs: 150 }));
      await sleep(300);
      t.note('the app closes the MCP server object while the call runs');
      await t.step('close() during the call', () => s.close());
      await pending;
    },
  },

  'oa-socket-destroyed': {
    framework: 'openai',
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { destroy: true } : {}),
    async run(t) {
      const s = t.openai();
      await t.step('connect()', () => s.connect());
      await t.step('listTools()', () => s.listTools());
      await t.step('callTool send_invoice 1001 (hop destroys the socket)', () => s.callTool('send_invoice', { orderId: '1001' }));
      await t.step('callTool lookup_order 1001 (same server object)', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.step('close()', () => s.close());
    },
  },

  // ---- mcp-use 1.34.6 (MCPClient; its own @modelcontextprotocol/sdk 1.26.0)
  'mu-baseline': {
    framework: 'mcp-use',
    async run(t) {
      const c = t.mcpUse();
      const s = await t.step('createSession("orders")', () => c.createSession('orders'));
      t.note({ tools: s?.tools?.map((x) => x.name) ?? null });
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.step('callTool send_invoice 1001', () => s.callTool('send_invoice', { orderId: '1001' }));
      await t.step('callTool validate_quantity -3 (isError)', () => s.callTool('validate_quantity', { quantity: -3 }));
      await t.step('callTool no_such_tool', () => s.callTool('no_such_tool', {}));
      await t.step('closeAllSessions()', () => c.closeAllSessions());
    },
  },

  'mu-initialize-503-sse-fallback': {
    framework: 'mcp-use',
    fault: (i) => (i.rpcMethod === 'initialize' && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : {}),
    async run(t) {
      const c = t.mcpUse();
      await t.step('createSession("orders") (initialize: 503)', () => c.createSession('orders'));
      await sleep(1100);
      t.note('the app creates the session again after 1.1 s');
      const s = await t.step('createSession("orders") again', () => c.createSession('orders'));
      if (s) await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
    },
  },

  'mu-session-expired': {
    framework: 'mcp-use',
    async run(t) {
      const c = t.mcpUse();
      let s = await t.step('createSession("orders")', () => c.createSession('orders'));
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await t.step('callTool send_invoice 1001 (old session: 404)', () => s.callTool('send_invoice', { orderId: '1001' }));
      t.note('the app closes the session and creates it again');
      await t.step('closeSession("orders")', () => c.closeSession('orders'));
      s = await t.step('createSession("orders") (new session)', () => c.createSession('orders'));
      if (s) await t.step('callTool send_invoice 1001 (new session)', () => s.callTool('send_invoice', { orderId: '1001' }));
    },
  },

  'mu-timeout': {
    framework: 'mcp-use',
    async run(t) {
      const c = t.mcpUse();
      const s = await t.step('createSession("orders")', () => c.createSession('orders'));
      await t.step('callTool slow_report 6 x 150 ms ({ timeout: 400 })', () => s.callTool('slow_report', { steps: 6, stepMs: 150 }, { timeout: 400 }));
      await sleep(800);
      await t.step('callTool lookup_order 1001', () => s.callTool('lookup_order', { orderId: '1001' }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
