// Shared by the side audits' recorders (test/real-audit89, test/real-audit92): the SDK 1.32.2 invoice server they record, and the two loggers developers write themselves (an Express app's request logger, a client app's fetch wrapper).
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

/**
 * The SDK 1.32.2 server: a transport per session; lookup_order (read-only), send_invoice (its first run a tool error:
 * the first of the handler's life, or of each session with `perSession`) and refund (always a tool error). Each tool
 * body that runs is pushed to `observed.serverRan`. Returns `(req, res, parsedBody)`.
 */
export function invoiceServer(observed, { name, perSession = false }) {
  const transports = new Map();
  let invoices = 0;
  return async (req, res, body) => {
    const sid = req.headers['mcp-session-id'];
    let t = sid ? transports.get(sid) : undefined;
    if (!t) {
      if (sid) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })); return; }
      let sessionInvoices = 0;
      const s = new McpServer({ name, version: '1.32.2' });
      s.registerTool('lookup_order', { inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } }, async ({ orderId }) => { observed.serverRan.push(`lookup_order ${orderId}`); return { content: [{ type: 'text', text: `order ${orderId}: shipped` }] }; });
      s.registerTool('send_invoice', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => {
        observed.serverRan.push(`send_invoice ${orderId}`);
        if ((perSession ? ++sessionInvoices : ++invoices) === 1) return { content: [{ type: 'text', text: 'mail relay refused the connection' }], isError: true };
        return { content: [{ type: 'text', text: `invoice for ${orderId} sent` }] };
      });
      s.registerTool('refund', { inputSchema: { orderId: z.string() } }, async ({ orderId }) => { observed.serverRan.push(`refund ${orderId}`); return { content: [{ type: 'text', text: `refund of ${orderId} failed: payment gateway busy` }], isError: true }; });
      t = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (id) => transports.set(id, t) });
      await s.connect(t);
    }
    await t.handleRequest(req, res, body);
  };
}

/** An Express app's own request logger, as developers write one: a JSON line per request once its response is done (method, path, the caller's address, session, status, ms, both bodies). */
export function expressAccessLogger(out) {
  return (req, res, next) => {
    const started = Date.now();
    const chunks = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = (chunk, ...rest) => { if (chunk) chunks.push(Buffer.from(chunk)); return write(chunk, ...rest); };
    res.end = (chunk, ...rest) => { if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk)); return end(chunk, ...rest); };
    let said = false;
    const log = () => {
      if (said) return;
      said = true;
      const text = Buffer.concat(chunks).toString('utf8');
      appendFileSync(out, `${JSON.stringify({
        ts: new Date(started).toISOString(), level: 'info', method: req.method, path: req.originalUrl, remoteAddress: req.socket.remoteAddress,
        sessionId: req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id') ?? null, status: res.statusCode, ms: Date.now() - started,
        body: req.body ?? null, responseBody: text || null,
      })}\n`);
    };
    res.on('finish', log);
    res.on('close', log);
    next();
  };
}

/** A client app's own fetch wrapper: each POST's and DELETE's exchange as a JSON line once the response is read (GET streams pass through). */
export function loggingFetch(out, inner = fetch) {
  return async (url, init) => {
    const req = new Request(url, init);
    if (req.method === 'GET') return inner(req);
    const started = new Date();
    const sent = await req.clone().text();
    const res = await inner(req);
    const text = await res.text();
    appendFileSync(out, `${JSON.stringify({
      time: started.toISOString(), method: req.method, url: req.url, requestHeaders: Object.fromEntries(req.headers), requestBody: sent || null,
      status: res.status, responseHeaders: Object.fromEntries(res.headers), responseBody: text, durationMs: Date.now() - started.getTime(),
    })}\n`);
    return new Response(res.status === 204 || res.status === 202 ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
