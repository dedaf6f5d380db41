// Qwen Code recorder: runs Qwen Code (@qwen-code/qwen-code 0.24.4) headless against a fake OpenAI chat completions API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no Qwen Code. Install it in a scratch folder outside the repository:
//   mkdir -p /work/scratch-agents2/qwen && cd /work/scratch-agents2/qwen && npm init -y && npm install --legacy-peer-deps @qwen-code/qwen-code@0.24.4
// then, from the repository, with loopback only (the recorder refuses to run while another interface is up):
//   npm run build && unshare -n sh -c 'ip link set lo up && exec node test/real-qwen/record.mjs [scenario...]'   (QWEN_JS=path to its cli.js to move it)
// Nothing leaves 127.0.0.1: --auth-type openai with --openai-base-url on test/real-opencode/fake-openai.mjs; usage statistics,
// telemetry, auto-update and its notification are off in the scratch HOME's ~/.qwen/settings.json; HTTP(S)_PROXY point at a
// local sink that refuses every request and notes it (observed.json `outbound`).
// Writes test/fixtures/real-qwen/<scenario>/: client.ndjson (a recording proxy Qwen Code talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario has one,
// observed.json (the tool message Qwen Code sent back to the model for each call, its final JSON result, its stderr lines).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentScenarios } from '../helpers/agent-scenarios.mjs';
import { finishScenario, recordScenarios, planSummary, proxyEnv, runAgent, startOfflineSink, startRecordedWire } from '../helpers/agent-run.mjs';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { listen, sessionHandler, sleep, stopAfter } from '../helpers/loopback.mjs';
import { buildServer, startHttpServer } from '../real-claude-code/servers.mjs';
import { startFakeOpenAI, toolMessages } from '../real-opencode/fake-openai.mjs';

const outside = Object.entries(networkInterfaces()).filter(([, as]) => as.some((a) => !a.internal));
if (outside.length) {
  process.stderr.write(`record.mjs: interfaces other than loopback are up (${outside.map(([n]) => n).join(', ')}): run it under unshare -n (see the header)\n`);
  process.exit(2);
}

const QWEN = process.env.QWEN_JS ?? '/work/scratch-agents2/qwen/node_modules/@qwen-code/qwen-code/cli.js';
const VERSION = '0.24.4';
const ROOT = fileURLToPath(new URL('../fixtures/real-qwen/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-qwen-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `qwen -p` once; resolves with its exit code, stdout and stderr. */
function runQwen({ home, cwd, sink, apiUrl }) {
  const env = { ...proxyEnv(sink), PATH: process.env.PATH, HOME: home, NO_COLOR: '1', TERM: 'dumb', DO_NOT_TRACK: '1' };
  const argv = [QWEN, '-p', 'Use the tools you were asked to use.', '--auth-type', 'openai', '--openai-api-key', API_KEY, '--openai-base-url', apiUrl, '-m', 'fake-model', '--yolo', '--output-format', 'json'];
  return runAgent(process.execPath, argv, { cwd, env, killAfterMs: 200_000 });
}

/**
 * The same server with lookup_order annotated readOnlyHint (and idempotentHint): Qwen Code replays a trusted server's
 * call after a reconnect only when its annotations say it is safe to.
 */
async function startReadOnlyServer() {
  const build = () => {
    const server = buildServer();
    server._registeredTools.lookup_order.update({ annotations: { readOnlyHint: true, idempotentHint: true } });
    return server;
  };
  const { handle, transports } = sessionHandler({ Transport: StreamableHTTPServerTransport, isInitializeRequest, buildServer: build });
  const s = await listen(handle);
  return { ...s, restart: () => transports.clear() };
}

const scrub = (text, home) => text.split(home).join('/home/user').split(API_KEY).join('(dummy)');

const SCENARIOS = agentScenarios({ timeoutAbout: 'timeout 3000 in settings.json', who: 'Qwen Code', replay: true });

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'qwen-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  mkdirSync(join(home, '.qwen'));
  const wire = await startRecordedWire({ files, startServer: spec.readOnly ? startReadOnlyServer : startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeOpenAI(plan);
  const sink = await startOfflineSink();
  const settings = {
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    // MCP tools are deferred behind tool_search/tool_call by default; off, they are offered to the model by name
    tools: { toolSearch: { enabled: false } },
    mcpServers: { [SERVER]: { httpUrl: `${clientView.url}/mcp`, timeout: spec.timeout ?? 20000, trust: true } },
  };
  writeFileSync(join(home, '.qwen/settings.json'), JSON.stringify(settings, null, 2));
  const t0 = Date.now();
  const run = await runQwen({ home, cwd, sink: sink.url, apiUrl: `${api.url}/v1` });
  const ms = Date.now() - t0;
  if (spec.tail) await sleep(spec.tail);
  await wire.close();
  await api.close();
  await sink.close();

  let output = null;
  try {
    output = JSON.parse(run.stdout);
  } catch {}
  const result = Array.isArray(output) ? output.find((m) => m.type === 'result') : output;
  const planned = new Set(spec.plan.flatMap((c) => (c.parallel ?? [c]).map((p) => p.name)));
  const observed = {
    scenario: name,
    about: spec.about,
    qwenCode: VERSION,
    exit: run.code,
    ms,
    settings: { ...settings, mcpServers: { [SERVER]: { ...settings.mcpServers[SERVER], httpUrl: 'http://127.0.0.1:PORT/mcp' } } },
    plan: planSummary(spec.plan),
    offered: [...new Set(api.requests.flatMap((r) => r.tools).filter((f) => [...planned].some((p) => f === p || f.endsWith(`_${p}`))))],
    toolMessages: toolMessages(api.requests),
    result: result ? { subtype: result.subtype ?? null, is_error: result.is_error ?? null, result: typeof result.result === 'string' ? result.result.slice(0, 400) : null } : null,
    stdoutIfNotJson: output ? undefined : scrub(run.stdout, home).slice(0, 2000),
    stderr: scrub(run.stderr, home).split('\n').filter((l) => l.trim()).slice(0, 80).map((l) => l.slice(0, 600)),
    outbound: [...new Set(sink.outbound)],
    apiRequests: api.requests.map((r) => `${r.method} ${r.url} tools=${r.tools.length}`),
  };
  finishScenario({ prefix: 'qwen', name, dir, files, observed, run, home, scrub, apiKey: API_KEY, ms });
}

await recordScenarios(SCENARIOS, record);
