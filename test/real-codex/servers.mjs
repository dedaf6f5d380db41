// Codex recorder: the MCP server Codex talks to (SDK 1.32.2 over Streamable HTTP, stateful or stateless, optionally with an event store) and its tools.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { CallToolRequestSchema, ErrorCode, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as McpServerV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { listen, readBody, sessionHandler, sleep } from '../helpers/loopback.mjs';

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/**
 * lookup_order (read-only), place_order (unannotated: not safe to repeat; counts how often it ran), validate_quantity
 * (isError when <= 0), crash (throws: McpServer makes it an isError result), strict_lookup (-32602 for a malformed id),
 * slow_report (logs a message on its stream, then sleeps `ms` unless cancelled, with progress every `progressEveryMs`). `log` collects what the tools saw.
 */
export function buildServer(log = []) {
  const server = new McpServer({ name: 'codex-fixture-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('place_order', { description: 'Place an order (not idempotent)', inputSchema: { sku: z.string(), quantity: z.number() } }, async ({ sku, quantity }) => {
    log.push({ tool: 'place_order', sku, quantity });
    await sleep(20);
    return text(`placed order for ${quantity} x ${sku} (#${log.filter((l) => l.tool === 'place_order').length})`);
  });
  server.registerTool('validate_quantity', { description: 'Validate a quantity', inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('crash', { description: 'Throws', inputSchema: {} }, async () => {
    throw new Error('database connection refused');
  });
  server.registerTool('slow_report', { description: 'A slow report', inputSchema: { ms: z.number(), progressEveryMs: z.number().optional() }, annotations: { readOnlyHint: true } }, async ({ ms, progressEveryMs }, extra) => {
    log.push({ tool: 'slow_report', ms, start: true });
    // a log message on the call's own stream first: with an event store it is an event with an id, which a client can
    // resume from (rmcp offers 2025-06-18, so the SDK writes no priming event)
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', logger: 'slow_report', data: `report started (${ms} ms)` } });
    const t0 = Date.now();
    const token = extra._meta?.progressToken;
    let next = 0;
    while (Date.now() - t0 < ms && !extra.signal.aborted) {
      // with `progressEveryMs`, progress on the token the client sent (Codex sends one on every call)
      if (progressEveryMs && token !== undefined && Date.now() - t0 >= next) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: next, total: ms } });
        next += progressEveryMs;
      }
      await sleep(50);
    }
    log.push({ tool: 'slow_report', ms, aborted: extra.signal.aborted, afterMs: Date.now() - t0 });
    return text(extra.signal.aborted ? 'report cancelled' : `report ready after ${ms} ms`);
  });
  server.registerTool('strict_lookup', { description: 'Look up an order, strictly', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  // strict_lookup answers a JSON-RPC error (-32602) for a malformed orderId, as servers on the low-level API do.
  const inner = server.server._requestHandlers.get('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'strict_lookup' && !/^A-\d+$/.test(String(request.params.arguments?.orderId))) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: orderId must look like A-123, got ${JSON.stringify(request.params.arguments?.orderId)}`);
    }
    return inner(request, extra);
  });
  return server;
}

/**
 * Streamable HTTP on 127.0.0.1. Stateful by default (restart() forgets every session, as a restarted process does: a
 * later request with its id gets 404); `eventStore` makes streams resumable (priming event ids, Last-Event-ID
 * replay); `stateless` serves each POST with a new server and transport and no session id.
 */
export async function startHttpServer({ stateless = false, eventStore = false, v2 = false, port = 0 } = {}) {
  const log = [];
  if (v2) {
    // the v2 SDK 2.4.0 (createMcpHandler): 2026-07-28 per request, older protocol versions served statelessly
    const handler = createMcpHandler(() => {
      const server = new McpServerV2({ name: 'codex-fixture-v2-server', version: '1.0.0' });
      server.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
      server.registerTool('place_order', { description: 'Place an order (not idempotent)', inputSchema: z.object({ sku: z.string(), quantity: z.number() }) }, async ({ sku, quantity }) => {
        log.push({ tool: 'place_order', sku, quantity });
        return text(`placed order for ${quantity} x ${sku} (#${log.filter((l) => l.tool === 'place_order').length})`);
      });
      server.registerTool('validate_quantity', { description: 'Validate a quantity', inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
        quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
      );
      return server;
    }, { keepAliveMs: 0 });
    const s = await listen(toNodeHandler(handler), port);
    return { ...s, log, restart: () => {}, close: async () => { await handler.close(); await s.close(); } };
  }
  if (stateless) {
    const s = await listen(async (req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const body = JSON.parse((await readBody(req)).toString('utf8'));
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
      const server = buildServer(log);
      res.on('close', () => {
        t.close();
        server.close();
      });
      await server.connect(t);
      await t.handleRequest(req, res, body);
    }, port);
    return { ...s, log, restart: () => {} };
  }
  const { handle, transports } = sessionHandler({
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
    buildServer: () => buildServer(log),
    options: () => (eventStore ? { eventStore: new InMemoryEventStore(), retryInterval: 500 } : {}),
  });
  const s = await listen(handle, port);
  return { ...s, log, restart: () => transports.clear(), sessions: () => transports.size };
}
