// Fifth audit, the Python SDK (mcp 2.3.0) on 127.0.0.1: its client on the fourth audit's hops (against the SDK 1.32.2
// server, and against the Python server on 2026-07-28), and its server (stateful, stateless, JSON) with the SDK 1.32.2
// client, whose app retries a call that timed out. Usage: node test/real-audit5-py/record.mjs [scenario...]
// (needs dist/: npm run build, and /work/py-venv with mcp 2.3.0, or PYTHON). Writes
// test/fixtures/real-audit5-py/<scenario>/{client,server}.ndjson and observed.json (what the caller saw).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';
import { freePort, handleStateless, listen, sleep, sessionHandler } from '../helpers/loopback.mjs';
import { callsOnly, startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError, stopAfter } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit5-py/', import.meta.url));
const PY_PEER = fileURLToPath(new URL('py_peer.py', import.meta.url));
const PY_ABORT = fileURLToPath(new URL('py_abort.py', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildTsServer() {
  const server = new McpServer({ name: 'audit5-ts-server', version: '1.32.2' });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  return server;
}

/** buildTsServer's tools and export_report (6 progress steps, 150 ms apart; stops when its signal fires): `ran` says what it did. */
function buildTsServerWithExport(ran) {
  const server = buildTsServer();
  server.registerTool('export_report', { inputSchema: { month: z.string() } }, async ({ month }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= 6; i++) {
      await sleep(150);
      if (extra.signal.aborted) {
        ran.push(`export ${month} stopped at step ${i}`);
        return text(`export ${month} stopped`);
      }
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 6, message: `step ${i}` } });
    }
    ran.push(`export ${month} done`);
    return text(`report for ${month} exported`);
  });
  return server;
}

/**
 * The Python client (legacy mode) cancels its call's task after the second progress notification, then calls again;
 * the SDK 1.32.2 server stateful or stateless, no hop (client view by a recording proxy, server view by recordingHandler).
 */
async function pyClientAbort(name, stateless) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const ran = [];
  const buildServer = () => buildTsServerWithExport(ran);
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer });
  const statelessHandle = async (req, res) => {
    try {
      await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer });
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  };
  const server = await listen(recordingHandler(stateless ? statelessHandle : handle, { out: files.server }));
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: server.url, out: files.client, side: 'client' });
  let observed;
  try {
    const { stdout } = await promisify(execFile)(PYTHON, [PY_ABORT, `${proxy.url}/mcp`], { timeout: 60_000 });
    observed = JSON.parse(stdout.trim().split('\n').pop());
  } finally {
    await sleep(200);
    await proxy.close();
    for (const tr of transports.values()) await tr.close().catch(() => {});
    await server.close();
  }
  observed.serverRan = ran;
  return { dir, observed };
}

// ---------------------------------------------------------------- the fourth audit's hop (test/real-audit4/record.mjs)

const sseEvents = (body) => body.split(/\r?\n\r?\n/).filter((e) => e.trim());
const dataOf = (ev) => ev.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n');
const isSse = (headers) => String(headers['content-type'] ?? '').startsWith('text/event-stream');
const first = (fn) => ({ n }) => (n === 1 ? fn : {});

