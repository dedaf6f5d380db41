// Records real browser captures: the official SDK client running in Chromium (browser-client.js: SDK 1.32.2;
// browser-client-v2.js: the v2 client on 2026-07-28) against an official SDK server of the same line on 127.0.0.1,
// with the HAR written by Playwright's recorder and the server's own view written by
// mcp-triage's recordingHandler.
//   Chromium page (SDK client) --fetch--> node:http server: the page, and /mcp (recordingHandler -> faults -> SDK)
// Output: test/fixtures/real-har/<scenario>.{har,server.ndjson} and test/real-har/observed.json (what the page's SDK
// caller saw). Page assets keep their HAR entries but not their bodies (the bundled client is 650 kB).
//
// Needs what the project does not install: Chromium (`apt-get install chromium`) and playwright-core
// (`npm install --no-save playwright-core@1.65.1`). Then: npm run fixtures:har
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { build } from 'vite';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, createMcpHandler, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { recordingHandler } from '../../dist/capture/index.js';
import { listen, readBody, sleep } from '../helpers/loopback.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, '..', 'fixtures', 'real-har');
const OBSERVED = join(here, 'observed.json');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

let chromium;
try {
  ({ chromium } = await import('playwright-core'));
} catch {
  process.stderr.write('record.mjs needs playwright-core: npm install --no-save playwright-core@1.65.1 (and Chromium: apt-get install chromium)\n');
  process.exit(2);
}

/** A page script, bundled with its SDK client for the browser. */
async function bundleClient(entry) {
  const out = mkdtempSync(join(tmpdir(), 'mcp-triage-har-client-'));
  await build({
    configFile: false,
    logLevel: 'warn',
    build: { outDir: out, emptyOutDir: true, minify: false, lib: { entry: join(here, entry), formats: ['es'], fileName: () => 'client.js' } },
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const code = readFileSync(join(out, 'client.js'));
  rmSync(out, { recursive: true, force: true });
  return code;
}

const text = (t) => ({ content: [{ type: 'text', text: t }] });

function buildServer() {
  const server = new McpServer({ name: 'har-fixture-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } },
    async ({ orderId }) => text(`order ${orderId}: shipped`));
  server.registerTool('send_invoice', { description: 'Email the invoice of an order', inputSchema: { orderId: z.string() } },
    async ({ orderId }) => text(`invoice for order ${orderId} sent`));
  server.registerTool('validate_quantity', { description: 'Check an order quantity', inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } },
    async ({ quantity }) => (quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true }));
  server.registerTool('slow_report', { description: 'Build a report (takes a moment)', inputSchema: { delayMs: z.number() }, annotations: { readOnlyHint: true } },
    async ({ delayMs }) => {
      await sleep(delayMs);
      return text('report ready');
    });
  server.registerTool('export_archive', { description: 'Long job that closes its SSE stream and finishes later', inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => {
      await sleep(50);
      extra.closeSSEStream?.(); // polling mode (SEP-1699): the client resumes on GET with Last-Event-ID
      await sleep(400);
      return text('archive exported: 3 files');
    });
  server.registerTool('approve_refund', { description: 'Refund an order after asking the user', inputSchema: { orderId: z.string() } },
    async ({ orderId }, extra) => {
      const answer = await server.server.elicitInput(
        { message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] } },
        { relatedRequestId: extra.requestId },
      );
      return text(answer.action === 'accept' && answer.content?.approve ? `refund of ${orderId} approved` : `refund of ${orderId} declined`);
    });
  server.registerTool('cut_stream', { description: 'Logs a line, then works for a while', inputSchema: {}, annotations: { readOnlyHint: true } },
    async (_args, extra) => {
      await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'starting' } });
      await sleep(600);
      return text('done');
    });
  return server;
}

/** The v2 server (2026-07-28, createMcpHandler: no sessions), with an MRTR tool. */
function buildServerV2() {
  const server = new McpServerV2({ name: 'har-fixture-server-v2', version: '1.0.0' });
  server.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } },
    async ({ orderId }) => text(`order ${orderId}: shipped`));
  server.registerTool('validate_quantity', { description: 'Check an order quantity', inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } },
    async ({ quantity }) => (quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true }));
  server.registerTool('approve_refund', { description: 'Refund an order after asking the user', inputSchema: z.object({ orderId: z.string() }) },
    async ({ orderId }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'reason');
      if (answer.kind === 'missing') {
        const requestedSchema = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };
        return inputRequired({ inputRequests: { reason: inputRequired.elicit({ message: `Refund order ${orderId}?`, requestedSchema }) }, requestState: `refund:${orderId}` });
      }
      return answer.kind === 'elicit' && answer.action === 'accept' ? text(`refund of order ${orderId} approved: ${answer.content?.reason}`) : { ...text('refund refused'), isError: true };
    });
  return server;
}

