// Records real MCP traffic between the two TypeScript SDK generations on 127.0.0.1, through mcp-triage's own capture:
//   SDK 1.x  @modelcontextprotocol/sdk 1.32.2 (initialize, sessions, protocol up to 2025-11-25)
//   SDK v2   @modelcontextprotocol/client + /server 2.4.0, /node 2.1.2 (server/discover, protocol 2026-07-28)
//   client --recordingFetch--> recording proxy --> fault hop --> recordingHandler --> server
//          <scenario>.client    <scenario>.proxy                 <scenario>.server
// Output: test/fixtures/real-interop/<scenario>.{client,server,proxy}.ndjson and test/real-interop/observed.json
// (what the SDK caller saw). Run: npx tsc -p tsconfig.json && node test/real-interop/record.mjs [scenario...]
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
// SDK 1.x
import { McpServer as V1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as V1Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport as V1ServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1ClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError, ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
// SDK v2
import { McpServer as V2McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { Client as V2Client, StreamableHTTPClientTransport as V2ClientTransport } from '@modelcontextprotocol/client';
import { recordingFetch, recordingHandler, startRecordingProxy, withCallNote } from '../../dist/capture/index.js';
import { describeError, listen, readBody, recordScenarios, recordStep, sleep, startFaultHop, stopAfter } from '../helpers/loopback.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, '..', 'fixtures', 'real-interop');
const OBSERVED = join(here, 'observed.json');
const TIMEOUT = { timeout: 5000 };
stopAfter(30_000);

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const quantityResult = (quantity) => (quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true });

// ---------------------------------------------------------------- servers

function buildV1McpServer() {
  const s = new V1McpServer({ name: 'interop-v1-server', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  s.registerTool('validate_quantity', { description: 'Check a quantity', inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) => quantityResult(quantity));
  // 1.x elicitation: a server->client elicitation/create on this call's SSE stream, answered by a client POST.
  s.registerTool('approve_refund', { description: 'Refund after asking the user', inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    const answer = await s.server.elicitInput(
      { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] } },
      { relatedRequestId: extra.requestId },
    );
    return answer.action === 'accept' ? text(`refund of order ${orderId} approved: ${answer.content.reason}`) : { ...text(`refund ${answer.action}`), isError: true };
  });
  return s;
}

/** v1 low-level Server: an unknown order id is a real JSON-RPC error (McpError InvalidParams) on tools/call. */
function buildV1LowLevelServer() {
  const s = new V1Server({ name: 'interop-v1-lowlevel', version: '1.0.0' }, { capabilities: { tools: {} } });
  s.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'lookup_order', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, annotations: { readOnlyHint: true } },
      { name: 'validate_quantity', inputSchema: { type: 'object', properties: { quantity: { type: 'number' } } }, annotations: { readOnlyHint: true } },
    ],
  }));
  s.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    if (request.params.name === 'validate_quantity') return quantityResult(args.quantity);
    if (args.orderId !== '1001') throw new McpError(ErrorCode.InvalidParams, `unknown order id ${JSON.stringify(args.orderId)}`);
    return text('order 1001: shipped');
  });
  return s;
}