// each hop, for an SSE body (the SDK 1.32.2 server) and for a JSON body (JSON response mode, the Python server on 2026-07-28)
const HOPS = {
  'empty-200-json': { json: true, action: { transform: ({ headers }) => ({ status: 200, headers, body: '' }) } },
  'duplicate-response-sse': {
    action: {
      transform: ({ status, headers, body }) => {
        if (!isSse(headers)) return { status, headers, body };
        const evs = sseEvents(body);
        const second = evs[evs.length - 1].replace(/id: [^\n]*\n/, '').replace('invoice for order 1001 sent', 'invoice for order 1001 FAILED');
        return { status, headers, body: body + second + '\n\n' };
      },
    },
  },
  'batch-of-one-response': { json: true, action: { transform: ({ status, headers, body }) => ({ status, headers, body: `[${body}]` }) } },
  'string-id-response': { json: true, action: { transform: ({ status, headers, body }) => ({ status, headers, body: body.replace(/"id":\s*(\d+)/, '"id":"$1"') }) } },
  'multiline-sse-data': {
    action: {
      transform: ({ status, headers, body }) => ({
        status,
        headers,
        body: sseEvents(body)
          .map((ev) => {
            const head = ev.split(/\r?\n/).filter((l) => !l.startsWith('data:'));
            const d = dataOf(ev);
            if (!d) return ev + '\n\n';
            const pretty = JSON.stringify(JSON.parse(d), null, 2);
            return [...head, ...pretty.split('\n').map((l) => `data: ${l}`)].join('\n') + '\n\n';
          })
          .join(''),
      }),
    },
  },
  'html-in-sse-after-head': { action: { htmlAfterHead: true } },
  'error-then-result-same-id': {
    action: {
      transform: ({ status, headers, body }) => {
        const evs = sseEvents(body);
        const id = JSON.parse(dataOf(evs[evs.length - 1])).id;
        const err = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'upstream timeout' } })}\n\n`;
        return { status, headers, body: err + body };
      },
    },
  },
};

async function runPyClient(scenario, url) {
  const { stdout } = await promisify(execFile)(PYTHON, [PY_PEER, 'client', scenario, url], { timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop());
}

/** The Python client (legacy mode) through a hop to the SDK 1.32.2 server: client view by a recording proxy, server view by recordingHandler. */
async function pyClientOnTs(name, hopName) {
  const hop = HOPS[hopName];
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: buildTsServer, options: () => ({ enableJsonResponse: !!hop.json }) });
  const server = await listen(recordingHandler(handle, { out: files.server }));
  const h = await startAnswerHop(server.url, callsOnly(first(hop.action)));
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: h.url, out: files.client, side: 'client' });
  let observed;
  try {
    observed = await runPyClient(hopName, `${proxy.url}/mcp`);
  } finally {
    await sleep(200);
    await proxy.close();
    for (const tr of transports.values()) await tr.close().catch(() => {});
    await h.close();
    await server.close();
  }
  return { dir, observed };
}

/**
 * The Python client (legacy mode) through a hop to the SDK 1.32.2 server in stateless mode (`sessionIdGenerator:
 * undefined`: a new server and transport for each POST, no session ids, GET refused with 405).
 */
async function pyClientOnTsStateless(name, hopName, scenario = hopName) {
  const hop = HOPS[hopName];
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const handle = async (req, res) => {
    try {
      await handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: buildTsServer, options: { enableJsonResponse: !!hop.json } });
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
    }
  };
  const server = await listen(recordingHandler(handle, { out: files.server }));
  const h = await startAnswerHop(server.url, callsOnly(first(hop.action)));
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: h.url, out: files.client, side: 'client' });
  let observed;
  try {
    observed = await runPyClient(scenario, `${proxy.url}/mcp`);
  } finally {
    await sleep(200);
    await proxy.close();
    await h.close();
    await server.close();
  }
  return { dir, observed };
}

/** The Python server as a child process, its view recorded by `startRecordingProxy` (side server). */
async function startPyServer(mode, out) {
  const port = await freePort();
  const proc = spawn(PYTHON, [PY_PEER, 'serve', mode, String(port)], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {}
  }
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: `http://127.0.0.1:${port}`, out, side: 'server' });
  return {
    url: proxy.url,
    async close() {
      await proxy.close();
      await new Promise((r) => {
        proc.once('exit', r);
        proc.kill('SIGTERM');
      });
    },
  };
}

/**
 * The Python client through a hop (none when `hopName` is undefined) to the Python server (`mode`); `scenario` is
 * py_peer.py's client scenario (a hop's name with -auto: 2026-07-28, JSON bodies; timeout-retry[-auto]).
 */
async function pyClientOnPy(name, hopName, scenario = `${hopName}-auto`, mode = 'stateful') {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const server = await startPyServer(mode, files.server);
  const h = await startAnswerHop(server.url, hopName ? callsOnly(first(HOPS[hopName].action)) : () => ({}));
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: h.url, out: files.client, side: 'client' });
  let observed;
  try {
    observed = await runPyClient(scenario, `${proxy.url}/mcp`);
  } finally {
    await sleep(200);
    await proxy.close();
    await h.close();
    await server.close();
  }
  return { dir, observed };
}

/**
 * The SDK 1.32.2 client (recordingFetch) on the Python server: a tool that raises, a ToolError, an isError result, a
 * success; a slow tool (0.8 s, not read-only) called with a 300 ms timeout, then the app calls it again with 3 s.
 */
