// Records test/fixtures/real-audit85/<scenario>/ (the eighty-fifth audit: stateless servers under concurrent load with faults, several apps sending the same ids with the same arguments) on 127.0.0.1.
// Needs nothing beyond the repository's devDependencies and /work/py-venv (mcp 2.3.0); NOT run by `npm test`.
// Usage: npm run build && node test/real-audit85/record.mjs SCENARIO [SEED]   (SCENARIO: v1, v2 or py; ports 10170-10199)
//   v1: a stateless SDK 1.32.2 server (a McpServer and a StreamableHTTPServerTransport with sessionIdGenerator
//       undefined per POST, SSE answers), SDK 1.32.2 clients (2025-11-25: initialize id 0, then tools/call ids 1, 2...);
//   v2: the v2 server 2.4.0 (createMcpHandler, SSE answers, no sessions), v2 2.4.0 clients on 2026-07-28
//       (versionNegotiation auto: server/discover, then calls);
//   py: the Python SDK 2.3.0 MCPServer with stateless_http=True (test/real-audit85/py_server.py), SDK 1.32.2 clients.
// Four apps call at once, in three rounds 1.5 s apart, each round a Promise.all of get_time {}, charge {amount: 5}
// (destructive) and lookup {q: "x"} (readOnly): the same tools with the same arguments under the same JSON-RPC ids.
// Every Client lists the tools once connected (so the logs carry the annotations).
//   A: a Client in this process, through the fault hop, recordingFetch with `conn` (one per Client), retries on the same Client;
//   B: a Client in this process, straight to the server, recordingFetch without `conn` (never fails);
//   C, D: child processes (`--app`), one app's two workers (the same clientInfo name), through the hop; C without
//      `conn`, retrying on a new Client; D with `conn`, retrying on a new Client.
// An app retries a call that threw (HTTP error, fetch failed, its 1.5 s timeout), up to 3 attempts, 200 ms apart.
// The hop draws a fault per tools/call POST from the seed and the attempt's truth tag (not from arrival order):
// pass, 503 without forwarding, forward then 502 once the server's answer ended (the tool ran), forward and cut the
// SSE stream after its head (the server's answer is read to its end and dropped), or a 400 ms delay.
// Truth: each request carries an `x-audit85-truth` header (`<app>/<call>/<attempt>`) added BELOW the app's
// recordingFetch (so its log has none) and taken off in front of the server's recordingHandler (so its log has none
// either); the tool bodies read it (Python: the forwarder puts it back) and count every run. observed.json holds the
// apps' attempts (JSON-RPC id, client instance, what the caller got), the hop's faults and the tools' runs.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { recordingFetch, recordingHandler } = await import(`${R}/dist/capture/index.js`);
const { listen, sleep, readBody, describeError, stopAfter } = await import(`${R}/test/helpers/loopback.mjs`);
const { rng, hash } = await import(`${R}/test/helpers/chaos-record.mjs`);
const { McpServer } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/server/streamableHttp.js`);
const { Client } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js`);
const { StreamableHTTPClientTransport } = await import(`${R}/node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js`);
const { z } = await import(`${R}/node_modules/zod/index.js`);

const TAG = 'x-audit85-truth';
const TOOLS = {
  get_time: { args: {}, ms: 80, annotations: { readOnlyHint: true } },
  charge: { args: { amount: 5 }, ms: 250, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false } },
  lookup: { args: { q: 'x' }, ms: 60, annotations: { readOnlyHint: true } },
};
const ROUNDS = 3;
const ROUND_MS = 1500;
const TIMEOUT = 1500;
const argv = process.argv.slice(2);

