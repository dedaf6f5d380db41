// The summary counts each call once while remembering only recent calls: memory follows open calls, not the log.
import { describe, expect, it } from 'vitest';
import { SummaryBuilder, type AttemptRow } from '../../src/report/summary.js';
import { callHorizonMs } from '../../src/analyze.js';

const T0 = Date.parse('2026-10-17T08:00:00Z');

function row(call: string, attempt: number, startMs: number, durationMs = 120, outcome: AttemptRow['outcome'] = 'TOOL_SUCCESS'): AttemptRow {
  return {
    session: 'sess-1', id: attempt, method: 'tools/call', tool: 'search', status: 200, outcome, layer: 'tool',
    call, attempt, findings: [], sources: [{ file: 'client.ndjson', line: 1 }], ts: new Date(startMs).toISOString(), durationMs,
  };
}

/** Two hours of traffic: 20,000 short calls (some retried), one call retried every 50 s throughout, one slow call. */
function traffic(): { rows: AttemptRow[]; calls: number } {
  const rows: AttemptRow[] = [];
  let calls = 0;
  let n = 0;
  for (let t = 0; t < 2 * 3600_000; t += 360) {
    const call = `c${++n}`;
    calls++;
    rows.push(row(call, 1, T0 + t, 120, n % 7 === 0 ? 'HTTP_ERROR' : 'TOOL_SUCCESS'));
    if (n % 7 === 0) rows.push(row(call, 2, T0 + t + 2_000)); // its retry, two seconds later
    if (t % 50_000 < 360) rows.push(row('c0', Math.floor(t / 50_000) + 1, T0 + t, 200, 'HTTP_ERROR')); // never gives up
  }
  calls++; // c0
  // A call whose first attempt streamed for ten minutes, retried 30 s after it ended.
  rows.push(row('slow', 1, T0 + 600_000, 600_000, 'STREAM_INCOMPLETE'), row('slow', 2, T0 + 1_230_000));
  calls++;
  rows.sort((a, b) => Date.parse(a.ts!) - Date.parse(b.ts!));
  return { rows, calls };
}

const builder = (horizon: number) => new SummaryBuilder({ redact: true, keepAll: false, maxRows: 0, toolName: 'test', filters: {}, callHorizonMs: horizon });

describe('counting calls', () => {
  it('counts every call once, including one retried for hours and one whose attempt lasted ten minutes', () => {
    const { rows, calls } = traffic();
    const b = builder(callHorizonMs({}));
    for (const r of rows) b.attempt(r);
    expect(b.build({ accounts: [], diagnostics: { total: 0, counts: new Map(), first: [] } as never, claims: 0, unmatchedClaims: [], notes: [] }).calls).toBe(calls);
  });

  it('remembers only the calls of the last few minutes of log time', () => {
    const { rows } = traffic();
    const b = builder(callHorizonMs({}));
    let most = 0;
    for (const r of rows) {
      b.attempt(r);
      most = Math.max(most, b.callsHeld);
    }
    // 20,000 calls over two hours; the horizon (~8 minutes) holds about 1,400 of them, plus the 4,096 counted between sweeps.
    expect(most).toBeLessThan(7_000);
  });

  it('a horizon shorter than a retry gap counts the long-lived call again (why the horizon covers the retry window)', () => {
    const { rows, calls } = traffic();
    const b = builder(1_000);
    for (const r of rows) b.attempt(r);
    expect(b.build({ accounts: [], diagnostics: { total: 0, counts: new Map(), first: [] } as never, claims: 0, unmatchedClaims: [], notes: [] }).calls).toBeGreaterThan(calls);
  });
});