async function tsClientOnPy(name, mode) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const server = await startPyServer(mode, files.server);
  const f = recordingFetch({ out: files.client, client: 'audit5-ts-app' });
  const { observed, step } = makeObserver();
  const c = new Client({ name: 'audit5-ts-client', version: '1.32.2' });
  c.onerror = (e) => observed.onerror.push(describeError(e));
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { fetch: f }));
    await step('tools/list', () => c.listTools());
    await step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
    await step('charge_card 1001 (raises RuntimeError)', () => c.callTool({ name: 'charge_card', arguments: { orderId: '1001' } }));
    await step('validate_address 1001 (raises ToolError)', () => c.callTool({ name: 'validate_address', arguments: { orderId: '1001' } }));
    await step('check_stock 1001 (returns isError)', () => c.callTool({ name: 'check_stock', arguments: { orderId: '1001' } }));
    const r = await step('export_orders 2026-11 (0.8 s tool, 300 ms timeout)', () => c.callTool({ name: 'export_orders', arguments: { month: '2026-11' } }, undefined, { timeout: 300 }));
    if (!r.ok) {
      await sleep(400);
      await step('export_orders 2026-11 again (the app retries, 3 s timeout)', () => c.callTool({ name: 'export_orders', arguments: { month: '2026-11' } }, undefined, { timeout: 3000 }));
    }
    await step('lookup_order 1002 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
    await sleep(700);
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await c.close().catch(() => {});
    await sleep(150);
    await server.close();
    await f.close?.();
  }
  return { dir, observed };
}

/** The SDK 1.32.2 client on the Python server (stateful): two tools that do their work, then raise MCPError once (-32603, -32602); the app retries each. */
async function tsClientMcpErrorRetry(name) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  const server = await startPyServer('stateful', files.server);
  const f = recordingFetch({ out: files.client, client: 'audit5-ts-app' });
  const { observed, step } = makeObserver();
  const c = new Client({ name: 'audit5-ts-client', version: '1.32.2' });
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url), { fetch: f }));
    await step('tools/list', () => c.listTools());
    for (const tool of ['refund_order', 'reserve_stock']) {
      const r = await step(`${tool} 1001 (raises MCPError after its work)`, () => c.callTool({ name: tool, arguments: { orderId: '1001' } }));
      if (!r.ok) {
        await sleep(300);
        await step(`${tool} 1001 again (the app retries)`, () => c.callTool({ name: tool, arguments: { orderId: '1001' } }));
      }
    }
    await step('lookup_order 1002 after', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1002' } }));
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await c.close().catch(() => {});
    await sleep(150);
    await server.close();
    await f.close?.();
  }
  return { dir, observed };
}

const scenarios = {
  ...Object.fromEntries(Object.keys(HOPS).map((h) => [`py-client-${h}`, () => pyClientOnTs(`py-client-${h}`, h)])),
  ...Object.fromEntries(['empty-200-json', 'batch-of-one-response', 'string-id-response', 'html-in-sse-after-head'].map((h) => [`py-auto-${h}`, () => pyClientOnPy(`py-auto-${h}`, h)])),
  // the same hops in stateless mode: the SDK 1.32.2 server (py-stateless-*) and the Python server (py-stateless-py-*), the Python client in legacy mode
  ...Object.fromEntries(Object.keys(HOPS).map((h) => [`py-stateless-${h}`, () => pyClientOnTsStateless(`py-stateless-${h}`, h)])),
  ...Object.fromEntries(['duplicate-response-sse', 'html-in-sse-after-head'].map((h) => [`py-stateless-auto-${h}`, () => pyClientOnTsStateless(`py-stateless-auto-${h}`, h, `${h}-auto`)])),
  ...Object.fromEntries(['duplicate-response-sse', 'error-then-result-same-id', 'html-in-sse-after-head'].map((h) => [`py-stateless-py-${h}`, () => pyClientOnPy(`py-stateless-py-${h}`, h, h, 'stateless')])),
  'py-client-abort-between-progress': () => pyClientAbort('py-client-abort-between-progress', false),
  'py-stateless-abort-between-progress': () => pyClientAbort('py-stateless-abort-between-progress', true),
  'py-client-timeout-retry-legacy': () => pyClientOnPy('py-client-timeout-retry-legacy', undefined, 'timeout-retry'),
  'py-client-timeout-retry-auto': () => pyClientOnPy('py-client-timeout-retry-auto', undefined, 'timeout-retry-auto'),
  'py-client-timeout-retry-stateless': () => pyClientOnPy('py-client-timeout-retry-stateless', undefined, 'timeout-retry', 'stateless'),
  'py-server-stateful': () => tsClientOnPy('py-server-stateful', 'stateful'),
  'py-server-stateless': () => tsClientOnPy('py-server-stateless', 'stateless'),
  'py-server-json': () => tsClientOnPy('py-server-json', 'json'),
  'py-server-mcperror-retry': () => tsClientMcpErrorRetry('py-server-mcperror-retry'),
};

stopAfter(300_000);
const only = process.argv.slice(2);
for (const [name, run] of Object.entries(scenarios)) {
  if (only.length && !only.includes(name)) continue;
  const t0 = Date.now();
  const { dir, observed } = await run();
  writeObserved(dir, observed);
  (await import('node:fs')).rmSync(`${dir}/proxy.ndjson`, { force: true });
  process.stderr.write(`recorded ${name} (${Date.now() - t0} ms)\n`);
}
process.exit(0);
