// The shop server recorders use: the SDK 1.32.2 McpServer with three tools, behind an Express 5 app written as the SDK's README writes a stateful server, with a recorder's own middlewares in front of the transport.
import { randomUUID } from 'node:crypto';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep } = await import(`${R}/test/helpers/loopback.mjs`);
const { McpServer, StreamableHTTPServerTransport, types, z, text } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { default: express } = await import(`${R}/node_modules/express/index.js`);

/** The shop server: lookup_order (read-only), send_invoice (destructive, with progress when asked), refund_order (always an isError result). `ran` collects the tool bodies that ran. */
export function shopServer(ran) {
  const s = new McpServer({ name: 'shop', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { ran.push(`lookup_order ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('send_invoice', { description: 'Email the invoice of an order', inputSchema: { orderId: z.string() }, annotations: { destructiveHint: true, idempotentHint: false } }, async ({ orderId }, extra) => {
    ran.push(`send_invoice ${orderId}`);
    if (extra._meta?.progressToken !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: 1, total: 2 } });
    await sleep(300);
    return text(`invoice for ${orderId} sent`);
  });
  s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran.push(`refund_order ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} was already refunded` }] }; });
  return s;
}

/**
 * The Express app, express.json(), then `middlewares` (a recorder's loggers), then one transport and McpServer per
 * session; a POST of an unknown session gets 404 (400 without one), a GET or DELETE of one 404 text. `afterPost` runs
 * once the transport handled a POST. restart() forgets every session (a server restarted in place).
 */
export async function startShopServer(ran, { middlewares = [], afterPost } = {}) {
  const app = express();
  app.use(express.json());
  for (const m of middlewares) app.use(m);
  const transports = new Map();
  app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'];
    let t = sid ? transports.get(sid) : undefined;
    if (!t && !sid && types.isInitializeRequest(req.body)) {
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
      await shopServer(ran).connect(t);
    }
    if (!t) {
      res.status(sid ? 404 : 400).json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null });
      return;
    }
    await t.handleRequest(req, res, req.body);
    afterPost?.(req, res);
  });
  const other = async (req, res) => {
    const t = transports.get(req.headers['mcp-session-id']);
    if (!t) { res.status(404).send('Session not found'); return; }
    await t.handleRequest(req, res);
  };
  app.get('/mcp', other);
  app.delete('/mcp', other);
  const l = await listen(app);
  return { url: l.url, async restart() { const all = [...transports.values()]; transports.clear(); for (const t of all) await t.close().catch(() => {}); }, async close() { await this.restart(); await l.close(); } };
}
