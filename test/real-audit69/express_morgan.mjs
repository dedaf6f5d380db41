// Node side of test/real-audit69/record.mjs: an Express 5 app with morgan 1.12.1 and the SDK 1.32.2 McpServer (one transport per session, as the SDK's README writes it); its console (morgan 'dev' on stdout, Express's error stacks on stderr) is the log, morgan's other formats go to files beside it.
//   node test/real-audit69/express_morgan.mjs PORT RAN_FILE OUT_DIR > server.log 2>&1
//   needs morgan@1.12.1 in /work/audit69-scratch (cd /work/audit69-scratch && npm i morgan@1.12.1), found by MORGAN_DIR (default that folder).
//   OUT_DIR gets morgan-tiny.log, morgan-short.log, morgan-common.log, morgan-combined.log (morgan's { stream } option).
import { appendFileSync, createWriteStream } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { McpServer, StreamableHTTPServerTransport, types, z, text } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { default: express } = await import(`${R}/node_modules/express/index.js`);
const morgan = createRequire(`${process.env.MORGAN_DIR ?? '/work/audit69-scratch'}/package.json`)('morgan');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const [port, ranFile, outDir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const ran = (s) => appendFileSync(ranFile, `${s}\n`);

function buildServer() {
  const s = new McpServer({ name: 'express-morgan', version: '1.0.0' });
  s.registerTool('lookup_order', { description: 'Look up an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`lookup ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('refund_order', { description: 'Refund an order', inputSchema: { orderId: z.string() } }, async ({ orderId }) => { ran(`refund ${orderId}`); return { isError: true, content: [{ type: 'text', text: `order ${orderId} cannot be refunded: already refunded` }] }; });
  s.registerTool('slow_report', { description: 'A slow report', inputSchema: { month: z.string() } }, async ({ month }) => { await sleep(1500); ran(`report ${month}`); return text(`report for ${month}`); });
  return s;
}

const app = express();
app.use(morgan('dev'));
for (const f of ['tiny', 'short', 'common', 'combined']) app.use(morgan(f, { stream: createWriteStream(`${outDir}/morgan-${f}.log`, { flags: 'a' }) }));
app.use(express.json());
app.get('/health', (_req, res) => res.send('ok'));
const transports = new Map();
app.post('/mcp', async (req, res) => {
  // an app bug behind one tool: the handler throws before the transport sees the request (Express answers 500 and prints the stack)
  if (req.body?.params?.name === 'crash') throw new Error('inventory backend unreachable');
  const sid = req.headers['mcp-session-id'];
  let t = sid ? transports.get(sid) : undefined;
  if (!t && !sid && types.isInitializeRequest(req.body)) {
    t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t) });
    t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); };
    await buildServer().connect(t);
  }
  if (!t) {
    res.status(sid ? 404 : 400).json({ jsonrpc: '2.0', error: { code: sid ? -32001 : -32000, message: sid ? 'Session not found' : 'Bad Request: No valid session ID provided' }, id: null });
    return;
  }
  await t.handleRequest(req, res, req.body);
});
const other = async (req, res) => {
  const t = transports.get(req.headers['mcp-session-id']);
  if (!t) { res.status(404).send('Session not found'); return; }
  await t.handleRequest(req, res);
};
app.get('/mcp', other);
app.delete('/mcp', other);
app.listen(port, '127.0.0.1', () => console.log(`MCP server listening on http://127.0.0.1:${port}/mcp`));
process.on('SIGTERM', () => process.exit(0));