// ---------------------------------------------------------------------------------------------------------------- app
/** One app: its rounds of calls with retries. Answers its attempts (the truth of what the caller got). */
async function runApp({ app, url, sdk, conn, out, t0, retry, clientName }) {
  const als = new AsyncLocalStorage();
  const posts = [];
  // Below recordingFetch: tags the request for the truth (the log never sees the header) and notes its JSON-RPC id.
  const tagFetch = async (input, init = {}) => {
    const ctx = als.getStore();
    const headers = new Headers(init.headers);
    headers.set(TAG, ctx ? `${app}/${ctx.call}/${ctx.attempt}` : `${app}/connect`);
    let body;
    try {
      body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    } catch {}
    if (ctx && body && !Array.isArray(body)) ctx.posts.push({ method: body.method, id: body.id ?? null, at: Date.now() });
    return fetch(input, { ...init, headers });
  };
  let n = 0;
  const v2 = sdk === 'v2' ? await import('@modelcontextprotocol/client') : undefined;
  const shared = conn ? undefined : recordingFetch({ out, fetch: tagFetch });
  const fetches = shared ? [shared] : [];
  /** A new connected Client (the app's instance number k), with its own recordingFetch when the app logs a conn. */
  const connect = async () => {
    const k = ++n;
    const f = shared ?? recordingFetch({ out, fetch: tagFetch, conn: `${app.toLowerCase()}-${k}` });
    if (!shared) fetches.push(f);
    const c = v2 ? new v2.Client({ name: clientName, version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } }) : new Client({ name: clientName, version: '1.0.0' });
    const T = v2 ? v2.StreamableHTTPClientTransport : StreamableHTTPClientTransport;
    await c.connect(new T(new URL(`${url}/mcp`), { fetch: f }));
    // As agents do: the tool list (and its annotations) before any call.
    await c.listTools();
    return { c, k };
  };
  const main = await connect();
  const calls = [];
  const callOne = async (round, tool) => {
    const call = `r${round}-${tool}`;
    const attempts = [];
    calls.push({ app, call, tool, args: TOOLS[tool].args, attempts });
    let client = main;
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (attempt > 1 && retry === 'new') client = await connect();
      const ctx = { call, attempt, posts: [] };
      const a = { attempt, client: client.k, conn: conn ? `${app.toLowerCase()}-${client.k}` : null, start: Date.now() };
      attempts.push(a);
      try {
        const params = { name: tool, arguments: TOOLS[tool].args };
        const r = await als.run(ctx, () => (v2 ? client.c.callTool(params, { timeout: TIMEOUT }) : client.c.callTool(params, undefined, { timeout: TIMEOUT })));
        Object.assign(a, { ok: true, isError: r.isError === true, text: r.content?.map((b) => b.text).join(' ') });
      } catch (e) {
        Object.assign(a, { ok: false, error: describeError(e) });
      }
      a.end = Date.now();
      a.posts = ctx.posts;
      a.id = ctx.posts.find((p) => p.method === 'tools/call')?.id ?? null;
      if (client !== main) await client.c.close().catch(() => {});
      if (a.ok) break;
      await sleep(200);
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    await sleep(Math.max(0, t0 + round * ROUND_MS - Date.now()));
    await Promise.all(Object.keys(TOOLS).map((tool) => callOne(round, tool)));
  }
  await sleep(300);
  await main.c.close().catch(() => {});
  for (const f of fetches) f.close?.();
  return calls;
}

if (argv[0] === '--app') {
  const o = JSON.parse(argv[1]);
  const calls = await runApp(o);
  process.stdout.write(JSON.stringify(calls));
  process.exit(0);
}

