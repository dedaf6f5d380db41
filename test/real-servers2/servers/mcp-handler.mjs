// mcp-handler 2.4.0 (Vercel's createMcpHandler, on the v2 SDK server 2.4.0) served by plain node:http through a Request/Response adapter, in a child process of record.mjs.
// argv: port. Its README mounts the handler for GET, POST (and DELETE) of one route; here every method of /mcp reaches it.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const NPM = process.env.NPM_SERVERS2 ?? '/work/npm-servers2';
const load = (p) => import(pathToFileURL(join(NPM, 'node_modules', p)).href);
const { createMcpHandler } = await load('mcp-handler/dist/index.mjs');
const { z } = await load('zod/v4/index.js');
const [port] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const handler = createMcpHandler(
  (server) => {
    server.registerTool('lookup_order', { description: 'Look an order up', inputSchema: z.object({ orderId: z.string() }), annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => ({ content: [{ type: 'text', text: `order ${orderId}: shipped` }] }));
    server.registerTool('send_invoice', { description: 'Send an invoice', inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => ({ content: [{ type: 'text', text: `invoice sent for ${orderId}` }] }));
    server.registerTool('validate_quantity', { description: 'Check a quantity', inputSchema: z.object({ quantity: z.number() }), annotations: { readOnlyHint: true } }, async ({ quantity }) =>
      quantity > 0 ? { content: [{ type: 'text', text: 'quantity ok' }] } : { content: [{ type: 'text', text: `quantity must be positive, got ${quantity}` }], isError: true },
    );
    server.registerTool('crash', { description: 'Always throws' }, async () => {
      throw new Error('database connection refused');
    });
    server.registerTool('slow_report', { description: 'A report in steps, with progress', inputSchema: z.object({ steps: z.number(), stepMs: z.number() }), annotations: { readOnlyHint: true } }, async ({ steps, stepMs }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await sleep(stepMs);
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps } });
      }
      return { content: [{ type: 'text', text: `report of ${steps} steps` }] };
    });
  },
  { serverInfo: { name: 'servers2-mcp-handler', version: '1.0.0' } },
);

const s = createServer(async (req, res) => {
  if (!req.url.startsWith('/mcp')) return res.writeHead(404).end('Not Found');
  const ac = new AbortController();
  res.on('close', () => ac.abort());
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: hasBody ? Readable.toWeb(req) : undefined, duplex: 'half', signal: ac.signal });
  try {
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(String(err?.message ?? err));
  }
});
s.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
