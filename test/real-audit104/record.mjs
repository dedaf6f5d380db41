// Records test/fixtures/real-audit104/ (the hundred-and-fourth audit): the Python SDK 2.3.0 client's timeouts, the
// Retry-After of a 429 and its results, in its own DEBUG log (two formats at once) and on the wire.
// NOT run by `npm test`. It needs the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit104/record.mjs [py-ts] [py-py]      (about 40 s)
// The chain, on 127.0.0.1 ports 11100-11149 only:
//   app (py_app.py: the Python Client, mode "auto"; its DEBUG log -> client.log with times, client-basic.log without)
//     -> `mcp-triage record --side client` (11103, proxy.ndjson: the wire, the truth's second witness)
//     -> a fault hop (11102: 429 with Retry-After, a head held past the app's timeout, a body held past it, a broken result)
//     -> py-ts: the TypeScript SDK 1.32.2 McpServer, stateful, SSE answers (11101, ts_server.mjs; the Client falls back to 2025-11-25)
//        py-py: the Python SDK 2.3.0 MCPServer on uvicorn (11101, test/real-audit94/py_server.py as it is; 2026-07-28, JSON)
// observed.json: what each app call got or raised, the tool bodies that ran, what the hop did to each tools/call POST.
import { mkdirSync, readFileSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const PORT = { server: 11101, hop: 11102, proxy: 11103 };
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';

/** What the hop does to the first tools/call of an orderId (later ones are forwarded). */
const FAULTS = {
  'R-1': { status: 429, type: 'application/json', body: '{"error":"rate limited"}', headers: { 'retry-after': '1' } },
  'R-2': { status: 429, type: 'application/json', body: '{"error":"rate limited"}', headers: { 'retry-after': '1' } },
  'D-1': 'holdHead', // nothing for 2.5 s, then the answer: past call_tool's read_timeout_seconds=1
  'D-2': 'holdHead', // the same, the app's own anyio.move_on_after(0.5) around the call
  'D-3': 'holdBody', // the head at once, the body 2.5 s later: past read_timeout_seconds=1
  'X-1': 'badContent', // the result's content a string, not an array
};
const STEPS = [
  { label: 'result', name: 'lookup', args: { orderId: 'A-1' } },
  { label: 'isError result', name: 'charge', args: { orderId: 'A-2' } },
  { label: 'result pydantic refuses (content not an array)', name: 'lookup', args: { orderId: 'X-1' } },
  { label: '429 Retry-After 1, the app retries 100 ms later', name: 'lookup', args: { orderId: 'R-1' }, retryAfterMs: 100 },
  { label: '429 Retry-After 1, the app waits 1300 ms', name: 'lookup', args: { orderId: 'R-2' }, retryAfterMs: 1300 },
  { label: "no head before call_tool's read_timeout_seconds=1", name: 'lookup', args: { orderId: 'D-1' }, timeout: 1 },
  { label: "no head before the app's cancel scope (0.5 s)", name: 'lookup', args: { orderId: 'D-2' }, cancelAfter: 0.5 },
  { label: "head, no body before call_tool's read_timeout_seconds=1", name: 'lookup', args: { orderId: 'D-3' }, timeout: 1 },
  { label: 'result after the faults', name: 'lookup', args: { orderId: 'A-3' } },
];

/** The JSON-RPC messages of a body (JSON or SSE), each rewritten by fn. */
function rewrite(body, fn) {
  if (body.trimStart().startsWith('{')) return JSON.stringify(fn(JSON.parse(body)));
  return body.replace(/^data: (.*)$/gm, (_, d) => `data: ${JSON.stringify(fn(JSON.parse(d)))}`);
}

async function faultHop(log) {
  const done = new Set();
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const orderId = rpc?.method === 'tools/call' ? rpc.params?.arguments?.orderId : undefined;
    const action = orderId !== undefined && !done.has(orderId) ? (FAULTS[orderId] ?? 'forward') : 'forward';
    if (orderId !== undefined) done.add(orderId);
    const at = Date.now();
    if (rpc?.method === 'tools/call') log.push({ request: `tools/call ${rpc.params.name}`, id: rpc.id, args: rpc.params.arguments, action: typeof action === 'string' ? action : `respond ${action.status} Retry-After ${action.headers['retry-after']}` });
    else if (rpc?.method === 'notifications/cancelled') log.push({ request: 'notifications/cancelled', params: rpc.params, action: 'forward' });
    if (typeof action === 'object') {
      res.writeHead(action.status, { 'content-type': action.type, ...action.headers }).end(action.body);
      return;
    }
    if (action !== 'forward' && typeof action === 'string') res.on('close', () => { if (!res.writableFinished) log.push({ id: rpc?.id, closedByTheClientAfterMs: Date.now() - at }); });
    if (action === 'holdHead') await sleep(2500);
    if (res.destroyed) return;
    const up = httpRequest({ hostname: '127.0.0.1', port: PORT.server, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${PORT.server}` } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', async (ures) => {
      const headers = { ...ures.headers };
      if (action === 'holdBody') res.writeHead(ures.statusCode, headers).flushHeaders();
      const chunks = [];
      for await (const c of ures) chunks.push(c);
      let body = Buffer.concat(chunks).toString('utf8');
      if (action === 'badContent') body = rewrite(body, (m) => (m.result ? { ...m, result: { ...m.result, content: 'not-an-array' } } : m));
      if (action === 'holdBody') {
        await sleep(2500);
        if (!res.destroyed) res.end(body);
        return;
      }
      delete headers['transfer-encoding'];
      headers['content-length'] = String(Buffer.byteLength(body));
      if (!res.destroyed) res.writeHead(ures.statusCode, headers).end(body);
    });
    up.end(raw);
  }, PORT.hop);
}

async function record(name) {
  const D = `${R}/test/fixtures/real-audit104/${name}`;
  rmSync(D, { recursive: true, force: true });
  mkdirSync(D, { recursive: true });
  let serverOut = '';
  const server = name === 'py-ts'
    ? spawn(process.execPath, [`${R}/test/real-audit104/ts_server.mjs`, String(PORT.server)], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(PY, [`${R}/test/real-audit94/py_server.py`, String(PORT.server), `${D}/server.log`], { stdio: ['ignore', openSync(`${D}/server-console.log`, 'w'), openSync(`${D}/server-console.log`, 'a')] });
  server.stdout?.on('data', (c) => (serverOut += c));
  const hopLog = [];
  const hop = await faultHop(hopLog);
  const proxy = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${PORT.proxy}`, '--target', `http://127.0.0.1:${PORT.hop}`, '--out', `${D}/proxy.ndjson`, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let perr = '';
  proxy.stderr.on('data', (d) => (perr += d));
  for (let i = 0; i < 100 && !perr.includes('appending'); i++) await sleep(50);
  await sleep(2000); // uvicorn's start
  const app = spawn(PY, [`${R}/test/real-audit104/py_app.py`, `http://127.0.0.1:${PORT.proxy}/mcp`, `${D}/client.log`, `${D}/client-basic.log`, JSON.stringify(STEPS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  app.stdout.on('data', (c) => (out += c));
  await Promise.race([new Promise((r) => app.once('exit', r)), sleep(90_000)]);
  app.kill();
  await sleep(3000); // the held answers reach the proxy's log
  await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); });
  await hop.close();
  server.kill('SIGINT');
  await sleep(500);
  const seen = out.split('\n').filter((l) => l.startsWith('{"seen"')).map((l) => JSON.parse(l).seen)[0] ?? [{ label: 'no output', raw: out.slice(0, 500) }];
  const ranText = name === 'py-ts' ? serverOut : readFileSync(`${D}/server.log`, 'utf8');
  const serverRan = ranText.split('\n').flatMap((l) => l.match(/tool body ran: (.*)$/)?.slice(1) ?? []);
  const observed = { server: name === 'py-ts' ? 'TypeScript SDK 1.32.2 McpServer (stateful, SSE answers)' : 'Python SDK 2.3.0 MCPServer on uvicorn', seen, serverRan, hop: hopLog };
  writeFileSync(`${D}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log(name, JSON.stringify(observed, null, 1));
}

const wanted = process.argv.slice(2);
for (const name of ['py-ts', 'py-py']) if (wanted.length === 0 || wanted.includes(name)) await record(name);
