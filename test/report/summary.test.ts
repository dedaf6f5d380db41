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

  it("a horizon shorter than a retry gap still counts each call once: the linker's attempt numbers say which is a call's first", () => {
    const { rows, calls } = traffic();
    const b = builder(1_000);
    for (const r of rows) b.attempt(r);
    expect(b.build({ accounts: [], diagnostics: { total: 0, counts: new Map(), first: [] } as never, claims: 0, unmatchedClaims: [], notes: [] }).calls).toBe(calls);
  });

  it('must not: rows without attempt numbers (another producer\'s) are counted by the horizon, as before', () => {
    const { rows, calls } = traffic();
    const b = builder(1_000);
    for (const r of rows) b.attempt({ ...r, attempt: undefined });
    expect(b.build({ accounts: [], diagnostics: { total: 0, counts: new Map(), first: [] } as never, claims: 0, unmatchedClaims: [], notes: [] }).calls).toBeGreaterThan(calls);
  });

  it('a machine-readable report (no retry chains printed) keeps no state per call; one that prints them keeps the recent calls', () => {
    const { rows, calls } = traffic();
    const machine = new SummaryBuilder({ redact: true, keepAll: false, maxRows: 20, chains: false, toolName: 'test', filters: {}, callHorizonMs: callHorizonMs({}) });
    const table = new SummaryBuilder({ redact: true, keepAll: false, maxRows: 20, toolName: 'test', filters: {}, callHorizonMs: callHorizonMs({}) });
    let most = 0;
    for (const r of rows) {
      machine.attempt(r);
      table.attempt(r);
      most = Math.max(most, table.callsHeld);
    }
    expect(machine.callsHeld).toBe(0);
    expect(most).toBeGreaterThan(1_000);
    const done = { accounts: [], diagnostics: { total: 0, counts: new Map(), first: [] } as never, claims: 0, unmatchedClaims: [], notes: [] };
    expect([machine.build(done).calls, table.build(done).calls]).toEqual([calls, calls]);
  });
});

describe('the tables keep the first rows in their own order, whatever order the rows arrive in', () => {
  const tables = (maxRows: number) => new SummaryBuilder({ redact: true, keepAll: false, maxRows, toolName: 'test', filters: {}, callHorizonMs: callHorizonMs({}) });
  const at = (s: number) => T0 + s * 1000;

  it('attempts that did not succeed: the earliest ones, though later ones were final first, and the exact count', () => {
    const b = tables(3);
    // A slow call finishes (and is reported) after faster ones that started later.
    const rows = [row('c1', 1, at(5), 100, 'HTTP_ERROR'), row('c2', 1, at(1), 9000, 'STREAM_INCOMPLETE'), row('c3', 1, at(7), 100, 'JSONRPC_ERROR'), row('c4', 1, at(3), 100, 'TOOL_SUCCESS'), row('c5', 1, at(2), 100, 'TOOL_ERROR'), row('c6', 1, at(9), 100, 'HTTP_ERROR')];
    for (const r of rows) b.attempt(r);
    const t = b.failedTable();
    expect(t.total).toBe(5);
    expect(t.rows.map((r) => r.call)).toEqual(['c2', 'c5', 'c1']);
  });

  it('an input_required round a follow-up answered is no failure, even when the table was already full', () => {
    const b = tables(2);
    const round = { ...row('c1', 1, at(1), 50, 'INPUT_REQUIRED') };
    b.attempt(round);
    b.attempt(row('c2', 1, at(2), 50, 'HTTP_ERROR'));
    b.attempt(row('c3', 1, at(3), 50, 'HTTP_ERROR'));
    b.attempt({ ...row('c1', 2, at(4), 50), continuation: true });
    b.attempt(row('c4', 1, at(5), 50, 'INPUT_REQUIRED')); // never answered: it did not succeed
    const t = b.failedTable();
    expect(t.total).toBe(3);
    expect(t.rows.map((r) => r.call)).toEqual(['c2', 'c3']);
  });

  it('findings: every error before any warning, however late the errors come', () => {
    const b = tables(3);
    for (let i = 0; i < 5; i++) b.attempt({ ...row(`w${i}`, 1, at(i), 50, 'HTTP_ERROR'), findings: [{ code: 'RETRY_POLICY', severity: 'warning', message: `w${i}` }] });
    for (let i = 0; i < 2; i++) b.attempt({ ...row(`e${i}`, 1, at(10 + i), 50, 'STREAM_INCOMPLETE'), findings: [{ code: 'NO_FINAL_RESULT', severity: 'error', message: `e${i}` }] });
    b.finding({ code: 'SESSION_EXPIRED', severity: 'warning', scope: 'session', session: 'sess-1', message: 'late', sources: [] });
    const t = b.findingTable();
    expect(t.total).toBe(8);
    expect(t.rows.map((r) => r.finding.message)).toEqual(['e0', 'e1', 'w0']);
    expect(t.bySeverity).toEqual({ error: 2, warning: 6, info: 0 });
  });

  it('calls with more than one attempt: counted exactly, the first ones by start, each chain bounded', () => {
    const b = tables(2);
    const rows: AttemptRow[] = [];
    for (let c = 0; c < 6; c++) {
      rows.push(row(`c${c}`, 1, at(100 - c * 10), 50, 'HTTP_ERROR'), row(`c${c}`, 2, at(100 - c * 10 + 1)));
    }
    rows.push(row('single', 1, at(0)));
    for (let i = 1; i <= 30; i++) rows.push(row('storm', i, at(200 + i), 10, 'HTTP_ERROR'));
    for (const r of rows) b.attempt(r);
    const t = b.chainTable();
    expect(t.total).toBe(7);
    expect(t.rows.map((c) => c.call)).toEqual(['c5', 'c4']);
    const all = tables(10);
    for (const r of rows) all.attempt(r);
    const storm = all.chainTable().rows.find((c) => c.call === 'storm')!;
    expect(storm.attempts).toBe(30);
    expect(storm.steps).toHaveLength(20);
  });

  it('holds at most maxRows rows per table over a long stream', () => {
    const b = tables(50);
    const { rows } = traffic();
    for (const r of rows) b.attempt({ ...r, findings: r.outcome === 'HTTP_ERROR' ? [{ code: 'RETRY_POLICY', severity: 'warning', message: 'x' }] : [] });
    const failed = b.failedTable();
    expect(failed.rows).toHaveLength(50);
    expect(failed.total).toBe(rows.filter((r) => r.outcome !== 'TOOL_SUCCESS').length);
    expect(b.findingTable().rows).toHaveLength(50);
    expect(b.chainTable().rows).toHaveLength(50);
  });
});

describe('names from the log are redacted like other log strings', () => {
  it('a key glued into a tool name is redacted in the attempt and in the per-tool counts; --no-redact shows it', async () => {
    const { analyzeInputs, ok, post } = await import('../helpers/analyze.js');
    const key = 'sk-proj-4f8Qk2LmN7pR1sT9vX3zB6dH0jW5yC8e';
    const lines = [post({ id: 1, tool: `lookup_${key}`, status: 200, body: ok(1, { content: [] }) })];
    const r = await analyzeInputs([{ side: 'client', lines }]);
    expect(r.attempts[0]!.tool).toMatch(/^lookup_\[redacted:[0-9a-f]{8}\]$/);
    expect(JSON.stringify(r.summary)).not.toContain(key);
    const plain = await analyzeInputs([{ side: 'client', lines }], { redact: false });
    expect(plain.attempts[0]!.tool).toBe(`lookup_${key}`);
  });
});
