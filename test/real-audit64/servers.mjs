// The real SDK servers the sixty-fourth audit puts behind the MCP Inspector's CLI: SDK 1.32.2 (v1) and v2 2.4.0 McpServers with the same tools, stateful, stateless or JSON-response, their own view recorded by recordingHandler, and faults the server's HTTP layer answers itself.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { McpError, ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as v2 from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { recordingHandler } from '../../dist/capture/index.js';
import { handleStateless, listen, readBody, sessionHandler, sleep } from '../helpers/loopback.mjs';

const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** The tools both SDKs serve; `ran` lists every tool body that ran (the server's truth), `sdk` picks the error class. */
function registerTools(s, ran, sdk) {
  const schema = (shape) => (sdk === 'v2' ? z.object(shape) : shape);
  const signalOf = (extra) => (sdk === 'v2' ? extra.mcpReq.signal : extra.signal);
  const tokenOf = (extra) => (sdk === 'v2' ? extra.mcpReq._meta?.progressToken : extra._meta?.progressToken);
  const notify = (extra, n) => (sdk === 'v2' ? extra.mcpReq.notify(n) : extra.sendNotification(n));
  s.registerTool('echo', { description: 'Echoes the text.', inputSchema: schema({ text: z.string() }), annotations: { readOnlyHint: true } }, async ({ text: t }) => {
    ran.push(`echo ${t}`);
    return text(`echo: ${t}`);
  });
  s.registerTool('add', { description: 'Adds two numbers.', inputSchema: schema({ a: z.number(), b: z.number() }), annotations: { readOnlyHint: true } }, async ({ a, b }) => {
    ran.push(`add ${a} ${b}`);
    return text(String(a + b));
  });
  s.registerTool('fail_result', { description: 'Answers isError.', inputSchema: schema({ reason: z.string().optional() }) }, async ({ reason }) => {
    ran.push(`fail_result ${reason ?? ''}`);
    return { ...text(`the tool failed: ${reason ?? 'no reason'}`), isError: true };
  });
  s.registerTool('throws_protocol', { description: 'Throws an MCP error -32602.', inputSchema: schema({ orderId: z.string().optional() }) }, async ({ orderId }) => {
    ran.push(`throws_protocol ${orderId ?? ''}`);
    if (sdk === 'v2') throw new v2.ProtocolError(v2.ProtocolErrorCode.InvalidParams, `order ${orderId ?? '?'} is locked`);
    throw new McpError(ErrorCode.InvalidParams, `order ${orderId ?? '?'} is locked`);
  });
  s.registerTool('chatty', { description: 'Logs and reports progress.', inputSchema: schema({ steps: z.number().optional() }) }, async ({ steps = 3 }, extra) => {
    const token = tokenOf(extra);
    for (let i = 1; i <= steps; i++) {
      await notify(extra, { method: 'notifications/message', params: { level: 'info', logger: 'chatty', data: `step ${i} of ${steps}` } });
      if (token !== undefined) await notify(extra, { method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
      await sleep(40);
    }
    ran.push(`chatty ${steps} token=${token !== undefined}`);
    return text(`chatty done after ${steps} steps`);
  });
  s.registerTool('slow', { description: 'Sleeps ms milliseconds.', inputSchema: schema({ ms: z.number() }) }, async ({ ms }, extra) => {
    const signal = signalOf(extra);
    const t0 = Date.now();
    while (Date.now() - t0 < ms && !signal.aborted) await sleep(25);
    ran.push(`slow ${ms} ${signal.aborted ? `aborted after ${Math.round((Date.now() - t0) / 100) * 100} ms` : 'done'}`);
    return text(signal.aborted ? 'slow: cancelled' : `slow: done after ${ms} ms`);
  });
  if (sdk === 'v2') {
    s.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'the readme' }] }));
    s.registerPrompt('greet', { description: 'Greets.', argsSchema: z.object({ name: z.string() }) }, async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }] }));
  } else {
    s.registerResource('readme', 'docs://readme', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'the readme' }] }));
    s.registerPrompt('greet', { description: 'Greets.', argsSchema: { name: z.string() } }, async ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }] }));
  }
}

