// @mastra/mcp 2.0.0's MCPServer (on the v2 SDK server 2.0.0) with @mastra/core tools, served by node:http through its startHTTP(), as Mastra's docs show it, in a child process of record.mjs.
// argv: port. Its packages live in their own folder (NPM_SERVERS3, default /work/npm-servers3): @mastra/mcp pins the v2 SDK 2.0.0.
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const NPM = process.env.NPM_SERVERS3 ?? '/work/npm-servers3';
const load = (p) => import(pathToFileURL(join(NPM, 'node_modules', p)).href);
const { MCPServer } = await load('@mastra/mcp/dist/index.js');
const { createTool } = await load('@mastra/core/dist/tools/index.js');
const { z } = await load('zod/index.js');
const [port] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const tools = {
  lookup_order: createTool({ id: 'lookup_order', description: 'Look an order up', inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => `order ${orderId}: shipped` }),
  send_invoice: createTool({ id: 'send_invoice', description: 'Send an invoice', inputSchema: z.object({ orderId: z.string() }), execute: async ({ orderId }) => `invoice sent for ${orderId}` }),
  crash: createTool({ id: 'crash', description: 'Always throws', inputSchema: z.object({}), execute: async () => {
    throw new Error('database connection refused');
  } }),
  slow_report: createTool({ id: 'slow_report', description: 'A report in steps', inputSchema: z.object({ steps: z.number(), stepMs: z.number() }), execute: async ({ steps, stepMs }) => {
    for (let i = 1; i <= steps; i++) await sleep(stepMs);
    return `report of ${steps} steps`;
  } }),
};

const server = new MCPServer({ id: 'servers2-mastra', name: 'servers2-mastra', version: '1.0.0', tools });
const s = createServer(async (req, res) => {
  await server.startHTTP({ url: new URL(req.url, `http://${req.headers.host}`), httpPath: '/mcp', req, res });
});
s.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
