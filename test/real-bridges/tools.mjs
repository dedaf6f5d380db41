// Bridges audit: the SDK 1.32.2 server the bridges talk to (its tools), shared by the HTTP and the stdio runs.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** lookup_order (read-only), send_invoice (unannotated: unsafe to repeat), validate_quantity (isError), slow_report (progress, cancellable), confirm_refund (asks the client), crash (throws). */
export function buildSdkServer(name = 'bridges-sdk-server') {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => {
    await sleep(20);
    return text(`order ${orderId}: shipped`);
  });
  server.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
    await sleep(20);
    return text(`invoice for order ${orderId} sent`);
  });
  server.registerTool('validate_quantity', { inputSchema: { quantity: z.number() }, annotations: { readOnlyHint: true } }, async ({ quantity }) =>
    quantity > 0 ? text('quantity ok') : { ...text(`quantity must be positive, got ${quantity}`), isError: true },
  );
  server.registerTool('slow_report', { inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (extra.signal.aborted) return text('report cancelled');
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
    }
    return text(`report ready after ${steps} steps`);
  });
  // asks the client during the call: elicitation/create, then roots/list (server-to-client requests on the call's stream)
  server.registerTool('confirm_refund', { inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    const ask = { message: `Refund order ${orderId}?`, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } };
    const answer = await extra.sendRequest({ method: 'elicitation/create', params: ask }, ElicitResultSchema);
    const roots = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
    return text(`refund of ${orderId}: ${answer.action}${answer.content?.confirm ? ' (confirmed)' : ''}, ${roots.roots.length} root(s)`);
  });
  server.registerTool('crash', { inputSchema: {} }, async () => {
    throw new Error('database connection refused');
  });
  return server;
}
