// Records test/fixtures/real-gateway-sessions/<case>: the SDK 1.32.2 client and server through a gateway that rewrites Mcp-Session-Id both ways. Usage (after npm run build): node test/real-gateway-sessions/record.mjs [case...]
import { rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import * as L from './lib.mjs';
const { z, McpServer, Client, StreamableHTTPClientTransport, sleep, text } = L;
const NGINX_502 = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

async function rig(name, buildServer, hopFactory) {
  const d = L.dir(name);
  for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
  const server = await L.startServer(buildServer, `${d}/server.ndjson`);
  const hop = hopFactory ? await hopFactory(server.url) : undefined;
  const rp = await L.startRecordProxy(hop?.url ?? server.url, `${d}/proxy.ndjson`);
  const har = await L.startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = L.recordingFetch({ out: `${d}/client.ndjson` });
  const observed = [];
  const connect = async (clientName = 'gw-app') => {
    const c = new Client({ name: clientName, version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e) });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } }));
    observed.push({ connected: clientName, session: c.transport?.sessionId });
    return c;
  };
  const call = async (c, label, params, opts) => {
    try { const r = await c.callTool(params, undefined, opts); observed.push({ label, isError: !!r.isError, text: String(r.content?.[0]?.text).slice(0, 80) }); return r; }
    catch (e) { observed.push({ label, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 120)}` }); return e; }
  };
  return { d, server, hop, connect, call, observed, async done(clients) {
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await har.close(); await rp.stop(); await hop?.close(); await server.close(); rf.close?.();
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

/** The rewriting gateway: maps each server session id to its own gw-N-… both ways; `refuse` may answer a request itself (never forwarded). */
const rewritingGateway = (refuse) => async (upstream) => {
  const target = new URL(upstream); const toGw = new Map(); const toUp = new Map(); let n = 0; const counts = new Map();
  return L.listen(async (req, res) => {
    const body = await L.readBody(req);
    let rpc; try { rpc = body.length ? JSON.parse(body.toString('utf8')) : undefined; } catch {}
    const k = `${rpc?.method ?? req.method} ${rpc?.params?.name ?? ''}`; counts.set(k, (counts.get(k) ?? 0) + 1);
    const answer = rpc?.method && refuse ? refuse({ method: rpc.method, tool: rpc.params?.name, n: counts.get(k) }) : undefined;
    if (answer) { res.writeHead(answer.status, answer.headers ?? {}); res.end(answer.body ?? ''); return; }
    const headers = { ...req.headers, host: target.host };
    if (headers['mcp-session-id']) headers['mcp-session-id'] = toUp.get(headers['mcp-session-id']) ?? headers['mcp-session-id'];
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers });
    up.on('error', () => res.destroy()); res.on('close', () => up.destroy());
    up.on('response', (u) => {
      const h = { ...u.headers }; const sid = h['mcp-session-id'];
      if (sid) { if (!toGw.has(sid)) { const g = `gw-${++n}-${Math.random().toString(16).slice(2, 10)}`; toGw.set(sid, g); toUp.set(g, sid); } h['mcp-session-id'] = toGw.get(sid); }
      res.writeHead(u.statusCode, h); res.flushHeaders(); u.pipe(res);
    });
    up.end(body);
  });
};

const docs = () => {
  const s = new McpServer({ name: 'docs', version: '1.0.0' });
  s.registerTool('search_docs', { inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async ({ q }) => { await sleep(20 + Math.random() * 30); return { ...text(q === 'missing' ? 'no index for missing' : `3 hits for ${q}`), isError: q === 'missing' }; });
  s.registerTool('send_invoice', { inputSchema: { invoice: z.string() }, annotations: { destructiveHint: true, idempotentHint: false, readOnlyHint: false } }, async ({ invoice }) => text(`invoice ${invoice} sent`));
  return s;
};

const S = {};
// One app through the rewriting gateway: tools/list, a search that works and one that returns isError (the eighth audit's recording).
S['session-rewrite'] = async () => {
  const r = await rig('session-rewrite', docs, rewritingGateway());
  const c = await r.connect('audit8-app');
  await c.listTools();
  await r.call(c, 'search ok', { name: 'search_docs', arguments: { q: 'retry' } });
  await r.call(c, 'search missing', { name: 'search_docs', arguments: { q: 'missing' } });
  await r.done([c]);
};
// Two apps with their own names at once through the rewriting gateway: each session's initialize has one counterpart.
S['two-clients'] = async () => {
  const r = await rig('two-clients', docs, rewritingGateway());
  const cs = await Promise.all([r.connect('picker-a'), r.connect('picker-b')]);
  await Promise.all(cs.map((c) => c.listTools()));
  await Promise.all(cs.flatMap((c, k) => [r.call(c, `${k} ok`, { name: 'search_docs', arguments: { q: `retry-${k}` } }), r.call(c, `${k} missing`, { name: 'search_docs', arguments: { q: 'missing' } })]));
  await r.done(cs);
};
// Two workers of one app (same clientInfo) at once: their initializes fit either server session.
S['two-same-clients'] = async () => {
  const r = await rig('two-same-clients', docs, rewritingGateway());
  const cs = await Promise.all([r.connect('worker'), r.connect('worker')]);
  await Promise.all(cs.map((c) => c.listTools()));
  await Promise.all(cs.map((c, k) => r.call(c, `${k} ok`, { name: 'search_docs', arguments: { q: `w${k}` } })));
  await r.done(cs);
};
// The rewriting gateway answers 502 to the first send_invoice without forwarding it; the app retries 300 ms later.
S['gateway-502'] = async () => {
  const r = await rig('gateway-502', docs, rewritingGateway(({ method, tool, n }) => (method === 'tools/call' && tool === 'send_invoice' && n === 1 ? { status: 502, headers: { 'content-type': 'text/html' }, body: NGINX_502 } : undefined)));
  const c = await r.connect();
  await c.listTools();
  await r.call(c, 'send #1', { name: 'send_invoice', arguments: { invoice: 'INV-9' } });
  await sleep(300);
  await r.call(c, 'send #2', { name: 'send_invoice', arguments: { invoice: 'INV-9' } });
  await r.done([c]);
};

// The server restarts behind the rewriting gateway: the client's next call gets the server's 404 under its gw-… id; the
// app reconnects 1.5 s later (a new session, a new gw-… id) and calls again.
S['restart-reconnect'] = async () => {
  const r = await rig('restart-reconnect', docs, rewritingGateway());
  let c = await r.connect();
  await c.listTools();
  await r.call(c, 'search 1', { name: 'search_docs', arguments: { q: 'retry' } });
  await r.server.restart();
  await sleep(100);
  const res = await r.call(c, 'send #1', { name: 'send_invoice', arguments: { invoice: 'INV-7' } });
  if (res instanceof Error) {
    await c.close().catch(() => {});
    await sleep(1500);
    c = await r.connect();
    await r.call(c, 'send #2', { name: 'send_invoice', arguments: { invoice: 'INV-7' } });
  }
  await r.done([c]);
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { console.log('==', name); await S[name](); }
process.exit(0);