function buildV2McpServer() {
  const s = new V2McpServer({ name: 'interop-v2-server', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  s.registerTool('validate_quantity', { description: 'Check a quantity', inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) => quantityResult(quantity));
  return s;
}

const notFound = (res) => res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
const noSession = (res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));

/**
 * A server behind recordingHandler.
 *   sdk 'v1' kind 'stateful' | 'stateless'  StreamableHTTPServerTransport (json: enableJsonResponse; lowLevel: Server)
 *   sdk 'v2' kind 'stateful'                NodeStreamableHTTPServerTransport with session ids
 *   sdk 'v2' kind 'modern'                  toNodeHandler(createMcpHandler()) (2025 requests served statelessly)
 */
async function startServer({ out, sdk, kind, json = false, lowLevel = false }) {
  const transports = new Map();
  let node;
  let closeModern = async () => {};
  if (sdk === 'v2' && kind === 'modern') {
    const handler = createMcpHandler(() => buildV2McpServer(), { keepAliveMs: 0 });
    node = toNodeHandler(handler);
    closeModern = () => handler.close();
  } else if (sdk === 'v1' && kind === 'stateless') {
    node = async (req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
      const mcp = lowLevel ? buildV1LowLevelServer() : buildV1McpServer();
      const transport = new V1ServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: json });
      res.on('close', () => void transport.close().then(() => mcp.close()));
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    };
  } else {
    node = async (req, res) => {
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8')) : undefined;
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const t = transports.get(sid);
        if (!t) return void notFound(res);
        await t.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const t =
          sdk === 'v1'
            ? new V1ServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: json, onsessioninitialized: (id) => transports.set(id, t) })
            : new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
        await (sdk === 'v1' ? (lowLevel ? buildV1LowLevelServer() : buildV1McpServer()) : buildV2McpServer()).connect(t);
        await t.handleRequest(req, res, body);
        return;
      }
      noSession(res);
    };
  }
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end();
        await node(req, res);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      }
    }, { out }),
  );
  return {
    ...s,
    /** Forget every session, as a restarted server would. */
    async expireSessions() {
      const all = [...transports.values()];
      transports.clear();
      for (const t of all) await t.close().catch(() => {});
    },
    async close() {
      await closeModern().catch(() => {});
      for (const t of transports.values()) await t.close().catch(() => {});
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- harness

async function runScenario(name, spec) {
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((side) => [side, join(FIXTURES, `${name}.${side}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const mcp = await startServer({ out: files.server, ...spec.server });
  const hop = await startFaultHop(mcp.url, spec.fault);
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: hop.url, out: files.proxy });
  const observed = { client: spec.client, server: `${spec.server.sdk} ${spec.server.kind}${spec.server.json ? ' json' : ''}`, steps: [], onerror: [] };
  const fetches = [];
  const clients = [];
  const ctx = {
    mcp,
    observed,
    recorder(clientId) {
      const f = recordingFetch({ out: files.client, client: clientId });
      fetches.push(f);
      return f;
    },
    /** A connected client of the scenario's SDK generation ('v1', or 'v2' with versionNegotiation 'auto'). */
    async client({ fetch } = {}) {
      let c;
      if (spec.client === 'v1') {
        c = new V1Client({ name: 'interop-v1-client', version: '1.0.0' });
        c.onerror = (e) => observed.onerror.push(describeError(e));
        const transport = new V1ClientTransport(new URL('/mcp', proxy.url), {
          fetch: fetch ?? ctx.recorder('interop-v1-client@1.0.0'),
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
        });
        await c.connect(transport, TIMEOUT);
        observed.era ??= transport.protocolVersion ?? null;
      } else {
        c = new V2Client({ name: 'interop-v2-client', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' }, ...(spec.onElicit ? { capabilities: { elicitation: { form: {} } } } : {}) });
        c.onerror = (e) => observed.onerror.push(describeError(e));
        if (spec.onElicit) {
          c.setRequestHandler('elicitation/create', async (request) => {
            (observed.elicitations ??= []).push(request.params.message);
            return spec.onElicit(request);
          });
        }
        const transport = new V2ClientTransport(new URL('/mcp', proxy.url), {
          fetch: fetch ?? ctx.recorder('interop-v2-client@1.0.0'),
          reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
        });
        await c.connect(transport, TIMEOUT);
        observed.era ??= c.getNegotiatedProtocolVersion?.() ?? null;
      }
      observed.serverInfo ??= c.getServerVersion?.()?.name ?? null;
      clients.push(c);
      return c;
    },
    /** tools/call with a 5 s timeout (SDK 1.x takes a result schema before the options, v2 does not). */
    call(c, params) {
      return c instanceof V1Client ? c.callTool(params, undefined, TIMEOUT) : c.callTool(params, TIMEOUT);
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
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  for (const e of observed.onerror) e.message = e.message.replace(uuid, '<session>');
  for (const s of observed.steps) if (s.error) s.error.message = s.error.message.replace(uuid, '<session>');
  for (const s of observed.steps) for (const k of ['ms']) delete s[k];
  return observed;
}

// ---------------------------------------------------------------- scenarios

/** The v2 'auto' client against a v1 server: probe, fallback to initialize (2025-11-25), a success, a tool error. */
const v2ClientAgainstV1 = {
  async run(t) {
    const c = await t.client();
    await t.step('tools/list', () => c.listTools());
    await t.step('call lookup_order', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '1001' } }));
    await t.step('call validate_quantity (-3)', () => t.call(c, { name: 'validate_quantity', arguments: { quantity: -3 } }));
  },
};

/** A v1 client against a v2 server: initialize, tools/list, a call, an unknown tool (-32602 from v2 McpServer). */
const v1ClientAgainstV2 = {
  async run(t) {
    const c = await t.client();
    await t.step('tools/list', () => c.listTools());
    await t.step('call lookup_order', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '1001' } }));
    await t.step('call no_such_tool', () => t.call(c, { name: 'no_such_tool', arguments: {} }));
  },
};

const scenarios = {
  /** v2 client (auto) -> v1 stateful server (SSE responses, session id after initialize). */
  'v2-client-v1-stateful': {
    client: 'v2',
    server: { sdk: 'v1', kind: 'stateful' },
    ...v2ClientAgainstV1,
  },

  /** v2 client (auto) -> v1 stateless server (SSE responses, no session, GET 405). */
  'v2-client-v1-stateless': {
    client: 'v2',
    server: { sdk: 'v1', kind: 'stateless' },
    ...v2ClientAgainstV1,
  },

  /** v1 client -> v2 stateful server (NodeStreamableHTTPServerTransport with session ids). */
  'v1-client-v2-stateful': {
    client: 'v1',
    server: { sdk: 'v2', kind: 'stateful' },
    ...v1ClientAgainstV2,
  },

  /** v1 client -> v2 createMcpHandler (2025 requests served by the stateless legacy fallback). */
  'v1-client-v2-modern': {
    client: 'v1',
    server: { sdk: 'v2', kind: 'modern' },
    ...v1ClientAgainstV2,
  },

  /**
   * v1 client -> v2 stateful server that forgets its sessions: the next call gets 404 -32001, the v1 client throws
   * (no automatic re-initialize); the application connects a new client (initialize) and retries (new id).
   */
  'v1-client-v2-session-expired': {
    client: 'v1',
    server: { sdk: 'v2', kind: 'stateful' },
    async run(t) {
      const fetch = t.recorder('interop-v1-client@1.0.0');
      const c = await t.client({ fetch });
      await t.step('call lookup_order (before expiry)', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.mcp.expireSessions();
      await sleep(50);
      const args = { name: 'lookup_order', arguments: { orderId: '1002' } };
      const failed = await t.step('call lookup_order (expired session)', () => t.call(c, args));
      if (!failed.ok) {
        await c.close();
        const fresh = await t.client({ fetch });
        await t.step('call lookup_order (new session, app retry)', () => withCallNote({ retryOrigin: 'app', attempt: 2 }, () => t.call(fresh, args)));
      }
    },
  },

  /** v1 client -> v1 stateful server with enableJsonResponse: application/json bodies, an isError, a JSON-RPC error. */
  'v1-json-response': {
    client: 'v1',
    server: { sdk: 'v1', kind: 'stateful', json: true, lowLevel: true },
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('call validate_quantity (-3)', () => t.call(c, { name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('call lookup_order (unknown id)', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '9999' } }));
    },
  },

  /** v2 client (auto) -> v1 stateful server with enableJsonResponse: the probe and the fallback over JSON bodies. */
  'v2-client-v1-json-response': {
    client: 'v2',
    server: { sdk: 'v1', kind: 'stateful', json: true, lowLevel: true },
    async run(t) {
      const c = await t.client();
      await t.step('call lookup_order', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '1001' } }));
      await t.step('call validate_quantity (-3)', () => t.call(c, { name: 'validate_quantity', arguments: { quantity: -3 } }));
      await t.step('call lookup_order (unknown id)', () => t.call(c, { name: 'lookup_order', arguments: { orderId: '9999' } }));
    },
  },
};

Object.assign(scenarios, {
  /**
   * v2 client (auto, fell back to 2025-11-25) -> v1 stateful server whose tool elicits: the v1 server sends
   * elicitation/create (server->client request, id 0) on the call's SSE stream; the v2 client answers by a POST.
   */
  'v2-client-v1-elicitation': {
    client: 'v2',
    server: { sdk: 'v1', kind: 'stateful' },
    onElicit: async () => ({ action: 'accept', content: { reason: 'damaged in transit' } }),
    async run(t) {
      const c = await t.client();
      await t.step('call approve_refund', () => t.call(c, { name: 'approve_refund', arguments: { orderId: '1001' } }));
    },
  },
});

// ---------------------------------------------------------------- main

const run = await recordScenarios(scenarios, runScenario, { fixtures: FIXTURES, observed: OBSERVED });
process.stderr.write(`all scenarios recorded in ${run.ms} ms\n`);
process.exit(0);
