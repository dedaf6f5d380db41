// Records test/fixtures/real-audit10b/ (the tenth audit, part B: timeouts driven by progress, and the hops of production): SDK 1.32.2 client and McpServer on 127.0.0.1, each incident three ways. Usage: npm run build && node test/real-audit10b/record.mjs [scenario...]
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createGzip, constants as zc } from 'node:zlib';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, sessionHandler, readBody, stopAfter, startHarProxy, startRecordProxy } = await import(`${R}/test/helpers/loopback.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);
stopAfter(120000);

/**
 * A production hop in front of the server, scaled down in time:
 *   idleMs          nginx's proxy_read_timeout / a load balancer's idle timeout on the response body: when nothing came
 *                   from upstream for idleMs after the head, both connections are closed (the client's response ends
 *                   without its last chunk). Bytes of SSE comments count as traffic, as they do for nginx.
 *   headerTimeoutMs the same before the response head: the hop answers 504 with nginx's page and drops the upstream
 *                   request (the server goes on).
 *   gzip            compresses JSON and SSE responses when the client accepts gzip (nginx `gzip on` with the types
 *                   listed), flushing after each upstream chunk so events are not held back.
 */
async function startHop(upstream, { idleMs, headerTimeoutMs, gzip } = {}) {
  const target = new URL(upstream);
  const log = [];
  const hop = await listen(async (req, res) => {
    const body = await readBody(req);
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    let headTimer;
    if (headerTimeoutMs) headTimer = setTimeout(() => {
      log.push({ hop: '504', after: headerTimeoutMs, method: req.method });
      up.destroy();
      const page = '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx/1.27.3</center>\r\n</body>\r\n</html>\r\n';
      res.writeHead(504, { server: 'nginx/1.27.3', 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) }).end(page);
    }, headerTimeoutMs);
    up.on('error', () => { if (!res.headersSent) res.writeHead(502).end(); else res.destroy(); });
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      clearTimeout(headTimer);
      if (res.headersSent) { ures.resume(); return; }
      const headers = { ...ures.headers };
      const ct = String(headers['content-type'] ?? '');
      const compress = gzip && /gzip/.test(String(req.headers['accept-encoding'] ?? '')) && /json|event-stream/.test(ct);
      let sink = res;
      if (compress) {
        delete headers['content-length'];
        headers['content-encoding'] = 'gzip';
        headers.vary = 'Accept-Encoding';
        const gz = createGzip();
        gz.pipe(res);
        sink = { write: (c) => { gz.write(c); gz.flush(zc.Z_SYNC_FLUSH); }, end: () => gz.end() };
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      let idle;
      const arm = () => {
        if (!idleMs) return;
        clearTimeout(idle);
        idle = setTimeout(() => { log.push({ hop: 'idle cut', after: idleMs, method: req.method }); up.destroy(); res.destroy(); }, idleMs);
      };
      arm();
      ures.on('data', (c) => { arm(); sink.write(c); });
      ures.on('end', () => { clearTimeout(idle); sink.end(); });
      res.on('close', () => clearTimeout(idle));
    });
    up.end(body);
  });
  return { ...hop, log };
}

function dir(name) { const d = `${R}/test/fixtures/real-audit10b/${name}`; mkdirSync(d, { recursive: true }); return d; }

/**
 * A stateful SDK server whose http handler is wrapped in recordingHandler. `pingMs` adds SSE comment keep-alives
 * (`: ping`, as sse-starlette and many gateways' servers send) to every SSE response while it is open; `json` answers
 * with plain JSON (enableJsonResponse).
 */
async function startServer(buildServer, outPath, { pingMs, json } = {}) {
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer, options: () => (json ? { enableJsonResponse: true } : {}) });
  const pinging = (req, res) => {
    if (pingMs) {
      const writeHead = res.writeHead.bind(res);
      res.writeHead = (...a) => {
        const out = writeHead(...a);
        const hs = a.find((x) => x && typeof x === 'object') ?? {};
        if (/event-stream/.test(String(hs['Content-Type'] ?? hs['content-type'] ?? res.getHeader('content-type') ?? ''))) {
          const timer = setInterval(() => { if (!res.writableEnded && !res.destroyed) res.write(': ping\n\n'); }, pingMs);
          res.on('close', () => clearInterval(timer));
          res.on('finish', () => clearInterval(timer));
        }
        return out;
      };
    }
    return h.handle(req, res);
  };
  const rec = recordingHandler(pinging, { out: outPath });
  const s = await listen(rec);
  return { ...s, transports: h.transports, async close() { const all = [...h.transports.values()]; h.transports.clear(); for (const t of all) await t.close().catch(() => {}); await s.close(); } };
}
const text = (t) => ({ content: [{ type: 'text', text: t }] });

/** client (recordingFetch) -> HAR-lines proxy -> `mcp-triage record` -> [hop] -> server (recordingHandler). */
async function rig(name, buildServer, { hop, server: serverOpts } = {}) {
  const d = dir(name);
  for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
  const server = await startServer(buildServer, `${d}/server.ndjson`, serverOpts);
  const h = hop ? await startHop(server.url, hop) : undefined;
  const rp = await startRecordProxy(h?.url ?? server.url, `${d}/proxy.ndjson`);
  const har = await startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = recordingFetch({ out: `${d}/client.ndjson` });
  const observed = [];
  const connect = async (clientName = 'audit10b-app') => {
    const c = new Client({ name: clientName, version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e).slice(0, 160) });
    const t = new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    await c.connect(t);
    return { c, t };
  };
  const call = async (c, label, params, opts = {}) => {
    const progress = [];
    const started = Date.now();
    const o = opts.onprogress === false ? { ...opts, onprogress: undefined } : { ...opts, onprogress: (p) => progress.push(p.progress) };
    try { const r = await c.callTool(params, undefined, o); observed.push({ label, isError: !!r.isError, text: String(r.content?.[0]?.text).slice(0, 80), progress, ms: Date.now() - started }); return r; }
    catch (e) { observed.push({ label, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}`, progress, ms: Date.now() - started }); return e; }
  };
  return { d, connect, call, observed, rf, harUrl: har.url, async done(clients) {
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    if (h?.log.length) observed.push({ hopLog: h.log });
    await har.close(); await rp.stop(); await h?.close(); await server.close(); rf.close?.();
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

/** A tool that sends `steps` progress notifications `stepMs` apart, then stays silent `stallMs` (the first time only, when `once`), then returns; `honour` stops at the client's cancellation. */
function stepTool(s, name, annotations, ran, { steps, stepMs, stallMs = 0, once = true, honour = false }) {
  let calls = 0;
  s.registerTool(name, { inputSchema: { target: z.string() }, annotations }, async ({ target }, extra) => {
    const n = ++calls;
    const token = extra._meta?.progressToken;
    let sent = 0;
    for (let i = 1; i <= steps; i++) {
      if (honour && extra.signal.aborted) { ran.push(`${name} ${target} #${n} stopped at step ${i} (cancelled)`); return text('cancelled'); }
      await sleep(stepMs);
      if (token !== undefined) { await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } }).catch(() => {}); sent++; }
    }
    if (stallMs && (!once || n === 1)) await sleep(stallMs);
    ran.push(`${name} ${target} #${n} ran to its end (${sent} progress${extra.signal.aborted ? ', after the client cancelled' : ''})`);
    return text(`${name} ${target} done`);
  });
}

