// Claude Code recorder: the MCP servers Claude Code talks to (SDK 1.32.2, Streamable HTTP stateful, and stdio) and their tools.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, McpError, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { listen, sessionHandler } from '../helpers/loopback.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** lookup_order (ok), validate_quantity (isError when <= 0), slow_report (sleeps ms), crash (throws), exit_now (stdio: the process dies mid-call). */
export function buildServer(name = 'cc-fixture-server') {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('validate_quantity', { description: 'Validate a quantity', inputSchema: { quantity: z.number() } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('slow_report', { description: 'A slow report', inputSchema: { ms: z.number() } }, async ({ ms }, extra) => {
    const t0 = Date.now();
    while (Date.now() - t0 < ms && !extra.signal.aborted) await sleep(50);
    return text(extra.signal.aborted ? 'report cancelled' : `report ready after ${ms} ms`);
  });
  server.registerTool('crash', { description: 'Throws', inputSchema: {} }, async () => {
    throw new Error('database connection refused');
  });
  server.registerTool('exit_now', { description: 'Exits the server process mid-call', inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 30);
    await sleep(5000);
    return text('not reached');
  });
  // strict_lookup answers a JSON-RPC error (-32602) for a malformed orderId, as servers on the low-level API do; McpServer
  // itself would wrap any error thrown in a tool into an isError result, so this replaces its tools/call handler.
  server.registerTool('strict_lookup', { description: 'Look up an order, strictly', inputSchema: { orderId: z.string() } }, async ({ orderId }) => text(`order ${orderId}: shipped`));
  const inner = server.server._requestHandlers.get('tools/call');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'strict_lookup' && !/^A-\d+$/.test(String(request.params.arguments?.orderId))) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: orderId must look like A-123, got ${JSON.stringify(request.params.arguments?.orderId)}`);
    }
    return inner(request, extra);
  });
  return server;
}

/** Streamable HTTP, stateful; restart() forgets every session as a restarted process does (a later request with its id gets 404). */
export async function startHttpServer(port = 0) {
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer });
  const s = await listen(handle, port);
  return { ...s, restart: () => transports.clear() };
}
