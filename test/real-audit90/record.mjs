// Records test/fixtures/real-audit90/ (the ninetieth audit: the same records twice): real traffic, then the duplicated inputs that log platforms, shippers, rotation and people make of its logs.
// NOT run by `npm test`. It needs nothing outside the repository's devDependencies (SDK 1.32.2) and, for `py-untimed`,
// the Python SDK 2.3.0 in /work/py-venv (PYTHON=... to move it). From the repository:
//   npm run build && node test/real-audit90/record.mjs [ts|py-untimed|copies ...]
// (`copies` only rebuilds the duplicated inputs from the committed `ts/` logs.) On 127.0.0.1 ports 10400-10449 only:
//   ts: the app (SDK 1.32.2 Client; its fetch recordingFetch -> client.ndjson, each call with a withCallNote)
//       -> a fault hop (10402: answers the first tools/call lookup_order with 503)
//       -> the orders server (10401: SDK 1.32.2 McpServer per session, recordingHandler -> server.ndjson).
//       tools/list; lookup_order A-1 gets the hop's 503, the app retries it 300 ms later (it works); crash answers
//       isError; lookup_order A-2 works.
//   py-untimed: one Python app opens two sessions at once (test/real-audit90/py_app.py), each calling lookup_order
//       A-1: two identical initialize and tools/call lines in a DEBUG log without times (client-debug.log), against
//       the same server (server.ndjson, the truth: two requests of each).
//   copies: what platforms and shippers make of ts/'s logs (each builder below is what that tool does):
//       gcl-page1/2.ndjson (Cloud Logging, `gcloud logging read --format=json` items one a line, newest first, two
//       time windows that overlap; gcl-export.ndjson: both appended to one file), datadog-page1/2.ndjson (Logs API v2 events, two overlapping windows),
//       elastic-pages.ndjson (one `hits.hits[]` search page a line, `from` paging shifted by new documents),
//       loki-page1/2.jsonl (`logcli query -o jsonl`, newest first, overlapping windows), vector-resend.ndjson (Vector's
//       file sink: the source re-read from its last checkpoint after a restart, those lines appended again with new
//       ingest times), client.ndjson.1 + client.ndjson (copytruncate rotation whose files share lines),
//       client-twice.ndjson (`cat client.ndjson client.ndjson`).
// observed.json: what the app got or threw at each step, which tool bodies ran, what the hop did.
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';

const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const FIX = `${R}/test/fixtures/real-audit90`;
const { listen, sleep, readBody, sessionHandler, restartableServer } = await import(`${R}/test/helpers/loopback.mjs`);
const { Client, StreamableHTTPClientTransport, StreamableHTTPServerTransport, types, ordersServer, errOf, short, clean } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch, recordingHandler, withCallNote } = await import(`${R}/dist/capture/index.js`);

const PORT = { server: 10401, hop: 10402 };
const PY = process.env.PYTHON ?? '/work/py-venv/bin/python';

/** The gateway: forwards, or answers the request itself when `plan` says so. */
async function faultHop(upstream, plan, log) {
  const target = new URL(upstream);
  const seen = new Map();
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try { rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined; } catch { rpc = undefined; }
    const what = `${req.method} ${rpc?.method ?? ''}${rpc?.params?.name ? ` ${rpc.params.name}` : ''}`.trim();
    const n = (seen.get(what) ?? 0) + 1;
    seen.set(what, n);
    const action = plan(what, n);
    log.push({ request: what, n, action: action ? `respond ${action.status}` : 'forward' });
    if (action) return void res.writeHead(action.status, { 'content-type': 'text/plain' }).end(action.body);
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      res.writeHead(ures.statusCode, ures.headers);
      res.flushHeaders();
      ures.on('data', (c) => res.write(c));
      ures.on('end', () => res.end());
    });
    up.end(raw);
  }, PORT.hop);
}

async function stage(name) {
  const d = `${FIX}/${name}`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const ran = [];
  const h = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest: types.isInitializeRequest, buildServer: ordersServer(ran) });
  const server = restartableServer(await listen(recordingHandler(h.handle, { out: `${d}/server.ndjson` }), PORT.server), h.transports);
  return { d, ran, server };
}