const v1Server = (ran) => () => {
  const s = new McpServerV1({ name: 'audit64-v1', version: '1.0.0' }, { capabilities: { logging: {} } });
  registerTools(s, ran, 'v1');
  return s;
};
const v2Server = (ran) => () => {
  const s = new v2.McpServer({ name: 'audit64-v2', version: '1.0.0' }, { capabilities: { logging: {} } });
  registerTools(s, ran, 'v2');
  return s;
};

/**
 * Starts one server on 127.0.0.1:`port`, recorded to `out` (side server). sdk: v1 | v2; mode: stateful (default) |
 * stateless | json (stateful, JSON responses) | sse (v1's legacy HTTP+SSE at /sse and /messages).
 * `fault({ req, rpc, n })` may answer { respond, headers, body } or { destroy: true } before the SDK sees the request
 * (the server's own HTTP layer: inside the recording).
 */
export async function startServer({ sdk = 'v1', mode = 'stateful', port, out, fault }) {
  const ran = [];
  let inner;
  let closeInner = async () => {};
  if (sdk === 'v2') {
    const h = v2.createMcpHandler(v2Server(ran), { responseMode: mode === 'json' ? 'json' : 'auto', keepAliveMs: 0 });
    const node = toNodeHandler(h);
    inner = (req, res, body) => node(req, res, body);
    closeInner = () => h.close().catch(() => {});
  } else if (mode === 'stateless') {
    inner = (req, res, body) => handleStatelessWithBody(req, res, body, v1Server(ran));
  } else if (mode === 'sse') {
    const transports = new Map();
    inner = async (req, res, body) => {
      const url = new URL(req.url, 'http://x');
      if (req.method === 'GET' && url.pathname === '/sse') {
        const t = new SSEServerTransport('/messages', res);
        transports.set(t.sessionId, t);
        res.on('close', () => transports.delete(t.sessionId));
        await v1Server(ran)().connect(t);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const t = transports.get(url.searchParams.get('sessionId'));
        if (!t) return void res.writeHead(404).end('Session not found');
        await t.handlePostMessage(req, res, body);
        return;
      }
      res.writeHead(404).end();
    };
    closeInner = async () => { for (const t of transports.values()) await t.close().catch(() => {}); };
  } else {
    const sh = sessionHandlerWithBody({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: v1Server(ran), options: () => (mode === 'json' ? { enableJsonResponse: true } : {}) });
    inner = sh.handle;
    closeInner = async () => { for (const t of sh.transports.values()) await t.close().catch(() => {}); };
  }
  let n = 0;
  const s = await listen(
    recordingHandler(async (req, res) => {
      try {
        const raw = req.method === 'POST' ? (await readBody(req)).toString('utf8') : '';
        let rpc;
        try { rpc = raw ? JSON.parse(raw) : undefined; } catch {}
        n++;
        const a = fault?.({ req, rpc, n }) ?? {};
        if (a.respond) return void res.writeHead(a.respond, a.headers ?? {}).end(a.body ?? '');
        if (a.destroy) return void req.socket.destroy();
        await inner(req, res, rpc);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500).end(String(err?.message ?? err));
      }
    }, { out }),
    port,
  );
  return { url: s.url, ran, async close() { await closeInner(); await s.close(); } };
}

// loopback.mjs's handlers read the body themselves; here the fault layer has read it already
function sessionHandlerWithBody({ Transport, buildServer, options }) {
  const transports = new Map();
  const handle = async (req, res, body) => {
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const t = transports.get(sid);
      if (!t) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
      await t.handleRequest(req, res, body);
      return;
    }
    if (req.method === 'POST' && body && isInitializeRequest(body)) {
      const t = new Transport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, t), ...options() });
      t.onclose = () => t.sessionId && transports.delete(t.sessionId);
      await buildServer().connect(t);
      await t.handleRequest(req, res, body);
      return;
    }
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
  };
  return { handle, transports };
}

async function handleStatelessWithBody(req, res, body, buildServer) {
  if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
  const mcp = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => void transport.close().then(() => mcp.close()));
  await mcp.connect(transport);
  await transport.handleRequest(req, res, body);
}
void sessionHandler; void handleStateless;
