// Records a refused notifications/initialized with the real SDK clients (1.32.2 and v2 2.4.0) against an SDK 1.32.2 server behind a hop. Usage: node test/real-connect-refused/record.mjs [scenario...]  (needs dist/: npm run build)
// Writes test/fixtures/real-connect-refused/<scenario>/{client,server}.ndjson and observed.json (what the application saw).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler } from '../../dist/capture/index.js';
import { listen, sleep, sessionHandler } from '../helpers/loopback.mjs';
import { startAnswerHop } from '../helpers/answer-hop.mjs';
import { scenarioFilesIn, makeObserver, writeObserved, describeError, stopAfter } from '../real-audit2/lib.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-connect-refused/', import.meta.url));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const json = (status, body, extra = {}) => ({ status, headers: { 'content-type': 'application/json', ...extra }, body: JSON.stringify(body) });
const rpcError = (code, message) => ({ jsonrpc: '2.0', error: { code, message }, id: null });
const NGINX_503 = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

function buildServer() {
  const server = new McpServer({ name: 'refused-server', version: '1.0.0' });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  server.registerTool('slow_report', { inputSchema: { month: z.string() }, annotations: { readOnlyHint: true } }, async ({ month }) => {
    await sleep(600);
    return text(`report ${month}`);
  });
  return server;
}

/** The hop refuses the first notifications/initialized only (`refuse` says how); everything else passes. */
const firstInitialized = (refuse) => ({ method, nMethod }) => (method === 'notifications/initialized' && nMethod === 1 ? refuse : {});

const reconnection = { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 };

/** The application: connect; when connect throws, wait 300 ms and connect again with a new Client (unless `retry` is false); then list the tools and call one. */
async function app(t, { retry = true, v2 = false } = {}) {
  for (let k = 1; k <= (retry ? 2 : 1); k++) {
    const c = v2 ? new ClientV2({ name: 'refused-app-v2', version: '1.0.0' }) : new Client({ name: 'refused-app', version: '1.0.0' });
    c.onerror = (e) => t.observed.onerror.push(describeError(e));
    const url = new URL('/mcp', t.hopUrl);
    const transport = v2 ? new TransportV2(url, { fetch: t.fetch, reconnectionOptions: reconnection }) : new StreamableHTTPClientTransport(url, { fetch: t.fetch, reconnectionOptions: reconnection });
    const r = await t.step(`connect ${k}`, () => c.connect(transport));
    if (r.ok) {
      await t.step(`tools/list (client ${k})`, () => c.listTools());
      await t.step(`lookup_order 1001 (client ${k})`, () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await sleep(100);
      await c.close().catch(() => {});
      return;
    }
    await c.close().catch(() => {});
    await sleep(300);
  }
}

const scenarios = {
  // 1.32.2 client: the hop refuses the first notifications/initialized; the application connects again
  'v1-initialized-400': { decide: firstInitialized({ respond: json(400, { error: 'bad_request', message: 'unsupported message' }) }), run: (t) => app(t) },
  'v1-initialized-404-plain': { decide: firstInitialized({ respond: { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } }), run: (t) => app(t) },
  'v1-initialized-404-session-not-found': { decide: firstInitialized({ respond: json(404, rpcError(-32001, 'Session not found')) }), run: (t) => app(t) },
  // the server accepted it (202), the hop tells the client 500
  'v1-initialized-500-after-server': { decide: firstInitialized({ afterRun: json(500, rpcError(-32603, 'Internal error')) }), run: (t) => app(t) },
  'v1-initialized-503': { decide: firstInitialized({ respond: { status: 503, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_503 } }), run: (t) => app(t) },
  // the application gives up after the first failed connect
  'v1-initialized-503-no-retry': { decide: firstInitialized({ respond: { status: 503, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_503 } }), run: (t) => app(t, { retry: false }) },
  // v2 2.4.0 client, the same hops
  'v2-initialized-503': { decide: firstInitialized({ respond: { status: 503, headers: { 'content-type': 'text/html', server: 'nginx' }, body: NGINX_503 } }), run: (t) => app(t, { v2: true }) },
  'v2-initialized-404-session-not-found': { decide: firstInitialized({ respond: json(404, rpcError(-32001, 'Session not found')) }), run: (t) => app(t, { v2: true }) },
  // must not: nothing refused; and a notifications/cancelled refused after a call the caller aborted
  'v1-initialized-accepted': { decide: () => ({}), run: (t) => app(t) },
  'v1-cancelled-refused': {
    decide: ({ method }) => (method === 'notifications/cancelled' ? { respond: json(503, rpcError(-32603, 'queue full')) } : {}),
    async run(t) {
      const c = new Client({ name: 'refused-app', version: '1.0.0' });
      c.onerror = (e) => t.observed.onerror.push(describeError(e));
      await t.step('connect 1', () => c.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.hopUrl), { fetch: t.fetch, reconnectionOptions: reconnection })));
      await t.step('slow_report 2026-11 (timeout 200 ms)', () => c.callTool({ name: 'slow_report', arguments: { month: '2026-11' } }, undefined, { timeout: 200 }));
      await sleep(700);
      await t.step('lookup_order 1001', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }));
      await sleep(100);
      await c.close().catch(() => {});
    },
  },
};

async function runScenario(name, spec) {
  const { dir, files } = scenarioFilesIn(ROOT, name);
  delete files.proxy;
  const { observed, step, note } = makeObserver();
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer });
  const server = await listen(recordingHandler(handle, { out: files.server }));
  const hop = await startAnswerHop(server.url, spec.decide);
  const fetch = recordingFetch({ out: files.client });
  try {
    await spec.run({ step, note, observed, hopUrl: hop.url, fetch });
  } catch (err) {
    observed.crash = describeError(err);
  } finally {
    await sleep(200);
    for (const tr of transports.values()) await tr.close().catch(() => {});
    await hop.close();
    await server.close();
    await fetch.close?.();
  }
  writeObserved(dir, observed);
  rmSync(`${dir}/proxy.ndjson`, { force: true });
  process.stderr.write(`recorded ${name}\n`);
}

stopAfter(120_000);
const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(scenarios)) if (!only.length || only.includes(name)) await runScenario(name, spec);
process.exit(0);