/**
 * The page, its script, and /mcp: an SDK server (1.x: one transport per session; v2: createMcpHandler) behind
 * recordingHandler, with the scenario's fault applied to the n-th tools/call first.
 */
async function startServer({ out, page, script, fault, eventStore = false, v2 = false }) {
  const transports = new Map();
  let toolCalls = 0;
  const v2Handler = v2 ? toNodeHandler(createMcpHandler(() => buildServerV2(), { keepAliveMs: 0 })) : undefined;
  const mcp = recordingHandler(async (req, res) => {
    if (v2Handler) return v2Handler(req, res);
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8')) : undefined;
    if (body?.method === 'tools/call') {
      const f = fault?.(++toolCalls, body);
      if (f?.status) return res.writeHead(f.status).end(); // a load balancer's bare status: no body, no content type
      if (f?.jsonRpcError) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: f.jsonRpcError }));
      }
      if (f?.destroyAfterMs) setTimeout(() => req.socket.destroy(), f.destroyAfterMs);
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const transport = transports.get(sid);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      }
      return transport.handleRequest(req, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
        ...(eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 100 } : {}),
      });
      await buildServer().connect(transport);
      return transport.handleRequest(req, res, body);
    }
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
  }, { out });
  return listen((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (req.url === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url?.startsWith('/mcp')) return mcp(req, res);
    res.writeHead(404).end();
  });
}

const SCENARIOS = {
  baseline: {},
  'http-503-app-retry': { fault: (n) => (n === 1 ? { status: 503 } : undefined) },
  // As the MCP test kitchen's errors.jsonrpc_error: HTTP 200, application/json, the error envelope, the SDK never called.
  'jsonrpc-error': { fault: (n) => (n === 1 ? { jsonRpcError: { code: -32602, message: 'Invalid params' } } : undefined) },
  'sse-cut': { fault: (_n, body) => (body.params?.name === 'cut_stream' ? { destroyAfterMs: 200 } : undefined) },
  'client-timeout': {},
  'sse-resumed-last-event-id': { eventStore: true },
  'elicitation-roundtrip': {},
  'v2-baseline': { v2: true },
  'v2-mrtr-roundtrip': { v2: true },
};

/** Page assets keep their entries (a real capture has them) but not their bodies. */
function trimHar(file) {
  const har = JSON.parse(readFileSync(file, 'utf8'));
  for (const e of har.log.entries) {
    if (e.request.url.includes('/mcp') || e.response?.content?.text === undefined) continue;
    delete e.response.content.text;
    e.response.content.comment = 'body removed by test/real-har/record.mjs (page asset)';
  }
  writeFileSync(file, `${JSON.stringify(har, null, 2)}\n`);
}

const scripts = { v1: await bundleClient('browser-client.js'), v2: await bundleClient('browser-client-v2.js') };
const page = '<!doctype html><meta charset="utf-8"><title>MCP browser client</title><script type="module" src="/client.js"></script>\n';
rmSync(FIXTURES, { recursive: true, force: true });
mkdirSync(FIXTURES, { recursive: true });
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const observed = {};
try {
  for (const [name, spec] of Object.entries(SCENARIOS)) {
    const server = await startServer({ out: join(FIXTURES, `${name}.server.ndjson`), page, script: spec.v2 ? scripts.v2 : scripts.v1, fault: spec.fault, eventStore: spec.eventStore, v2: spec.v2 });
    const harPath = join(FIXTURES, `${name}.har`);
    const context = await browser.newContext({ recordHar: { path: harPath, content: 'embed' } });
    const tab = await context.newPage();
    await tab.goto(`${server.url}/`);
    await tab.waitForFunction(() => typeof window.runScenario === 'function');
    observed[name] = await tab.evaluate((n) => window.runScenario(n), name);
    await sleep(300);
    await context.close(); // writes the HAR
    await server.close();
    trimHar(harPath);
    process.stdout.write(`${name}: ${JSON.stringify(observed[name]).slice(0, 160)}\n`);
  }
} finally {
  await browser.close();
}
writeFileSync(OBSERVED, `${JSON.stringify({ chromium: browser.version(), scenarios: observed }, null, 2)}\n`);
