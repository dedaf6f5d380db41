// Records test/fixtures/real-audit97/ (the ninety-seventh audit: a judge's blind run, seeded draws from a matrix of client SDK x server SDK x protocol era x hop fault x server outcome x the app's own retry policy) on 127.0.0.1, ports 10750-10799.
// NOT run by `npm test` (it starts servers and the Python SDK). Needs the repository's devDependencies (SDK 1.32.2, the
// v2 2.4.0 packages) and /work/py-venv (the Python SDK 2.3.0; or PYTHON=); no network:
//   npm run build && node test/real-audit97/record.mjs [--audit 99|101] [--draw N] [seed...]
// `--audit 99` records into test/fixtures/real-audit99/ on ports 10850-10899 instead (the ninety-ninth audit's run, its
// seeds KEEP_99). `--audit 101` records into test/fixtures/real-audit101/ on ports 10950-10999, its seeds KEEP_101, --draw
// from the master seed 101, with the hundred-and-first audit's draws added to each cell (`draw(seed, true)`): the app's
// calls at once (1-3 calls of the drawn tool in one Promise.all / asyncio.gather on one session), where the hop's fault
// lands (the first or the second POST of the drawn tool, the `initialize`, the first `tools/list`), the app's retry
// policy also on a failed connect (a new client) or `tools/list`, and the Python app's own DEBUG log (client.log). With no seed, the committed seeds (KEEP) are recorded; --draw N draws N seeds from the master seed 97 and only prints
// each one's cell of the matrix (nothing is recorded), to choose which to keep. A seed redraws the same cell.
// Each run: the app (client SDK: `ts1` Client + StreamableHTTPClientTransport 1.32.2, `v2` Client 2.4.0, `py` Client
// 2.3.0) -> its capture (TypeScript: recordingFetch, client.ndjson; Python, another process: `mcp-triage record --side
// client`, client.ndjson) -> a HAR-lines proxy (capture.har.ndjson) -> the fault hop (10750 + k) -> the server's capture
// (TypeScript servers in this process: recordingHandler; the Python server: `mcp-triage record --side server`;
// server.ndjson) -> the server (`ts1` McpServer 1.32.2, `v2` McpServer 2.4.0 with createMcpHandler, `py` MCPServer 2.3.0).
// The app lists the tools, makes the drawn call (its tool by the drawn server outcome: send_email (unannotated) or lookup
// (read-only) for success, charge for isError, set_limit -1 for -32602, refund for an elicitation round), with its own
// retry policy on a thrown error (none; once after 50 ms; backoff: twice, after 400 and 1200 ms), a 1.5 s timeout,
// notes on its attempts (withCallNote) when drawn, then one lookup. The hop does the drawn fault to the drawn call's first
// POST only. observed.json: the cell, what each call attempt of the app got or raised, the tool bodies that ran (the
// server's own truth), each POST the hop saw and what it did (with the answer's status and Content-Type, and
// `serverAnswered` where the server's answer was an input_required round or a JSON-RPC error).
import { mkdirSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { createInterface } from 'node:readline';
import { rng } from '../helpers/chaos-record.mjs';
import { listen, readBody, sessionHandler, handleStateless, sleep, startHarProxy, startRecordProxy, stopAfter } from '../helpers/loopback.mjs';
import { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, McpServer, StreamableHTTPServerTransport, types, z, clean, errOf, short } from '../helpers/audit-rig.mjs';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);
const v2 = await import('@modelcontextprotocol/server');
const { toNodeHandler } = await import('@modelcontextprotocol/node');
const zv4 = (await import('zod')).z;
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const HERE = new URL('.', import.meta.url).pathname;

/** The seeds committed: the most informative of the drawn runs (see test/fixtures/README.md). */
export const KEEP = [183889, 484678, 638766, 494153, 372376, 779989, 678621, 701141, 565583, 219500, 860733, 833951, 922418, 490278, 361884];
/** The seed the ninety-ninth audit recorded with `--audit 99`: a v2 client's elicitation against the 1.32.2 server's stateless mode, drawn three times here and not kept. */
export const KEEP_99 = [867016];
/** The seeds the hundred-and-first audit committed with `--audit 101` (see its section of test/fixtures/README.md). */
export const KEEP_101 = [29398, 60980, 475910, 228592, 435739, 947, 764801, 963332, 957975, 215322, 540608, 920525, 77665];

