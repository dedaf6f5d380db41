// Audit 41's real runs (test/fixtures/real-audit41): each style of claim line joined to the attempt the truth says it tells of.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit41/';
const RUNS = [{ run: 'ts-ts', wire: 'client.ndjson' }, { run: 'v2-py', wire: 'client.ndjson' }, { run: 'py-ts', wire: 'proxy.ndjson' }];
/** The app's per-call lines: the last POST's id, the first's, none (tool and duration), at the last POST's response head, 3 s after the run. */
const PER_CALL = ['last', 'first', 'noid', 'early', 'late'];

type Post = { id: number; status: number };
type Entry = { label?: string; tool?: string; ok?: boolean; isError?: boolean | null; posts?: Post[] };
type Call = { tool: string; attempts: Entry[]; posts: Post[] };

const lines = <T>(path: string): T[] => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as T);

/** The app's calls, from what each SDK call returned or threw (truth-client.ndjson): an " app retry" continues the call before. */
function calls(run: string): Call[] {
  const out: Call[] = [];
  for (const e of lines<Entry>(`${DIR}${run}/truth-client.ndjson`)) {
    if (!e.posts) continue;
    if (e.label!.endsWith(' app retry')) out.at(-1)!.attempts.push(e);
    else out.push({ tool: e.tool!, attempts: [e], posts: [] });
    out.at(-1)!.posts.push(...e.posts);
  }
  return out;
}

/** What an SDK call's last POST came to, as the app saw it. */
function truthOutcome(e: Entry): string {
  const last = e.posts!.at(-1)!;
  if (e.ok) return e.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  return last.status >= 400 ? 'HTTP_ERROR' : 'STREAM_INCOMPLETE';
}

async function report(run: string, wire: string, style: string, server: boolean) {
  const inputs = [{ path: `${DIR}${run}/${wire}`, side: 'client' as const }, ...(server ? [{ path: `${DIR}${run}/server.ndjson`, side: 'server' as const }] : []), { path: `${DIR}${run}/claims-${style}.ndjson`, side: 'client' as const }];
  const r = await analyze({ inputs, onDiagnostic: () => {} });
  return r.attempts.filter((a) => a.method === 'tools/call');
}

type A = Awaited<ReturnType<typeof report>>[number];
const codes = (a: A) => a.findings.map((f) => f.code);
/** The attempt of a POST: its id and HTTP status (the SDK's re-send after a 401 keeps the id). */
const attemptOf = (as: A[], p: Post) => as.filter((a) => a.id === p.id && a.status === p.status);

describe('audit 41: a claim is joined to the attempt it tells of, whichever id it names', () => {
  for (const { run, wire } of RUNS) {
    for (const server of [true, false]) {
      for (const style of PER_CALL) {
        it(`${run}${server ? ' with the server' : ''}: a claim per call (${style}) is on the call's final attempt`, async () => {
          const as = await report(run, wire, style, server);
          const claimed = lines<{ tool: string; outcome: string }>(`${DIR}${run}/claims-${style}.ndjson`);
          const cs = calls(run);
          expect(claimed.length).toBe(cs.length);
          cs.forEach((call, i) => {
            const final = attemptOf(as, call.posts.at(-1)!);
            expect(final.length, `${call.tool} ${i}`).toBe(1);
            // its own line, and no other attempt has it
            expect(final[0]!.claim?.source?.line, `${call.tool} ${i}`).toBe(i + 1);
            expect(as.filter((a) => a.claim?.source?.line === i + 1).length).toBe(1);
            // OUTCOME_MISMATCH only where the app's line says otherwise than the call's last SDK call came to (the naive soft_fail)
            const mismatch = claimed[i]!.outcome !== truthOutcome(call.attempts.at(-1)!);
            expect(codes(final[0]!).includes('OUTCOME_MISMATCH'), `${call.tool} ${i}`).toBe(mismatch);
            for (const p of call.posts.slice(0, -1)) for (const a of attemptOf(as, p)) expect(codes(a), `${call.tool} ${p.id}`).not.toContain('OUTCOME_MISMATCH');
            // the app's own retry is the app's, as its line says
            if (call.attempts.length > 1) {
              const retry = attemptOf(as, call.attempts[1]!.posts![0]!)[0]!;
              expect([retry.retryOrigin?.origin, codes(retry).includes('RETRY_ORIGIN_AMBIGUOUS')], `${call.tool} ${i}`).toEqual(['app', false]);
            }
          });
        });
      }
      it(`${run}${server ? ' with the server' : ''}: a claim per attempt is on the attempt it names, the 502's too`, async () => {
        const as = await report(run, wire, 'attempt', server);
        const entries = calls(run).flatMap((c) => c.attempts.map((e, k) => ({ e, retry: k > 0 })));
        const claimed = lines<{ outcome: string }>(`${DIR}${run}/claims-attempt.ndjson`);
        expect(claimed.length).toBe(entries.length);
        entries.forEach(({ e, retry }, i) => {
          const a = attemptOf(as, e.posts!.at(-1)!);
          expect(a.length, e.label).toBe(1);
          expect(a[0]!.claim?.source?.line, e.label).toBe(i + 1);
          expect(codes(a[0]!).includes('OUTCOME_MISMATCH'), e.label).toBe(claimed[i]!.outcome !== truthOutcome(e));
          // a retry's line of its own attempt (postCount 1, retryOrigin app) says who sent it; no count of the call's POSTs contradicts it
          if (retry) expect([a[0]!.retryOrigin?.origin, codes(a[0]!).includes('RETRY_ORIGIN_AMBIGUOUS')], e.label).toEqual(['app', false]);
        });
      });
    }
  }

  it('the truth files: the hop ran the charge and the soft_fail before its 502, and the naive line says success', () => {
    for (const { run } of RUNS) {
      const hop = lines<{ fault?: string; tool?: string; upstreamStatus?: number }>(`${DIR}${run}/truth-hop.ndjson`);
      expect(hop.filter((h) => h.fault === '502-after' && h.upstreamStatus === 200).map((h) => h.tool), run).toEqual(['charge', 'soft_fail']);
      const soft = calls(run).find((c) => c.tool === 'soft_fail')!;
      expect([soft.posts.map((p) => p.status), truthOutcome(soft.attempts.at(-1)!)], run).toEqual([[502, 200], 'TOOL_ERROR']);
      expect(lines<{ tool: string; outcome: string }>(`${DIR}${run}/claims-first.ndjson`).find((c) => c.tool === 'soft_fail')!.outcome, run).toBe('TOOL_SUCCESS');
      // the lookup failed twice (503 both times, never forwarded) and every line says HTTP_ERROR
      expect(calls(run).find((c) => c.tool === 'lookup')!.posts.map((p) => p.status), run).toEqual([503, 503]);
    }
    // the v2 client's charge: the SDK's own re-send after the 401 (same id), then the app's retry after the 502
    expect(calls('v2-py').find((c) => c.tool === 'charge')!.posts).toEqual([{ id: 1, status: 401, at: expect.any(Number) }, { id: 1, status: 502, at: expect.any(Number) }, { id: 2, status: 200, at: expect.any(Number) }]);
  });
});
