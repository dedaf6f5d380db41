// Records test/fixtures/real-audit94/ (the ninety-fourth audit): the Python SDK 2.3.0 client's own DEBUG log (the SDK's,
// httpx's and httpcore's lines) on 2026-07-28 (sessionless, JSON answers, input_required), with faults, beside a capture.
// NOT run by `npm test`. It needs the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit94/record.mjs [py-py] [py-v2] [two-open]
// The chain, on 127.0.0.1 ports 10600-10649 only:
//   app (py_client.py: the Python Client, mode "auto", its DEBUG log -> client.log)
//     -> `mcp-triage record --side client` (10603, proxy.ndjson)
//     -> a fault hop (10602: 503, 429 with Retry-After, 500 HTML, a cut body, a delay past the app's timeout, a broken result)
//     -> py-py: the Python MCPServer on uvicorn (10601, py_server.py: its SDK DEBUG log -> server.log, uvicorn's console -> server-console.log)
//        py-v2: the TypeScript v2 2.4.0 McpServer (10601, v2_server.mjs, JSON answers)
//        two-open: the Python server, no fault; two Clients, the first idle while the second calls
// observed.json: what each app call got or raised, the elicitations the app answered, the tool bodies that ran, what the hop did.
import { mkdirSync, readFileSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const PORT = { server: 10601, hop: 10602, proxy: 10603 };
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';

/** What the hop does to a tools/call, by its orderId. */
const FAULTS = {
  'A-2': { status: 503, type: 'text/plain', body: 'upstream unavailable' },
  'A-3': { status: 429, type: 'application/json', body: '{"error":"rate limited"}', headers: { 'retry-after': '2' } },
  'A-4': { status: 500, type: 'text/html', body: '<html><body><h1>500 Internal Server Error</h1></body></html>' },
  'A-5': 'cut', // the answer's head and half its body, then the connection destroyed (the Python Client dies of it: last)
  'A-6': 'delay', // the answer held 2.5 s: past the app's 1 s timeout
  'A-11': 'badContent', // content a string, not an array
};
const STEPS = [
  { label: 'baseline', name: 'lookup', args: { orderId: 'A-1' } },
  { label: '503 text/plain', name: 'lookup', args: { orderId: 'A-2' } },
  { label: '429 Retry-After', name: 'lookup', args: { orderId: 'A-3' } },
  { label: '500 HTML', name: 'lookup', args: { orderId: 'A-4' } },
  { label: 'delay past timeout', name: 'lookup', args: { orderId: 'A-6' }, timeout: 1 },
  { label: 'tool error', name: 'charge', args: { orderId: 'A-7' } },
  { label: 'JSON-RPC error', name: 'set_limit', args: { limit: -1 } },
  { label: 'input_required accepted', name: 'refund', args: { orderId: 'A-9' } },
  { label: 'input_required declined', name: 'refund', args: { orderId: 'A-10' } },
  { label: 'content not an array', name: 'lookup', args: { orderId: 'A-11' } },
  { label: 'after the faults', name: 'lookup', args: { orderId: 'A-12' } },
  { label: 'cut body (last: it ends the Client)', name: 'lookup', args: { orderId: 'A-5' } },
];

async function faultHop(log) {
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const orderId = rpc?.method === 'tools/call' && !rpc.params?.requestState ? rpc.params?.arguments?.orderId : undefined;
    const action = FAULTS[orderId] ?? 'forward';
    if (rpc?.method === 'tools/call') log.push({ request: `tools/call ${rpc.params.name}`, id: rpc.id, args: rpc.params.arguments, continuation: rpc.params.requestState !== undefined, action: typeof action === 'string' ? action : `respond ${action.status}` });
    if (typeof action === 'object') {
      res.writeHead(action.status, { 'content-type': action.type, ...(action.headers ?? {}) }).end(action.body);
      return;
    }
    if (action === 'delay') await sleep(2500);
    const up = httpRequest({ hostname: '127.0.0.1', port: PORT.server, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${PORT.server}` } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', async (ures) => {
      const headers = { ...ures.headers };
      const chunks = [];
      for await (const c of ures) chunks.push(c);
      let body = Buffer.concat(chunks).toString('utf8');
      if (action === 'badContent') {
        const msg = JSON.parse(body);
        if (msg.result) msg.result.content = 'not-an-array';
        body = JSON.stringify(msg);
      }
      delete headers['transfer-encoding'];
      headers['content-length'] = String(Buffer.byteLength(body));
      if (action === 'cut') {
        res.writeHead(ures.statusCode, headers);
        res.write(body.slice(0, Math.floor(body.length / 2)));
        setTimeout(() => res.socket?.destroy(), 100);
        return;
      }
      res.writeHead(ures.statusCode, headers).end(body);
    });
    up.end(raw);
  }, PORT.hop);
}

async function record(name) {
  const D = `${R}/test/fixtures/real-audit94/${name}`;
  rmSync(D, { recursive: true, force: true });
  mkdirSync(D, { recursive: true });
  let serverOut = '';
  const server = name === 'py-v2'
    ? spawn(process.execPath, [`${R}/test/real-audit94/v2_server.mjs`, String(PORT.server)], { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(PY, [`${R}/test/real-audit94/py_server.py`, String(PORT.server), `${D}/server.log`], { stdio: ['ignore', openSync(`${D}/server-console.log`, 'w'), openSync(`${D}/server-console.log`, 'a')] });
  server.stdout?.on('data', (c) => (serverOut += c));
  const hopLog = [];
  const hop = name === 'two-open' ? undefined : await faultHop(hopLog);
  const target = name === 'two-open' ? PORT.server : PORT.hop;
  const proxy = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${PORT.proxy}`, '--target', `http://127.0.0.1:${target}`, '--out', `${D}/proxy.ndjson`, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let perr = '';
  proxy.stderr.on('data', (d) => (perr += d));
  for (let i = 0; i < 100 && !perr.includes('appending'); i++) await sleep(50);
  await sleep(2000); // uvicorn's start
  const steps = name === 'py-v2' ? STEPS.filter((s) => s.name !== 'refund') : STEPS;
  const app = spawn(PY, [`${R}/test/real-audit94/py_client.py`, `http://127.0.0.1:${PORT.proxy}/mcp`, `${D}/client.log`, name === 'two-open' ? 'two-open' : JSON.stringify(steps)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  app.stdout.on('data', (c) => (out += c));
  await Promise.race([new Promise((r) => app.once('exit', r)), sleep(90_000)]);
  app.kill();
  await sleep(300);
  await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); });
  await hop?.close();
  server.kill('SIGINT');
  await sleep(500);
  const seen = out.split('\n').filter((l) => l.startsWith('{"seen"')).map((l) => JSON.parse(l).seen)[0] ?? [{ label: 'no output', raw: out.slice(0, 500) }];
  const ranText = name === 'py-v2' ? serverOut : readFileSync(`${D}/server.log`, 'utf8');
  const serverRan = ranText.split('\n').flatMap((l) => l.match(/tool body ran: (.*)$/)?.slice(1) ?? []);
  const observed = { server: name === 'py-v2' ? 'TypeScript v2 2.4.0 McpServer (createMcpHandler, JSON answers)' : 'Python SDK 2.3.0 MCPServer on uvicorn', seen, serverRan, hop: hopLog };
  writeFileSync(`${D}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log(name, JSON.stringify(observed, null, 1));
}

const wanted = process.argv.slice(2);
for (const name of ['py-py', 'py-v2', 'two-open']) if (wanted.length === 0 || wanted.includes(name)) await record(name);