const argv = process.argv.slice(2);
const audit = argv[0] === '--audit' ? argv[1] : '97';
if (!['97', '99', '101'].includes(audit)) throw new Error('--audit takes 99 or 101 only');
/** Where the runs go, the first of their ports, the master seed of --draw, and whether the cells have audit 101's draws. */
const INTO = { 97: { folder: 'real-audit97', port: 10750, keep: KEEP, master: 97 }, 99: { folder: 'real-audit99', port: 10850, keep: KEEP_99, master: 97 }, 101: { folder: 'real-audit101', port: 10950, keep: KEEP_101, master: 101, ext: true } }[audit];

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
/** A seed's cell of the matrix. Eras: `legacy` (2025-11-25 with a session), `stateless` (2025-11-25, no session: the SDK 1.32.2 server's stateless mode), `modern` (2026-07-28, sessionless). */
export function draw(seed, ext = false) {
  const r = rng(seed);
  const client = pick(r, ['ts1', 'v2', 'py']);
  const server = pick(r, ['ts1', 'v2', 'py']);
  const eras = ['legacy', ...(server === 'ts1' ? ['stateless'] : []), ...(client !== 'ts1' && server !== 'ts1' ? ['modern'] : [])];
  const era = pick(r, eras);
  const faults = ['none', '503', '429', '500html', 'cut', 'delay', 'malformed', 'wrongid', ...(era === 'legacy' ? ['404'] : [])];
  const fault = pick(r, faults);
  const outcome = pick(r, ['success', 'success', 'isError', '-32602', 'elicit']);
  const policy = pick(r, ['none', 'once', 'backoff']);
  const notes = client !== 'py' && r() < 0.5;
  const tool = { success: pick(r, ['send_email', 'lookup']), isError: 'charge', '-32602': 'set_limit', elicit: 'refund' }[outcome];
  if (!ext) return { seed, client, server, era, fault, outcome, tool, policy, notes };
  // audit 101's draws, after the ones above (so a seed's first fields are its audit-97 cell): calls at once, and where the
  // fault lands. Before the call the faults are those a client's opening meets without hanging to the SDK's 60 s default:
  // the hop's own answers and a broken body on `initialize`, those and a cut stream (and a 404 with a session) on `tools/list`.
  const concurrency = pick(r, [1, 2, 3]);
  const target = fault === 'none' ? 'call' : pick(r, ['call', 'initialize', 'tools/list', ...(concurrency > 1 ? ['call2', 'call2'] : [])]);
  const allowed = { initialize: ['503', '429', '500html', 'malformed'], 'tools/list': ['503', '429', '500html', 'malformed', 'cut', ...(era === 'legacy' ? ['404'] : [])] }[target];
  const fault2 = allowed && !allowed.includes(fault) ? pick(r, allowed) : fault;
  return { seed, client, server, era, fault: fault2, outcome, tool, policy, notes, concurrency, target };
}

