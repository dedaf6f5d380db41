// Records real MCP traffic of the v2 TypeScript SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2) on
// 127.0.0.1, through mcp-triage's own capture, as test/real/record.mjs does for SDK 1.32.2:
//   v2 Client --recordingFetch--> recording proxy --> fault hop --> recordingHandler --> v2 server
//             <scenario>.client    <scenario>.proxy                 <scenario>.server
// The modern server is createMcpHandler() (2026-07-28 per-request serving, 2025 stateless fallback) wrapped with
// toNodeHandler(); the "legacy-stateful" server is NodeStreamableHTTPServerTransport with session ids.
// Output: test/fixtures/real-v2/<scenario>.{client,server,proxy}.ndjson and test/real-v2/observed.json (what the SDK
// caller saw). Run: npx tsc -p tsconfig.json && node test/real-v2/record.mjs [scenario...]   (about 10 s)
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer, createMcpHandler, inputRequired, acceptedContent, inputResponse } from '@modelcontextprotocol/server';
import { toNodeHandler, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { describeError, listen, recordScenarios, recordStep, sessionHandler, sleep, startFaultHop, stopAfter } from '../helpers/loopback.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, '..', 'fixtures', 'real-v2');
const OBSERVED = join(here, 'observed.json');
const CLIENT_ID = 'triage-v2-client@1.0.0';
/** The whole run is bounded: a hung scenario must not keep the process alive. */
stopAfter(30_000);

// ---------------------------------------------------------------- the v2 server (fixed tool outputs)

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const reasonSchema = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };
const confirmSchema = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] };

/** Numbers the approve_refund requestStates of one server process, so parallel calls get distinct states. */
let refundSeq = 0;

function buildMcpServer() {
  const server = new McpServer({ name: 'triage-v2-server', version: '1.0.0' });
  server.registerTool(
    'lookup_order',
    { description: 'Look up an order by id', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } },
    async ({ orderId }) => text(`order ${orderId}: shipped`),
  );
  server.registerTool(
    'set_shipping_address',
    {
      description: 'Replace the shipping address of an order',
      inputSchema: z.object({ orderId: z.string(), address: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    async ({ orderId }) => text(`address of order ${orderId} updated`),
  );
  server.registerTool(
    'send_invoice',
    { description: 'Email the invoice of an order', inputSchema: z.object({ orderId: z.string() }) },
    async ({ orderId }) => text(`invoice for order ${orderId} sent`),
  );
  server.registerTool(
    'validate_quantity',
    { description: 'Check an order quantity', inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } },
    async ({ quantity }) => (quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true }),
  );
  server.registerTool(
    'slow_report',
    { description: 'Build a report (takes a moment)', inputSchema: z.object({ delayMs: z.number() }), annotations: { readOnlyHint: true } },
    async ({ delayMs }, ctx) => {
      await sleep(delayMs);
      return text(ctx.mcpReq.signal.aborted ? 'report cancelled' : 'report ready');
    },
  );
  server.registerTool(
    'export_archive',
    { description: 'Reports progress, then finishes', inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let i = 1; i <= 2; i++) {
        await sleep(20);
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 2 } });
      }
      return text('archive exported: 3 files');
    },
  );
  // MRTR: asks for a reason through an input_required result; the client's follow-up carries inputResponses.
  server.registerTool(
    'approve_refund',
    { description: 'Refund an order after asking the user', inputSchema: z.object({ orderId: z.string() }) },
    async ({ orderId }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, 'reason');
      if (answer.kind === 'missing') {
        return inputRequired({
          inputRequests: { reason: inputRequired.elicit({ message: `Refund order ${orderId}?`, requestedSchema: reasonSchema }) },
          requestState: `refund:${orderId}:${++refundSeq}`,
        });
      }
      if (answer.kind === 'elicit' && answer.action === 'accept') return text(`refund of order ${orderId} approved: ${answer.content?.reason}`);
      return { ...text(`refund ${answer.kind === 'elicit' ? answer.action : 'refused'}`), isError: true };
    },
  );
  // MRTR over two rounds: a reason, then a confirmation (requestState carries the round).
  server.registerTool(
    'close_ticket',
    { description: 'Close a ticket after two questions', inputSchema: z.object({ ticketId: z.string() }) },
    async ({ ticketId }, ctx) => {
      const reason = acceptedContent(ctx.mcpReq.inputResponses, 'reason');
      const state = ctx.mcpReq.requestState();
      if (!state) {
        return inputRequired({ inputRequests: { reason: inputRequired.elicit({ message: `Why close ${ticketId}?`, requestedSchema: reasonSchema }) }, requestState: `round1:${ticketId}` });
      }
      if (state.startsWith('round1:')) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: `Close ${ticketId} because "${reason?.reason}"?`, requestedSchema: confirmSchema }) },
          requestState: `round2:${ticketId}:${reason?.reason ?? ''}`,
        });
      }
      const confirm = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
      return confirm?.confirm ? text(`ticket ${ticketId} closed (${state.split(':')[2]})`) : { ...text(`ticket ${ticketId} left open`), isError: true };
    },
  );
  // MRTR with requestState only (load shedding): the client MAY retry at once, without fulfilling anything.
  server.registerTool(
    'queue_export',
    { description: 'Asks to be called again once', inputSchema: z.object({ name: z.string() }), annotations: { readOnlyHint: true } },
    async ({ name }, ctx) => (ctx.mcpReq.requestState() ? text(`export ${name} queued`) : inputRequired({ requestState: `later:${name}` })),
  );
  // MRTR that never completes: every round asks again (max-rounds exhaustion on the client).
  server.registerTool(
    'endless_questions',
    { description: 'Always needs one more answer', inputSchema: z.object({}) },
    async (_args, ctx) => {
      const n = Number((ctx.mcpReq.requestState() ?? 'q:0').split(':')[1]) + 1;
      return inputRequired({ inputRequests: { more: inputRequired.elicit({ message: `question ${n}`, requestedSchema: reasonSchema }) }, requestState: `q:${n}` });
    },
  );
  return server;
}

