// Records test/fixtures/real-audit105/ (the hundred-and-fifth audit: real SDK traffic at volume through the streaming join) on 127.0.0.1, ports 11150-11199.
// NOT run by `npm test` (it starts servers, a fault hop and Python apps, for about a minute). Needs the repository's
// devDependencies (@modelcontextprotocol/sdk 1.32.2, the v2 client 2.4.0) and the Python SDK 2.3.0 (/work/py-venv, or
// PYTHON); no network:
//   npm run build && node test/real-audit105/record.mjs [SECONDS=30] [SEED=105] [OUT=/tmp/audit105-rec]
//   then node test/real-audit105/record.mjs slice OUT [N=6]   (the committed slice, test/fixtures/real-audit105/: the
//   first N workers of each SDK; see slice())
// Separate processes (this script run with a role): `server` (an SDK 1.32.2 stateful server behind recordingHandler:
// server-ts.ndjson; the Python SDK 2.3.0 stateful server, test/real-audit105/py_server.py, behind `mcp-triage record
// --side server`: server-py.ndjson), `hop` (the fault hop: per tools/call, from the seeded PRNG, 2% answered 503 by the
// hop, 2% 429 with Retry-After: 1, 2% forwarded but the response cut 60 ms after its head, 2% held 1.5 s before it is
// forwarded (past the clients' 1 s timeout), 1% answered 404 Session not found; every tools/call it saw in hop.ndjson),
// `clients ts` (SDK 1.32.2 apps, recordingFetch: client-ts.ndjson) and `clients v2` (v2 2.4.0 apps without version
// negotiation: client-v2.ndjson), and the Python SDK 2.3.0 apps (py_app.py, behind `mcp-triage record --side client`:
// client-py.ndjson). TS and Python apps go to the TS server, v2 apps to the Python server. Each app runs sessions one
// after another (its first two workers keep one session all along), 1 to 12 calls each of lookup (read-only), charge
// (destructive) or fail (isError), each with a unique tag, after a tools/list; a call that threw is retried by the app up to 3 attempts
// (after 404 in a new session; after 429 once Retry-After passed). Truth: truth-*.ndjson (each attempt as its app saw
// it), ran-*.ndjson (each tool body that ran, by tag), hop.ndjson (what the hop did to each tools/call, with its session
// and JSON-RPC id, which tie the app's attempts to the logs' rows).
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { connect } from 'node:net';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const BIN = `${R}/dist/bin.cjs`;
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PORT = { tsServer: 11150, pyServerView: 11151, pyServer: 11152, hopTs: 11160, hopPy: 11161, pyClientView: 11171 };
const [role, ...rest] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** The seeded PRNG (an LCG), one per worker or hop port, so a run's plan and faults are the seed's. */
const prng = (seed) => { let s = seed >>> 0; return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32); };

async function serverRole(out) {
  const { listen, sessionHandler } = await import(`${R}/test/helpers/loopback.mjs`);
  const { McpServer, StreamableHTTPServerTransport, z, text, types } = await import(`${R}/test/helpers/audit-rig.mjs`);
  const { recordingHandler } = await import(`${R}/dist/capture/index.js`);
  const ran = (tool, tag) => appendFileSync(`${out}/ran-ts.ndjson`, `${JSON.stringify({ ts: Date.now(), server: 'ts', tool, tag })}\n`);
  const build = () => {
    const s = new McpServer({ name: 'audit105-ts', version: '1.0.0' });
    const args = { tag: z.string(), ms: z.number().optional() };
    s.registerTool('lookup', { description: 'Look up', inputSchema: args, annotations: { readOnlyHint: true, idempotentHint: true } }, async ({ tag, ms }) => { await sleep(ms ?? 0); ran('lookup', tag); return text(`found ${tag}`); });
    s.registerTool('charge', { description: 'Charge', inputSchema: args, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } }, async ({ tag, ms }) => { await sleep(ms ?? 0); ran('charge', tag); return text(`charged ${tag}`); });
    s.registerTool('fail', { description: 'Fails', inputSchema: args }, async ({ tag }) => { ran('fail', tag); throw new Error(`no stock for ${tag}`); });
    return s;
  };
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: build });
  await listen(recordingHandler(h.handle, { out: `${out}/server-ts.ndjson` }), PORT.tsServer);
  const py = spawn(PY, [`${R}/test/real-audit105/py_server.py`, String(PORT.pyServer), `${out}/ran-py.ndjson`], { stdio: 'ignore' });
  const view = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${PORT.pyServerView}`, '--target', `http://127.0.0.1:${PORT.pyServer}`, '--out', `${out}/server-py.ndjson`, '--side', 'server'], { stdio: 'ignore' });
  process.on('SIGTERM', () => { py.kill('SIGTERM'); view.kill('SIGTERM'); setTimeout(() => process.exit(0), 500); });
  process.stderr.write('server ready\n');
}

