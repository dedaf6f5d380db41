// Records test/fixtures/real-audit91/ (the ninety-first audit): the seed article's eleven test cases replayed with the
// Python SDK 2.3.0 on both ends, each run captured three ways at once.
// NOT run by `npm test`. It needs the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit91/record.mjs
// The chain, on 127.0.0.1 ports 10450-10499 only:
//   app (py_client.py: the Python Client, its mcp/httpx DEBUG log -> client.log)
//     -> `mcp-triage record --side client` (10453, proxy.ndjson)
//     -> a fault hop (10452: answers 503 once, or rewrites the server's answer as the article's case asks)
//     -> the Python MCPServer on uvicorn (10451, py_server.py: its SDK DEBUG log -> server.log, uvicorn's console -> server-console.log)
// observed.json: what each app call got or raised (by case number, with the article's expected outcome `article`), which tool bodies ran (from server.log), what the hop did.
import { mkdirSync, readFileSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { listen, sleep, readBody } = await import(`${R}/test/helpers/loopback.mjs`);
const PORT = { server: 10451, hop: 10452, proxy: 10453 };
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';
const D = `${R}/test/fixtures/real-audit91/py`;

/** What the hop does to a tools/call, by its orderId (the article's case) and how often it was seen. */
const plan = (orderId, n) => ({
  'A-2': n === 1 ? { status: 503, body: 'upstream unavailable' } : 'forward', // case 2: 503, then the app's retry
  'A-5': 'status500', // case 5: HTTP 500 around the server's own (successful) answer
  'A-6': 'malformed', // case 6: the answer's JSON broken
  'A-7': 'conflict', // case 7: result and error together
  'A-8': 'wrongId', // case 8: the answer's id is not the request's
  'A-11': 'badContent', // case 11: content a string, not an array
}[orderId] ?? 'forward');

/** Rewrites one JSON-RPC answer (a JSON text) as the plan says. */
function rewrite(json, action) {
  if (action === 'malformed') return '{unclosed';
  const msg = JSON.parse(json);
  if (msg.result === undefined) return json;
  if (action === 'conflict') msg.error = { code: -32602, message: 'synthetic invalid params' };
  if (action === 'wrongId') msg.id = 99;
  if (action === 'badContent') msg.result.content = 'not-an-array';
  return JSON.stringify(msg);
}

async function faultHop(log) {
  const target = new URL(`http://127.0.0.1:${PORT.server}`);
  const seen = new Map();
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const orderId = rpc?.method === 'tools/call' ? rpc.params?.arguments?.orderId : undefined;
    const key = `${rpc?.method ?? req.method} ${orderId ?? ''}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    const action = orderId ? plan(orderId, n) : 'forward';
    if (rpc?.method === 'tools/call') log.push({ request: `${req.method} tools/call ${rpc.params.name}`, args: rpc.params.arguments, n, action: typeof action === 'string' ? action : `respond ${action.status}` });
    if (typeof action === 'object') {
      res.writeHead(action.status, { 'content-type': 'text/plain' }).end(action.body);
      return;
    }
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', async (ures) => {
      const headers = { ...ures.headers };
      if (action === 'forward') {
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        ures.on('data', (c) => res.write(c));
        ures.on('end', () => res.end());
        return;
      }
      const chunks = [];
      for await (const c of ures) chunks.push(c);
      let body = Buffer.concat(chunks).toString('utf8');
      if (action !== 'status500') {
        body = /event-stream/.test(headers['content-type'] ?? '')
          ? body.replace(/^data: (.*)$/gm, (line, json) => (json.includes('"result"') ? `data: ${rewrite(json, action)}` : line))
          : rewrite(body, action);
      }
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      headers['content-length'] = String(Buffer.byteLength(body));
      res.writeHead(action === 'status500' ? 500 : ures.statusCode, headers).end(body);
    });
    up.end(raw);
  }, PORT.hop);
}

rmSync(D, { recursive: true, force: true });
mkdirSync(D, { recursive: true });
const consoleFd = openSync(`${D}/server-console.log`, 'w');
const server = spawn(PY, [`${R}/test/real-audit91/py_server.py`, String(PORT.server), `${D}/server.log`], { stdio: ['ignore', consoleFd, consoleFd] });
const hopLog = [];
const hop = await faultHop(hopLog);
const proxy = spawn(process.execPath, [`${R}/dist/bin.cjs`, 'record', '--listen', `127.0.0.1:${PORT.proxy}`, '--target', `http://127.0.0.1:${PORT.hop}`, '--out', `${D}/proxy.ndjson`, '--side', 'client'], { stdio: ['ignore', 'ignore', 'pipe'] });
let perr = '';
proxy.stderr.on('data', (d) => (perr += d));
for (let i = 0; i < 100 && !perr.includes('appending'); i++) await sleep(50);
await sleep(2000); // uvicorn's start
const app = spawn(PY, [`${R}/test/real-audit91/py_client.py`, `http://127.0.0.1:${PORT.proxy}/mcp`, `${D}/client.log`], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
app.stdout.on('data', (c) => (out += c));
await Promise.race([new Promise((r) => app.once('exit', r)), sleep(90_000)]);
app.kill();
await sleep(300);
await new Promise((r) => { proxy.once('exit', r); proxy.kill('SIGTERM'); });
await hop.close();
server.kill('SIGINT');
await sleep(500);
const seen = out.split('\n').filter((l) => l.startsWith('{"seen"')).map((l) => JSON.parse(l).seen)[0] ?? [{ label: 'no output', raw: out.slice(0, 500) }];
const serverRan = readFileSync(`${D}/server.log`, 'utf8').split('\n').flatMap((l) => l.match(/tool body ran: (.*)$/)?.slice(1) ?? []);
// The seed article's expected outcome of each case (its table), beside what the app saw.
const ARTICLE = { 1: 'TOOL_SUCCESS', 2: 'HTTP_ERROR', 3: 'JSONRPC_ERROR', 4: 'TOOL_ERROR', 5: 'HTTP_ERROR', 6: 'MALFORMED_JSON', 7: 'INVALID_ENVELOPE', 8: 'INVALID_ENVELOPE', 9: 'INPUT_REQUIRED', 10: 'TOOL_SUCCESS', 11: 'INVALID_TOOL_RESULT' };
for (const s of seen) if (s.case !== undefined) s.article = s.label.includes('retry') ? 'TOOL_SUCCESS' : ARTICLE[s.case];
const observed = [...seen, { serverRan }, { hop: hopLog }];
writeFileSync(`${D}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
console.log(JSON.stringify(observed, null, 1));
