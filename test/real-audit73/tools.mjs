// The orders tools of audit 73's recordings (test/real-audit73/record.mjs over HTTP, stdio-server.mjs over stdio): one healthy tool, an isError result, a tool that throws, a slow tool with progress, a tool whose stream the HTTP server cuts.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** Registers the tools on an SDK 1.32.2 McpServer; `ran(line)` notes each tool body that runs; `cut()` drops the HTTP connection of the running call. */
export function orderTools(s, z, ran, cut = () => {}) {
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
  s.registerTool('crash', { description: 'Always throws', inputSchema: {} }, async () => { ran('crash'); throw new Error('database connection refused'); });
  s.registerTool('slow_report', { description: 'A slow report with progress', inputSchema: { steps: z.number(), stepMs: z.number() }, annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, extra) => {
    ran(`slow_report ${steps}x${stepMs} start`);
    for (let i = 1; i <= steps; i++) {
      await sleep(stepMs);
      if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } });
    }
    ran(`slow_report ${steps}x${stepMs} end`);
    return text(`report of ${steps} steps`);
  });
  s.registerTool('cut_stream', { description: 'Export orders (the server drops the connection mid-stream)', inputSchema: { orderId: z.string() } }, async ({ orderId }, extra) => {
    ran(`cut_stream ${orderId}`);
    if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1, total: 2 } });
    await sleep(200);
    cut();
    await sleep(500);
    return text(`export of ${orderId} done`);
  });
  return s;
}