async function recordTs() {
  const { d, ran, server } = await stage('ts');
  const hopLog = [];
  const hop = await faultHop(server.url, (what, n) => (what === 'POST tools/call lookup_order' && n === 1 ? { status: 503, body: 'upstream unavailable' } : undefined), hopLog);
  const rf = recordingFetch({ out: `${d}/client.ndjson`, client: 'audit90-app@1.0.0' });
  const observed = [];
  const c = new Client({ name: 'audit90-app', version: '1.0.0' }, { capabilities: {} });
  await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${PORT.hop}/mcp`), { fetch: rf }));
  observed.push({ label: 'connect', ok: true });
  const step = async (label, note, fn) => {
    const t0 = Date.now();
    try { const r = await withCallNote(note, fn); observed.push({ label, ok: short(r), ms: Date.now() - t0 }); return true; }
    catch (e) { observed.push({ label, error: errOf(e), ms: Date.now() - t0 }); return false; }
  };
  await step('tools/list', {}, async () => (await c.listTools()).tools.map((t) => t.name));
  if (!(await step('lookup_order A-1 #1', { retryOrigin: 'app', attempt: 1, call: 'lookup-A-1' }, () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } })))) {
    await sleep(300);
    await step('lookup_order A-1 #2', { retryOrigin: 'app', attempt: 2, call: 'lookup-A-1' }, () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A-1' } }));
  }
  await step('crash', { retryOrigin: 'app', attempt: 1, call: 'crash-1' }, () => c.callTool({ name: 'crash', arguments: {} }));
  await step('lookup_order A-2', { retryOrigin: 'app', attempt: 1, call: 'lookup-A-2' }, () => c.callTool({ name: 'lookup_order', arguments: { orderId: 'A-2' } }));
  await c.close().catch(() => {});
  await sleep(300);
  await hop.close();
  await server.close();
  rf.close?.();
  for (const f of ['client.ndjson', 'server.ndjson']) appendFileSync(`${d}/${f}`, '');
  observed.push({ serverRan: ran }, { hop: hopLog });
  writeFileSync(`${d}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log('ts', JSON.stringify(observed).slice(0, 2000));
}

async function recordPyUntimed() {
  const { d, ran, server } = await stage('py-untimed');
  const child = spawn(PY, [`${R}/test/real-audit90/py_app.py`, `http://127.0.0.1:${PORT.server}/mcp`, `${d}/client-debug.log`], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((r) => child.once('exit', r));
  await sleep(300);
  await server.close();
  appendFileSync(`${d}/server.ndjson`, '');
  const seen = out.split('\n').filter((l) => l.startsWith('{"seen"')).map((l) => JSON.parse(l).seen)[0] ?? [{ label: 'no output', raw: clean(out).slice(0, 500) }];
  const observed = [...seen, { serverRan: ran }];
  writeFileSync(`${d}/observed.json`, `${JSON.stringify(observed, null, 1)}\n`);
  console.log('py-untimed', JSON.stringify(observed));
}

// ---- the copies: each builder does what its platform or shipper does to the lines of a real log ----

const linesOf = (f) => readFileSync(f, 'utf8').split('\n').filter(Boolean);
const tsOf = (line) => JSON.parse(line).ts;
const hex = (s, n = 16) => createHash('sha256').update(s).digest('hex').slice(0, n);
const nano = (iso) => `${iso.slice(0, 23)}000000Z`;
/** Two time windows that overlap: [first, t(hi)] and [t(lo), last], lo < hi (line indexes of the log, in time order). */
const windows = (lines, lo, hi) => [lines.filter((l) => tsOf(l) <= tsOf(lines[hi])), lines.filter((l) => tsOf(l) >= tsOf(lines[lo]))];
const write = (f, lines) => writeFileSync(f, lines.length ? `${lines.join('\n')}\n` : '');

/** Cloud Logging: `gcloud logging read --format=json` items (newest first, as gcloud orders them), one per line. */
const gcl = (line, i) => JSON.stringify({ insertId: hex(`gcl${i}`), jsonPayload: JSON.parse(line), logName: 'projects/demo-project/logs/orders-mcp', receiveTimestamp: nano(new Date(Date.parse(tsOf(line)) + 900).toISOString()), resource: { type: 'k8s_container', labels: { cluster_name: 'demo', container_name: 'orders-mcp', namespace_name: 'default', pod_name: 'orders-mcp-7d9f-abcde', project_id: 'demo-project' } }, severity: 'INFO', timestamp: nano(tsOf(line)) });
/** Datadog Logs API v2 events (`POST /api/v2/logs/events/search`, sort by timestamp), one per line. */
const dd = (line, i) => JSON.stringify({ id: `AQAAAY${hex(`dd${i}`, 20)}`, type: 'log', attributes: { timestamp: tsOf(line), service: 'orders-app', host: 'app-1', status: 'info', tags: ['env:demo', 'service:orders-app'], message: '', attributes: JSON.parse(line) } });
/** Elasticsearch search pages (`from`/`size` paging, sort by @timestamp), a whole response a line. */
const esPage = (lines, from) => JSON.stringify({ took: 3, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 }, hits: { total: { value: lines.length + from, relation: 'eq' }, max_score: null, hits: lines.map((l, i) => ({ _index: 'mcp-server-2026.12.07', _id: hex(`es${from + i}`, 20), _score: null, _source: JSON.parse(l), sort: [Date.parse(tsOf(l))] })) } });
/** Loki `logcli query -o jsonl` (newest first, logcli's default direction). */
const loki = (line) => JSON.stringify({ labels: { job: 'orders-mcp', side: 'client' }, line, timestamp: nano(tsOf(line)) });
/** Vector's file sink (JSON encoding) of a file source: ingest time, host, file, the line in `message`. */
const vector = (line, ingest) => JSON.stringify({ file: '/var/log/orders-app/client.ndjson', host: 'app-1', message: line, source_type: 'file', timestamp: ingest });

