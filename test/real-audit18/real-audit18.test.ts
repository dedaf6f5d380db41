// The eighteenth audit's real captures (test/fixtures/real-audit18/): the 2026-07-28 protocol's input_required rounds
// (MRTR) with the v2 SDK 2.4.0 and the Python SDK 2.3.0, a hop that cuts or refuses a follow-up, and a client's answer
// to a server's sampling request refused on its way.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit18/', import.meta.url));
type Side = 'client' | 'server';
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
const run = (scenario: string, inputs: [string, Side?][]) => analyze({ inputs: inputs.map(([name, side]) => ({ path: name.startsWith('/') ? name : f(scenario, name), ...(side ? { side } : {}) })) });
type Row = Awaited<ReturnType<typeof analyze>>['attempts'][number];
const codes = (a: Row) => a.findings.map((x) => x.code);
const tmp = (lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit18-')), 'client.log');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe("the Python client's DEBUG log: its follow-up's SSE stream cut before the result (py-mrtr-followup-cut)", () => {
  // The client answered book_slot's input_required with id 3; the hop passed the 200 head and cut the stream; the app
  // got "SSE stream ended without a response" and called again (ids 4, 5): the server booked the slot twice.
  const log = f('py-mrtr-followup-cut', 'client.log');
  const lines = () => readFileSync(log, 'utf8').trimEnd().split('\n');

  it('alone: the follow-up is STREAM_INCOMPLETE from its tied 200 head and the "SSE stream ended" line; the app\'s new call is a retry of it', async () => {
    const r = await run('py-mrtr-followup-cut', [[log]]);
    const cut = r.attempts.find((a) => a.id === 3)!;
    expect([cut.tool, cut.status, cut.outcome, cut.layer]).toEqual(['book_slot', 200, 'STREAM_INCOMPLETE', 'transport']);
    // (The hop's cut is httpcore's RemoteProtocolError just before the SDK's line: named since the thirty-fourth audit.)
    const failedAt = lines().findIndex((l) => /receive_response_body\.failed exception=RemoteProtocolError\(/.test(l)) + 1;
    // (Since the thirty-sixth audit it also says who cut it: the peer, not the client, so no CANCELLED.)
    expect(cut.detail.why).toBe(`its POST's SSE stream broke before the response, cut by the peer (the server, a hop between them, or the network), not closed by the client (httpcore's "receive_response_body.failed exception=RemoteProtocolError: peer closed connection without sending complete message body (incomplete chunked read)" at line ${failedAt}, "SSE stream ended" at line ${lines().findIndex((l) => /SSE stream ended\s*$/.test(l)) + 1}, not resumed): the Python SDK gives its caller "SSE stream ended without a response"`);
    const again = r.attempts.find((a) => a.id === 4)!;
    expect(again.call).toBe(cut.call);
    expect(codes(again)).toContain('UNSAFE_RETRY');
  });

  it("joined with the server's log: the server sent the result the client never got (SIDE_DIVERGENCE), and the retry ran it again (UNSAFE_RETRY, proven)", async () => {
    const r = await run('py-mrtr-followup-cut', [[log, 'client'], ['server.ndjson', 'server']]);
    const cut = r.attempts.find((a) => a.id === 3)!;
    expect([cut.outcome, cut.serverOutcome]).toEqual(['STREAM_INCOMPLETE', 'TOOL_SUCCESS']);
    expect(codes(cut)).toContain('SIDE_DIVERGENCE');
    const again = r.attempts.find((a) => a.id === 4)!;
    expect(again.findings.filter((x) => x.code === 'UNSAFE_RETRY').map((x) => x.severity)).toEqual(['error']);
  });

  it('must not: without the "SSE stream ended" line nothing is made up (UNANSWERED, the server\'s answer taken when joined); a resumed stream is not ended', async () => {
    const without = lines().filter((l) => !/SSE stream ended\s*$/.test(l));
    const alone = await run('py-mrtr-followup-cut', [[tmp(without)]]);
    expect(alone.attempts.find((a) => a.id === 3)!.outcome).toBe('UNANSWERED');
    const at = lines().findIndex((l) => /SSE stream ended\s*$/.test(l));
    const resumed = [...lines().slice(0, at + 1), lines()[at]!.replace(/DEBUG mcp\.client\.streamable_http SSE stream ended\s*$/, 'INFO mcp.client.streamable_http SSE stream disconnected, reconnecting...'), ...lines().slice(at + 1)];
    const r = await run('py-mrtr-followup-cut', [[tmp(resumed)]]);
    expect(r.attempts.find((a) => a.id === 3)!.outcome).toBe('UNANSWERED');
  });
});

describe('a hop\'s 503 to the MRTR follow-up, and the app calls again (mrtr-followup-503-app-retry, py-mrtr-followup-503)', () => {
  // The refund ran once (ground-truth.json): the input_required round ran nothing, and the 503'd follow-up never
  // reached the server.
  const views: [string, [string, Side?][]][] = [
    ['mrtr-followup-503-app-retry', [['client.ndjson', 'client'], ['server.ndjson', 'server']]],
    ['mrtr-followup-503-app-retry', [['client.ndjson']]],
    ['mrtr-followup-503-app-retry', [['proxy.ndjson']]],
    ['py-mrtr-followup-503', [['client.log', 'client'], ['server.ndjson', 'server']]],
    ['py-mrtr-followup-503', [['proxy.ndjson']]],
  ];
  it.each(views)('%s %j: one retry, no UNSAFE_RETRY (an input_required round is no run of the tool)', async (scenario, inputs) => {
    const r = await run(scenario, inputs);
    expect(r.summary.retries).toBe(1);
    expect(r.attempts.flatMap(codes)).not.toContain('UNSAFE_RETRY');
    expect(r.attempts.filter((a) => a.outcome === 'HTTP_ERROR').map((a) => a.status)).toEqual([503]);
  });

  it('must not: a follow-up cut after the server ran the tool is still an unsafe retry (mrtr-followup-cut)', async () => {
    const r = await run('mrtr-followup-cut', [['client.ndjson', 'client'], ['server.ndjson', 'server']]);
    expect(r.attempts.flatMap((a) => a.findings.filter((x) => x.code === 'UNSAFE_RETRY').map((x) => x.severity))).toEqual(['error']);
    // Its SIDE_DIVERGENCE does not claim the tool stopped: the server's SDK aborts the signal; the tool booked anyway.
    const div = r.attempts.flatMap((a) => a.findings).find((x) => x.code === 'SIDE_DIVERGENCE')!;
    expect(div.message).toContain("its SDK aborts the request's signal; whether the tool's work stopped, the log cannot show");
  });
});

describe("a client's answer to the server's sampling request refused on its way (v2-client-v1-sampling-answer-503)", () => {
  it.each([[[['client.ndjson', 'client'], ['server.ndjson', 'server']]], [[['client.ndjson']]]] as [[string, Side?][]][])("the call's why says the answer got HTTP 503 on its way, not that the client never answered (%#)", async (inputs) => {
    const r = await run('v2-client-v1-sampling-answer-503', inputs);
    const call = r.attempts.find((a) => a.method === 'tools/call')!;
    expect(call.outcome).toBe('TOOL_ERROR');
    expect(call.detail.why).toContain('the server cancelled its own sampling/createMessage (id 1)');
    expect(call.detail.why).toContain('whose answer from the client got HTTP 503 on its way');
    expect(call.detail.why).not.toContain('which the client had not answered');
  });
});
