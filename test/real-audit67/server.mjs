// The sixty-seventh audit's server: the SDK 1.32.2 McpServer (stateful, SSE responses) whose tools hang or whose call's stream is cut for the first N calls of an order, behind recordingHandler -> server.ndjson; truth-server.ndjson holds what each tool body and tools/call POST saw.
// env PORT; TOKEN (every request needs `Authorization: Bearer $TOKEN`, else 401 with WWW-Authenticate, as an auth middleware answers).
// Tools: hang {order, times} (its first `times` calls for an order never answer: the SSE stream stays open, silent, until
// the client cancels or leaves), cut {order, times, how} (the first `times` calls: the POST's SSE stream is ended after
// its head, `how` "end" a clean end, "destroy" the socket destroyed, no response), echo {text}, slow {ms}.
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingHandler } from '../../dist/capture/index.js';

const truth = (o) => appendFileSync('truth-server.ndjson', JSON.stringify({ ts: new Date().toISOString(), ...o }) + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const seen = new Map();
const nth = (k) => { const n = (seen.get(k) ?? 0) + 1; seen.set(k, n); return n; };

function build() {
  const s = new McpServer({ name: 'audit67-server', version: '1.0.0' });
  const tool = (name, shape, fn) => s.registerTool(name, { description: name, inputSchema: shape }, async (args, extra) => {
    truth({ tool: name, id: extra.requestId, args, phase: 'start' });
    try {
      const r = await fn(args, extra);
      truth({ tool: name, id: extra.requestId, phase: 'return', aborted: extra.signal.aborted });
      return r;
    } catch (e) {
      truth({ tool: name, id: extra.requestId, phase: 'throw', error: String(e?.message ?? e), aborted: extra.signal.aborted });
      throw e;
    }
  });
  tool('hang', { order: z.string(), times: z.number() }, async ({ order, times }, extra) => {
    if (nth(`hang:${order}`) > times) return text(`order ${order} done`);
    // silent until the client's notifications/cancelled aborts it (then no response goes out)
    await new Promise((resolve, reject) => extra.signal.addEventListener('abort', () => reject(new Error('cancelled by the client')), { once: true }));
    return text('never');
  });
  tool('cut', { order: z.string(), times: z.number(), how: z.string() }, async ({ order }) => {
    await sleep(1500);
    return text(`order ${order} done`);
  });
  tool('echo', { text: z.string() }, async ({ text: t }) => text(`echo ${t}`));
  tool('slow', { ms: z.number() }, async ({ ms }) => { await sleep(ms); return text(`slow ${ms} done`); });
  return s;
}

const sessions = new Map();
const handler = async (req, res) => {
  if (process.env.TOKEN && req.headers.authorization !== `Bearer ${process.env.TOKEN}`) {
    truth({ post: req.method, status: 401, authorization: req.headers.authorization ? 'other' : 'none' });
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token", error_description="missing or wrong token"' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Unauthorized' }, id: null }));
    return;
  }
  const chunks = []; for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks).toString(); let body; try { body = raw ? JSON.parse(raw) : undefined; } catch { body = undefined; }
  const call = body && !Array.isArray(body) && body.method === 'tools/call' ? body : undefined;
  if (call) {
    res.on('error', () => {}); // the SDK's write after a cut
    res.on('close', () => truth({ post: true, tool: call.params?.name, id: call.id, status: res.statusCode, ended: res.writableEnded }));
    const a = call.params?.arguments ?? {};
    if (call.params?.name === 'cut' && nth(`cut:${a.order}`) <= a.times) {
      // the head and nothing else: 300 ms after the request, the stream ends without the response
      setTimeout(() => { truth({ cut: a.how, id: call.id, headersSent: res.headersSent }); if (a.how === 'destroy') res.socket?.destroy(); else res.end(); }, 300);
    }
  }
  const sid = req.headers['mcp-session-id']; let t = sid && sessions.get(sid);
  if (!t && req.method === 'POST' && isInitializeRequest(body)) {
    t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, t) });
    await build().connect(t);
  }
  if (!t) { res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })); return; }
  await t.handleRequest(req, res, body);
};
createServer(recordingHandler(handler, { out: 'server.ndjson' })).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
