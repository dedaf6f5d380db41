// The sixty-first audit: the MCP test kitchen's own records (its request log and observations, test/real-audit58/
// kitchen-logs.mjs) as the proof of what the server did, beside the clients' captures. A judge's apps (SDK 1.32.2 "ts-",
// v2 2.4.0 "v2-", Python mcp 2.3.0 "py-": test/real-audit59/app.mjs and py_app.py, the PAT bearer, retries of -32603
// and 5xx) against the kitchen's wire behaviour (test/real-audit56/kitchen.mjs) wrapped in its records
// (test/real-audit58/kitchen.mjs). Options per case: `shiftMs` moves every time the kitchen's records write (its clock
// read that much ahead of the client's: the same host clock for both records); `hop` puts a small HTTP hop between the
// client and the kitchen that answers the POSTs it is told to itself (502, never passed on: the kitchen never sees
// them); `py` cases also run `mcp-triage record` between the app and the hop/kitchen (proxy.ndjson: the Python SDK's
// DEBUG log leaves JSON answers out). Ports 8700-8799.
// Usage: npm run build && node test/real-audit61/record.mjs [case...]   (--truth: rewrite the truth.md notes only)
// Writes test/fixtures/real-audit61/<case>/: client.ndjson or client.log (+ proxy.ndjson), kitchen-console.json.log,
// observations-page.json, observed.json (the app's steps, the kitchen's events, the hop's refusals), truth.md; with
// `hosting`, ASP.NET Core's own request lines too (aspnet-console.json.log, aspnet-console.txt: ./aspnet-hosting.mjs).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { listen, readBody, sleep, startRecordProxy } from '../helpers/loopback.mjs';
import { kitchen } from '../real-audit58/kitchen.mjs';
import { kitchenLogs } from '../real-audit58/kitchen-logs.mjs';
import { runTsApp } from '../real-audit59/app.mjs';
import { aspnetHosting } from './aspnet-hosting.mjs';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit61/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const PYTHON = process.env.PYTHON ?? '/work/py-venv/bin/python';
const PAT = 'ckpat_61a7c3e9b1d5f2a4c6e8b0d2f4a6c8e0';
const run = (n) => Array.from({ length: n }, (_, i) => ({ tool: 'run_configured_test_scenario', args: { message: `judge run ${i + 1}` } }));
const rpc = (code, message, onInvocation) => ({ scenario: 'errors.jsonrpc_error', params: { code, message, onInvocation } });
const seq = (statusCodes) => ({ scenario: 'errors.http_status_sequence', params: { statusCodes } });