function copies() {
  const src = `${FIX}/ts`;
  const client = linesOf(`${src}/client.ndjson`);
  const server = linesOf(`${src}/server.ndjson`);
  const d = `${FIX}/copies`;
  rmSync(d, { recursive: true, force: true });
  mkdirSync(d, { recursive: true });
  const third = (n) => [Math.floor(n * 0.4), Math.floor(n * 0.6)];
  // Cloud Logging: the server's log, two windows that overlap, each printed newest first.
  {
    const [a, b] = windows(server, ...third(server.length));
    const idx = new Map(server.map((l, i) => [l, i]));
    const page1 = b.map((l) => gcl(l, idx.get(l))).reverse();
    const page2 = a.map((l) => gcl(l, idx.get(l))).reverse();
    write(`${d}/gcl-page1.ndjson`, page1);
    write(`${d}/gcl-page2.ndjson`, page2);
    // The two windows' reads appended to one file (`gcloud logging read ... >> export.ndjson`, newer window first).
    write(`${d}/gcl-export.ndjson`, [...page1, ...page2]);
  }
  // Datadog: the client's log, two windows that overlap, oldest first.
  {
    const [a, b] = windows(client, ...third(client.length));
    const idx = new Map(client.map((l, i) => [l, i]));
    write(`${d}/datadog-page1.ndjson`, a.map((l) => dd(l, idx.get(l))));
    write(`${d}/datadog-page2.ndjson`, b.map((l) => dd(l, idx.get(l))));
  }
  // Elasticsearch: the server's log in pages of 10, oldest first; three documents were indexed before page 2 was fetched, so its `from: 10` starts three documents back:
  // page 2 repeats page 1's last three hits (and page 3 page 2's).
  write(`${d}/elastic-pages.ndjson`, [esPage(server.slice(0, 10), 0), esPage(server.slice(7, 17), 10), esPage(server.slice(14), 20)]);
  // Loki: the client's log, two windows that overlap, newest first.
  {
    const [a, b] = windows(client, ...third(client.length));
    write(`${d}/loki-page1.jsonl`, b.map(loki).reverse());
    write(`${d}/loki-page2.jsonl`, a.map(loki).reverse());
  }
  // Vector: read the client's log up to line 20, crashed before its checkpoint past line 14 was written, restarted and
  // re-read from line 14 (at-least-once): lines 14-19 twice, the second time with the restart's ingest times.
  {
    const ingest = (l, s) => new Date(Date.parse(tsOf(l)) + s).toISOString();
    const first = client.slice(0, 20).map((l) => vector(l, ingest(l, 1500)));
    const again = client.slice(14).map((l) => vector(l, ingest(client[19], 9000)));
    write(`${d}/vector-resend.ndjson`, [...first, ...again]);
  }
  // copytruncate: client.ndjson.1 is the log copied at line 22; lines 18-21 were written between the copy and the
  // truncate, so the new client.ndjson starts with them again.
  write(`${d}/client.ndjson.1`, client.slice(0, 22));
  write(`${d}/client.ndjson`, client.slice(18));
  // cat client.ndjson client.ndjson
  write(`${d}/client-twice.ndjson`, [...client, ...client]);
}

const which = process.argv.slice(2);
const all = { ts: recordTs, 'py-untimed': recordPyUntimed, copies };
for (const [n, run] of Object.entries(all)) if (which.length === 0 || which.includes(n)) await run();
