// GitHub Copilot CLI recorder: runs the Copilot CLI (@github/copilot 1.0.102) headless in offline mode with a BYOK provider on a fake OpenAI chat completions API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no Copilot CLI. Install it in a scratch folder outside the repository:
//   mkdir -p /work/scratch-agents2/copilot && cd /work/scratch-agents2/copilot && npm init -y && npm install --legacy-peer-deps @github/copilot@1.0.102
// then, from the repository, with loopback only (the recorder refuses to run while another interface is up):
//   npm run build && unshare -n sh -c 'ip link set lo up && exec node test/real-copilot/record.mjs [scenario...]'   (COPILOT_JS=path to its npm-loader.js to move it)
// No GitHub account: COPILOT_OFFLINE=true (no GitHub auth, telemetry, web tools, GitHub MCP server or auto-update) with
// COPILOT_PROVIDER_BASE_URL on test/real-opencode/fake-openai.mjs (BYOK, type openai); the MCP server comes in by
// --additional-mcp-config (type http); HTTP(S)_PROXY point at a local sink that refuses every request and notes it.
// Writes test/fixtures/real-copilot/<scenario>/: client.ndjson (a recording proxy the CLI talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario has one,
// observed.json (the tool message the CLI sent back to the model for each call, its JSON output lines, its stderr lines).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentScenarios } from '../helpers/agent-scenarios.mjs';
import { finishScenario, recordScenarios, planSummary, proxyEnv, runAgent, startOfflineSink, startRecordedWire } from '../helpers/agent-run.mjs';
import { sleep, stopAfter } from '../helpers/loopback.mjs';
import { startHttpServer } from '../real-claude-code/servers.mjs';
import { startFakeOpenAI, toolMessages } from '../real-opencode/fake-openai.mjs';

const outside = Object.entries(networkInterfaces()).filter(([, as]) => as.some((a) => !a.internal));
if (outside.length) {
  process.stderr.write(`record.mjs: interfaces other than loopback are up (${outside.map(([n]) => n).join(', ')}): run it under unshare -n (see the header)\n`);
  process.exit(2);
}

const COPILOT = process.env.COPILOT_JS ?? '/work/scratch-agents2/copilot/node_modules/@github/copilot/npm-loader.js';
const VERSION = '1.0.102';
const ROOT = fileURLToPath(new URL('../fixtures/real-copilot/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-copilot-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `copilot -p <prompt>` once (every tool allowed); resolves with its exit code, stdout and stderr. */
function runCopilot({ home, cwd, sink, apiUrl, mcpConfig }) {
  const env = {
    ...proxyEnv(sink), PATH: process.env.PATH, HOME: home, COPILOT_HOME: join(home, '.copilot'), NO_COLOR: '1', TERM: 'dumb', DO_NOT_TRACK: '1',
    COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false', COPILOT_PROVIDER_TYPE: 'openai', COPILOT_PROVIDER_BASE_URL: apiUrl, COPILOT_PROVIDER_API_KEY: API_KEY,
    COPILOT_MODEL: 'fake-model', COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '100000', COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: '4000',
  };
  const argv = [COPILOT, '-p', 'Use the tools you were asked to use.', '--allow-all-tools', '--no-auto-update', '--disable-builtin-mcps', '--disable-client-telemetry', '--no-ask-user', '--output-format', 'json', '--additional-mcp-config', JSON.stringify(mcpConfig)];
  return runAgent(process.execPath, argv, { cwd, env, killAfterMs: 200_000 });
}

const scrub = (text, home) => text.split(home).join('/home/user').split(API_KEY).join('(dummy)');

const SCENARIOS = agentScenarios({ timeoutAbout: 'timeout 3000 in --additional-mcp-config', who: 'the CLI' });

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'copilot-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const wire = await startRecordedWire({ files, startServer: startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  // the CLI offers MCP tools as <server>-<tool>: the fake model names them so
  const plan = spec.plan.map((c) => ({ ...c, name: `${SERVER}-${c.name}`, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeOpenAI(plan);
  const sink = await startOfflineSink();
  const mcp = (url) => ({ mcpServers: { [SERVER]: { type: 'http', url, tools: ['*'], ...(spec.timeout ? { timeout: spec.timeout } : {}) } } });
  const t0 = Date.now();
  const run = await runCopilot({ home, cwd, sink: sink.url, apiUrl: `${api.url}/v1`, mcpConfig: mcp(`${clientView.url}/mcp`) });
  const ms = Date.now() - t0;
  if (spec.tail) await sleep(spec.tail);
  await wire.close();
  await api.close();
  await sink.close();

  const lines = [];
  for (const l of run.stdout.split('\n')) {
    try {
      lines.push(JSON.parse(l));
    } catch {}
  }
  const planned = new Set(spec.plan.flatMap((c) => (c.parallel ?? [c]).map((p) => p.name)));
  const observed = {
    scenario: name,
    about: spec.about,
    copilotCli: VERSION,
    exit: run.code,
    ms,
    additionalMcpConfig: mcp('http://127.0.0.1:PORT/mcp'),
    plan: planSummary(spec.plan),
    offered: [...new Set(api.requests.flatMap((r) => r.tools).filter((f) => [...planned].some((p) => f === `${SERVER}-${p}`)))],
    toolMessages: toolMessages(api.requests),
    firstRequestTools: api.requests[0]?.tools ?? [],
    jsonLines: lines.length,
    stdoutTail: scrub(run.stdout, home).split('\n').filter((l) => l.trim()).slice(-12).map((l) => l.slice(0, 600)),
    stderr: scrub(run.stderr, home).split('\n').filter((l) => l.trim() && !/^\s+at |AI SDK Warning/.test(l)).slice(0, 80).map((l) => l.slice(0, 600)),
    outbound: [...new Set(sink.outbound)],
    apiRequests: api.requests.map((r) => `${r.method} ${r.url} tools=${r.tools.length}`),
  };
  finishScenario({ prefix: 'copilot', name, dir, files, observed, run, home, scrub, apiKey: API_KEY, ms });
}

await recordScenarios(SCENARIOS, record);
