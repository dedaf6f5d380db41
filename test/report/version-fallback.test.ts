// A server/discover probe refused by an older server, then initialize: era detection as the spec asks, not a failure to list.
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

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
      expect(summary.notes.some((n) => n.startsWith('1 server/discover probe(s) were refused by a server older than 2026-07-28'))).toBe(true);
    }
  });

  it('is not listed among the attempts that did not succeed, nor counted as a failure of its session; the note says why', async () => {
    const table = (await cli(fellBack)).stdout;
    const failed = table.slice(table.indexOf('Attempts that did not succeed'), table.indexOf('Inputs'));
    expect(failed).toContain('slow_report');
    expect(failed).not.toContain('server/discover');
    expect(table).toMatch(/Note: 1 server\/discover probe\(s\) were refused/);
    const md = (await cli([...fellBack, '-f', 'markdown'])).stdout;
    expect(md.slice(md.indexOf('## Attempts that did not succeed'), md.indexOf('## Notes'))).not.toContain('server/discover');
    expect(md.slice(md.indexOf('## Notes'))).toMatch(/^## Notes\n\n- 1 server\/discover probe\(s\) were refused/);
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