const POLICY = { none: { retries: 0, delays: [] }, once: { retries: 1, delays: [50] }, backoff: { retries: 2, delays: [400, 1200] } };
const TIMEOUT_MS = 1500;
const argsOf = (tool, id) => (tool === 'set_limit' ? { limit: -1 } : { orderId: id });
const NGINX_500 = '<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n<center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** The TypeScript servers' tools (SDK 1.32.2 McpServer, or the v2 McpServer when `V2`); ran[] gets each body that ran. */
function tsServer(ran, V2) {
  const Server = V2 ? v2.McpServer : McpServer;
  const zz = V2 ? zv4 : z;
  const schema = (shape) => (V2 ? zz.object(shape) : shape);
  const s = new Server({ name: `audit97-${V2 ? 'v2' : 'ts1'}`, version: '1.0.0' });
  const text = (t, isError) => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) });
  s.registerTool('lookup', { description: 'Look up an order', inputSchema: schema({ orderId: zz.string() }), annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ orderId }) => { ran.push(`lookup ${orderId}`); return text(`order ${orderId}: shipped`); });
  s.registerTool('send_email', { description: 'Email the customer', inputSchema: schema({ orderId: zz.string() }) }, async ({ orderId }) => { ran.push(`send_email ${orderId}`); return text(`email for ${orderId} sent`); });
  s.registerTool('charge', { description: 'Charge the card', inputSchema: schema({ orderId: zz.string() }) }, async ({ orderId }) => { ran.push(`charge ${orderId}`); return text(`card declined for ${orderId}`, true); });
  s.registerTool('set_limit', { description: 'Set a limit', inputSchema: schema({ limit: zz.number() }) }, async ({ limit }) => {
    ran.push(`set_limit ${limit}`);
    const E = V2 ? v2.ProtocolError : types.McpError;
    throw new E(-32602, `limit must be >= 0, got ${limit}`);
  });
  s.registerTool('refund', { description: 'Refund an order, with the user\'s approval', inputSchema: schema({ orderId: zz.string() }) }, async ({ orderId }, extra) => {
    const requestedSchema = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };
    if (V2) {
      const answer = extra.mcpReq?.inputResponses?.approval;
      if (!answer) return v2.inputRequired({ inputRequests: { approval: v2.inputRequired.elicit({ mode: 'form', message: `Refund ${orderId}?`, requestedSchema }) }, requestState: orderId });
      ran.push(`refund ${orderId}`);
      return text(`refund ${orderId}: approved (${answer.content?.reason})`);
    }
    const answer = await s.server.elicitInput({ message: `Refund ${orderId}?`, requestedSchema });
    ran.push(`refund ${orderId}`);
    return text(`refund ${orderId}: approved (${answer.content?.reason})`);
  });
  return s;
}

/** The server of a cell on `port`, its own view in `out`: { close(), ran } (the Python server's ran from its stdout). */
async function startServer(cell, port, out) {
  if (cell.server === 'py') {
    const ran = [];
    const child = spawn(PY, [`${HERE}py_server.py`, String(port + 1)], { stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: child.stdout }).on('line', (l) => { try { ran.push(JSON.parse(l).ran); } catch {} });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`py server exited: ${err.slice(0, 500)}`);
      try { await fetch(`http://127.0.0.1:${port + 1}/mcp`, { method: 'GET', signal: AbortSignal.timeout(300) }).then((r) => r.body?.cancel()); break; } catch (e) { if (e?.name === 'TimeoutError') break; await sleep(100); }
    }
    const proxy = await startRecordProxy(`http://127.0.0.1:${port + 1}`, out, 'server');
    return { url: proxy.url, ran, async close() { await proxy.stop(); await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }); } };
  }
  const ran = [];
  let handler;
  let closeMore = async () => {};
  if (cell.server === 'v2') {
    const h = v2.createMcpHandler(() => tsServer(ran, true), { responseMode: 'auto', keepAliveMs: 0 });
    const node = toNodeHandler(h);
    handler = async (req, res) => { try { await node(req, res); } catch (e) { if (!res.headersSent) res.writeHead(500).end(String(e)); } };
    closeMore = () => h.close().catch(() => {});
  } else if (cell.era === 'stateless') {
    handler = (req, res) => handleStateless(req, res, { Transport: StreamableHTTPServerTransport, buildServer: () => tsServer(ran, false) }).catch(() => res.destroy());
  } else {
    handler = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: () => tsServer(ran, false) }).handle;
  }
  const s = await listen(recordingHandler(handler, { out }), port + 1);
  return { url: s.url, ran, async close() { await closeMore(); await s.close(); } };
}

/**
 * The fault hop: forwards to `upstream`, doing `cell.fault` to the first tools/call POST of the drawn tool (audit 101:
 * the POST `cell.target` names: the first or second of the drawn tool, the first initialize or tools/list); log[] gets
 * each POST (with its session id, where it had one).
 */