/**
 * Start a v2 server behind recordingHandler.
 *   kind 'modern'          createMcpHandler(): 2026-07-28 per request; 2025 requests served statelessly (fallback)
 *   kind 'legacy-stateful' NodeStreamableHTTPServerTransport with session ids (2025-era sessions, v2 server code)
 */
async function startMcpServer({ out, kind = 'modern', responseMode = 'auto' }) {
  refundSeq = 0;
  let node;
  let closeAll;
  if (kind === 'modern') {
    const handler = createMcpHandler(() => buildMcpServer(), { responseMode, keepAliveMs: 0 });
    node = toNodeHandler(handler);
    closeAll = () => handler.close();
  } else {
    const sessions = sessionHandler({ Transport: NodeStreamableHTTPServerTransport, isInitializeRequest: (body) => body?.method === 'initialize', buildServer: buildMcpServer });
    const transports = sessions.transports;
    node = sessions.handle;
    closeAll = async () => {
      for (const t of transports.values()) await t.close().catch(() => {});
    };
  }
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        if (!req.url?.startsWith('/mcp')) {
          res.writeHead(404).end();
          return;
        }
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out }),
  );
  return {
    ...s,
    async close() {
      await closeAll().catch(() => {});
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- scenario harness

async function runScenario(name, spec) {
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((side) => [side, join(FIXTURES, `${name}.${side}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const mcp = await startMcpServer({ out: files.server, ...spec.server });
  const hop = await startFaultHop(mcp.url, spec.fault);
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop.url, out: files.proxy });
  const observed = { steps: [], onerror: [], elicitations: [] };
  const fetches = [];
  const clients = [];
  const ctx = {
    observed,
    /**
     * A connected v2 client. `era`: 'modern' negotiates with server/discover ('auto'), 'legacy' is the SDK default
     * (initialize, 2025-11-25). `onElicit` registers the elicitation/create handler (used by MRTR auto-fulfilment).
     */
    async client({ conn, era = 'modern', onElicit, inputRequiredOptions } = {}) {
      const fetch = recordingFetch({ out: files.client, client: CLIENT_ID, ...(conn ? { conn } : {}) });
      fetches.push(fetch);
      const client = new Client(
        { name: 'triage-v2-client', version: '1.0.0' },
        {
          ...(onElicit ? { capabilities: { elicitation: { form: {} } } } : {}),
          ...(era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}),
          ...(inputRequiredOptions ? { inputRequired: inputRequiredOptions } : {}),
        },
      );
      if (onElicit) {
        client.setRequestHandler('elicitation/create', async (request) => {
          observed.elicitations.push(request.params.message);
          return onElicit(request);
        });
      }
      client.onerror = (e) => observed.onerror.push(describeError(e));
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.url), {
        fetch,
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
      });
      await client.connect(transport, { timeout: 5000 });
      observed.era ??= client.getNegotiatedProtocolVersion?.() ?? null;
      clients.push(client);
      return client;
    },
    step: (label, fn) => recordStep(observed.steps, label, fn),
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

const accept = (content) => async () => ({ action: 'accept', content });
const TIMEOUT = { timeout: 5000 };

// ---------------------------------------------------------------- scenarios

const scenarios = {
  /** 2026-07-28: server/discover probe (no initialize, no session), tools/list, three successful calls (JSON bodies). */
  baseline: {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
      await t.step('call set_shipping_address', () => c.callTool({ name: 'set_shipping_address', arguments: { orderId: '1001', address: '1 Main St' } }, TIMEOUT));
      await t.step('call send_invoice', () => c.callTool({ name: 'send_invoice', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** The tool answers isError: true (resultType "complete"). */
  'tool-error': {
    async run(t) {
      const c = await t.client();
      await t.step('call validate_quantity (-3)', () => c.callTool({ name: 'validate_quantity', arguments: { quantity: -3 } }, TIMEOUT));
    },
  },

  /** Unknown tool: the v2 McpServer answers a JSON-RPC -32602 error on HTTP 200 (v1 made it isError). */
  'jsonrpc-error': {
    async run(t) {
      const c = await t.client();
      await t.step('call no_such_tool', () => c.callTool({ name: 'no_such_tool', arguments: {} }, TIMEOUT));
    },
  },

  /** An unknown method: 2026-07-28 answers HTTP 404 with a JSON-RPC -32601 body (no session is involved). */
  'unknown-method-404': {
    async run(t) {
      const c = await t.client();
      await t.step('request vendor/ping', () => c.request({ method: 'vendor/ping', params: {} }, z.object({}).passthrough(), TIMEOUT));
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** MRTR: input_required (inputRequests + requestState), the client's elicitation handler accepts, follow-up completes. */
  'mrtr-roundtrip': {
    async run(t) {
      const c = await t.client({ onElicit: accept({ reason: 'damaged in transit' }) });
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /**
   * Two MRTR calls of the same tool with the same arguments in parallel: two chains whose requests differ only in id
   * and requestState (refund:1001:1 / refund:1001:2). Each follow-up echoes its own chain's state.
   */
  'mrtr-parallel-same-args': {
    async run(t) {
      const c = await t.client({ onElicit: accept({ reason: 'damaged in transit' }) });
      const args = { name: 'approve_refund', arguments: { orderId: '1001' } };
      await Promise.all([t.step('call approve_refund (first)', () => c.callTool(args, TIMEOUT)), t.step('call approve_refund (second)', () => c.callTool(args, TIMEOUT))]);
    },
  },

  /** MRTR: the user declines; the follow-up carries {action: "decline"} and the tool answers isError. */
  'mrtr-declined': {
    async run(t) {
      const c = await t.client({ onElicit: async () => ({ action: 'decline' }) });
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1002' } }, TIMEOUT));
    },
  },

  /** MRTR over two rounds (reason, then confirmation): three tools/call requests, one logical call. */
  'mrtr-two-rounds': {
    async run(t) {
      let n = 0;
      const c = await t.client({ onElicit: async () => (++n === 1 ? { action: 'accept', content: { reason: 'duplicate' } } : { action: 'accept', content: { confirm: true } }) });
      await t.step('call close_ticket', () => c.callTool({ name: 'close_ticket', arguments: { ticketId: 'T-7' } }, TIMEOUT));
    },
  },

  /** MRTR with requestState only (no inputRequests): the client re-sends at once with the echoed state. */
  'mrtr-request-state-only': {
    async run(t) {
      const c = await t.client();
      await t.step('call queue_export', () => c.callTool({ name: 'queue_export', arguments: { name: 'q3' } }, TIMEOUT));
    },
  },

  /** MRTR that never completes; the client gives up after inputRequired.maxRounds = 2 (SdkError). */
  'mrtr-max-rounds': {
    async run(t) {
      const c = await t.client({ onElicit: accept({ reason: 'again' }), inputRequiredOptions: { maxRounds: 2 } });
      await t.step('call endless_questions', () => c.callTool({ name: 'endless_questions', arguments: {} }, TIMEOUT));
    },
  },

  /** responseMode 'sse': every 2026 response is a text/event-stream (no priming event, no event ids); MRTR over SSE. */
  'sse-response-mode': {
    server: { responseMode: 'sse' },
    async run(t) {
      const c = await t.client({ onElicit: accept({ reason: 'damaged in transit' }) });
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1003' } }, TIMEOUT));
    },
  },

  /** responseMode 'auto': a tool that sends notifications/progress upgrades its response from JSON to SSE. */
  'progress-upgrades-to-sse': {
    async run(t) {
      const c = await t.client();
      const progress = [];
      await t.step('call export_archive (onprogress)', () => c.callTool({ name: 'export_archive', arguments: {} }, { ...TIMEOUT, onprogress: (p) => progress.push(p.progress) }));
      t.observed.progress = progress;
    },
  },

  /** 2026: the client times out (400 ms) while the tool takes 1.5 s; v2 closes the response stream, no notifications/cancelled. */
  'timeout-stream-closed': {
    async run(t) {
      const c = await t.client();
      await t.step('call slow_report (timeout 400 ms)', () => c.callTool({ name: 'slow_report', arguments: { delayMs: 1500 } }, { timeout: 400 }));
      await sleep(1300);
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** As timeout-stream-closed, with responseMode 'sse': the 200 text/event-stream head arrives, then the client closes it. */
  'timeout-sse-stream-closed': {
    server: { responseMode: 'sse' },
    async run(t) {
      const c = await t.client();
      await t.step('call slow_report (timeout 400 ms)', () => c.callTool({ name: 'slow_report', arguments: { delayMs: 1500 } }, { timeout: 400 }));
      await sleep(1300);
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /**
   * The hop replaces the Mcp-Name header of the first tools/call: the server answers 400 + -32020 HeaderMismatch; the
   * SDK refreshes tools/list and re-sends the call once, with a new id (an automatic, spec-sanctioned re-send).
   */
  'header-mismatch-sdk-retry': {
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { setHeaders: { 'mcp-name': 'send_invoice' } } : undefined),
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** Two modern Clients (conn a, b): both send the probe id "server-discover-probe-1" and ids 0, 1; no sessions. */
  'two-clients-ids-reused': {
    async run(t) {
      const a = await t.client({ conn: 'client-a' });
      await t.step('A tools/list', () => a.listTools());
      await t.step('A call lookup_order', () => a.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
      const b = await t.client({ conn: 'client-b' });
      await t.step('B tools/list', () => b.listTools());
      await t.step('B call send_invoice', () => b.callTool({ name: 'send_invoice', arguments: { orderId: '2002' } }, TIMEOUT));
    },
  },

  /**
   * The SDK's default client (versionNegotiation 'legacy': initialize, 2025-11-25) against createMcpHandler: served by
   * the stateless legacy fallback (no Mcp-Session-Id, GET 405). The MRTR tool cannot ask on per-request legacy serving
   * and answers isError.
   */
  'legacy-client-stateless': {
    async run(t) {
      const c = await t.client({ era: 'legacy', onElicit: accept({ reason: 'damaged in transit' }) });
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /**
   * A v2 server on a stateful 2025 transport (session ids) with a legacy client: the same MRTR tool is bridged by the
   * server's legacy shim into a server->client elicitation/create on the call's SSE stream, answered by a POST.
   */
  'legacy-stateful-mrtr-shim': {
    server: { kind: 'legacy-stateful' },
    async run(t) {
      const c = await t.client({ era: 'legacy', onElicit: accept({ reason: 'damaged in transit' }) });
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
      await t.step('call approve_refund', () => c.callTool({ name: 'approve_refund', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** versionNegotiation 'auto' against a 2025-only (stateful) server: the server/discover probe fails, then initialize. */
  'auto-negotiation-fallback': {
    server: { kind: 'legacy-stateful' },
    async run(t) {
      const c = await t.client({ era: 'modern' });
      await t.step('call lookup_order', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, TIMEOUT));
    },
  },

  /** The application retries a 503 on a 2026 connection (new id, noted as app retry); no session anywhere. */
  'http-503-app-retry': {
    fault: (i) => (i.rpcMethod === 'tools/call' && i.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : undefined),
    async run(t) {
      const c = await t.client();
      const args = { name: 'lookup_order', arguments: { orderId: '1001' } };
      const first = await t.step('call lookup_order (attempt 1)', () => withCallNote({ retryOrigin: 'none', attempt: 1 }, () => c.callTool(args, TIMEOUT)));
      if (!first.ok) await t.step('call lookup_order (attempt 2, app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => c.callTool(args, TIMEOUT)));
    },
  },
};

// ---------------------------------------------------------------- main

const { ms } = await recordScenarios(scenarios, runScenario, { fixtures: FIXTURES, observed: OBSERVED });
process.stderr.write(`all scenarios recorded in ${ms} ms\n`);
process.exit(0);