// ------------------------------------------------------------------------------------------------------------- server
const [SCENARIO, SEED_ARG] = argv;
if (!['v1', 'v2', 'py'].includes(SCENARIO)) throw new Error('scenario: v1, v2 or py');
const SEED = Number(SEED_ARG ?? 85);
stopAfter(90_000);
const dir = `${R}/test/fixtures/real-audit85/${SCENARIO}`;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const PORT = { v1: 10170, v2: 10180, py: 10190 }[SCENARIO];
const serverAls = new AsyncLocalStorage();
const runs = [];
let counter = 0;
/** A tool run, counted: its invocation number, which app's attempt sent it (the truth tag), when. */
const ran = async (tool, args) => {
  const run = { n: ++counter, tool, args, tag: serverAls.getStore() ?? null, start: Date.now() };
  runs.push(run);
  await sleep(TOOLS[tool].ms);
  run.end = Date.now();
  return { content: [{ type: 'text', text: `${tool} run #${run.n}` }] };
};
const shapes = { get_time: {}, charge: { amount: z.number() }, lookup: { q: z.string() } };
let handle;
let py;
if (SCENARIO === 'v1') {
  const build = () => {
    const s = new McpServer({ name: 'audit85-v1', version: '1.0.0' });
    for (const [tool, t] of Object.entries(TOOLS)) s.registerTool(tool, { inputSchema: shapes[tool], annotations: t.annotations }, (args) => ran(tool, args));
    return s;
  };
  handle = async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const s = build();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void t.close().then(() => s.close()));
    await s.connect(t);
    await t.handleRequest(req, res);
  };
} else if (SCENARIO === 'v2') {
  const v2 = { ...(await import('@modelcontextprotocol/server')), ...(await import('@modelcontextprotocol/node')) };
  const build = () => {
    const s = new v2.McpServer({ name: 'audit85-v2', version: '1.0.0' });
    for (const [tool, t] of Object.entries(TOOLS)) s.registerTool(tool, { inputSchema: z.object(shapes[tool]), annotations: t.annotations }, (args) => ran(tool, args));
    return s;
  };
  handle = v2.toNodeHandler(v2.createMcpHandler(() => build(), { responseMode: 'sse', keepAliveMs: 0 }));
} else {
  const pyPort = PORT + 9;
  py = spawn('/work/py-venv/bin/python', [`${R}/test/real-audit85/py_server.py`, String(pyPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  py.stdout.on('data', (c) => {
    buf += c;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      try {
        const r = JSON.parse(line);
        if (r.n) runs.push(r);
      } catch {}
    }
  });
  for (let i = 0; i < 50; i++) {
    await sleep(200);
    const up = await new Promise((r) => httpRequest({ host: '127.0.0.1', port: pyPort, path: '/mcp', method: 'GET' }, (res) => { res.resume(); r(true); }).on('error', () => r(false)).end());
    if (up) break;
  }
  // A plain forwarder to the Python server (what it sent is what the recordingHandler around it saw); it puts the
  // truth tag back for the tool bodies.
  handle = async (req, res) => {
    const body = await readBody(req);
    const tag = serverAls.getStore();
    const up = httpRequest({ host: '127.0.0.1', port: pyPort, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${pyPort}`, ...(tag ? { [TAG]: tag } : {}) } }, (ures) => {
      res.writeHead(ures.statusCode, ures.headers);
      ures.pipe(res);
    });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.end(body);
  };
}
const recorded = recordingHandler(handle, { out: `${dir}/server.ndjson` });
const serverPosts = [];
// In front of the server's recorder: the truth tag is taken off (neither log has it) and kept for the tool bodies.
const server = await listen((req, res) => {
  const tag = req.headers[TAG] ?? null;
  delete req.headers[TAG];
  for (let i = req.rawHeaders.length - 2; i >= 0; i -= 2) if (req.rawHeaders[i].toLowerCase() === TAG) req.rawHeaders.splice(i, 2);
  serverPosts.push({ tag, method: req.method, at: Date.now() });
  serverAls.run(tag, () => recorded(req, res));
}, PORT);

// ---------------------------------------------------------------------------------------------------------------- hop
const FAULTS = ['pass', '503', '502-after', 'cut', 'delay'];
const hopLog = [];
/** The fault for one tools/call attempt, from the seed and its truth tag (the order POSTs arrive in does not matter). */
const draw = (tag) => {
  const x = rng(SEED * 1000003 + hash(tag))();
  return x < 0.4 ? 'pass' : x < 0.55 ? '503' : x < 0.72 ? '502-after' : x < 0.88 ? 'cut' : 'delay';
};
const hop = await listen(async (req, res) => {
  const body = await readBody(req);
  let rpc;
  try {
    rpc = JSON.parse(body.toString('utf8'));
  } catch {}
  const tag = req.headers[TAG] ?? null;
  const fault = req.method === 'POST' && rpc?.method === 'tools/call' && tag ? draw(tag) : 'pass';
  if (fault !== 'pass' || rpc?.method === 'tools/call') hopLog.push({ tag, id: rpc?.id ?? null, fault, at: Date.now() });
  if (fault === '503') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
  if (fault === 'delay') await sleep(400);
  const up = httpRequest({ host: '127.0.0.1', port: PORT, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${PORT}` } }, (ures) => {
    if (fault === '502-after') {
      ures.resume();
      ures.on('end', () => res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway'));
      return;
    }
    if (fault === 'cut') {
      const h = { ...ures.headers };
      delete h['content-length'];
      res.writeHead(ures.statusCode, h);
      res.end();
      ures.resume();
      return;
    }
    res.writeHead(ures.statusCode, ures.headers);
    ures.pipe(res);
  });
  up.on('error', () => res.destroy());
  res.on('close', () => {
    if (fault !== 'cut' && fault !== '502-after') up.destroy();
  });
  up.end(body);
}, PORT + 1);

// --------------------------------------------------------------------------------------------------------------- apps
const sdk = SCENARIO === 'v2' ? 'v2' : 'v1';
const t0 = Date.now() + 5000; // room for the child processes to start and connect first
const APPS = {
  A: { viaHop: true, conn: true, retry: 'same', clientName: 'agent-a', child: false },
  B: { viaHop: false, conn: false, retry: 'same', clientName: 'agent-b', child: false },
  C: { viaHop: true, conn: false, retry: 'new', clientName: 'batch-worker', child: true },
  D: { viaHop: true, conn: true, retry: 'new', clientName: 'batch-worker', child: true },
};
const jobs = Object.entries(APPS).map(([app, a]) => {
  const o = { app, url: a.viaHop ? hop.url : server.url, sdk, conn: a.conn, out: `${dir}/${app.toLowerCase()}-client.ndjson`, t0, retry: a.retry, clientName: a.clientName };
  if (!a.child) return runApp(o);
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [new URL(import.meta.url).pathname, '--app', JSON.stringify(o)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (c) => (out += c));
    p.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`app ${app} exited ${code}`))));
  });
});
const calls = (await Promise.all(jobs)).flat();
await sleep(500);
py?.kill('SIGTERM');
await sleep(300);
await hop.close();
await server.close();
const rel = (t) => t - t0;
for (const c of calls) for (const a of c.attempts) {
  a.start = rel(a.start);
  a.end = rel(a.end);
  for (const p of a.posts) p.at = rel(p.at);
  a.fault = hopLog.find((h) => h.tag === `${c.app}/${c.call}/${a.attempt}`)?.fault ?? (APPS[c.app].viaHop ? null : 'direct');
  a.runs = runs.filter((r) => r.tag === `${c.app}/${c.call}/${a.attempt}`).map((r) => r.n);
}
const observed = {
  scenario: SCENARIO,
  seed: SEED,
  server: { v1: '@modelcontextprotocol/sdk 1.32.2, stateless (sessionIdGenerator undefined), SSE', v2: '@modelcontextprotocol/server 2.4.0 createMcpHandler (2026-07-28, no sessions), SSE', py: 'mcp 2.3.0 MCPServer, stateless_http=True, SSE' }[SCENARIO],
  client: sdk === 'v2' ? '@modelcontextprotocol/client 2.4.0, versionNegotiation auto (2026-07-28)' : '@modelcontextprotocol/sdk 1.32.2 (2025-11-25)',
  apps: Object.fromEntries(Object.entries(APPS).map(([k, a]) => [k, { ...a, log: `${k.toLowerCase()}-client.ndjson` }])),
  t0: new Date(t0).toISOString(),
  calls,
  hop: hopLog.map((h) => ({ ...h, at: rel(h.at) })),
  runs: runs.map((r) => ({ n: r.n, tool: r.tool, tag: r.tag, start: rel(r.start), end: r.end === undefined ? null : rel(r.end) })),
  unknownPosts: serverPosts.filter((p) => !p.tag).length,
};
writeFileSync(`${dir}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
const failed = calls.filter((c) => !c.attempts.at(-1).ok).length;
process.stderr.write(`${SCENARIO}: ${calls.length} calls, ${calls.reduce((s, c) => s + c.attempts.length, 0)} attempts, ${failed} failed in the end, ${runs.length} tool runs\n`);
process.exit(0);