export const cases = {
  // an injected -32603 on the third tools/call; the app retries it (its policy), the retry runs the tool
  'ts-32603': { client: 'ts1', kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  'v2-32603': { client: 'v2', modern: true, kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  'py-32603': { client: 'py', kitchen: rpc(-32603, 'Internal error', 3), calls: run(3) },
  // an injected bare 500 on the first tools/call (POST 4 for the 1.32.2 client), retried
  'ts-status-500': { client: 'ts1', kitchen: seq([200, 200, 200, 500, 200]), calls: run(2) },
  // the kitchen's clock 4.2 s ahead of the client's (both its records), an injected -32603 on the second call
  'ts-32603-clock-ahead': { client: 'ts1', shiftMs: 4200, kitchen: rpc(-32603, 'Internal error', 2), calls: run(3) },
  // the kitchen's clock 3.5 s behind, plain baseline
  'v2-clock-behind': { client: 'v2', modern: true, shiftMs: -3500, kitchen: { scenario: 'baseline', params: {} }, calls: run(4) },
  // a hop answers the second tools/call POST 502 itself (the kitchen never sees it); the app retries it
  'ts-hop-502': { client: 'ts1', hop: { refuse: [2] }, kitchen: { scenario: 'baseline', params: {} }, calls: run(3) },
  // ASP.NET Core's own hosting lines (aspnet-console.json.log, aspnet-console.txt) beside the kitchen's records
  'v2-hosting-hop-502': { client: 'v2', modern: true, hosting: true, hop: { refuse: [1] }, kitchen: { scenario: 'baseline', params: {} }, calls: run(3) },
  'ts-hosting-status-500': { client: 'ts1', hosting: true, kitchen: seq([200, 200, 200, 500, 200]), calls: run(2) },
};

/** A hop that passes every request on, except the tools/call POSTs numbered in `refuse` (1-based): answered 502 by itself. */
async function startHop(port, upstream, { refuse }) {
  let calls = 0;
  const refused = [];
  const h = await listen(async (req, res) => {
    const body = await readBody(req);
    let msg;
    try {
      msg = JSON.parse(body.toString('utf8'));
    } catch {}
    if (req.method === 'POST' && msg?.method === 'tools/call' && refuse.includes(++calls)) {
      refused.push({ ts: new Date().toISOString(), toolsCall: calls, id: msg.id });
      res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad Gateway');
      return;
    }
    const up = new URL(upstream);
    const headers = { ...req.headers, host: up.host };
    const preq = httpRequest({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers }, (pres) => {
      res.writeHead(pres.statusCode, pres.headers);
      pres.pipe(res);
    });
    preq.on('error', () => res.writeHead(502).end());
    res.on('close', () => preq.destroy());
    preq.end(body);
  }, port);
  return { url: h.url, refused, close: () => h.close() };
}

/** Every time the kitchen's records wrote, moved by `ms` (its clock read that much off), the sub-millisecond digits kept. */
function shiftTimes(dir, ms) {
  const shift = (t) => t.replace(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})/, (m) => new Date(Date.parse(`${m}Z`) + ms).toISOString().slice(0, 23));
  const log = readFileSync(`${dir}kitchen-console.json.log`, 'utf8').split('\n').filter(Boolean).map((l) => {
    const o = JSON.parse(l);
    o.Timestamp = shift(o.Timestamp);
    return JSON.stringify(o);
  });
  writeFileSync(`${dir}kitchen-console.json.log`, `${log.join('\n')}\n`);
  const page = JSON.parse(readFileSync(`${dir}observations-page.json`, 'utf8'));
  // (a whole-second "...:05Z" has no fraction: System.Text.Json drops trailing zeros)
  for (const o of page.items) o.occurredAt = /\.\d/.test(o.occurredAt) ? shift(o.occurredAt) : new Date(Date.parse(o.occurredAt) + ms).toISOString().replace('.000Z', 'Z');
  writeFileSync(`${dir}observations-page.json`, JSON.stringify(page));
}

async function record(name, c, i) {
  const dir = `${ROOT}${name}/`;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const port = 8700 + 4 * i;
  const logs = kitchenLogs({ listen: `http://127.0.0.1:${port}` });
  // ASP.NET Core's hosting layer, outside every middleware (the request log included)
  const hosting = c.hosting ? aspnetHosting() : undefined;
  if (hosting) {
    const inner = logs.requestLog;
    logs.requestLog = (h) => hosting.wrap(inner(h));
  }
  const k = kitchen({ ...c.kitchen, pat: PAT, serverLog: `${dir}server.ndjson`, logs });
  const host = await listen(k.handle, port);
  const hop = c.hop ? await startHop(port + 1, host.url, c.hop) : undefined;
  const front = hop ? hop.url : host.url;
  let steps;
  if (c.client === 'py') {
    const proxy = await startRecordProxy(front, `${dir}proxy.ndjson`);
    const plan = { mode: c.mode ?? 'legacy', pat: PAT, elicit: [], calls: c.calls };
    const { stdout } = await promisify(execFile)(PYTHON, [fileURLToPath(new URL('../real-audit59/py_app.py', import.meta.url)), `${proxy.url}/mcp`, `${dir}client.log`, JSON.stringify(plan)], { timeout: 90_000 });
    steps = JSON.parse(stdout);
    await sleep(300);
    await proxy.stop();
  } else {
    steps = await runTsApp({ client: c.client, url: front, pat: PAT, out: `${dir}client.ndjson`, calls: c.calls, modern: c.modern });
    await sleep(300);
  }
  await hop?.close();
  await k.close();
  await host.close();
  logs.write(dir);
  hosting?.write(dir);
  // only what a judge would give: the JSON console log and the list page (the other shapes are audit 58's)
  for (const f of ['kitchen-console.txt', 'observations-stream.txt', 'observations.ndjson', 'server.ndjson']) rmSync(`${dir}${f}`, { force: true });
  if (c.shiftMs) shiftTimes(dir, c.shiftMs);
  const o = { client: c.client, scenario: c.kitchen.scenario, params: c.kitchen.params, shiftMs: c.shiftMs ?? 0, steps, kitchen: k.events, hopRefused: hop?.refused ?? [], observationIds: logs.truth };
  writeFileSync(`${dir}observed.json`, `${JSON.stringify(o, null, 2)}\n`);
  writeTruth(dir, name, o);
  console.log(`recorded ${name}: ${steps.map((s) => `${s.step}=${s.ok === false ? `ERR(${s.error?.code ?? s.error?.status ?? s.error?.name})` : s.isError ? 'isError' : 'ok'}`).join(' ')}`);
}

