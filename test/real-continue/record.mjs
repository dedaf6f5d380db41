// Continue CLI recorder: runs Continue's CLI (`cn -p`, @continuedev/cli 1.5.47) headless against a fake OpenAI chat completions API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no Continue CLI. Install it in a scratch folder outside the repository:
//   mkdir -p /work/npm-continue && cd /work/npm-continue && npm init -y && npm install @continuedev/cli@1.5.47   (1.5.47 recorded)
// then, from the repository: npm run build && node test/real-continue/record.mjs [scenario...]   (CN_JS=path to its dist/cn.js to move it)
// Nothing leaves 127.0.0.1 and no Continue account is needed: `--config <file>` names a local config.yaml (a model with
// provider openai and apiBase on fake-openai.mjs, one mcpServers entry of type streamable-http), which cn reads without
// asking for a Hub login; HOME and CONTINUE_GLOBAL_DIR are a scratch folder; CONTINUE_CLI_ENABLE_TELEMETRY=0 and
// CONTINUE_METRICS_ENABLED=0 (its OpenTelemetry metrics are on only with OTEL_* set anyway); HTTP(S)_PROXY point at a
// local sink that refuses every request and notes its host (observed.json `outbound`).
// MCP tools are allowed without asking in headless mode (cn's default policy), so no --allow is passed.
// Writes test/fixtures/real-continue/<scenario>/: client.ndjson (a recording proxy cn talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario has one,
// observed.json (what cn told the model for each call: the tool message of the next chat request; its printed answer,
// the tool call states of its saved session, its log lines about MCP).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkScenarioFiles, planSummary, proxyEnv, runAgent, startOfflineSink, startRecordedWire } from '../helpers/agent-run.mjs';
import { sleep, stopAfter } from '../helpers/loopback.mjs';
import { startHttpServer } from '../real-claude-code/servers.mjs';
import { startFakeOpenAI, toolMessages } from '../real-opencode/fake-openai.mjs';