function faultHop(cell, upstream, port, log) {
  const target = new URL(upstream);
  const aim = cell.target ?? 'call';
  const nth = aim === 'call2' ? 2 : 1;
  let seen = 0;
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch {}
    // (`initialize` aims at the opening: on 2026-07-28 the clients open with `server/discover` instead)
    const aimed = req.method === 'POST' && (aim.startsWith('call') ? rpc?.method === 'tools/call' && rpc.params?.name === cell.tool : rpc?.method === aim || (aim === 'initialize' && rpc?.method === 'server/discover'));
    const hit = aimed && ++seen === nth;
    const fault = hit ? cell.fault : 'none';
    const sid = req.headers['mcp-session-id'];
    const entry = { request: `${req.method} ${rpc?.method ?? ''}${rpc?.params?.name ? ` ${rpc.params.name}` : ''}`.trim(), ...(rpc?.id !== undefined ? { id: rpc.id } : {}), ...(cell.target && sid ? { session: String(sid) } : {}), ...(cell.target && rpc?.params?.arguments?.orderId ? { orderId: rpc.params.arguments.orderId } : {}), action: fault === 'none' ? 'forward' : fault };
    if (req.method === 'POST') log.push(entry);
    const answer = (status, headers, body) => { res.writeHead(status, headers); res.end(body); };
    if (fault === '503') return answer(503, { 'content-type': 'text/plain' }, 'Service Unavailable');
    if (fault === '429') return answer(429, { 'content-type': 'text/plain', 'retry-after': '1' }, 'Too Many Requests');
    if (fault === '404') return answer(404, { 'content-type': 'application/json' }, JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
    if (fault === '500html') return answer(500, { 'content-type': 'text/html' }, NGINX_500);
    if (fault === 'delay') await sleep(TIMEOUT_MS + 800);
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      const sse = /event-stream/.test(String(headers['content-type'] ?? ''));
      if (req.method === 'POST') entry.answer = `${ures.statusCode} ${headers['content-type'] ?? ''}`.trim();
      if (fault === 'cut' || fault === 'malformed' || fault === 'wrongid') delete headers['content-length'];
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      let buf = '';
      ures.on('data', (c) => {
        // what the server answered, as the hop read it (before any fault): an input_required round, a JSON-RPC error
        if (req.method === 'POST' && /"resultType":"input_required"/.test(c.toString('utf8'))) entry.serverAnswered = 'input_required';
        else if (req.method === 'POST' && entry.serverAnswered === undefined && /"error":\{"code":/.test(c.toString('utf8'))) entry.serverAnswered = 'error';
        else if (cell.target && req.method === 'POST' && entry.serverAnswered === undefined && /"isError":true/.test(c.toString('utf8'))) entry.serverAnswered = 'isError';
        if (res.writableEnded) return;
        if (fault === 'cut') {
          // the answer cut before the final response: SSE events that carry none pass, then the body ends cleanly
          buf += c.toString('utf8');
          for (let m; (m = /\r?\n\r?\n/.exec(buf)); ) {
            const ev = buf.slice(0, m.index + m[0].length);
            buf = buf.slice(m.index + m[0].length);
            if (!sse || /"result"|"error"/.test(ev)) { entry.cut = true; res.end(); ures.destroy(); return; }
            res.write(ev);
          }
          return;
        }
        let s = c.toString('utf8');
        if (fault === 'malformed') s = s.replace('"result":{', '"result":[');
        if (fault === 'wrongid') s = s.replace(new RegExp(`"id":${JSON.stringify(rpc.id)}(?=[,}])`), `"id":${typeof rpc.id === 'number' ? rpc.id + 700 : '"x-700"'}`);
        res.write(s);
      });
      ures.on('end', () => { if (!res.writableEnded) { if (fault === 'cut') entry.cut = true; res.end(); } });
    });
    up.end(raw);
  }, port);
}

