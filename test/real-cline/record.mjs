// Cline CLI recorder: runs the Cline CLI (npm `cline` 3.0.65, a compiled binary) headless against a fake OpenAI chat completions API and the SDK 1.32.2 HTTP server, keeps both sides of the MCP wire.
// NOT run by `npm test`: CI has no Cline CLI. Install it in a scratch folder outside the repository:
//   mkdir -p /work/scratch-agents2/cline && cd /work/scratch-agents2/cline && npm init -y && npm install --legacy-peer-deps cline@3.0.65
// then, from the repository, with loopback only (the recorder refuses to run while another interface is up):
//   npm run build && unshare -n sh -c 'ip link set lo up && exec node test/real-cline/record.mjs [scenario...]'   (CLINE_BIN=path to its bin/cline to move it)
// Nothing leaves 127.0.0.1: the scratch HOME's ~/.cline/data/settings/providers.json names the openai-compatible provider
// with baseUrl on test/real-opencode/fake-openai.mjs (what `cline auth -p openai -b URL` writes), cline_mcp_settings.json one
// streamableHttp server (what `cline mcp add --transport streamable-http` writes); HTTP(S)_PROXY point at a local sink that
// refuses every request and notes it (observed.json `outbound`);
// global-settings.json opts out of telemetry and auto-update, CLINE_NO_AUTO_UPDATE=1.
// Writes test/fixtures/real-cline/<scenario>/: client.ndjson (a recording proxy Cline talks to, side client),
// server.ndjson (a recording proxy in front of the server, side server), a fault hop between them where the scenario has one,
// observed.json (the tool message Cline sent back to the model for each call, its JSON output lines, its stderr lines).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

const CLINE = process.env.CLINE_BIN ?? '/work/scratch-agents2/cline/node_modules/cline/bin/cline';
const VERSION = '3.0.65';
const ROOT = fileURLToPath(new URL('../fixtures/real-cline/', import.meta.url));
/** A dummy key: the fake API ignores it; the recordings must not contain it (checked after each scenario). */
const API_KEY = 'dummy-cline-key-not-a-secret-0001';
const SERVER = 'web';

stopAfter(1_500_000);

/** Runs `cline --json <prompt>` once (act mode, every tool auto-approved); resolves with its exit code, stdout and stderr. */
function runCline({ home, cwd, sink }) {
  const env = { ...proxyEnv(sink), PATH: process.env.PATH, HOME: home, NO_COLOR: '1', TERM: 'dumb', DO_NOT_TRACK: '1', CLINE_NO_AUTO_UPDATE: '1' };
  const argv = ['--json', '--auto-approve', 'true', '-c', cwd, '-P', 'openai-compatible', '-m', 'fake-model', 'Use the tools you were asked to use.'];
  return runAgent(CLINE, argv, { cwd, env, killAfterMs: 200_000 });
}

/**
 * Cline starts a detached hub daemon (`.cline --cline-hub-daemon --cwd <project>`) that outlives the CLI: end the ones
 * whose --cwd is this run's scratch project, by pid, and say how many (observed.json `hubDaemons`).
 */
function endHubDaemons(cwd) {
  let n = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!argv.includes('--cline-hub-daemon') || argv[argv.indexOf('--cwd') + 1] !== cwd) continue;
    try {
      process.kill(Number(pid), 'SIGTERM');
      n++;
    } catch {}
  }
  return n;
}

const scrub = (text, home) => text.split(home).join('/home/user').split(API_KEY).join('(dummy)');

const SCENARIOS = agentScenarios({ timeoutAbout: 'timeout 3 (seconds) in cline_mcp_settings.json', who: 'Cline' });

async function record(name, spec) {
  const dir = join(ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = { client: join(dir, 'client.ndjson'), server: join(dir, 'server.ndjson') };
  const home = mkdtempSync(join(tmpdir(), 'cline-home-'));
  const cwd = join(home, 'project');
  mkdirSync(cwd);
  const settingsDir = join(home, '.cline/data/settings');
  mkdirSync(settingsDir, { recursive: true });
  const wire = await startRecordedWire({ files, startServer: startHttpServer, down: spec.down, fault: spec.fault });
  const { server, clientView } = wire;
  const t = { server };
  const plan = spec.plan.map((c) => ({ ...c, before: c.before ? () => c.before(t) : undefined }));
  const api = await startFakeOpenAI(plan);
  const sink = await startOfflineSink();
  const providers = (baseUrl, apiKey) => ({
    version: 1,
    lastUsedProvider: 'openai-compatible',
    modes: {},
    providers: { 'openai-compatible': { settings: { provider: 'openai-compatible', apiKey, model: 'fake-model', baseUrl }, updatedAt: '2026-01-01T00:00:00.000Z', tokenSource: 'manual' } },
  });
  const mcp = (url) => ({ mcpServers: { [SERVER]: { transport: { type: 'streamableHttp', url }, ...(spec.timeout ? { timeout: spec.timeout / 1000 } : {}) } } });
  // telemetry opted out and auto-update off (global settings), CLINE_NO_AUTO_UPDATE=1 in the environment as well
  writeFileSync(join(settingsDir, 'global-settings.json'), JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }, null, 2));
  writeFileSync(join(settingsDir, 'providers.json'), JSON.stringify(providers(`${api.url}/v1`, API_KEY), null, 2));
  writeFileSync(join(settingsDir, 'cline_mcp_settings.json'), JSON.stringify(mcp(`${clientView.url}/mcp`), null, 2));
  const t0 = Date.now();
  const run = await runCline({ home, cwd, sink: sink.url });
  const ms = Date.now() - t0;
  const hubDaemons = endHubDaemons(cwd);
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
    clineCli: VERSION,
    hubDaemons,
    exit: run.code,
    ms,
    settings: { providers: providers('http://127.0.0.1:PORT/v1', '(dummy)'), cline_mcp_settings: mcp('http://127.0.0.1:PORT/mcp') },
    plan: planSummary(spec.plan),
    offered: [...new Set(api.requests.flatMap((r) => r.tools).filter((f) => [...planned].some((p) => f === p || f.endsWith(`_${p}`))))],
    toolMessages: toolMessages(api.requests),
    jsonLines: lines.length,
    stdoutTail: scrub(run.stdout, home).split('\n').filter((l) => l.trim()).slice(-12).map((l) => l.slice(0, 600)),
    stderr: scrub(run.stderr, home).split('\n').filter((l) => l.trim() && !/^\s+at |AI SDK Warning/.test(l)).slice(0, 80).map((l) => l.slice(0, 600)),
    outbound: [...new Set(sink.outbound)],
    apiRequests: api.requests.map((r) => `${r.method} ${r.url} tools=${r.tools.length}`),
  };
  finishScenario({ prefix: 'cline', name, dir, files, observed, run, home, scrub, apiKey: API_KEY, ms });
}

await recordScenarios(SCENARIOS, record);
