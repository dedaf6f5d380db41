// A log that does not show a tools/call's answer (the Python client's DEBUG log leaves out what a server sent as
// application/json) may still show the call's next round: a request carrying inputResponses/requestState says the
// answer was input_required, so that round continues the call (attempt 2), it is not a new call
// (test/fixtures/real-audit26/py-v2server-modern-json: the Python client 2.3.0 on 2026-07-28, the v2 server's JSON).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit26/', import.meta.url));
const TMP = mkdtempSync(join(tmpdir(), 'mcp-triage-fix26-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const byTime = <T extends { ts?: string | undefined }>(xs: T[]) => [...xs].sort((a, b) => String(a.ts).localeCompare(String(b.ts)));

/** A client's jsonrpc direction lines: requests with no answer logged, one a second later each. */
async function lines(...params: Record<string, unknown>[]) {
  const f = join(TMP, `c${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(f, params.map((p, i) => JSON.stringify({ ts: new Date(Date.UTC(2026, 11, 5, 12, 0, i)).toISOString(), direction: 'client-to-server', message: { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: p } })).join('\n') + '\n');
  return byTime((await analyze({ inputs: [{ path: f }] })).attempts);
}

describe('an input_required round whose answer the log does not show', () => {
  it('the real Python DEBUG log: each round with the client\'s answers continues its call (attempt 2), not a new call', async () => {
    const rows = byTime((await analyze({ inputs: [{ path: `${DIR}py-v2server-modern-json/python-debug.log` }] })).attempts).filter((a) => a.tool === 'ask' || a.tool === 'summarize');
    expect(rows.map((a) => `${a.tool} ${a.outcome} ${a.attempt}${a.continuation ? ' continuation' : ''}`)).toEqual([
      'ask UNANSWERED 1', 'ask UNANSWERED 2 continuation', 'ask UNANSWERED 1', 'ask UNANSWERED 2 continuation',
      'summarize UNANSWERED 1', 'summarize UNANSWERED 2 continuation', 'summarize UNANSWERED 1',
    ]);
    expect(rows[1]!.call).toBe(rows[0]!.call);
    expect(rows[3]!.call).toBe(rows[2]!.call);
    expect(rows[2]!.call).not.toBe(rows[0]!.call);
    expect(rows[1]!.findings.map((f) => f.code)).not.toContain('UNSAFE_RETRY');
  });

  it('a follow-up carrying requestState continues the unanswered call of the same tool and arguments', async () => {
    const [first, next] = await lines({ name: 'ask', arguments: { orderId: 'A-9' } }, { name: 'ask', arguments: { orderId: 'A-9' }, inputResponses: { reason: { action: 'accept' } }, requestState: 'r1' });
    expect(next!.continuation).toBe(true);
    expect(next!.attempt).toBe(2);
    expect(next!.call).toBe(first!.call);
  });

  it('must not: the same call again without inputResponses/requestState, or a follow-up of other arguments, continues nothing', async () => {
    const again = await lines({ name: 'ask', arguments: { orderId: 'A-9' } }, { name: 'ask', arguments: { orderId: 'A-9' } });
    // (an unanswered call sent again is its retry, as before: not a continuation)
    expect(again[1]!.continuation).toBeUndefined();
    expect(again[1]!.retryOrigin?.how).not.toMatch(/continuation/);
    const other = await lines({ name: 'ask', arguments: { orderId: 'A-9' } }, { name: 'ask', arguments: { orderId: 'A-10' }, inputResponses: { reason: { action: 'accept' } }, requestState: 'r1' });
    expect(other[1]!.call).not.toBe(other[0]!.call);
    expect(other[1]!.continuation).toBeUndefined();
    expect(other[1]!.attempt).toBe(1);
  });

  it('the eighteenth audit\'s Python DEBUG log alone: a follow-up refused with 503 and the app\'s call again are one call of four rounds, no UNSAFE_RETRY', async () => {
    const log = fileURLToPath(new URL('../fixtures/real-audit18/py-mrtr-followup-503/client.log', import.meta.url));
    const calls = (await analyze({ inputs: [{ path: log, side: 'client' }] })).attempts.filter((a) => a.method === 'tools/call');
    // (Since the ninety-fourth audit the rounds a follow-up continued are INPUT_REQUIRED, with their HTTP 200.)
    expect(calls.map((a) => [a.attempt, a.continuation === true, a.status ?? null])).toEqual([[1, false, 200], [2, true, 503], [3, false, 200], [4, true, null]]);
    expect(calls.map((a) => a.outcome)).toEqual(['INPUT_REQUIRED', 'HTTP_ERROR', 'INPUT_REQUIRED', 'UNANSWERED']);
    expect(new Set(calls.map((a) => a.call)).size).toBe(1);
    // The rounds a follow-up continued were input_required: no run of the tool before the app's call again.
    expect(calls.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('UNSAFE_RETRY');
  });
});
