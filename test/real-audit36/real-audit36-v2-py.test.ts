// The thirty-sixth audit's runs of the v2 client 2.4.0 against the Python SDK 2.3.0 server (test/fixtures/real-audit36/),
// every view held to the apps' truth files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit36/', import.meta.url));
type Row = Awaited<ReturnType<typeof analyze>>['attempts'][number];
const VIEWS = { client: ['client'], server: ['server'], joined: ['client', 'server'] } as const;
const report = (run: string, view: keyof typeof VIEWS) =>
  analyze({ inputs: VIEWS[view].map((side) => ({ path: `${DIR}${run}/${side}.ndjson`, side })) });
const truth = (run: string, side: 'client' | 'server') =>
  readFileSync(`${DIR}${run}/truth-${side}.ndjson`, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const calls = (rows: Row[], tool: string) => rows.filter((a) => a.method === 'tools/call' && a.tool === tool);
const codes = (a: Row) => a.findings.map((f) => f.code);

describe('the v2 client 2.4.0 against the Python SDK 2.3.0 server, 2026-07-28 (real-audit36)', () => {
  for (const run of ['v2-py-errors', 'v2-py-503', 'v2-py-direct']) {
    it(`${run}: the tool errors, the JSON-RPC error and the calls that worked read as the app got them, in every view`, async () => {
      const app = truth(run, 'client');
      for (const view of ['client', 'server', 'joined'] as const) {
        const rows = (await report(run, view)).attempts;
        for (const tool of ['explode', 'no_such_tool']) {
          expect(app.find((t) => t.tool === tool)).toMatchObject({ ok: true, isError: true });
          expect(calls(rows, tool).map((a) => a.outcome), `${view} ${tool}`).toEqual(['TOOL_ERROR']);
        }
        expect(app.find((t) => t.tool === 'reject')).toMatchObject({ ok: false, code: -32010 });
        const [reject] = calls(rows, 'reject');
        expect([reject!.outcome, reject!.detail.errorCode], view).toEqual(['JSONRPC_ERROR', -32010]);
        // The app's one successful charge: one run in the server's truth, no UNSAFE_RETRY whatever the hop refused.
        expect(truth(run, 'server').filter((t) => t.tool === 'charge')).toHaveLength(1);
        expect(calls(rows, 'charge').at(-1)!.outcome, view).toBe('TOOL_SUCCESS');
        expect(calls(rows, 'charge').flatMap(codes), view).not.toContain('UNSAFE_RETRY');
      }
    });
  }

  it("v2-py-503: the hop's 503 on charge is HTTP_ERROR and the app's re-call its attempt 2, in the client's view", async () => {
    const [refused, again] = calls((await report('v2-py-503', 'client')).attempts, 'charge');
    expect([refused!.status, refused!.outcome, again!.attempt, again!.call]).toEqual([503, 'HTTP_ERROR', 2, refused!.call]);
  });

  it("v2-py-errors: the timed-out slow is the client's cancel, and joined, the close never reached the server, which ran it twice", async () => {
    expect(truth('v2-py-errors', 'server').filter((t) => t.tool === 'slow' && t.done === true)).toHaveLength(2);
    const alone = calls((await report('v2-py-errors', 'client')).attempts, 'slow');
    expect(alone.map((a) => a.outcome)).toEqual(['NO_RESPONSE', 'TOOL_SUCCESS']);
    expect(codes(alone[0]!)).toContain('CANCELLED');
    const [cut, retry] = calls((await report('v2-py-errors', 'joined')).attempts, 'slow');
    const div = cut!.findings.find((f) => f.code === 'SIDE_DIVERGENCE')!;
    expect(div.message).toMatch(/the client closed its stream 1\.\d\d s before it \(on 2026-07-28 the cancellation\), but the server's connection stayed open until its answer was complete, so the close never reached the server/);
    expect(retry!.findings.find((f) => f.code === 'UNSAFE_RETRY')?.severity).toBe('error');
  });

  it('v2-py-direct: the server saw the close and cancelled slow: no claim that the close did not reach it', async () => {
    expect(truth('v2-py-direct', 'server').find((t) => t.tool === 'slow')).toMatchObject({ cancelled: true });
    for (const view of ['server', 'joined'] as const) {
      const [cut] = calls((await report('v2-py-direct', view)).attempts, 'slow');
      expect(codes(cut!), view).toContain('CANCELLED');
      // must not: a divergence (both ends saw the close) or "the close never reached the server"
      expect(codes(cut!), view).not.toContain('SIDE_DIVERGENCE');
    }
  });
});

describe('an answer that crossed the close on its way is no close held back (real-audit32/v2-timeout-race)', () => {
  it('the answer the server sent 11 ms after the client closed: a lost result, without "never reached the server"', async () => {
    const d = fileURLToPath(new URL('../fixtures/real-audit32/v2-timeout-race/', import.meta.url));
    const r = await analyze({ inputs: [{ path: `${d}client.ndjson`, side: 'client' }, { path: `${d}server.ndjson`, side: 'server' }] });
    const divs = r.attempts.flatMap((a) => a.findings).filter((f) => f.code === 'SIDE_DIVERGENCE');
    expect(divs.length).toBeGreaterThan(0);
    for (const f of divs) {
      expect(f.message).toContain('the server sent a final result the client never got');
      expect(f.message).not.toContain('never reached the server');
    }
  });
});
