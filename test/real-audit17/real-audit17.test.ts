// The seventeenth audit's real captures (test/fixtures/real-audit17/): several clients with one name at once, whose
// retries were linked to another process's call, or lost, or made up from a log of requests only.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit17/', import.meta.url));
type Side = 'client' | 'server';
const run = (scenario: string, inputs: [string, Side?][]) => analyze({ inputs: inputs.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, ...(side ? { side } : {}) })) });
const expected = (scenario: string) => (JSON.parse(readFileSync(`${DIR}${scenario}/ground-truth.json`, 'utf8')) as { expected: { attempts: number; calls: number; retries: number } }).expected;
type Row = Awaited<ReturnType<typeof analyze>>['attempts'][number];
const find = (rows: Row[], session: string, id: number, tool: string) => rows.find((a) => a.session?.startsWith(session) && a.id === id && a.tool === tool)!;
const codes = (a: Row) => a.findings.map((f) => f.code);
const unsafe = (r: { attempts: Row[] }) => r.attempts.flatMap((a) => a.findings.filter((f) => f.code === 'UNSAFE_RETRY').map((f) => [a.id, f.severity]));

describe('three processes named agent@1.0.0, started together; C retries its own timed-out slow_op, B gives up (s1-three-clients)', () => {
  const views: [string, [string, Side?][]][] = [
    ['the proxy alone', [['proxy.ndjson']]],
    ["the server's log alone", [['server.ndjson', 'server']]],
    ["the clients' log (a conn per process) and the server's", [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['the proxy as the client side, and the server', [['proxy.ndjson', 'client'], ['server.ndjson', 'server']]],
  ];
  it.each(views)("%s: C's re-send is C's own call's second attempt; B's call has one attempt", async (_, inputs) => {
    const r = await run('s1-three-clients', inputs);
    const truth = expected('s1-three-clients');
    expect([r.summary.attempts, r.summary.calls, r.summary.retries]).toEqual([truth.attempts, truth.calls, truth.retries]);
    const first = find(r.attempts, 'b061c506', 2, 'slow_op');
    const retry = find(r.attempts, 'b061c506', 3, 'slow_op');
    expect([retry.call, retry.attempt]).toEqual([first.call, 2]);
    const b = find(r.attempts, '8848b3d0', 2, 'slow_op');
    expect(r.attempts.filter((a) => a.call === b.call)).toHaveLength(1);
    // The delay from C's own cancellation (about 102 ms), under the policy's 200 ms (judged from the client's log).
    if (inputs.some(([f]) => f === 'client.ndjson')) expect(codes(retry)).toContain('RETRY_POLICY');
    // The tool ran twice in C's session: proven by the server's view.
    if (inputs.some(([f]) => f === 'server.ndjson')) expect(unsafe(r)).toEqual([[retry.id, 'error']]);
  });
});

describe('A re-sends after a 404 in a new session; B, in a session opened before, makes the same call (s2-reconnect)', () => {
  it("A's re-send in its new session continues A's call; B's call is its own", async () => {
    for (const inputs of [[['proxy.ndjson']], [['client.ndjson', 'client'], ['server.ndjson', 'server']]] as [string, Side?][][]) {
      const r = await run('s2-reconnect', inputs);
      const refused = find(r.attempts, '335fcd55', 3, 'create_order');
      const resent = find(r.attempts, '37b6743c', 1, 'create_order');
      const other = find(r.attempts, '8367a84c', 2, 'create_order');
      expect(refused.outcome).toBe('HTTP_ERROR');
      expect([resent.call, resent.attempt]).toEqual([refused.call, 2]);
      expect([other.call === refused.call, other.attempt]).toEqual([false, 1]);
      expect(r.summary.retries).toBe(1);
    }
  });
});

describe("three Python clients (one name, mcp) against the Python server; its app log (s3-py-applog)", () => {
  it("a log of the requests the server received only: no made-up retry, UNSAFE_RETRY or CALL_NEVER_SENT; C's re-send after its cancellation is linked", async () => {
    const r = await run('s3-py-applog', [['server-app-received-only.log', 'server']]);
    const truth = expected('s3-py-applog');
    expect([r.summary.attempts, r.summary.calls, r.summary.retries]).toEqual([truth.attempts, truth.calls, truth.retries]);
    const retry = find(r.attempts, '74eb0bad', 5, 'slow_op');
    expect([retry.call, retry.attempt]).toEqual([find(r.attempts, '74eb0bad', 4, 'slow_op').call, 2]);
    expect(r.findings.filter((f) => f.code === 'CALL_NEVER_SENT')).toEqual([]);
    // The only UNSAFE_RETRY is C's re-send's.
    expect(unsafe(r)).toEqual([[5, 'error']]);
    expect(r.summary.inputs[0]!.cannotShow).toEqual(expect.arrayContaining([expect.stringContaining('no answer (response message) in this log before its first unanswered request')]));
  });

  it.each([['server-app.log'], ['proxy.ndjson']])("%s (requests and answers): C's retry in its own session, though A made the same call after C and it went well", async (f) => {
    const r = await run('s3-py-applog', [[f, 'server']]);
    expect(r.summary.retries).toBe(1);
    const retry = find(r.attempts, '74eb0bad', 5, 'slow_op');
    expect([retry.call, retry.attempt]).toEqual([find(r.attempts, '74eb0bad', 4, 'slow_op').call, 2]);
    expect(unsafe(r)).toEqual([[5, 'error']]);
  });

  it('must not: the full app log shows answers, so no note of a requests-only log', async () => {
    const r = await run('s3-py-applog', [['server-app.log', 'server']]);
    expect(r.summary.inputs[0]!.cannotShow.some((n) => n.includes('requests an app received only'))).toBe(false);
  });
});

describe('the same three processes against a stateless server: no session ids (s4-stateless)', () => {
  it.each([[[['client.ndjson', 'client'], ['server.ndjson', 'server']]], [[['client-keyed.ndjson', 'client'], ['server.ndjson', 'server']]]] as [[string, Side?][]][])('with a conn per process (%#): the re-send is linked, and the tool ran twice (UNSAFE_RETRY)', async (inputs) => {
    const r = await run('s4-stateless', inputs);
    const truth = expected('s4-stateless');
    expect([r.summary.attempts, r.summary.calls, r.summary.retries]).toEqual([truth.attempts, truth.calls, truth.retries]);
    const retry = r.attempts.find((a) => a.tool === 'slow_op' && a.id === 3)!;
    expect(retry.attempt).toBe(2);
    expect(codes(retry)).toContain('UNSAFE_RETRY');
  });
});

describe('cancellations without a session id in a log of several clients (s4-stateless)', () => {
  it("the server's log alone: each CANCELLED says how many requests with that id were open and that which one it named cannot be told", async () => {
    const r = await run('s4-stateless', [['server.ndjson', 'server']]);
    const cancelled = r.attempts.flatMap((a) => a.findings.filter((f) => f.code === 'CANCELLED'));
    expect(cancelled).toHaveLength(2);
    for (const f of cancelled) expect(f.message).toMatch(/; without a session id, [23] requests with id 2 from clients sharing this log were open then, and which one it named the log cannot tell: it is put on the one open longest$/);
  });

  it("must not: with the clients' log (a conn per process) each cancellation is its own client's, said without doubt", async () => {
    const r = await run('s4-stateless', [['client.ndjson', 'client'], ['server.ndjson', 'server']]);
    const cancelled = r.attempts.flatMap((a) => a.findings.filter((f) => f.code === 'CANCELLED'));
    expect(cancelled).toHaveLength(2);
    expect(cancelled.some((f) => f.message.includes('cannot tell'))).toBe(false);
  });
});
