// Mastra's MCP client recorder: real traffic of @mastra/mcp's MCPClient against the SDK 1.32.2 server, on 127.0.0.1, with a fault hop.
// NOT run by `npm test`: CI does not have the package. It lives in a scratch folder outside the repository:
//   mkdir -p /work/npm-mastra && cd /work/npm-mastra && npm init -y && npm install @mastra/mcp@2.0.0
//   (it pulls @mastra/core 1.71.0 as its peer; npm warns that both want Node >= 22.13, and they ran on Node 20.20.2)
// then, from the repository: npm run build && node test/real-mastra/record.mjs [scenario...]   (NPM_MASTRA=dir to move it)
// Writes test/fixtures/real-mastra/<scenario>/{client,server}.ndjson and observed.json: what the caller of the tool's
// execute() really got (results, thrown errors), Mastra's own log lines (its server `logger` handler) and what the hop did.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { freePort, listen, restartableServer, sessionHandler, sleep, stopAfter } from '../helpers/loopback.mjs';
import { recordingFetch, startFaultHop, startRecordingProxy } from '../real-audit2/lib.mjs';
import { buildSdkServer } from '../real-bridges/tools.mjs';

const NPM = process.env.NPM_MASTRA ?? '/work/npm-mastra';
const ROOT = fileURLToPath(new URL('../fixtures/real-mastra/', import.meta.url));
const { MCPClient } = await import(pathToFileURL(join(NPM, 'node_modules/@mastra/mcp/dist/index.js')).href);

stopAfter(300_000);

// ------------------------------------------------------------------ helpers

function describeError(err) {
  const out = { name: err?.name ?? err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).split('\n')[0].slice(0, 400) };
  if (err && err.id !== undefined) out.id = err.id;
  if (err && err.code !== undefined) out.code = err.code;
  if (err && err.status !== undefined) out.status = err.status;
  if (err?.cause) out.cause = { name: err.cause.name, message: String(err.cause.message ?? err.cause).split('\n')[0].slice(0, 300), ...(err.cause.code !== undefined ? { code: err.cause.code } : {}) };
  return out;
}

function summarize(r) {
  if (r === undefined || r === null) return r ?? null;
  if (typeof r !== 'object') return { value: String(r).slice(0, 200) };
  if (r.content) return { text: r.content.map((c) => c.text).join(' ').slice(0, 200), isError: r.isError ?? false };
  if (r instanceof Error) return { returnedError: describeError(r) };
  const keys = Object.keys(r);
  if (keys.length && keys.every((k) => r[k] && typeof r[k].execute === 'function')) return { tools: keys };
  return JSON.parse(JSON.stringify(r, (k, v) => (typeof v === 'string' ? v.slice(0, 200) : v)));
}

const logLine = (...args) => format(...args).split('\n')[0].replace(/\/work\/[^\s'"]*/g, '<path>').slice(0, 300);

/** The SDK 1.32.2 server, stateful; restart() forgets every session, as a restarted process does. */
async function startServer({ eventStore = false } = {}, port = 0) {
  const { handle, transports } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer: () => buildSdkServer('mastra-sdk-server'),
    options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 200 } : {}),
  });
  const s = await listen((req, res) => handle(req, res), port);
  return restartableServer(s, transports);
}

// ------------------------------------------------------------------ harness

/**
 * One scenario: the server, a recording proxy right in front of it (the server's view), an optional fault hop, and
 * the client's view: recordingFetch passed to Mastra as the server entry's `fetch`.
 */
