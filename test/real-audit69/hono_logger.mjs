// Node side of test/real-audit69/record.mjs: a Hono 4.13.19 app on @hono/node-server 2.1.9 with hono/logger, in front of the v2 SDK 2.4.0 McpServer on WebStandardStreamableHTTPServerTransport (one per session); its console (stdout and stderr) is the log.
//   node test/real-audit69/hono_logger.mjs PORT RAN_FILE > server.log 2>&1
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { logger } from 'hono/logger';
import { serve } from '@hono/node-server';
import { McpServer, WebStandardStreamableHTTPServerTransport, isInitializeRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const [port, ranFile] = [Number(process.argv[2]), process.argv[3]];
const ran = (s) => appendFileSync(ranFile, `${s}\n`);
const text = (t, isError) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });

function buildServer() {
  const s = new McpServer({ name: 'hono-logger', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { ran(`lookup ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('refund_order', { description: 'Refund an order', inputSchema: z.object({ orderId: z.string() }) }, async ({ orderId }) => { ran(`refund ${orderId}`); return text(`order ${orderId} cannot be refunded: already refunded`, true); });
  s.registerTool('slow_report', { description: 'A slow report', inputSchema: z.object({ month: z.string() }) }, async ({ month }) => { await sleep(1500); ran(`report ${month}`); return text(`report for ${month}`); });
  return s;
}

const app = new Hono();
app.use(logger());
app.get('/health', (c) => c.text('ok'));
const transports = new Map();
app.all('/mcp', async (c) => {
  const sid = c.req.header('mcp-session-id');
  let body;
  if (c.req.method === 'POST') {
    body = await c.req.json().catch(() => undefined);
    // an app bug behind one tool: the handler throws (Hono's default onError prints it and answers 500)
    if (body?.params?.name === 'crash') throw new Error('inventory backend unreachable');
  }
  let t = sid ? transports.get(sid) : undefined;
  if (!t && !sid && c.req.method === 'POST' && isInitializeRequest(body)) {
    t = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
    t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); };
    await buildServer().connect(t);
  }
  if (!t) return c.json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null }, sid ? 404 : 400);
  return t.handleRequest(c.req.raw, { parsedBody: body });
});
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => console.log(`MCP server listening on http://127.0.0.1:${info.port}/mcp`));
process.on('SIGTERM', () => process.exit(0));
