// Client claims that match no attempt are reported where they were logged, and are not held until the end of input.
import { describe, expect, it } from 'vitest';
import { Matcher } from '../../src/join/match.js';
import type { ClaimIn } from '../../src/normalize.js';
import { analyzeInputs, at, ok, post, toolText } from '../helpers/analyze.js';

const claimIn = (i: number, ts: number | undefined): ClaimIn => ({
  input: 0, ts, session: 's', src: { file: 'claims.ndjson', line: i + 1 },
  claim: { method: 'tools/call', jsonrpc: { id: 10_000 + i }, outcome: 'TOOL_SUCCESS' } as ClaimIn['claim'],
});

describe('unmatched claims', () => {
  it('a claim whose attempt never comes is counted unmatched once the window and skew have passed twice, not held', () => {
    const m = new Matcher({ windowMs: 60_000, skewMs: 120_000, bothSides: false, onAttempt: () => undefined });
    let most = 0;
    for (let i = 0; i < 2_000; i++) {
      const ts = i * 5_000; // one claim every 5 s for almost three hours, none with an attempt
      m.claim(claimIn(i, ts));
      m.advance(ts);
      most = Math.max(most, m.pendingClaimCount);
    }
    expect(most).toBeLessThan(100); // 360 s of claims at one per 5 s, plus one sweep interval
    m.flush();
    expect(m.unmatchedClaims).toHaveLength(2_000);
    expect(m.unmatchedClaims[0]).toEqual({ file: 'claims.ndjson', line: 1 });
  });

  it('a claim without a time waits until the end of input', () => {
    const m = new Matcher({ windowMs: 60_000, skewMs: 120_000, bothSides: false, onAttempt: () => undefined });
    m.claim(claimIn(0, undefined));
    m.advance(10 * 3600_000);
    expect(m.pendingClaimCount).toBe(1);
    m.flush();
    expect(m.unmatchedClaims).toHaveLength(1);
  });

  it('near miss: a claim logged before its slow attempt is final still matches it', async () => {
    // The call's SSE stream stays open 50 s; its claim is logged at 1 s, long before the attempt is final.
    const slow = post({ t: 0, id: 7, session: 'S', status: 200, ct: 'text/event-stream', body: `event: message\ndata: ${ok(7, toolText('done'))}\n\n`, durationMs: 50_000 });
    const claim = { ts: at(1_000), session: 'S', method: 'tools/call', jsonrpc: { id: 7 }, outcome: 'TOOL_SUCCESS', retryOrigin: 'none' };
    const later = Array.from({ length: 40 }, (_, i) => post({ t: 10_000 * (i + 1), id: 100 + i, session: 'S', status: 200, body: ok(100 + i, toolText('x')) }));
    const r = await analyzeInputs([{ side: 'client', lines: [slow, claim, ...later] }]);
    expect(r.summary.claims).toMatchObject({ total: 1, matched: 1, unmatched: [] });
  });
});

describe('a claim on an attempt paired late', () => {
  it('stays with its call: a later call of the same tool and arguments does not inherit it', async () => {
    const S = 'S';
    const c = 'agent@1';
    const call = (t: number, id: number, status: number) =>
      post({ t, id, session: S, client: c, status, body: status === 200 ? ok(id, toolText('up')) : '', tool: 'get_status', args: {} });
    // id 5: the client got 503 from a gateway, the server answered 200; the client's claim says the app handled it.
    const client = [call(0, 5, 503), { ts: at(100), session: S, method: 'tools/call', tool: 'get_status', jsonrpc: { id: 5 }, outcome: 'HTTP_ERROR', retryOrigin: 'app' }];
    const server = [call(10, 5, 200)];
    // Five minutes later, the same call fails and is sent again; nothing says who sent it again.
    client.push(call(300_000, 7, 503), call(301_000, 8, 200));
    server.push(call(300_010, 7, 503), call(301_010, 8, 200));
    const r = await analyzeInputs([{ side: 'client', lines: client }, { side: 'server', lines: server }]);
    const retry = r.attempts.find((a) => a.id === 8)!;
    expect(retry.attempt).toBe(2);
    expect(retry.retryOrigin?.origin).toBe('unknown');
    expect(r.attempts.find((a) => a.id === 5)!.claim?.retryOrigin).toBe('app');
  });
});
