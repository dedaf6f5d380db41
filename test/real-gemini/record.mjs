// Gemini CLI recorder: runs the real Gemini CLI headless against a fake Gemini API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no Gemini CLI. Install it in a scratch folder outside the repository:
//   mkdir -p /work/npm-gemini && cd /work/npm-gemini && npm init -y && npm install @google/gemini-cli@0.61.0   (0.61.0 recorded, Node 20)
// then, from the repository: npm run build && node test/real-gemini/record.mjs [scenario...]   (GEMINI_CLI_BIN=path to move it)
// Nothing leaves 127.0.0.1: GOOGLE_GEMINI_BASE_URL points at fake-gemini.mjs, usage statistics, auto-update and its
// notification are off in the scratch HOME's settings.json; telemetry is on only where a scenario keeps it, target local (a file).
// Writes test/fixtures/real-gemini/<scenario>/: client.ndjson (a recording proxy the CLI talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario
// has one, observed.json (the functionResponse the CLI sent back to the model for each call, its final JSON output,
// its stderr lines) and, where a scenario asks, gemini-telemetry.json.gz (the CLI's own telemetry outfile, scrubbed, gzipped)
// or gemini-otlp.ndjson.gz (its OTLP/HTTP export requests, one per line, as an OpenTelemetry Collector's file exporter writes them).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScenarioFiles, planSummary, runAgent, startRecordedWire } from '../helpers/agent-run.mjs';
import { listen, readBody, sleep, stopAfter } from '../helpers/loopback.mjs';
import { startHttpServer } from '../real-claude-code/servers.mjs';
import { startFakeGemini } from './fake-gemini.mjs';

