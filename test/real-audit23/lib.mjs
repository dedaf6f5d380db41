// The twenty-third audit's harness: a hand-written MCP server (node:http, no SDK server) that makes one protocol
// mistake per scenario (specs.mjs), recorded by recordingHandler; the TS SDK 1.32.2 client (recordingFetch), the Python
// SDK 2.3.0 client (py_client.py behind `mcp-triage record --side client`) and the v2 client 2.4.0 (recordingFetch)
// call it. Writes test/fixtures/real-audit23/<scenario>/<client>/{client,server}.ndjson and observed.json.
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';

export const REPO = process.env.REPO ?? fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/real-audit23', import.meta.url));
const { recordingFetch, recordingHandler } = await import(`${REPO}/dist/capture/index.js`);
const BIN = `${REPO}/dist/bin.cjs`;
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const TOOLS = [{ name: 'lookup', description: 'stock', inputSchema: { type: 'object', properties: { sku: { type: 'string' } } }, annotations: { readOnlyHint: true } }];
export const reply = (id, result) => ({ jsonrpc: '2.0', id, result });

/** Default answers; `spec.answer(ctx)` may handle any request first (return true when it did). */
function handlerFor(spec, state) {
  return async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const raw = Buffer.concat(chunks).toString('utf8');
    let rpc;
    try { rpc = raw ? JSON.parse(raw) : undefined; } catch {}
    const method = rpc?.method;
    const id = rpc?.id;
    const ctx = { req, res, rpc, method, id, state, raw };
    state.seen.push(`${req.method} ${method ?? ''}`);
    if (spec.answer && (await spec.answer(ctx))) return;
    if (req.method === 'GET') return res.writeHead(405, { allow: 'POST, DELETE' }).end();
    if (req.method === 'DELETE') return res.writeHead(200).end();
    if (id === undefined) return res.writeHead(202).end();
    const json = (obj, headers = {}) => { const b = JSON.stringify(obj); res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b), ...headers }); res.end(b); };
    switch (method) {
      case 'initialize':
        return json(reply(id, { protocolVersion: rpc.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hand-written', version: '0.1.0' } }), state.sid ? { 'mcp-session-id': state.sid } : {});
      case 'tools/list':
        return json(reply(id, { tools: TOOLS }));
      case 'tools/call':
        return json(reply(id, { content: [{ type: 'text', text: `${rpc.params?.arguments?.sku}: 4 in stock` }] }));
      case 'ping':
        return json(reply(id, {}));
      default:
        return json({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  };
}

async function startServer(spec, out) {
  const state = { seen: [], sid: spec.sid === false ? undefined : 'sess-0001', n: {} };
  const server = createServer(recordingHandler(handlerFor(spec, state), { out }));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, state, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

export function describeError(err) {
  const o = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err).slice(0, 400) };
  if (err?.code !== undefined) o.code = err.code;
  return o;
}
const summarize = (r) => r?.tools ? { tools: r.tools.map((t) => t.name) } : r?.content ? { text: r.content.map((c) => c.text).join(' ').slice(0, 200), isError: r.isError === true } : r;

async function step(steps, label, fn) {
  try { const r = await fn(); steps.push({ step: label, ok: true, result: summarize(r) }); return true; } catch (e) { steps.push({ step: label, ok: false, error: describeError(e) }); return false; }
}

async function runTs(spec, dir, url, v2 = false) {
  const steps = []; const onerror = [];
  const f = recordingFetch({ out: `${dir}/client.ndjson`, client: v2 ? 'audit23-v2' : 'audit23-ts' });
  const c = v2 ? new V2Client({ name: 'audit23-v2', version: '2.4.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: 'audit23-ts', version: '1.32.2' });
  c.onerror = (e) => onerror.push(describeError(e));
  const T = v2 ? V2Transport : StreamableHTTPClientTransport;
  const t = new T(new URL('/mcp', url), { fetch: f, reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 } });
  if (await step(steps, 'connect', () => c.connect(t, { timeout: 3000 }))) {
    if (v2) steps[0].era = c.getNegotiatedProtocolVersion?.() ?? null;
    await step(steps, 'list tools', () => c.listTools(undefined, { timeout: 3000 }));
    await step(steps, 'call lookup', () => c.callTool({ name: 'lookup', arguments: { sku: 'A-1' } }, undefined, { timeout: 3000 }));
    if (spec.extra) await spec.extra(c, steps, step);
  }
  await sleep(spec.settleMs ?? 150);
  await c.close().catch(() => {});
  await sleep(100);
  await f.close?.();
  return { steps, onerror };
}

async function runPy(dir, url) {
  const port = await new Promise((r) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
  const proxy = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${port}`, '--target', url, '--out', `${dir}/client.ndjson`, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = ''; proxy.stderr.on('data', (d) => (err += d));
  for (let i = 0; i < 100 && !err.includes('appending'); i++) await sleep(50);
  let steps;
  try {
    const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('py_client.py', import.meta.url)), `http://127.0.0.1:${port}/mcp`], { timeout: 40_000 });
    steps = JSON.parse(stdout);
  } catch (e) { steps = [{ step: 'python', ok: false, error: describeError(e) }]; }
  await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); });
  return { steps };
}

/** Run one scenario for each client in `clients` (ts, py, v2), into test/fixtures/real-audit23/<name>/<client>/. */
export async function runScenario(name, spec, clients = spec.clients ?? ['ts', 'py', 'v2']) {
  for (const who of clients) {
    const dir = `${FIXTURES}/${name}/${who}`;
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/client.ndjson`, ''); writeFileSync(`${dir}/server.ndjson`, '');
    const srv = await startServer(spec, `${dir}/server.ndjson`);
    const t0 = Date.now();
    const observed = who === 'py' ? await runPy(dir, srv.url) : await runTs(spec, dir, srv.url, who === 'v2');
    observed.serverSaw = srv.state.seen;
    observed.client = who;
    await srv.close();
    await sleep(50);
    writeFileSync(`${dir}/observed.json`, JSON.stringify(observed, null, 2) + '\n');
    process.stderr.write(`recorded ${name}/${who} (${Date.now() - t0} ms)\n`);
  }
  process.exitCode = 0;
}
