// Audit 46's real captures (test/fixtures/real-audit46): two tshark captures of the same traffic given as client and server, whose xids coincide.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit46/';

type Row = { session: string | null; id: unknown; method: string; tool: string | null; outcome: string; serverOutcome?: string; sources: { file: string; line: number }[] };

async function rows(run: string, logs: ('a' | 'b')[], windowMs?: number): Promise<Row[]> {
  const inputs = logs.map((n) => ({ path: `${DIR}${run}/${n}.ek.ndjson`, side: n === 'a' ? 'client' as const : 'server' as const }));
  const r = await analyze({ inputs, onDiagnostic: () => {}, ...(windowMs !== undefined ? { windowMs } : {}) });
  return r.attempts as unknown as Row[];
}

const keyOf = (a: Row) => `${a.session} ${JSON.stringify(a.id)} ${a.method}`;

// short: the cancelled call's stream ended 8 s after the cancellation (read with --window 1); long: 70 s (the default --window).
for (const { run, windowMs } of [{ run: 'short', windowMs: 1000 }, { run: 'long', windowMs: undefined }]) {
  describe(`real-audit46 ${run}: capture A (from the start) as the client's view, capture B (started 7 s later) as the server's`, () => {
    const observed = JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as { steps: { step?: string; ok?: boolean }[] };

    it('the captures do share an xid: session 1\'s slow call in A and session 2\'s cancelled call in B are both tcp2/20', () => {
      const requestIn = (n: string) => readFileSync(`${DIR}${run}/${n}.ek.ndjson`, 'utf8').split('\n').filter((l) => l.includes('"tools/call"') && l.includes('slow_report')).map((l) => {
        const layers = (JSON.parse(l) as { layers: { frame: Record<string, string>; tcp: Record<string, string> } }).layers;
        return `tcp${layers.tcp.tcp_tcp_stream}/${layers.frame.frame_frame_number}`;
      });
      expect(requestIn('a')[0]).toBe('tcp2/20');
      expect(requestIn('b')).toEqual(['tcp2/20']);
    });

    it('each side of the joined report is what its capture alone says (no record joins the other capture\'s exchange)', async () => {
      const both = await rows(run, ['a', 'b'], windowMs);
      const a = new Map((await rows(run, ['a'], windowMs)).map((r) => [keyOf(r), r]));
      const b = new Map((await rows(run, ['b'], windowMs)).map((r) => [keyOf(r), r]));
      expect(both.length).toBe(a.size);
      for (const r of both) {
        expect(r.outcome, keyOf(r)).toBe(a.get(keyOf(r))?.outcome);
        expect(r.serverOutcome, keyOf(r)).toBe(b.get(keyOf(r))?.outcome);
        // B's lines only on attempts B saw, A's only on those A saw.
        for (const s of r.sources) expect((s.file.endsWith('b.ek.ndjson') ? b : a).has(keyOf(r)), `${keyOf(r)} ${s.file}:${s.line}`).toBe(true);
      }
    });

    it('session 1\'s slow call (only in A) got its answer late: TOOL_SUCCESS, as its caller saw, not cut by B\'s stream end', async () => {
      expect(observed.steps.find((s) => s.step === 'sse-1 slow_report (answers late)')?.ok).toBe(true);
      const slow = (await rows(run, ['a', 'b'], windowMs)).filter((r) => r.tool === 'slow_report');
      expect(slow.map((r) => [r.outcome, r.serverOutcome ?? null])).toEqual([['TOOL_SUCCESS', null], ['STREAM_INCOMPLETE', 'STREAM_INCOMPLETE']]);
      expect(slow[0]!.sources.every((s) => s.file.endsWith('a.ek.ndjson'))).toBe(true);
    });
  });
}
