// Audit 38's real runs (test/fixtures/real-audit38): the five postmortem findings of every view held to the truth of judge.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
// @ts-expect-error: the fixture folder's judge is plain JavaScript, shared with its command-line table
import { DIR, judge, viewInputs } from '../fixtures/real-audit38/rec/judge.mjs';

type Cell = { run: string; view: string; key: string; code: string; must: boolean; raised: boolean; missing?: boolean };
const lines = (run: string, file: string) => readFileSync(`${DIR}${run}/${file}`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

/** What the views cannot show, reported against the truth on purpose: each must still be so (see the fixtures README). */
const KNOWN = [
  // The Python SDK's DEBUG log leaves out what the server sent as application/json, tools/list's answer too: the
  // read-only lookup's annotations are unknown there, and its retry after the hop's 502 is flagged as possibly unsafe.
  'FALSE py-ts-stateless-json D lookup 8 1 UNSAFE_RETRY',
];

describe('audit 38: the five postmortem findings on fresh real traffic', () => {
  let cells: Cell[] = [];
  it('judges every view of every run', async () => {
    cells = (await judge(analyze)) as Cell[];
    expect(cells.length).toBeGreaterThan(400);
    expect(cells.filter((c) => c.missing).map((c) => `${c.run} ${c.view} ${c.key}`)).toEqual([]);
  });

  it('raises each MUST and no MUST NOT, but for the KNOWN limits', () => {
    const wrong = cells.filter((c) => c.must !== c.raised).map((c) => `${c.must ? 'MISSED' : 'FALSE'} ${c.run} ${c.view} ${c.key} ${c.code}`);
    expect(wrong).toEqual(KNOWN);
  });

  it('the truth files say what judge.json says: who was charged how often', () => {
    // Every charge the hop answered 502 after it ran was charged again by the retry (the app's, or a person's re-run).
    for (const run of ['ts-ts-sse', 'py-ts-stateless-json', 'py-py-sse', 'ts-rerun', 'py-rerun-debug']) {
      const charged = lines(run, 'truth-server.ndjson').filter((t) => t.tool === 'charge' && t.effect === 'charged');
      expect(charged.length, run).toBeGreaterThanOrEqual(2);
      expect(lines(run, 'truth-hop.ndjson').some((h) => h.fault === '502-after' && h.tool === 'charge' && h.upstreamStatus === 200), run).toBe(true);
    }
    // After a 503, a 502 or a 401 the hop never forwarded, the charge ran once.
    for (const run of ['v2-py-2026', 'ts-ts-stateless-json', 'v2-auth-2026', 'ts-drop-502']) expect(lines(run, 'truth-server.ndjson').filter((t) => t.tool === 'charge').length, run).toBe(1);
    // The naive app logged success for an isError result; the honest one logged the tool error.
    const naive = lines('ts-ts-sse', 'truth-client.ndjson').find((t) => t.label === 'soft_fail (isError)')!;
    expect([naive.ok, naive.isError]).toEqual([true, true]);
    expect(lines('ts-ts-sse', 'claims.ndjson').find((c) => c.tool === 'soft_fail')!.outcome).toBe('TOOL_SUCCESS');
    expect(lines('py-ts-stateless-json', 'claims.ndjson').find((c) => c.tool === 'soft_fail')!.outcome).toBe('TOOL_ERROR');
    // The re-run scripts: the first run exited 1, the others 0.
    for (const run of ['ts-rerun', 'py-rerun-debug']) expect(readFileSync(`${DIR}${run}/runs.log`, 'utf8').trim().split('\n')).toEqual(['run 1 exit 1', 'run 2 exit 0', 'run 3 exit 0']);
  });

  it('the Python DEBUG log beside the server: the hop\'s 502 in place of the 200 the server sent is SIDE_DIVERGENCE', async () => {
    const r = await analyze({ inputs: viewInputs('py-rerun-debug', 'DS'), onDiagnostic: () => {} });
    const first = r.attempts.find((a) => a.tool === 'charge')!;
    expect(first.findings.find((f) => f.code === 'SIDE_DIVERGENCE')?.message).toBe(
      "tools/call charge id 3: the client's log (no HTTP layer) got HTTP 502 HTTP_ERROR (its status line), the server sent HTTP 200 TOOL_SUCCESS: something between them changed the HTTP status");
  });

  it('the Python DEBUG log of JSON answers: a claim the log cannot check is no OUTCOME_MISMATCH', async () => {
    const r = await analyze({ inputs: viewInputs('py-ts-stateless-json', 'D'), onDiagnostic: () => {} });
    const soft = r.attempts.find((a) => a.tool === 'soft_fail')!;
    expect([soft.outcome, soft.claim?.outcome, soft.findings.map((f) => f.code)]).toEqual(['UNANSWERED', 'TOOL_ERROR', []]);
  });
});
