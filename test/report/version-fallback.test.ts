// A server/discover probe refused by an older server, then initialize: era detection as the spec asks, not a failure to list.
import { describe, expect, it } from 'vitest';
import { ROOT, SAMPLES, cli } from '../cli/helpers.js';

const pair = (dir: string) => ['--client', `${ROOT}test/fixtures/${dir}/client.ndjson`, '--server', `${ROOT}test/fixtures/${dir}/server.ndjson`];
type Row = { type: string; method?: string; outcome?: string; status?: number; versionFallback?: true; detail?: { why?: string } };
const rows = async (args: string[]) => (await cli([...args, '-f', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
const probes = (all: Row[]) => all.filter((r) => r.type === 'attempt' && r.method === 'server/discover');

describe('a refused server/discover probe the client answered with initialize', () => {
  // The AI SDK's client probes first; the SDK 1.32.2 server answers 400 "No valid session ID provided"; initialize follows.
  const fellBack = pair('real-ai-sdk/sse-cut-no-resume');

  it('keeps its outcome and counts, is marked versionFallback with a why that says so, in each view alone and joined', async () => {
    for (const args of [fellBack, fellBack.slice(0, 2), fellBack.slice(2)]) {
      const all = await rows(args);
      const [probe] = probes(all);
      expect(probe).toMatchObject({ outcome: 'HTTP_ERROR', status: 400, versionFallback: true });
      expect(probe!.detail!.why).toMatch(/^a version probe the server refused \(it predates 2026-07-28\); the client fell back to initialize/);
      const summary = all.at(-1) as unknown as { byOutcome: Record<string, number>; notes: string[] };
      expect(summary.byOutcome.HTTP_ERROR).toBe(1);
      expect(summary.notes.some((n) => n.startsWith('1 server/discover probe was refused by a server older than 2026-07-28 and its client fell back'))).toBe(true);
    }
  });

  it('is not listed among the attempts that did not succeed, nor counted as a failure of its session; the note says why', async () => {
    const table = (await cli(fellBack)).stdout;
    const failed = table.slice(table.indexOf('Attempts that did not succeed'), table.indexOf('Inputs'));
    expect(failed).toContain('slow_report');
    expect(failed).not.toContain('server/discover');
    expect(table).toMatch(/Note: 1 server\/discover probe was refused/);
    const md = (await cli([...fellBack, '-f', 'markdown'])).stdout;
    expect(md.slice(md.indexOf('## Attempts that did not succeed'), md.indexOf('## Notes'))).not.toContain('server/discover');
    expect(md.slice(md.indexOf('## Notes'))).toMatch(/^## Notes\n\n- 1 server\/discover probe was refused/);
    const sessions = JSON.parse((await cli(['sessions', ...fellBack, '-f', 'json'])).stdout) as { sessions: { attempts: number; failures: number; failed: Record<string, number> }[] };
    expect(sessions.sessions.flatMap((s) => Object.keys(s.failed))).not.toContain('HTTP_ERROR');
  });
});

describe('a probe that failed otherwise stays a failure', () => {
  it('a 503 to the probe (the test kitchen), even with initialize after it, is listed and not marked', async () => {
    const all = await rows(pair('real-kitchen/v2-discover-503'));
    const refused = probes(all).filter((p) => p.outcome !== 'SUCCESS');
    expect(refused.map((p) => p.status)).toEqual([503]);
    expect(refused[0]!.versionFallback).toBeUndefined();
    const table = (await cli(pair('real-kitchen/v2-discover-503'))).stdout;
    expect(table.slice(table.indexOf('Attempts that did not succeed'), table.indexOf('Inputs'))).toContain('server/discover');
  });

  it('a probe answered 401 (FastMCP behind auth) is not an older server', async () => {
    const dir = `${ROOT}test/fixtures/real-fastmcp-py/fm-client-auth-refused-auto`;
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ndjson')).map((f) => `${dir}/${f}`);
    const [probe] = probes(await rows(files));
    expect(probe).toMatchObject({ status: 401 });
    expect(probe!.versionFallback).toBeUndefined();
  });
});

describe('--fail-on and --outcome with a refused probe (a healthy run: OpenAI Agents SDK against an older server)', () => {
  const healthy = pair('real-agents/oa-baseline');

  it('--fail-on HTTP_ERROR leaves the probe out: exit 0, nothing on stderr, failOn not failed', async () => {
    const r = await cli([...healthy, '--fail-on', 'HTTP_ERROR', '-f', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const summary = (JSON.parse(r.stdout) as { summary: { byOutcome: Record<string, number>; failOn: { failed: boolean; outcomes: Record<string, number> } } }).summary;
    expect(summary.byOutcome.HTTP_ERROR).toBe(1);
    expect(summary.failOn).toMatchObject({ failed: false, outcomes: {} });
  });

  it('the stderr line of a run that fails on other attempts says the probe was not counted', async () => {
    const both = ['--client', `${SAMPLES}client.ndjson`, '--client', healthy[1]!, '--server', `${SAMPLES}server.ndjson`, '--server', healthy[3]!];
    const r = await cli([...both, '--fail-on', 'HTTP_ERROR', '-q']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('mcp-triage: --fail-on HTTP_ERROR: 5 HTTP_ERROR attempts (not counted: 1 server/discover probe an older server refused before the client fell back to initialize)\n');
  });

  it('--outcome HTTP_ERROR asks for it: the probe is listed among the attempts that did not succeed', async () => {
    const table = (await cli([...healthy, '--outcome', 'http_error'])).stdout;
    const failed = table.slice(table.indexOf('Attempts that did not succeed'), table.indexOf('Inputs'));
    expect(table.indexOf('Attempts that did not succeed')).toBeGreaterThan(0);
    expect(failed).toContain('server/discover');
    const md = (await cli([...healthy, '--outcome', 'HTTP_ERROR', '-f', 'markdown'])).stdout;
    expect(md.slice(md.indexOf('## Attempts that did not succeed'), md.indexOf('## Notes'))).toContain('server/discover');
    // Without --outcome (or with another outcome) it stays out.
    for (const args of [healthy, [...healthy, '--outcome', 'TOOL_ERROR']]) {
      const t = (await cli(args)).stdout;
      expect(t.slice(t.indexOf('Attempts that did not succeed'), t.indexOf('Inputs'))).not.toContain('server/discover');
    }
  });
});