/** The TypeScript app of a cell (ts1 or v2 client), its fetch recordingFetch into client.ndjson. */
async function runTsApp(cell, url, out, plan, seen) {
  const rf = recordingFetch({ out, client: `audit97-${cell.client}-app@1.0.0` });
  const V2 = cell.client === 'v2';
  if (plan.connect) return runTsApp101(cell, url, rf, plan, seen);
  const c = V2
    ? new ClientV2({ name: `audit97-${cell.client}-app`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...(cell.era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}) })
    : new Client({ name: `audit97-${cell.client}-app`, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const accept = async (req) => { seen.push({ elicitation: req.params?.message ?? null }); return { action: 'accept', content: { reason: 'damaged' } }; };
  if (V2) c.setRequestHandler('elicitation/create', accept); else c.setRequestHandler(types.ElicitRequestSchema, accept);
  const t = V2 ? new TransportV2(new URL(url), { fetch: rf }) : new StreamableHTTPClientTransport(new URL(url), { fetch: rf });
  try {
    await c.connect(t);
    seen.push({ label: 'connect', ok: true });
    await c.listTools();
    for (const call of plan.calls) {
      for (let i = 0; i <= call.retries; i++) {
        const t0 = Date.now();
        const label = call.label + (i ? ` (the app's attempt ${i + 1})` : '');
        const send = () => (V2 ? c.callTool({ name: call.tool, arguments: call.args }, { timeout: call.timeoutMs }) : c.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: call.timeoutMs }));
        try {
          const r = await (cell.notes ? withCallNote({ retryOrigin: i ? 'app' : 'none', attempt: i + 1, call: call.label }, send) : send());
          seen.push({ label, call: call.label, attempt: i + 1, ok: short(r), ms: Date.now() - t0 });
          break;
        } catch (e) {
          seen.push({ label, call: call.label, attempt: i + 1, error: errOf(e), ms: Date.now() - t0 });
          if (i < call.retries) await sleep(call.delays[i]);
        }
      }
    }
  } catch (e) {
    seen.push({ label: 'connect or list', error: errOf(e) });
  }
  await t.terminateSession?.().catch(() => {});
  await c.close().catch(() => {});
  await sleep(100);
  rf.close();
}

/** One step of the app (audit 101) with its retry policy on a thrown error: seen[] gets each attempt; true when one worked. */
async function stepWithPolicy(cell, base, policy, seen, fn, noted = false) {
  for (let i = 0; i <= policy.retries; i++) {
    const t0 = Date.now();
    const label = base.label + (i ? ` (the app's attempt ${i + 1})` : '');
    try {
      const r = await (noted && cell.notes ? withCallNote({ retryOrigin: i ? 'app' : 'none', attempt: i + 1, call: base.label }, fn) : fn(i));
      seen.push({ ...base, label, attempt: i + 1, ok: r === undefined ? true : short(r), ms: Date.now() - t0 });
      return true;
    } catch (e) {
      seen.push({ ...base, label, attempt: i + 1, error: errOf(e), ms: Date.now() - t0 });
      if (i < policy.retries) await sleep(policy.delays[i]);
    }
  }
  return false;
}

/** Audit 101's TypeScript app: connect (a new client each attempt) and tools/list with the policy, the drawn calls at once, the follow-up. */
async function runTsApp101(cell, url, rf, plan, seen) {
  const V2 = cell.client === 'v2';
  const accept = async (req) => { seen.push({ elicitation: req.params?.message ?? null }); return { action: 'accept', content: { reason: 'damaged' } }; };
  let c;
  let t;
  const open = async () => {
    if (c) await c.close().catch(() => {});
    c = V2
      ? new ClientV2({ name: `audit97-${cell.client}-app`, version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, ...(cell.era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {}) })
      : new Client({ name: `audit97-${cell.client}-app`, version: '1.0.0' }, { capabilities: { elicitation: {} } });
    if (V2) c.setRequestHandler('elicitation/create', accept); else c.setRequestHandler(types.ElicitRequestSchema, accept);
    t = V2 ? new TransportV2(new URL(url), { fetch: rf }) : new StreamableHTTPClientTransport(new URL(url), { fetch: rf });
    await c.connect(t, { timeout: TIMEOUT_MS });
  };
  const send = (call) => () => (V2 ? c.callTool({ name: call.tool, arguments: call.args }, { timeout: call.timeoutMs }) : c.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: call.timeoutMs }));
  if (await stepWithPolicy(cell, { label: 'connect', step: 'initialize' }, plan.connect, seen, open)
    && await stepWithPolicy(cell, { label: 'tools/list', step: 'tools/list' }, plan.connect, seen, async () => { await c.listTools(undefined, { timeout: TIMEOUT_MS }); })) {
    const [follow, ...drawn] = [plan.calls[plan.calls.length - 1], ...plan.calls.slice(0, -1)];
    await Promise.all(drawn.map((call) => stepWithPolicy(cell, { label: call.label, call: call.label }, call, seen, send(call), true)));
    await stepWithPolicy(cell, { label: follow.label, call: follow.label }, follow, seen, send(follow), true);
  }
  await t?.terminateSession?.().catch(() => {});
  await c?.close().catch(() => {});
  await sleep(100);
  rf.close();
}

