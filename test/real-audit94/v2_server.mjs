// The TypeScript v2 server of test/real-audit94/record.mjs: @modelcontextprotocol/server 2.4.0's McpServer behind
// createMcpHandler (2026-07-28 per request, sessionless), the same tools as py_server.py but refund; logs each tool body run.
//   node v2_server.mjs PORT  (prints "tool body ran: ..." lines on stdout)
import { createServer } from 'node:http';
import { z } from 'zod';
import { McpServer, createMcpHandler, ProtocolError } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';

const ran = (what) => console.log(`tool body ran: ${what}`);
const text = (t) => ({ content: [{ type: 'text', text: t }] });
function build() {
  const s = new McpServer({ name: 'audit94-v2', version: '2.4.0' });
  s.registerTool('lookup', { inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => { ran(`lookup ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('set_limit', { inputSchema: z.object({ limit: z.number() }) }, async ({ limit }) => { ran(`set_limit ${limit}`); if (limit < 0) throw new ProtocolError(-32602, `limit must be >= 0, got ${limit}`); return text(`limit ${limit}`); });
  s.registerTool('charge', { inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { ran(`charge ${orderId}`); throw new Error(`card declined for ${orderId}`); });
  return s;
}
const handler = toNodeHandler(createMcpHandler(() => build(), { responseMode: 'json', keepAliveMs: 0 }));
createServer((req, res) => handler(req, res)).listen(Number(process.argv[2]), '127.0.0.1', () => console.log('listening'));