const CN = process.env.CN_JS ?? '/work/npm-continue/node_modules/@continuedev/cli/dist/cn.js';
const ROOT = fileURLToPath(new URL('../fixtures/real-continue/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-continue-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `cn -p` once; resolves with its exit code, stdout (its answer) and stderr. */
function runCn({ home, cwd, sink, config }) {
  const env = {
    ...proxyEnv(sink),
    PATH: process.env.PATH,
    HOME: home,
    CONTINUE_GLOBAL_DIR: join(home, '.continue'),
    CONTINUE_CLI_ENABLE_TELEMETRY: '0',
    CONTINUE_METRICS_ENABLED: '0',
    NO_COLOR: '1',
    TERM: 'dumb',
  };
  const argv = [CN, '-p', '--verbose', '--config', config, 'Use the tools you were asked to use.'];
  return runAgent(process.execPath, argv, { cwd, env });
}

/** Replaces the scratch HOME and its random name with fixed names, and the dummy key (cn's debug log prints the model's apiKey). */
function scrub(text, home) {
  return text.split(home).join('/home/user').split(API_KEY).join('(dummy)');
}

const toolCall = ({ rpcMethod }) => rpcMethod === 'tools/call';

/**
 * Each scenario: what the model calls (plan: one call per turn, or { parallel: [...] }; `before` runs just before the
 * model asks for that call), an optional fault hop rule between the two recording proxies.
 */
const SCENARIOS = {
  baseline: {
    about: 'three calls that succeed, one per model turn: lookup_order, validate_quantity, strict_lookup',
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-1' } },
      { name: 'validate_quantity', args: { quantity: 2 } },
      { name: 'strict_lookup', args: { orderId: 'A-2' } },
    ],
  },
  parallel: {
    about: 'two calls in one model response (lookup_order A-3 and A-4), then a third alone',
    plan: [{ parallel: [{ name: 'lookup_order', args: { orderId: 'A-3' } }, { name: 'lookup_order', args: { orderId: 'A-4' } }] }, { name: 'validate_quantity', args: { quantity: 5 } }],
  },
  'tool-error': {
    about: 'validate_quantity answers isError; crash throws inside the tool (the SDK server turns it into isError)',
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
  'session-expired': {
    about: 'the server forgets its sessions (a restart) before the first call: 404 on the tools/call POST; a second call follows',
    plan: [
      { name: 'lookup_order', args: { orderId: 'A-10' }, before: (t) => t.server.restart() },
      { name: 'lookup_order', args: { orderId: 'A-11' } },
    ],
    tail: 1000,
  },
  'sse-cut': {
    about: 'the hop forwards the tools/call response head (text/event-stream), then destroys both sockets before the result event (no event ids); a second call follows',
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
  timeout: {
    about: 'slow_report runs 65 s; cn sets no timeout of its own on tools/call (the SDK default, 60 s, applies); a lookup_order follows',
    plan: [
      { name: 'slow_report', args: { ms: 65000 } },
      { name: 'lookup_order', args: { orderId: 'A-20' } },
    ],
    tail: 1500,
  },
  'server-down-at-start': {
    about: 'nothing listens behind the recording proxy when cn starts: the proxy drops each connection, the tools are never offered',
    down: true,
    plan: [{ name: 'lookup_order', args: { orderId: 'A-18' } }],
  },
};

/** The tool call states of cn's saved session (status, output), shortened. */
function sessionToolStates(home) {
  const dir = join(home, '.continue', 'sessions');
  const out = [];
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)) {
    if (f === 'sessions.json' || !f.endsWith('.json')) continue;
    let s;
    try {
      s = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch {
      continue;
    }
    for (const item of s.history ?? []) {
      for (const st of item.toolCallStates ?? []) {
        out.push({ toolCallId: st.toolCallId, name: st.toolCall?.function?.name, status: st.status, output: (st.output ?? []).map((o) => ({ name: o.name, content: String(o.content ?? '').slice(0, 400) })) });
      }
    }
  }
  return out;
}

/** The log lines (stderr and ~/.continue/logs/cn.log) that speak of MCP, the server or its tools. */
function mcpLogLines(text, home) {
  return scrub(text, home)
    .split('\n')
    .filter((l) => /mcp|\bweb\b|lookup_order|validate_quantity|strict_lookup|slow_report|crash|transport|session|timed out|error/i.test(l))
    .filter((l) => !/Created default permissions|Registered service|Loading service|Service loaded|initialized successfully|state updated|Failed to (load|initialize) service|^\s+at /.test(l))
    .map((l) => l.replace(/^\S+ \S+ \[[0-9a-f]+\] /, '').slice(0, 600))
    .slice(0, 80);
}

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'continue-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const wire = await startRecordedWire({ files, startServer: startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeOpenAI(plan);
  const sink = await startOfflineSink();
  const configYaml = (apiBase, apiKey, url) =>
    [
      'name: mcp-triage recording',
      'version: 0.0.1',
      'schema: v1',
      'models:',
      '  - name: fake',
      '    provider: openai',
      '    model: fake-model',
      `    apiBase: ${apiBase}`,
      `    apiKey: ${apiKey}`,
      '    roles: [chat]',
      'mcpServers:',
      `  - name: ${SERVER}`,
      '    type: streamable-http',
      `    url: ${url}`,
      '',
    ].join('\n');
  const config = join(home, 'config.yaml');
  writeFileSync(config, configYaml(`${api.url}/v1`, API_KEY, `${clientView.url}/mcp`));
  const t0 = Date.now();
  const run = await runCn({ home, cwd, sink: sink.url, config });
  const ms = Date.now() - t0;
  if (spec.tail) await sleep(spec.tail);
  await wire.close();
  await api.close();
  await sink.close();

  const logFile = join(home, '.continue', 'logs', 'cn.log');
  const cnLog = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  const planned = new Set(spec.plan.flatMap((c) => (c.parallel ?? [c]).map((p) => p.name)));
  const chats = api.requests.filter((r) => r.tools.length);
  const observed = {
    scenario: name,
    about: spec.about,
    continueCli: '1.5.47',
    exit: run.code,
    ms,
    config: configYaml('http://127.0.0.1:PORT/v1', '(dummy)', 'http://127.0.0.1:PORT/mcp'),
    plan: planSummary(spec.plan),
    offered: [...new Set(chats.flatMap((r) => r.tools).filter((f) => planned.has(f) || /^(lookup_order|validate_quantity|slow_report|crash|exit_now|strict_lookup)$/.test(f)))],
    toolMessages: toolMessages(api.requests),
    sessionToolStates: sessionToolStates(home),
    stdout: scrub(run.stdout, home).slice(0, 2000),
    mcpLog: mcpLogLines(`${run.stderr}\n${cnLog}`, home),
    outbound: [...new Set(sink.outbound)],
    apiRequests: api.requests.map((r) => `${r.method} ${r.url} tools=${r.tools.length}`),
  };
  writeFileSync(join(dir, 'observed.json'), JSON.stringify(observed, null, 2) + '\n');
  writeFileSync(join(tmpdir(), `continue-${name}.stderr.txt`), scrub(`${run.stderr}\n--- cn.log ---\n${cnLog}`, home));
  checkScenarioFiles(name, dir, files, API_KEY);
  rmSync(home, { recursive: true, force: true });
  console.log(`${name}: exit ${run.code} in ${ms} ms, ${observed.toolMessages.length} tool message(s): ${observed.toolMessages.map((m) => JSON.stringify(m.content).slice(0, 120)).join(' | ')}`);
}

const wanted = process.argv.slice(2);
for (const [name, spec] of Object.entries(SCENARIOS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  await record(name, spec);
}
process.exit(0);