const GEMINI = process.env.GEMINI_CLI_BIN ?? '/work/npm-gemini/node_modules/@google/gemini-cli/bundle/gemini.js';
const ROOT = fileURLToPath(new URL('../fixtures/real-gemini/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-gemini-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `gemini -p` once; resolves with its exit code, stdout and stderr. */
function runGemini({ home, cwd, apiUrl }) {
  const env = { PATH: process.env.PATH, HOME: home, GEMINI_API_KEY: API_KEY, GOOGLE_GEMINI_BASE_URL: apiUrl, NO_COLOR: '1', TERM: 'dumb' };
  const argv = [GEMINI, '-p', 'Use the tools you were asked to use.', '-m', 'gemini-2.5-flash', '--yolo', '--skip-trust', '--output-format', 'json'];
  return runAgent(process.execPath, argv, { cwd, env });
}

/** Replaces the scratch HOME and the install folder with fixed names. */
function scrub(text, home) {
  let out = text.split(home).join('/home/user');
  const install = GEMINI.includes('/node_modules/') ? GEMINI.slice(0, GEMINI.indexOf('/node_modules/')) : undefined;
  if (install) out = out.split(install).join('/opt/gemini-cli');
  return out;
}

const toolCall = ({ rpcMethod }) => rpcMethod === 'tools/call';

/**
 * Each scenario: what the model calls (plan; `before` runs just before the model asks for that call), an optional
 * fault hop rule between the two recording proxies, the server's `timeout` in settings.json, and whether the CLI's
 * telemetry file is kept.
 */
const SCENARIOS = {
  baseline: {
    about: 'three calls that succeed: lookup_order, validate_quantity, strict_lookup (telemetry kept)',
    telemetry: true,
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-1' } },
      { name: 'validate_quantity', args: { quantity: 2 } },
      { name: 'strict_lookup', args: { orderId: 'A-2' } },
    ],
  },
  'tool-error': {
    about: 'validate_quantity answers isError; crash throws inside the tool (the SDK server turns it into isError) (telemetry kept)',
    telemetry: true,
    plan: [
      { name: 'validate_quantity', args: { quantity: -3 } },
      { name: 'crash', args: {} },
    ],
  },
  'jsonrpc-error': {
    about: 'strict_lookup answers a JSON-RPC error -32602 for a bad orderId; a good one succeeds after it',
    plan: [
      { name: 'strict_lookup', args: { orderId: 'nope' } },
      { name: 'strict_lookup', args: { orderId: 'A-7' } },
    ],
  },
  'http-503': {
    about: 'the hop answers the first tools/call POST with 503 text/plain (the server never sees it); a second call passes',
    fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-5' } },
      { name: 'lookup_order', args: { orderId: 'A-6' } },
    ],
  },
  'http-429': {
    about: 'the hop answers the first tools/call POST with 429 and Retry-After: 1; a second call passes',
    fault: (c) => (toolCall(c) && c.n === 1 ? { respond: 429, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"rate limited"}' } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-8' } },
      { name: 'lookup_order', args: { orderId: 'A-9' } },
    ],
  },
  'session-expired': {
    about: 'the server forgets its sessions (a restart) before the first call: 404 on the tools/call POST; a second call follows',
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-10' }, before: (t) => t.server.restart() },
      { name: 'lookup_order', args: { orderId: 'A-11' } },
    ],
    tail: 1000,
  },
  'sse-cut': {
    about: 'the hop forwards the tools/call response head (text/event-stream), then destroys both sockets before the result event; a second call follows',
    fault: (c) => (toolCall(c) && c.n === 1 ? { cutAfterEvents: 0 } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-12' } },
      { name: 'lookup_order', args: { orderId: 'A-13' } },
    ],
    tail: 1000,
  },
  'socket-destroyed': {
    about: 'the hop destroys the socket of the first tools/call POST without forwarding it; a second call follows',
    fault: (c) => (toolCall(c) && c.n === 1 ? { destroy: true } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-14' } },
      { name: 'lookup_order', args: { orderId: 'A-15' } },
    ],
  },
  'response-dropped': {
    about: 'the hop forwards the first tools/call, lets the server answer, then destroys the client socket: the server ran it, the client got nothing',
    fault: (c) => (toolCall(c) && c.n === 1 ? { dropResponse: true } : {}),
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-16' } },
      { name: 'lookup_order', args: { orderId: 'A-17' } },
    ],
  },
  timeout: {
    about: 'slow_report runs 10 s; the server entry has timeout 3000 in settings.json: the CLI gives up after 3 s; a lookup_order follows (telemetry kept)',
    telemetry: true,
    timeout: 3000,
    plan: [
      { name: 'slow_report', args: { ms: 10000 } },
      { name: 'lookup_order', args: { orderId: 'A-20' } },
    ],
    tail: 1500,
  },
  'timeout-then-exit': {
    about: 'slow_report runs 10 s under timeout 3000 and is the last call: the CLI times out, answers the model, gets its final text and exits',
    timeout: 3000,
    plan: [{ name: 'slow_report', args: { ms: 10000 } }],
    tail: 1500,
  },
  'otlp-http': {
    about: 'telemetry over OTLP/HTTP (otlpProtocol http) to a local receiver that writes each export request as one line, as the Collector file exporter does: a success, an isError, a -32602, a 503, a socket destroyed, a call past the 3000 ms timeout',
    otlp: true,
    timeout: 3000,
    fault: (c) => {
      if (!toolCall(c) || c.tool !== 'lookup_order') return {};
      if (c.n === 2) return { respond: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' };
      if (c.n === 3) return { destroy: true };
      return {};
    },
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-21' } },
      { name: 'validate_quantity', args: { quantity: 0 } },
      { name: 'strict_lookup', args: { orderId: 'bad' } },
      { name: 'lookup_order', args: { orderId: 'A-22' } },
      { name: 'lookup_order', args: { orderId: 'A-23' } },
      { name: 'slow_report', args: { ms: 10000 } },
      { name: 'lookup_order', args: { orderId: 'A-24' } },
    ],
    tail: 500,
  },
  'server-down-at-start': {
    about: 'nothing listens behind the recording proxy when the CLI starts: the proxy drops each connection, the tools are never offered',
    down: true,
    plan: [{ name: 'lookup_order', args: { orderId: 'A-18' } }],
  },
  'http-401': {
    about: 'the hop answers the tools/call POST with 401 and a Bearer challenge (an expired token)',
    fault: (c) => (toolCall(c) ? { respond: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' }, body: '{"error":"invalid_token"}' } : {}),
    plan: [{ name: 'lookup_order', args: { orderId: 'A-19' } }],
    tail: 1000,
  },
};

/** The functionResponse parts the CLI sent back to the model, in order, and the functionCalls they answer. */
function functionResponses(requests) {
  const last = [...requests].reverse().find((r) => (r.contents ?? []).some((c) => (c.parts ?? []).some((p) => p.functionResponse)));
  const out = [];
  for (const c of last?.contents ?? []) {
    for (const p of c.parts ?? []) {
      if (!p.functionResponse) continue;
      out.push({ id: p.functionResponse.id ?? null, name: p.functionResponse.name, response: p.functionResponse.response ?? null });
    }
  }
  return out;
}

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'gemini-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  mkdirSync(join(home, '.gemini'));
  const wire = await startRecordedWire({ files, startServer: startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeGemini(plan);
  const telemetryFile = join(home, 'telemetry.json');
  // OTLP/HTTP receiver: each export request (JSON) becomes one line, traces and logs (metrics are dropped)
  const otlpLines = [];
  const otlp = spec.otlp
    ? await listen(async (req, res) => {
        const body = (await readBody(req)).toString('utf8');
        const path = req.url.split('?')[0];
        if (path === '/v1/traces' || path === '/v1/logs') otlpLines.push({ path, type: req.headers['content-type'], body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      })
    : null;
  const settings = {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: spec.telemetry ? { enabled: true, target: 'local', outfile: telemetryFile, logPrompts: false } : spec.otlp ? { enabled: true, target: 'local', otlpEndpoint: otlp.url, otlpProtocol: 'http', logPrompts: false } : { enabled: false },
    security: { auth: { selectedType: 'gemini-api-key' } },
    mcpServers: { [SERVER]: { httpUrl: `${clientView.url}/mcp`, timeout: spec.timeout ?? 20000, trust: true } },
  };
  writeFileSync(join(home, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
  const t0 = Date.now();
  const run = await runGemini({ home, cwd, apiUrl: api.url });
  const ms = Date.now() - t0;
  if (spec.tail) await sleep(spec.tail);
  await wire.close();
  await api.close();
  await otlp?.close();

  let output = null;
  try {
    output = JSON.parse(run.stdout);
  } catch {}
  const observed = {
    scenario: name,
    about: spec.about,
    geminiCli: '0.61.0',
    exit: run.code,
    ms,
    settings: { ...settings, telemetry: spec.otlp ? { ...settings.telemetry, otlpEndpoint: 'http://127.0.0.1:PORT' } : settings.telemetry.outfile ? { ...settings.telemetry, outfile: '/home/user/telemetry.json' } : settings.telemetry, mcpServers: { [SERVER]: { ...settings.mcpServers[SERVER], httpUrl: 'http://127.0.0.1:PORT/mcp' } } },
    plan: planSummary(spec.plan),
    offered: [...new Set(api.requests.flatMap((r) => r.functions).filter((f) => f.startsWith('mcp_')))],
    functionResponses: functionResponses(api.requests),
    response: output?.response ?? null,
    error: output?.error ?? null,
    tools: output?.stats?.tools ? { totalCalls: output.stats.tools.totalCalls, totalSuccess: output.stats.tools.totalSuccess, totalFail: output.stats.tools.totalFail, byName: Object.fromEntries(Object.entries(output.stats.tools.byName ?? {}).map(([k, v]) => [k, { count: v.count, success: v.success, fail: v.fail }])) } : null,
    stdoutIfNotJson: output ? undefined : run.stdout.slice(0, 2000),
    stderr: scrub(run.stderr, home)
      .split('\n')
      .filter((l) => l.trim())
      .slice(0, 80),
    apiRequests: api.requests.map((r) => r.url),
  };
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  if (spec.telemetry && existsSync(telemetryFile)) writeFileSync(join(dir, 'gemini-telemetry.json.gz'), gzipSync(scrub(readFileSync(telemetryFile, 'utf8'), home), { level: 9 }));
  if (spec.otlp) {
    const bad = otlpLines.filter((l) => !String(l.type).startsWith('application/json'));
    if (bad.length) throw new Error(`${name}: OTLP export not JSON: ${bad[0].type}`);
    const text = otlpLines.map((l) => JSON.stringify(JSON.parse(scrub(l.body, home)))).join('\n') + '\n';
    if (text.includes(API_KEY)) throw new Error(`${name}: the OTLP export contains the API key`);
    writeFileSync(join(dir, 'gemini-otlp.ndjson.gz'), gzipSync(text, { level: 9 }));
  }
  checkScenarioFiles(name, dir, files, API_KEY);
  if (spec.telemetry && existsSync(telemetryFile) && readFileSync(telemetryFile, 'utf8').includes(API_KEY)) throw new Error(`${name}: the telemetry file contains the API key`);
  rmSync(home, { recursive: true, force: true });
  console.log(`${name}: exit ${run.code} in ${ms} ms, ${observed.functionResponses.length} functionResponse(s), response ${JSON.stringify(observed.response)?.slice(0, 80)}`);
}

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await record(name, spec);
}
process.exit(0);
