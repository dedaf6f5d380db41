// The stdio MCP server mcp-proxy spawns in the twelfth audit: the SDK 1.32.2 McpServer on StdioServerTransport; each tool body it runs is a "ran …" line on stderr.
import { McpServer } from '../../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js';
import { StdioServerTransport } from '../../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js';
import { z } from '../../../node_modules/zod/index.js';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ran = (what) => process.stderr.write(`ran ${what}\n`);
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const s = new McpServer({ name: 'orders-stdio', version: '1.0.0' });
s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
s.registerTool('send_invoice', { description: 'Send the invoice of an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`send_invoice ${orderId}`); return text(`invoice for ${orderId} sent`); });
s.registerTool('crash', { description: 'Always throws', inputSchema: {} }, async () => { ran('crash'); throw new Error('database connection refused'); });
s.registerTool('refuse', { description: 'Returns an isError result', inputSchema: {} }, async () => { ran('refuse'); return { ...text('order 1001 is locked'), isError: true }; });
s.registerTool('slow_report', { description: 'A slow report with progress', inputSchema: { steps: z.number(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
  ran(`slow_report ${steps}x${stepMs}`);
  for (let i = 1; i <= steps; i++) {
    await sleep(stepMs);
    if (extra.signal.aborted) { ran('slow_report aborted'); return text('aborted'); }
    if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } });
  }
  ran('slow_report done');
  return text(`report of ${steps} steps`);
});
s.registerTool('die', { description: 'Ends the server process mid-call', inputSchema: {} }, async () => { ran('die (exit 1)'); setTimeout(() => process.exit(1), 20); await sleep(1000); return text('never'); });
await s.connect(new StdioServerTransport());
process.stderr.write('stdio-orders ready\n');
