// The TypeScript server of test/real-audit104/record.mjs: the SDK 1.32.2 McpServer (stateful Streamable HTTP, SSE
// answers) with the Python server's tools (lookup read-only, charge throws: isError); prints "tool body ran: ..." per run.
//   node ts_server.mjs PORT
import { createServer } from 'node:http';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { McpServer, StreamableHTTPServerTransport, types, z, text } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { sessionHandler } = await import(`${R}/test/helpers/loopback.mjs`);
const did = (what) => console.log(`tool body ran: ${what}`);
const buildServer = () => {
  const s = new McpServer({ name: 'audit104-ts-server', version: '1.32.2' });
  s.registerTool('lookup', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => { did(`lookup ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('charge', { description: 'Charge an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { did(`charge ${orderId}`); throw new Error(`card declined for ${orderId}`); });
  return s;
};
const { handle } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer });
createServer(handle).listen(Number(process.argv[2]), '127.0.0.1');