const CLIENT = { ts1: 'SDK 1.32.2 client (2025-11-25), recordingFetch (client.ndjson)', v2: 'v2 2.4.0 client with versionNegotiation auto (2026-07-28), recordingFetch (client.ndjson)', py: 'Python SDK 2.3.0 client, its DEBUG log with %(asctime)s (client.log), and `mcp-triage record` between it and the kitchen (proxy.ndjson)' };
function writeTruth(dir, name, o) {
  const step = (s) => `- ${s.step}: ${s.ok === false ? `threw ${s.error?.name}${s.error?.code !== undefined ? ` ${s.error.code}` : ''}: ${String(s.error?.message ?? '').slice(0, 140)}${s.policy ? ` (the app's policy: ${s.policy})` : ''}` : s.tools ? `returned ${s.tools.join(', ')}` : `${s.isError ? 'returned isError true' : 'returned'}${s.text ? `: ${s.text.slice(0, 120)}` : ''}`}`;
  const shift = o.shiftMs ? `\n\nClock: every time in kitchen-console.json.log and observations-page.json was moved by ${o.shiftMs > 0 ? '+' : ''}${o.shiftMs} ms after the run (the kitchen's clock read ${Math.abs(o.shiftMs) / 1000} s ${o.shiftMs > 0 ? 'ahead of' : 'behind'} the client's); nothing else changed.` : '';
  const hosting = existsSync(`${dir}aspnet-console.json.log`) ? "\nASP.NET Core's own request lines (Microsoft.AspNetCore.Hosting.Diagnostics \"Request starting\"/\"Request finished\", outermost: the hosting layer times the whole request): aspnet-console.json.log (.NET's JSON console shape) and aspnet-console.txt (the simple console shape with a UTC TimestampFormat), written by test/real-audit61/aspnet-hosting.mjs." : '';
  const hop = o.hopRefused.length ? `\n\nThe hop between the client and the kitchen answered these tools/call POSTs 502 itself, never passing them on (the kitchen's records have no line of them):\n\n${o.hopRefused.map((r) => `- ${JSON.stringify(r)}`).join('\n')}` : '';
  writeFileSync(`${dir}truth.md`, `# ${name}\n\nKitchen selection: \`${o.scenario}\` ${JSON.stringify(o.params)}, PAT required (the app sends it).\nClient: ${CLIENT[o.client]}. The kitchen's records: kitchen-console.json.log (RequestLoggingMiddleware, JSON console) and observations-page.json (the list API's page).${hosting}${shift}${hop}\n\nWhat the application saw, step by step:\n\n${o.steps.map(step).join('\n')}\n\nWhat the kitchen did (its own events; an injected status or JSON-RPC error is sent by the scenario layer before the MCP SDK sees the request, so no tool ran for it):\n\n${o.kitchen.length ? o.kitchen.map((e) => `- ${JSON.stringify(e)}`).join('\n') : '- nothing injected'}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pick = process.argv.slice(2);
  // --truth: rewrite every case's truth.md from its observed.json
  if (pick[0] === '--truth') {
    for (const name of readdirSync(ROOT)) writeTruth(`${ROOT}${name}/`, name, JSON.parse(readFileSync(`${ROOT}${name}/observed.json`, 'utf8')));
    process.exit(0);
  }
  for (const [i, [name, c]] of Object.entries(cases).entries()) if (pick.length === 0 || pick.includes(name)) await record(name, c, i);
  process.exit(0);
}