async function runScenario(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const observed = { scenario: name, client: '@mastra/mcp 2.0.0', steps: [], notes: [] };
  const mastraLog = [];
  const t0 = Date.now();
  // the server entry's URL is fixed before the server exists when the scenario starts with it down
  const port = spec.serverDownAtStart ? await freePort() : 0;
  let server = null;
  let serverView = null;
  let hop = null;
  const upPort = spec.serverDownAtStart ? port : 0;
  const bringUp = async () => {
    server = await startServer(spec.serverOptions);
    const viewTarget = server.url;
    if (spec.fault) {
      serverView = await startRecordingProxy({ listen: '127.0.0.1:0', target: viewTarget, out: files.server, side: 'server' });
      hop = await startFaultHop(serverView.url, spec.fault);
      return hop.url;
    }
    serverView = await startRecordingProxy({ listen: `127.0.0.1:${upPort}`, target: viewTarget, out: files.server, side: 'server' });
    return serverView.url;
  };
  const upstream = spec.serverDownAtStart ? `http://127.0.0.1:${port}` : await bringUp();
  const f = recordingFetch({ out: files.client });
  const clients = [];
  const t = {
    observed,
    get server() {
      return server;
    },
    bringUp,
    note: (n) => observed.notes.push(n),
    /** Mastra's MCPClient with one server, "orders", whose fetch is recordingFetch. */
    mastra(entry = {}, options = {}) {
      const c = new MCPClient({
        id: `${name}-${clients.length}`,
        servers: {
          orders: {
            url: new URL(`${upstream}/mcp`),
            fetch: (u, init) => f(u, init),
            logger: (m) => mastraLog.push(`${m.level} ${logLine(m.message, m.details ?? '')}`),
            ...entry,
          },
        },
        ...options,
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
    for (const c of clients) await c.disconnect().catch(() => {});
    await sleep(300);
    if (hop) await hop.close();
    if (serverView) await serverView.close();
    if (server) await server.close();
    await f.close?.();
  }
  if (hop) observed.hop = hop.log;
  observed.mastraLog = mastraLog.slice(0, 80);
  for (const file of Object.values(files)) appendFileSync(file, '');
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}

const isCall = (i, tool) => i.rpcMethod === 'tools/call' && (tool === undefined || i.tool === tool);
/** A tool's execute(), as an Agent runs it: (input, context). */
const run = (tools, name, input, context = {}) => tools[`orders_${name}`].execute(input, context);

// ------------------------------------------------------------------ scenarios

const scenarios = {
  'ma-baseline': {
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
      await t.step('send_invoice 1001', () => run(tools, 'send_invoice', { orderId: '1001' }));
      await t.step('validate_quantity 3', () => run(tools, 'validate_quantity', { quantity: 3 }));
      await t.step('slow_report 3 x 50 ms', () => run(tools, 'slow_report', { steps: 3, stepMs: 50 }));
      await t.step('listTools() again', async () => Object.keys(await c.listTools()).length);
      await t.step('disconnect()', () => c.disconnect());
    },
  },

  'ma-tool-errors': {
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('validate_quantity -3 (isError)', () => run(tools, 'validate_quantity', { quantity: -3 }));
      await t.step('crash (the tool throws)', () => run(tools, 'crash', {}));
      await t.step('lookup_order with a number (Mastra validates first?)', () => run(tools, 'lookup_order', { orderId: 1001 }));
      await t.step('lookup_order 1002', () => run(tools, 'lookup_order', { orderId: '1002' }));
    },
  },

  'ma-http-503': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain', 'retry-after': '1' }, body: 'upstream unavailable' } : {}),
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('send_invoice 1001 (hop: 503, Retry-After: 1)', () => run(tools, 'send_invoice', { orderId: '1001' }));
      await sleep(1100);
      t.note('the app runs the tool again after 1.1 s');
      await t.step('send_invoice 1001 again', () => run(tools, 'send_invoice', { orderId: '1001' }));
    },
  },

  'ma-session-expired': {
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
      await t.server.restart();
      t.note('server restarted: every session forgotten');
      await t.step('send_invoice 1001 (old session: 404)', () => run(tools, 'send_invoice', { orderId: '1001' }));
      await t.step('lookup_order 1002 (the same client)', () => run(tools, 'lookup_order', { orderId: '1002' }));
      t.note('the app calls reconnectServer("orders") and runs the tool again');
      await t.step('reconnectServer("orders")', () => c.reconnectServer('orders'));
      await t.step('send_invoice 1001 (new session)', () => run(tools, 'send_invoice', { orderId: '1001' }));
    },
  },

  'ma-sse-cut': {
    fault: (i) => (isCall(i, 'slow_report') && i.n === 1 ? { cutAfterEvents: 1 } : {}),
    async run(t) {
      const c = t.mastra({ timeout: 3000, enableProgressTracking: true });
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('slow_report 4 x 150 ms (progress tracking on; stream cut after one progress event, no event ids)', () => run(tools, 'slow_report', { steps: 4, stepMs: 150 }));
      await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
    },
  },

  'ma-sse-cut-resumed': {
    serverOptions: { eventStore: true },
    fault: (i) => (isCall(i, 'slow_report') && i.n === 1 ? { cutAfterEvents: 2 } : {}),
    async run(t) {
      const c = t.mastra({ timeout: 3000, enableProgressTracking: true });
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('slow_report 4 x 150 ms (progress tracking on; stream cut after the priming event and one progress; event ids)', () => run(tools, 'slow_report', { steps: 4, stepMs: 150 }));
    },
  },

  'ma-socket-destroyed': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { destroy: true } : {}),
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('send_invoice 1001 (hop destroys the socket)', () => run(tools, 'send_invoice', { orderId: '1001' }));
      await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
    },
  },

  'ma-response-lost': {
    fault: (i) => (isCall(i, 'send_invoice') && i.n === 1 ? { dropResponse: true } : {}),
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('send_invoice 1001 (the server ran it; hop drops the response and the socket)', () => run(tools, 'send_invoice', { orderId: '1001' }));
    },
  },

  'ma-timeout': {
    async run(t) {
      const c = t.mastra({ timeout: 400 });
      const tools = await t.step('listTools()', () => c.listTools());
      await t.step('slow_report 6 x 150 ms (server entry timeout 400)', () => run(tools, 'slow_report', { steps: 6, stepMs: 150 }));
      await sleep(800);
      await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
    },
  },

  'ma-abort-signal': {
    async run(t) {
      const c = t.mastra();
      const tools = await t.step('listTools()', () => c.listTools());
      const ac = new AbortController();
      setTimeout(() => ac.abort(new Error('the agent run was stopped')), 300);
      await t.step('slow_report 6 x 150 ms (context.abortSignal aborted after 300 ms)', () => run(tools, 'slow_report', { steps: 6, stepMs: 150 }, { abortSignal: ac.signal }));
    },
  },

  'ma-server-down-at-start': {
    serverDownAtStart: true,
    async run(t) {
      const c = t.mastra();
      await t.step('listTools() (nothing listens on the port)', () => c.listTools());
      await t.bringUp();
      await sleep(1000);
      t.note('the server comes up on that port; 1 s later the app calls listTools() again');
      const tools = await t.step('listTools() again', () => c.listTools());
      if (tools) await t.step('lookup_order 1001', () => run(tools, 'lookup_order', { orderId: '1001' }));
    },
  },
};

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await runScenario(name, spec);
}
process.exit(0);
