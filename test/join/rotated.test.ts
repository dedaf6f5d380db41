// A log rotated in the middle of an exchange: its records go on in the next file, and the exchange is joined across them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeInputs } from '../helpers/analyze.js';

const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const lines = (name: string) => readFileSync(REAL + name, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const view = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.map((a) => `${String(a.id)} ${a.method} ${a.outcome} ${a.serverOutcome ?? '-'} [${a.findings.map((f) => f.code).join(',')}]`);

describe('a client log rotated mid-exchange', () => {
  it('every split point gives the same analysis as the whole file, with no diagnostics (real SDK recording, SSE bodies)', async () => {
    const client = lines('sse-resumed-last-event-id.client.ndjson');
    const server = { side: 'server' as const, lines: lines('sse-resumed-last-event-id.server.ndjson') };
    const whole = await analyzeInputs([{ side: 'client', lines: client }, server]);
    for (let cut = 1; cut < client.length; cut++) {
      const split = await analyzeInputs([{ side: 'client', name: 'client.1.ndjson', lines: client.slice(0, cut) }, { side: 'client', name: 'client.2.ndjson', lines: client.slice(cut) }, server]);
      expect(view(split), `cut at line ${cut}`).toEqual(view(whole));
      expect(split.summary.diagnostics.total, `cut at line ${cut}`).toBe(0);
    }
  });

  it('records of a bare-number xid in another file are not taken for the same exchange (another log may reuse it)', async () => {
    const req = { v: 1, kind: 'request', ts: '2026-10-17T10:00:00.000Z', side: 'client', xid: '7', method: 'POST', send: { jsonrpc: '2.0', id: 1, method: 'ping' } };
    const end = { v: 1, kind: 'end', ts: '2026-10-17T10:00:00.050Z', side: 'client', xid: '7', end: 'complete', recvText: '{"jsonrpc":"2.0","id":1,"result":{}}' };
    const r = await analyzeInputs([{ lines: [req] }, { lines: [end] }]);
    expect(r.summary.diagnostics.byCode['no-open-exchange']).toBe(2); // its body and its end, each named
  });
});

describe('a log rotated between calls', () => {
  const REAL_AUDIT = fileURLToPath(new URL('../fixtures/real-audit/timeout-then-retry/', import.meta.url));
  const side = (s: string) => readFileSync(`${REAL_AUDIT}${s}.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const calls = (r: Awaited<ReturnType<typeof analyzeInputs>>) => r.attempts.map((a) => `${String(a.id)} ${a.method} ${a.call} #${a.attempt} ${a.retryOrigin?.origin ?? '-'} [${a.findings.map((f) => f.code).join(',')}]`);

  it('a retry in the next file is the same call: the recorder\'s xid counter goes on (real SDK recording, app retry)', async () => {
    const client = side('client');
    const server = { side: 'server' as const, lines: side('server') };
    const whole = await analyzeInputs([{ side: 'client', lines: client }, server]);
    expect(calls(whole).some((c) => c.includes('#2 app'))).toBe(true);
    for (let cut = 1; cut < client.length; cut++) {
      const split = await analyzeInputs([{ side: 'client', name: 'client.1.ndjson', lines: client.slice(0, cut) }, { side: 'client', name: 'client.2.ndjson', lines: client.slice(cut) }, server]);
      expect(calls(split), `cut at line ${cut}`).toEqual(calls(whole));
    }
  });

  it('the same log given twice is read as that log with every row twice (its xid counters repeat): counted once, the copies DUPLICATE_RECORD', async () => {
    const client = side('client');
    const twice = await analyzeInputs([{ side: 'client', lines: client }, { side: 'client', name: 'copy.ndjson', lines: client }]);
    const once = await analyzeInputs([{ side: 'client', lines: client }]);
    expect(twice.attempts.length).toBe(once.attempts.length);
    expect(twice.attempts.map((a) => a.outcome)).toEqual(once.attempts.map((a) => a.outcome));
    expect(twice.findings.some((f) => f.code === 'DUPLICATE_RECORD')).toBe(true);
  });
});