const S = {};
// A: progress for a while, then the tool stalls: with resetTimeoutOnProgress the timeout fires 400 ms after the last progress (-32001); the app retries with a longer timeout. A destructive tool and a read-only one.
S['progress-then-stall'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'indexer', version: '1.0.0' });
    stepTool(s, 'rebuild_index', { readOnlyHint: false, destructiveHint: true, idempotentHint: false }, ran, { steps: 5, stepMs: 100, stallMs: 1200 });
    stepTool(s, 'scan_logs', { readOnlyHint: true }, ran, { steps: 5, stepMs: 100, stallMs: 1200 });
    return s;
  };
  const r = await rig('progress-then-stall', build);
  const { c } = await r.connect();
  await c.listTools();
  for (const tool of ['rebuild_index', 'scan_logs']) {
    const first = await r.call(c, `${tool} #1`, { name: tool, arguments: { target: 'shard-7' } }, { timeout: 400, resetTimeoutOnProgress: true });
    if (first instanceof Error) { await sleep(300); await r.call(c, `${tool} #2`, { name: tool, arguments: { target: 'shard-7' } }, { timeout: 3000, resetTimeoutOnProgress: true }); }
  }
  await sleep(1500);
  r.observed.push({ ran });
  await r.done([c]);
};
// B: maxTotalTimeout: progress every 100 ms for 1.5 s, the timeout reset by each, but the total capped at 700 ms ("Maximum total timeout exceeded" while progress still arrives). export_archive ignores the cancellation and keeps sending progress; fetch_report (read-only) stops at it. The app retries each 100 ms after the error, with a cap of 4 s (before the SDK's stale timer sends the cancellation); then two identical calls together.
S['max-total-timeout'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'archive', version: '1.0.0' });
    stepTool(s, 'export_archive', { readOnlyHint: false, destructiveHint: false, idempotentHint: false }, ran, { steps: 15, stepMs: 100 });
    stepTool(s, 'fetch_report', { readOnlyHint: true }, ran, { steps: 15, stepMs: 100, honour: true });
    return s;
  };
  const r = await rig('max-total-timeout', build);
  const { c } = await r.connect();
  await c.listTools();
  for (const tool of ['export_archive', 'fetch_report']) {
    const first = await r.call(c, `${tool} #1`, { name: tool, arguments: { target: '2026-11' } }, { timeout: 400, resetTimeoutOnProgress: true, maxTotalTimeout: 700 });
    if (first instanceof Error) { await sleep(100); await r.call(c, `${tool} #2`, { name: tool, arguments: { target: '2026-11' } }, { timeout: 400, resetTimeoutOnProgress: true, maxTotalTimeout: 4000 }); }
  }
  // Must not be linked: two identical calls started together (Promise.all), both over the cap.
  await Promise.all([1, 2].map((k) => r.call(c, `fetch_report both ${k}`, { name: 'fetch_report', arguments: { target: '2026-12' } }, { timeout: 400, resetTimeoutOnProgress: true, maxTotalTimeout: 700 })));
  await sleep(1800);
  r.observed.push({ ran });
  await r.done([c]);
};
// B2: the same with the v2 client 2.4.0 (legacy mode), whose Protocol gives up and cancels the same way; export_archive only.
S['v2-max-total-timeout'] = async () => {
  const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } = await import(`${R}/node_modules/@modelcontextprotocol/client/dist/index.mjs`);
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'archive', version: '1.0.0' });
    stepTool(s, 'export_archive', { readOnlyHint: false, destructiveHint: false, idempotentHint: false }, ran, { steps: 15, stepMs: 100 });
    return s;
  };
  const r = await rig('v2-max-total-timeout', build);
  const c = new V2Client({ name: 'audit10b-v2-app', version: '2.4.0' }, { versionNegotiation: { mode: 'legacy' } });
  c.onerror = (e) => r.observed.push({ onerror: String(e?.message ?? e).slice(0, 160) });
  await c.connect(new V2Transport(new URL(`${r.harUrl}/mcp`), { fetch: r.rf }));
  await c.listTools();
  const v2call = async (label, opts) => {
    const progress = []; const started = Date.now();
    try { const x = await c.callTool({ name: 'export_archive', arguments: { target: '2026-11' } }, { ...opts, onprogress: (p) => progress.push(p.progress) }); r.observed.push({ label, isError: !!x.isError, text: String(x.content?.[0]?.text).slice(0, 80), progress, ms: Date.now() - started }); return x; }
    catch (e) { r.observed.push({ label, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}`, progress, ms: Date.now() - started }); return e; }
  };
  const first = await v2call('export_archive #1', { timeout: 400, resetTimeoutOnProgress: true, maxTotalTimeout: 700 });
  if (first instanceof Error) { await sleep(100); await v2call('export_archive #2', { timeout: 400, resetTimeoutOnProgress: true, maxTotalTimeout: 4000 }); }
  await sleep(1800);
  r.observed.push({ ran });
  await r.done([c]);
};
// C: a hop with a 1 s idle timeout on the response (nginx proxy_read_timeout, a load balancer's idle timeout, scaled down): a tool silent for 2 s is cut; the same tool sending progress every 300 ms, or a server that sends `: ping` comments every 300 ms, passes.
const idleServer = (ran) => () => {
  const s = new McpServer({ name: 'reports', version: '1.0.0' });
  stepTool(s, 'compile_report', { readOnlyHint: true }, ran, { steps: 0, stepMs: 0, stallMs: 2000, once: false });
  stepTool(s, 'compile_report_progress', { readOnlyHint: true }, ran, { steps: 7, stepMs: 300 });
  return s;
};
S['idle-cut-silent'] = async () => {
  const ran = [];
  const r = await rig('idle-cut-silent', idleServer(ran), { hop: { idleMs: 1000 } });
  const { c } = await r.connect();
  await c.listTools();
  await r.call(c, 'compile_report', { name: 'compile_report', arguments: { target: 'q4' } }, { timeout: 3500, onprogress: false });
  await sleep(300);
  r.observed.push({ ran });
  await r.done([c]);
};
S['idle-kept-by-progress'] = async () => {
  const ran = [];
  const r = await rig('idle-kept-by-progress', idleServer(ran), { hop: { idleMs: 1000 } });
  const { c } = await r.connect();
  await c.listTools();
  await r.call(c, 'compile_report_progress', { name: 'compile_report_progress', arguments: { target: 'q4' } }, { timeout: 3500 });
  r.observed.push({ ran });
  await r.done([c]);
};
S['idle-kept-by-ping'] = async () => {
  const ran = [];
  const r = await rig('idle-kept-by-ping', idleServer(ran), { hop: { idleMs: 1000 }, server: { pingMs: 300 } });
  const { c } = await r.connect();
  await c.listTools();
  await r.call(c, 'compile_report', { name: 'compile_report', arguments: { target: 'q4' } }, { timeout: 3500, onprogress: false });
  r.observed.push({ ran });
  await r.done([c]);
};
// D: a hop that gzips JSON and SSE responses, in front of a server answering SSE (the SDK default) and one answering JSON.
const gzipServer = (ran) => () => {
  const s = new McpServer({ name: 'docs', version: '1.0.0' });
  s.registerTool('search_docs', { inputSchema: { q: z.string() }, annotations: { readOnlyHint: true } }, async ({ q }) => { ran.push(`search ${q}`); return text(`3 pages match ${q}: ${'lorem ipsum '.repeat(40)}`); });
  s.registerTool('delete_page', { inputSchema: { page: z.string() }, annotations: { destructiveHint: true } }, async ({ page }) => { ran.push(`delete ${page} refused`); return { content: [{ type: 'text', text: `page ${page} is locked` }], isError: true }; });
  stepTool(s, 'reindex_docs', { readOnlyHint: false, idempotentHint: true }, ran, { steps: 3, stepMs: 100 });
  return s;
};
for (const [name, json] of [['gzip-sse', false], ['gzip-json', true]]) {
  S[name] = async () => {
    const ran = [];
    const r = await rig(name, gzipServer(ran), { hop: { gzip: true }, server: { json } });
    const { c } = await r.connect();
    await c.listTools();
    await r.call(c, 'search_docs', { name: 'search_docs', arguments: { q: 'retry' } });
    await r.call(c, 'delete_page', { name: 'delete_page', arguments: { page: 'home' } });
    await r.call(c, 'reindex_docs', { name: 'reindex_docs', arguments: { target: 'all' } });
    r.observed.push({ ran });
    await r.done([c]);
  };
}
// E: a hop that answers 504 after 800 ms without a response head (nginx proxy_read_timeout before the head, a JSON-answering server) while the server goes on and finishes; the app retries 300 ms later (the tool is fast the second time). send_invoice is destructive, get_balance read-only.
S['gateway-504-then-retry'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'billing', version: '1.0.0' });
    const seen = new Set();
    for (const [tool, annotations] of [['send_invoice', { readOnlyHint: false, destructiveHint: true, idempotentHint: false }], ['get_balance', { readOnlyHint: true }]]) {
      s.registerTool(tool, { inputSchema: { account: z.string() }, annotations }, async ({ account }) => {
        const first = !seen.has(tool); seen.add(tool);
        await sleep(first ? 1500 : 100);
        ran.push(`${tool} ${account}${first ? ' (slow, 1.5 s)' : ''}`);
        return text(`${tool} ${account} done`);
      });
    }
    return s;
  };
  const r = await rig('gateway-504-then-retry', build, { hop: { headerTimeoutMs: 800 }, server: { json: true } });
  const { c } = await r.connect();
  await c.listTools();
  for (const tool of ['send_invoice', 'get_balance']) {
    const first = await r.call(c, `${tool} #1`, { name: tool, arguments: { account: 'ACME-42' } }, { onprogress: false });
    if (first instanceof Error) { await sleep(300); await r.call(c, `${tool} #2`, { name: tool, arguments: { account: 'ACME-42' } }, { onprogress: false }); }
  }
  await sleep(1500);
  r.observed.push({ ran });
  await r.done([c]);
};

// E2: the Python SDK client (mcp 2.3.0, legacy mode) behind the same 504 hop; its views are the proxy's, the HAR's and the server's.
const { execFile } = await import('node:child_process');
const py = (which, url) => new Promise((res, rej) => execFile(process.env.PYTHON ?? '/work/py-venv/bin/python', [`${R}/test/real-audit10b/py_client.py`, which, url], { encoding: 'utf8', timeout: 30000 }, (err, out, errText) => (err ? rej(new Error(`${err.message}\n${errText}`)) : res(JSON.parse(out.trim().split('\n').pop())))));
S['py-gateway-504-then-retry'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'billing', version: '1.0.0' });
    for (const [tool, annotations] of [['send_invoice', { readOnlyHint: false, destructiveHint: true, idempotentHint: false }], ['get_balance', { readOnlyHint: true }]]) {
      s.registerTool(tool, { inputSchema: { account: z.string() }, annotations }, async ({ account }) => {
        const first = !ran.some((x) => x.startsWith(`${tool} `));
        await sleep(first ? 1500 : 100);
        ran.push(`${tool} ${account}${first ? ' (slow, 1.5 s)' : ''}`);
        return text(`${tool} ${account} done`);
      });
    }
    return s;
  };
  const r = await rig('py-gateway-504-then-retry', build, { hop: { headerTimeoutMs: 800 }, server: { json: true } });
  r.observed.push(...(await py('gateway-504', `${r.harUrl}/mcp`)));
  await sleep(1500);
  r.observed.push({ ran });
  await r.done([]);
  rmSync(`${r.d}/client.ndjson`, { force: true });
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { console.log('==', name); await S[name](); }
process.exit(0);
