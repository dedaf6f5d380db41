// The stdio MCP server of test/real-audit72/record.mjs (SDK 1.32.2 McpServer over stdio): logs each call on stderr, appends the tool bodies that ran to $RAN_LOG; crash_process exits mid-call, chatty prints a non-JSON line on stdout.
import { appendFileSync } from 'node:fs';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StdioServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ran = (s) => { process.stderr.write(`[orders-stdio] ${s}\n`); if (process.env.RAN_LOG) appendFileSync(process.env.RAN_LOG, `${s}\n`); };
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const s = new McpServer({ name: 'audit72-orders-stdio', version: '1.0.0' });
s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
s.registerTool('crash', { description: 'Always throws', inputSchema: {} }, async () => { ran('crash'); throw new Error('database connection refused'); });
s.registerTool('crash_process', { description: 'The process exits mid-call', inputSchema: {} }, async () => { ran('crash_process'); await sleep(100); process.stderr.write('FATAL: out of memory (simulated)\n'); process.exit(3); });
s.registerTool('chatty', { description: 'Prints a stray line on stdout', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`chatty ${orderId}`); process.stdout.write(`debug: looking up ${orderId}\n`); return text(`order ${orderId}: shipped`); });
s.registerTool('slow_report', { description: 'A slow report with progress', inputSchema: { steps: z.number(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
  ran(`slow_report ${steps}x${stepMs} start`);
  for (let i = 1; i <= steps; i++) {
    await sleep(stepMs);
    if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } });
  }
  ran(`slow_report ${steps}x${stepMs} end`);
  return text(`report of ${steps} steps`);
});
await s.connect(new StdioServerTransport());
ran('started');