async function hopRole(out, seed) {
  const { listen, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
  const hop = (port, upstream, rnd) => listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    let action = 'forward';
    if (rpc?.method === 'tools/call') {
      const r = rnd();
      action = r < 0.02 ? '503' : r < 0.04 ? '429' : r < 0.06 ? 'cut' : r < 0.08 ? 'delay' : r < 0.09 ? '404' : 'forward';
      appendFileSync(`${out}/hop.ndjson`, `${JSON.stringify({ ts: Date.now(), port, session: req.headers['mcp-session-id'] ?? null, id: rpc.id, tool: rpc.params?.name, tag: rpc.params?.arguments?.tag, action })}\n`);
    }
    if (action === '503') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('upstream busy');
    if (action === '429') return void res.writeHead(429, { 'content-type': 'text/plain', 'retry-after': '1' }).end('slow down');
    if (action === '404') return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
    if (action === 'delay') await sleep(1500);
    const up = httpRequest({ hostname: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${upstream}` } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (action === 'cut') {
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        setTimeout(() => { res.destroy(); up.destroy(); }, 60);
        return;
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      ures.on('data', (c) => res.write(c));
      ures.on('end', () => res.end());
    });
    up.end(raw);
  }, port);
  await hop(PORT.hopTs, PORT.tsServer, prng(seed * 7 + 1));
  await hop(PORT.hopPy, PORT.pyServerView, prng(seed * 7 + 2));
  process.stderr.write('hop ready\n');
}

async function clientsRole(out, sdk, workers, seconds, seed) {
  const { Client, StreamableHTTPClientTransport, ClientV2, TransportV2, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
  const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
  const v2 = sdk === 'v2';
  const url = `http://127.0.0.1:${v2 ? PORT.hopPy : PORT.hopTs}/mcp`;
  const rf = recordingFetch({ out: `${out}/client-${sdk}.ndjson` });
  const deadline = Date.now() + seconds * 1000;
  const truth = (o) => appendFileSync(`${out}/truth-${sdk}.ndjson`, `${JSON.stringify({ sdk, ...o })}\n`);
  const errText = (e) => `${e?.constructor?.name ?? typeof e}: ${String(e?.message ?? e).slice(0, 200)}`;
  const connect = async (w) => {
    const name = `audit105-${sdk}-w${w}`;
    const c = v2 ? new ClientV2({ name, version: '1.0.0' }, { capabilities: {} }) : new Client({ name, version: '1.0.0' }, { capabilities: {} });
    c.onerror = () => {};
    const t = v2 ? new TransportV2(new URL(url), { fetch: rf }) : new StreamableHTTPClientTransport(new URL(url), { fetch: rf });
    await c.connect(t);
    await c.listTools(); // the tools' annotations, in the logs
    return { c, t };
  };
  const worker = async (w) => {
    const rnd = prng(seed * 1000 + w + (v2 ? 500 : 0));
    const long = w < 2;
    let n = 0;
    while (Date.now() < deadline) {
      let s;
      try { s = await connect(w); } catch (e) { truth({ worker: w, connect: 'threw', error: errText(e), t0: Date.now() }); await sleep(300); continue; }
      const calls = long ? Infinity : 1 + Math.floor(rnd() * 12);
      for (let k = 0; k < calls && Date.now() < deadline; k++) {
        n++;
        const tag = `${sdk}-w${w}-c${n}`;
        const r = rnd();
        const tool = r < 0.6 ? 'lookup' : r < 0.85 ? 'charge' : 'fail';
        const ms = Math.floor(rnd() * 60);
        for (let attempt = 1; attempt <= 3; attempt++) {
          const t0 = Date.now();
          const rec = { worker: w, call: tag, tool, attempt, session: s.t.sessionId ?? null, t0 };
          try {
            const params = { name: tool, arguments: { tag, ms } };
            const res = await (v2 ? s.c.callTool(params, { timeout: 1000 }) : s.c.callTool(params, undefined, { timeout: 1000 }));
            truth({ ...rec, got: short(res).isError ? 'isError' : 'result', ms: Date.now() - t0 });
            break;
          } catch (e) {
            const error = errText(e);
            truth({ ...rec, got: 'threw', error, ms: Date.now() - t0 });
            if (attempt === 3) break;
            if (/\b404\b|Session not found/.test(error)) {
              await s.c.close().catch(() => {});
              try { s = await connect(w); } catch (e2) { truth({ worker: w, connect: 'threw', error: errText(e2), t0: Date.now() }); s = null; break; }
              continue;
            }
            await sleep(/\b429\b/.test(error) ? 1100 : 250 * attempt);
          }
        }
        if (!s) break;
        await sleep(Math.floor(rnd() * 100));
      }
      if (s) { await s.t.terminateSession?.().catch(() => {}); await s.c.close().catch(() => {}); }
    }
  };
  await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
  await sleep(300);
  await rf.close?.();
  process.exit(0);
}

/** Whether something accepts a TCP connection on the port (no HTTP request: it would be in the logs). */
const listening = (port) => new Promise((r) => { const s = connect(port, '127.0.0.1', () => { s.destroy(); r(true); }); s.on('error', () => r(false)); });

function child(args, label) {
  const p = spawn(process.execPath, [new URL(import.meta.url).pathname, ...args], { stdio: ['ignore', 'inherit', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d) => { err += d; process.stderr.write(`[${label}] ${d}`); });
  return { p, ready: async (word) => { for (let i = 0; i < 200 && !err.includes(word); i++) await sleep(50); }, exit: new Promise((r) => p.once('exit', r)) };
}

async function orchestrate(seconds, seed, out) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const server = child(['server', out], 'server');
  await server.ready('server ready');
  const hop = child(['hop', out, String(seed)], 'hop');
  await hop.ready('hop ready');
  const cview = spawn(process.execPath, [BIN, 'record', '--listen', `127.0.0.1:${PORT.pyClientView}`, '--target', `http://127.0.0.1:${PORT.hopTs}`, '--out', `${out}/client-py.ndjson`, '--side', 'client'], { stdio: 'ignore' });
  // every hop answers before the apps start (the Python server takes seconds on a busy machine)
  for (const port of [PORT.pyServer, PORT.pyServerView, PORT.hopPy, PORT.pyClientView]) {
    for (let i = 0; i < 300 && !(await listening(port)); i++) await sleep(100);
  }
  const t0 = Date.now();
  const ts = child(['clients', out, 'ts', '16', String(seconds), String(seed)], 'ts');
  const v2 = child(['clients', out, 'v2', '12', String(seconds), String(seed)], 'v2');
  const py = spawn(PY, [`${R}/test/real-audit105/py_app.py`, `http://127.0.0.1:${PORT.pyClientView}/mcp`, '10', String(seconds), String(seed), `${out}/truth-py.ndjson`], { stdio: 'inherit' });
  const pyExit = new Promise((r) => py.once('exit', r));
  for (const [label, e] of [['ts', ts.exit], ['v2', v2.exit], ['py', pyExit]]) e.then(() => process.stderr.write(`${label} apps done after ${Date.now() - t0} ms\n`));
  await Promise.all([ts.exit, v2.exit, pyExit]);
  await sleep(2000);
  for (const p of [cview, hop.p, server.p]) p.kill('SIGTERM');
  await sleep(1500);
  writeFileSync(`${out}/run.json`, `${JSON.stringify({ seed, seconds, ms: Date.now() - t0, workers: { ts: 16, v2: 12, py: 10 } })}\n`);
  process.stderr.write(`recorded into ${out}\n`);
}

const readLines = (f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

/**
 * The committed slice: every record of the first `n` workers of each SDK (the exchanges of their sessions and of their
 * initialize requests, by exchange id, in both sides' logs), gzipped, into test/fixtures/real-audit105/; their apps'
 * attempts, joined to the hop's line of each (its session and JSON-RPC id, what it did), and the tool bodies that ran
 * for them, into truth.ndjson.gz; the run's facts into observed.json.
 */
function slice(out, n) {
  const d = `${R}/test/fixtures/real-audit105`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const keepWorker = (w) => w < n;
  const truth = ['ts', 'v2', 'py'].flatMap((sdk) => readLines(`${out}/truth-${sdk}.ndjson`)).filter((t) => keepWorker(t.worker));
  const tags = new Set(truth.filter((t) => t.call).map((t) => t.call));
  const hop = readLines(`${out}/hop.ndjson`).filter((h) => tags.has(h.tag));
  const sessions = new Set(hop.map((h) => h.session).filter(Boolean));
  const clientRe = /"name":"audit105-(ts|v2|py)-w(\d+)"/;
  const logs = readdirSync(out).filter((x) => /^(client|server)-.*\.ndjson$/.test(x)).sort();
  const parse = (f) => readFileSync(`${out}/${f}`, 'utf8').split('\n').filter(Boolean).map((line) => ({ line, rec: JSON.parse(line) }));
  const sidOf = (rec) => rec.session ?? rec.requestHeaders?.['mcp-session-id'] ?? rec.responseHeaders?.['mcp-session-id'] ?? null;
  // the sessions their initialize responses gave them (a session without a tools/call: a connect that went no further)
  for (const f of logs) for (const { line, rec } of parse(f)) { const m = clientRe.exec(line); if (m && keepWorker(Number(m[2]))) { const sid = sidOf(rec); if (sid) sessions.add(sid); } }
  const kept = {};
  for (const f of logs) {
    const recs = parse(f);
    const xids = new Set();
    for (const { line, rec } of recs) {
      const m = clientRe.exec(line);
      const sid = sidOf(rec);
      if ((sid && sessions.has(sid)) || (m && keepWorker(Number(m[2])))) xids.add(rec.xid);
    }
    const lines = recs.filter(({ rec }) => xids.has(rec.xid)).map((x) => x.line);
    kept[f] = lines.length;
    writeFileSync(`${d}/${f}.gz`, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
  }
  // each attempt with the hop's line of it (the k-th tools/call with its tag is its k-th attempt)
  const byTag = new Map();
  for (const h of hop) byTag.set(h.tag, [...(byTag.get(h.tag) ?? []), h]);
  const attempts = truth.filter((t) => t.call).map((t) => { const h = byTag.get(t.call)?.[t.attempt - 1]; return { kind: 'attempt', ...t, hop: h ? { ts: h.ts, session: h.session, id: h.id, action: h.action } : null }; });
  const connects = truth.filter((t) => t.connect || t.session === 'connect').map((t) => ({ kind: 'connect', ...t }));
  const ran = ['ts', 'py'].flatMap((s) => readLines(`${out}/ran-${s}.ndjson`)).filter((r) => tags.has(r.tag)).map((r) => ({ kind: 'ran', server: r.server, tool: r.tool, tag: r.tag, ts: r.ts < 1e12 ? Math.round(r.ts * 1000) : r.ts }));
  writeFileSync(`${d}/truth.ndjson.gz`, gzipSync(`${[...attempts, ...connects, ...ran].map((o) => JSON.stringify(o)).join('\n')}\n`, { level: 9 }));
  const run = JSON.parse(readFileSync(`${out}/run.json`, 'utf8'));
  const count = (xs, f) => xs.reduce((m, x) => ((m[f(x)] = (m[f(x)] ?? 0) + 1), m), {});
  writeFileSync(`${d}/observed.json`, `${JSON.stringify({ run, slice: `the first ${n} workers of each SDK (of ${run.workers.ts} SDK 1.32.2, ${run.workers.v2} v2 and ${run.workers.py} Python apps)`, records: kept, sessions: sessions.size, attempts: attempts.length, calls: tags.size, hop: count(hop, (h) => h.action), apps: count(attempts, (a) => `${a.sdk} ${a.got}`), ran: ran.length, truth: 'truth.ndjson.gz: kind attempt (what the app got or threw, with the hop line of that POST: its session, JSON-RPC id and what the hop did), connect (a connect that threw), ran (a tool body that ran, by tag)' }, null, 1)}\n`);
  process.stderr.write(`slice: ${JSON.stringify(kept)}\n`);
}

if (role === 'server') await serverRole(rest[0]);
else if (role === 'hop') await hopRole(rest[0], Number(rest[1]));
else if (role === 'clients') await clientsRole(rest[0], rest[1], Number(rest[2]), Number(rest[3]), Number(rest[4]));
else if (role === 'slice') slice(rest[0] ?? '/tmp/audit105-rec', Number(rest[1] ?? 6));
else await orchestrate(Number(role ?? 30), Number(rest[0] ?? 105), rest[1] ?? '/tmp/audit105-rec');
