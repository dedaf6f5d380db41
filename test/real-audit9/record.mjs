// Records test/fixtures/real-audit9/ (the ninth audit): SDK 1.32.2 client and server (and the Python SDK 2.3.0 client) on 127.0.0.1, each incident three ways. Usage: npm run build && node test/real-audit9/record.mjs [scenario...]
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, sessionHandler, freePort, startHarProxy, startRecordProxy } = await import(`${R}/test/helpers/loopback.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const types = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/types.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

function dir(name) { const d = `${R}/test/fixtures/real-audit9/${name}`; mkdirSync(d, { recursive: true }); return d; }

/** A stateful SDK server whose http handler is wrapped in recordingHandler; restart() forgets every session. */
async function startServer(buildServer, outPath, port = 0) {
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer });
  const rec = recordingHandler(h.handle, { out: outPath });
  const s = await listen(rec, port);
  return { ...s, transports: h.transports, async restart() { const all = [...h.transports.values()]; h.transports.clear(); for (const t of all) await t.close().catch(() => {}); } };
}
const text = (t) => ({ content: [{ type: 'text', text: t }] });

const { Server } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js`);
const L = { dir, startServer, startRecordProxy, startHarProxy, recordingFetch, types, sleep };

async function rig(name, buildServer) {
  const d = L.dir(name);
  for (const f of ['client.ndjson', 'server.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
  const server = await L.startServer(buildServer, `${d}/server.ndjson`);
  const rp = await L.startRecordProxy(server.url, `${d}/proxy.ndjson`);
  const har = await L.startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = L.recordingFetch({ out: `${d}/client.ndjson` });
  const observed = [];
  const connect = async (clientName = 'audit9-app', { sessionId, capabilities, fetch = rf, onerrorLabel = clientName } = {}) => {
    const c = new Client({ name: clientName, version: '1.0.0' }, { capabilities: capabilities ?? {} });
    c.onerror = (e) => observed.push({ onerror: `${onerrorLabel}: ${String(e?.message ?? e)}` });
    const t = new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch, sessionId, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    try { await c.connect(t); } catch (e) { observed.push({ connect: clientName, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}` }); return { c, t, failed: true }; }
    return { c, t };
  };
  const call = async (c, label, params, opts) => {
    try { const r = await c.callTool(params, undefined, opts); observed.push({ label, isError: !!r.isError, text: String(r.content?.[0]?.text).slice(0, 80) }); return r; }
    catch (e) { observed.push({ label, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}` }); return e; }
  };
  return { d, server, connect, call, observed, rf, harUrl: har.url, async done(clients) {
    for (const c of clients) await c.close().catch(() => {});
    await sleep(150);
    await har.close(); await rp.stop(); await server.close(); rf.close?.();
    writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  } };
}

const S = {};
// A: the app ends its own session (terminateSession: a logout / shutdown hook) while a call is running; then it reconnects and calls again.
S['delete-during-call'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'reports', version: '1.0.0' });
    s.registerTool('build_report', { inputSchema: { month: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false } }, async ({ month }) => {
      await sleep(700); ran.push(`report ${month}`); return text(`report for ${month}: 12 pages`);
    });
    return s;
  };
  const r = await rig('delete-during-call', build);
  const { c, t } = await r.connect();
  await c.listTools();
  const p = r.call(c, 'build #1', { name: 'build_report', arguments: { month: '2026-11' } }, { timeout: 1500 });
  await sleep(200);
  try { await t.terminateSession(); r.observed.push({ terminateSession: 'ok' }); } catch (e) { r.observed.push({ terminateSession: String(e?.message) }); }
  await p;
  await c.close().catch(() => {});
  const { c: c2 } = await r.connect();
  await r.call(c2, 'build #2', { name: 'build_report', arguments: { month: '2026-11' } }, { timeout: 1500 });
  await sleep(100);
  r.observed.push({ ran });
  await r.done([c2]);
};
// B: an admin tool (another process, its own log) DELETEs a worker's session while the worker's call runs; the worker's next call gets 404, it reconnects and retries.
S['delete-by-other-client'] = async () => {
  const ran = [];
  const build = () => {
    const s = new McpServer({ name: 'jobs', version: '1.0.0' });
    s.registerTool('run_job', { inputSchema: { job: z.string() }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true } }, async ({ job }) => {
      await sleep(job === 'nightly' ? 600 : 20); ran.push(`job ${job}`); return text(`job ${job} done`);
    });
    return s;
  };
  const r = await rig('delete-by-other-client', build);
  const adminFetch = L.recordingFetch({ out: `${r.d}/admin.ndjson`, conn: 'admin-cli' });
  const { c, t } = await r.connect('job-worker');
  await c.listTools();
  const p = r.call(c, 'nightly #1', { name: 'run_job', arguments: { job: 'nightly' } }, { timeout: 1200 });
  await sleep(200);
  const admin = await r.connect('admin-cli', { sessionId: t.sessionId, fetch: adminFetch });
  try { await admin.t.terminateSession(); r.observed.push({ adminTerminate: 'ok' }); } catch (e) { r.observed.push({ adminTerminate: String(e?.message) }); }
  await p;
  const second = await r.call(c, 'hourly #1', { name: 'run_job', arguments: { job: 'hourly' } });
  let w = c;
  if (second instanceof Error) {
    await c.close().catch(() => {});
    w = (await r.connect('job-worker')).c;
    await r.call(w, 'hourly #2', { name: 'run_job', arguments: { job: 'hourly' } });
  }
  await sleep(100);
  r.observed.push({ ran });
  adminFetch.close?.();
  await r.done([w, admin.c]);
};
// C: a server built from the spec's draft answers initialize with a protocol version the client does not support; the app tries to connect twice.
S['protocol-version-unsupported'] = async () => {
  const build = () => {
    const s = new Server({ name: 'draft-server', version: '0.9.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(L.types.InitializeRequestSchema, async () => ({ protocolVersion: 'DRAFT-2026-v1', capabilities: { tools: {} }, serverInfo: { name: 'draft-server', version: '0.9.0' } }));
    s.setRequestHandler(L.types.ListToolsRequestSchema, async () => ({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] }));
    s.setRequestHandler(L.types.CallToolRequestSchema, async () => text('found'));
    return s;
  };
  const r = await rig('protocol-version-unsupported', build);
  const a = await r.connect('support-bot');
  const clients = [a.c];
  if (a.failed) { await sleep(300); const b = await r.connect('support-bot'); clients.push(b.c); if (!b.failed) await r.call(b.c, 'lookup', { name: 'lookup', arguments: {} }); }
  await r.done(clients);
};
// C2 (must not fire): the server answers an older version the client supports (2025-06-18); the client accepts it and goes on.
S['protocol-version-downgraded'] = async () => {
  const build = () => {
    const s = new Server({ name: 'older-server', version: '0.9.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(L.types.InitializeRequestSchema, async () => ({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'older-server', version: '0.9.0' } }));
    s.setRequestHandler(L.types.ListToolsRequestSchema, async () => ({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] }));
    s.setRequestHandler(L.types.CallToolRequestSchema, async () => text('found'));
    return s;
  };
  const r = await rig('protocol-version-downgraded', build);
  const a = await r.connect('support-bot');
  if (!a.failed) await r.call(a.c, 'lookup', { name: 'lookup', arguments: {} });
  await r.done([a.c]);
};
// D: a payment tool refuses with URL elicitation required (-32042) until the user completes 3-D Secure in the browser; the app waits for notifications/elicitation/complete, then calls again.
S['url-elicitation-required'] = async () => {
  const charged = [];
  const approved = new Set();
  const build = () => {
    const s = new McpServer({ name: 'payments', version: '1.0.0' });
    s.registerTool('charge_card', { inputSchema: { order: z.string(), cents: z.number() }, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } }, async ({ order, cents }) => {
      if (!approved.has(order)) {
        const elicitationId = `3ds-${order}`;
        const notify = s.server.createElicitationCompletionNotifier(elicitationId);
        setTimeout(() => { approved.add(order); notify().catch(() => {}); }, 250);
        throw new L.types.UrlElicitationRequiredError([{ mode: 'url', elicitationId, url: `https://pay.example.test/3ds/${order}`, message: 'Confirm the payment with your bank' }]);
      }
      charged.push(`${order} ${cents}`); return text(`charged ${cents} for ${order}`);
    });
    return s;
  };
  const r = await rig('url-elicitation-required', build);
  const { c } = await r.connect('checkout-agent', { capabilities: { elicitation: { url: {} } } });
  let completed;
  const done = new Promise((res) => (completed = res));
  c.setNotificationHandler(L.types.ElicitationCompleteNotificationSchema, (n) => { r.observed.push({ notification: n.method, elicitationId: n.params.elicitationId }); completed(); });
  await c.listTools();
  const first = await r.call(c, 'charge #1', { name: 'charge_card', arguments: { order: 'ORD-7', cents: 4999 } });
  if (first instanceof Error) {
    r.observed.push({ elicitations: first.elicitations ?? first.data?.elicitations });
    await Promise.race([done, sleep(2000)]);
    await r.call(c, 'charge #2', { name: 'charge_card', arguments: { order: 'ORD-7', cents: 4999 } });
  }
  await sleep(100);
  r.observed.push({ charged });
  await r.done([c]);
};

// E: the Python client (mcp 2.3.0, legacy mode) against the draft server, and against the payment tool; its view is the proxy's and the HAR's.
const { execFile } = await import('node:child_process');
const py = (which, url) => new Promise((res, rej) => execFile(process.env.PYTHON ?? '/work/py-venv/bin/python', [`${R}/test/real-audit9/py_client.py`, which, url], { encoding: 'utf8', timeout: 30000 }, (err, out, errText) => (err ? rej(new Error(`${err.message}\n${errText}`)) : res(JSON.parse(out.trim().split('\n').pop())))));
S['py-protocol-version-unsupported'] = async () => {
  const build = () => {
    const s = new Server({ name: 'draft-server', version: '0.9.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(L.types.InitializeRequestSchema, async () => ({ protocolVersion: 'DRAFT-2026-v1', capabilities: { tools: {} }, serverInfo: { name: 'draft-server', version: '0.9.0' } }));
    s.setRequestHandler(L.types.ListToolsRequestSchema, async () => ({ tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] }));
    s.setRequestHandler(L.types.CallToolRequestSchema, async () => text('found'));
    return s;
  };
  const r = await rig('py-protocol-version-unsupported', build);
  r.observed.push(...(await py('version', `${r.harUrl}/mcp`)));
  await r.done([]);
};
S['py-url-elicitation-required'] = async () => {
  const charged = [];
  const approved = new Set();
  const build = () => {
    const s = new McpServer({ name: 'payments', version: '1.0.0' });
    s.registerTool('charge_card', { inputSchema: { order: z.string(), cents: z.number() }, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } }, async ({ order, cents }) => {
      if (!approved.has(order)) {
        setTimeout(() => approved.add(order), 200);
        throw new L.types.UrlElicitationRequiredError([{ mode: 'url', elicitationId: `3ds-${order}`, url: `https://pay.example.test/3ds/${order}`, message: 'Confirm the payment with your bank' }]);
      }
      charged.push(`${order} ${cents}`); return text(`charged ${cents} for ${order}`);
    });
    return s;
  };
  const r = await rig('py-url-elicitation-required', build);
  r.observed.push(...(await py('url-elicitation', `${r.harUrl}/mcp`)));
  r.observed.push({ charged });
  await r.done([]);
};

// C3: the v2 client 2.4.0 against the draft server, with versionNegotiation auto (a server/discover probe first, refused, then initialize) and legacy.
S['v2-protocol-version-unsupported'] = async () => {
  const { Client: V2Client, StreamableHTTPClientTransport: V2Transport } = await import(`${R}/node_modules/@modelcontextprotocol/client/dist/index.mjs`);
  const build = () => {
    const s = new Server({ name: 'draft-server', version: '0.9.0' }, { capabilities: { tools: {} } });
    s.setRequestHandler(L.types.InitializeRequestSchema, async () => ({ protocolVersion: 'DRAFT-2026-v1', capabilities: { tools: {} }, serverInfo: { name: 'draft-server', version: '0.9.0' } }));
    return s;
  };
  const r = await rig('v2-protocol-version-unsupported', build);
  for (const mode of ['auto', 'legacy']) {
    const c = new V2Client({ name: 'v2-support-bot', version: '2.4.0' }, { versionNegotiation: { mode } });
    try { await c.connect(new V2Transport(new URL(`${r.harUrl}/mcp`), { fetch: r.rf }), { timeout: 5000 }); r.observed.push({ mode, connect: 'ok' }); await c.close(); }
    catch (e) { r.observed.push({ mode, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}` }); }
    await sleep(200);
  }
  await r.done([]);
};
// F: the same DELETE during a call against the Python SDK's MCPServer (test/real-audit7/py_server.py): its export_report
// sends progress every 150 ms and notes whether it was cancelled; its view is the record proxy's in front of it.
S['py-server-delete-during-call'] = async () => {
  const d = L.dir('py-server-delete-during-call');
  for (const f of ['client.ndjson', 'proxy.ndjson', 'capture.har.ndjson']) rmSync(`${d}/${f}`, { force: true });
  const port = await freePort();
  const ranFile = `${d}/.ran.txt`;
  writeFileSync(ranFile, '');
  const proc = spawn(process.env.PYTHON ?? '/work/py-venv/bin/python', [`${R}/test/real-audit7/py_server.py`, 'stateful', String(port), ranFile], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let i = 0; i < 100; i++) { try { await fetch(`http://127.0.0.1:${port}/mcp`, { method: 'GET' }); break; } catch { await sleep(100); } }
  const rp = await L.startRecordProxy(`http://127.0.0.1:${port}`, `${d}/proxy.ndjson`);
  const har = await L.startHarProxy(rp.url, `${d}/capture.har.ndjson`);
  const rf = L.recordingFetch({ out: `${d}/client.ndjson` });
  const observed = [];
  const connect = async () => {
    const c = new Client({ name: 'audit9-app', version: '1.0.0' });
    c.onerror = (e) => observed.push({ onerror: String(e?.message ?? e) });
    const t = new StreamableHTTPClientTransport(new URL(`${har.url}/mcp`), { fetch: rf, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
    await c.connect(t);
    return { c, t };
  };
  const call = async (c, label) => {
    const progress = [];
    try { const r = await c.callTool({ name: 'export_report', arguments: { month: '2026-11' } }, undefined, { timeout: 2000, onprogress: (p) => progress.push(p.progress) }); observed.push({ label, isError: !!r.isError, text: String(r.content?.[0]?.text).slice(0, 80), progress }); }
    catch (e) { observed.push({ label, error: `${e?.constructor?.name} ${e?.code ?? ''} ${String(e?.message).slice(0, 160)}`, progress }); }
  };
  const { c, t } = await connect();
  await c.listTools();
  const p = call(c, 'export #1');
  await sleep(400);
  try { await t.terminateSession(); observed.push({ terminateSession: 'ok' }); } catch (e) { observed.push({ terminateSession: String(e?.message) }); }
  await p;
  await c.close().catch(() => {});
  const { c: c2 } = await connect();
  await call(c2, 'export #2');
  await sleep(200);
  await c2.close().catch(() => {});
  await sleep(150);
  await har.close(); await rp.stop(); rf.close?.();
  proc.kill('SIGTERM');
  observed.push({ serverRan: readFileSync(ranFile, 'utf8').trim().split('\n').filter(Boolean) });
  rmSync(ranFile, { force: true });
  writeFileSync(`${d}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
};

for (const name of process.argv.length > 2 ? process.argv.slice(2) : Object.keys(S)) { console.log('==', name); await S[name](); }
process.exit(0);