/** The Python app of a cell, in its own process, behind `mcp-triage record --side client` (client.ndjson). */
async function runPyApp(cell, url, out, plan, seen) {
  const proxy = await startRecordProxy(url, out, 'client');
  try {
    const child = spawn(PY, [`${HERE}py_app.py`, `${proxy.url}/mcp`, JSON.stringify({ mode: cell.era === 'modern' ? 'auto' : 'legacy', calls: plan.calls, ...(plan.connect ? { connect: plan.connect, debugLog: out.replace(/client\.ndjson$/, 'client.log') } : {}) })], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((r) => child.once('exit', r));
    try { seen.push(...JSON.parse(stdout).seen.map((s) => (s.error ? { ...s, error: { ...s.error, message: clean(s.error.message) } } : s))); } catch { seen.push({ label: 'py app', error: { name: 'NoOutput', message: clean(stderr).slice(-300) } }); }
  } finally {
    await sleep(200);
    await proxy.stop();
  }
}

async function record(seed, k) {
  const cell = draw(seed, INTO.ext);
  const name = `s${seed}-${cell.client}-${cell.server}-${cell.era}-${cell.fault}-${cell.outcome.replace('-', 'e')}-${cell.policy}${INTO.ext ? `-${cell.target.replace('tools/', '')}-x${cell.concurrency}` : ''}`;
  const d = `${R}/test/fixtures/${INTO.folder}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const port = INTO.port + 4 * (k % 12);
  const server = await startServer(cell, port, `${d}/server.ndjson`);
  const hopLog = [];
  const hop = await faultHop(cell, server.url, port + 2, hopLog);
  const har = await startHarProxy(hop.url, `${d}/capture.har.ndjson`, port + 3);
  const id = `ord-${seed}`;
  const n = cell.concurrency ?? 1;
  const ids = n === 1 ? [id] : Array.from({ length: n }, (_, i) => `${id}-${i + 1}`);
  const plan = { calls: [
    ...ids.map((x) => ({ label: `${cell.tool} ${x}`, tool: cell.tool, args: argsOf(cell.tool, x), timeoutMs: TIMEOUT_MS, ...POLICY[cell.policy] })),
    { label: `lookup ${id}-after`, tool: 'lookup', args: { orderId: `${id}-after` }, timeoutMs: TIMEOUT_MS, retries: 0, delays: [] },
  ], ...(INTO.ext ? { connect: POLICY[cell.policy] } : {}) };
  const seen = [];
  if (cell.client === 'py') await runPyApp(cell, `${har.url}`, `${d}/client.ndjson`, plan, seen);
  else await runTsApp(cell, `${har.url}/mcp`, `${d}/client.ndjson`, plan, seen);
  await sleep(cell.fault === 'delay' ? TIMEOUT_MS + 800 : 300);
  await har.close();
  await hop.close();
  await server.close();
  for (const f of ['client.ndjson', 'server.ndjson', 'capture.har.ndjson']) appendFileSync(`${d}/${f}`, '');
  const observed = { cell, ...(plan.connect ? { connect: plan.connect } : {}), plan: plan.calls.map(({ label, tool, args, retries, delays, timeoutMs }) => ({ label, tool, args, retries, delays, timeoutMs })), app: seen, serverRan: server.ran, hop: hopLog };
  writeFileSync(`${d}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  process.stdout.write(`${name}: ${seen.filter((s) => s.call).map((s) => (s.ok ? (s.ok.isError ? 'isError' : 'ok') : s.error?.code ?? s.error?.name)).join(',')} ran=${server.ran.length} hop=${hopLog.map((h) => h.action).filter((a) => a !== 'forward').join(',')}\n`);
}

const args = argv[0] === '--audit' ? argv.slice(2) : argv;
if (args[0] === '--draw') {
  const r = rng(INTO.master);
  for (let i = 0; i < Number(args[1] ?? 30); i++) { const seed = Math.floor(r() * 1e6); process.stdout.write(`${JSON.stringify(draw(seed, INTO.ext))}\n`); }
  process.exit(0);
}
stopAfter(600_000);
const seeds = args.length ? args.map(Number) : INTO.keep;
let k = 0;
for (const seed of seeds) await record(seed, k++);
process.exit(0);
