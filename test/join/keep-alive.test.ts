// SSE comments (keep-alives) on a stream that ended without its answer: counted from a whole body and from a streaming recorder's end record, named in the why, and the silence before a break measured from the last one.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, post } from '../helpers/analyze.js';

const S = 'sess-ka';
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hang', arguments: {} } });
/** A streaming recorder's records of one POST whose SSE stream carried no event, ended `end` at `endMs`. */
function split(o: { endMs: number; end?: 'aborted' | 'error'; error?: string; comments?: number; lastMs?: number; side?: 'client' | 'server' }) {
  const side = o.side ?? 'client';
  const end: Record<string, unknown> = { v: 1, kind: 'end', ts: at(o.endMs), side, session: S, xid: 'x1', end: o.end ?? 'aborted', error: o.error ?? 'the client closed the connection', durationMs: o.endMs };
  if (o.comments !== undefined) end.comments = o.comments;
  if (o.lastMs !== undefined) end.lastCommentTs = at(o.lastMs);
  return [
    { v: 1, kind: 'request', ts: at(0), side, session: S, xid: 'x1', method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: call(2) },
    { v: 1, kind: 'response', ts: at(5), side, session: S, xid: 'x1', status: 200, responseHeaders: { 'content-type': 'text/event-stream' } },
    end,
  ];
}
async function whyOf(lines: Record<string, unknown>[], options = {}) {
  const r = await analyzeInputs([{ lines }], options);
  const a = r.attempts.find((x) => x.method === 'tools/call')!;
  return { outcome: a.outcome, why: (a.detail as { why?: string } | undefined)?.why ?? '' };
}

describe('SSE comments on a stream without its answer', () => {
  it("a streaming recorder's count and last time: the why says the answer had not been sent by the last one, and a client read timeout longer than their interval never fires", async () => {
    const { outcome, why } = await whyOf(split({ endMs: 37_000, comments: 2, lastMs: 30_000 }));
    expect(outcome).toBe('STREAM_INCOMPLETE');
    expect(why).toMatch(/^the client closed the stream 37\.00 s after sending it, before any response came, and sent no notifications\/cancelled; 2 SSE comments \(keep-alives\) came on it, the last 7\.00 s before it ended: the stream was held open and the answer had not been sent by then \(the tool still ran, or hung\); a read timeout longer than their interval never fires on such a stream/);
  });

  it('near miss: the same stream with no comment counted says nothing of them', async () => {
    const { why } = await whyOf(split({ endMs: 37_000 }));
    expect(why).toBe('the client closed the stream 37.00 s after sending it, before any response came, and sent no notifications/cancelled');
  });

  it("the server's view: the comments went out, and the silence before the break runs from the last one; none is named when it is shorter than the gaps before it", async () => {
    const broke = { end: 'aborted' as const, error: 'the connection closed before the response was complete', side: 'server' as const };
    const long = await whyOf(split({ ...broke, endMs: 100_000, comments: 1, lastMs: 15_000 }));
    expect(long.why).toMatch(/nothing had gone out on it for 85\.00 s \(since its last SSE comment\) when its connection closed: an idle timeout of a hop between/);
    expect(long.why).toMatch(/; 1 SSE comment \(a keep-alive\) went out on it: the stream was held open and the answer had not been sent by then \(the tool still ran, or hung\)$/);
    const short = await whyOf(split({ ...broke, endMs: 37_000, comments: 2, lastMs: 30_000 }));
    expect(short.why).not.toMatch(/nothing had gone out/);
    expect(short.why).toMatch(/; 2 SSE comments \(keep-alives\) went out on it, the last 7\.00 s before it ended/);
    // near miss: no comments, the silence runs from the head
    expect((await whyOf(split({ ...broke, endMs: 37_000 }))).why).toMatch(/nothing had gone out on it for 36\.99 s \(since its head\)/);
  });

  it('a whole body (a HAR) counts its comments but gives them no time: no "last", and no silence named', async () => {
    const body = ': keepalive\n\n: keepalive\n\n: keepalive\n\n';
    const { outcome, why } = await whyOf([post({ status: 200, ct: 'text/event-stream', body, id: 2, session: S, end: 'aborted', error: 'net::ERR_CONNECTION_RESET', durationMs: 60_000 })]);
    expect(outcome).toBe('STREAM_INCOMPLETE');
    expect(why).toMatch(/; 3 SSE comments \(keep-alives\) came on it: the stream was held open while no answer came \(the tool still ran, or hung\)/);
    expect(why).not.toMatch(/nothing had come on it/);
  });

  it("near miss: comments after the client's cancellation tell nothing of the tool", async () => {
    const lines = [
      ...split({ endMs: 16_000, comments: 1, lastMs: 15_000 }),
      { v: 1, kind: 'exchange', ts: at(700), side: 'client', session: S, method: 'POST', requestHeaders: { 'mcp-session-id': S }, send: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timeout' } }, status: 202, durationMs: 3 },
    ].sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
    const { why } = await whyOf(lines);
    expect(why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.70 s after sending it/);
    expect(why).not.toMatch(/keep-alive/);
  });

  it("the last comment's time moves with its record: under --timezone a zone-less log keeps the same 7 s before the end", async () => {
    const local = split({ endMs: 37_000, comments: 2, lastMs: 30_000 }).map((r) => ({ ...r, ts: String(r.ts).replace('Z', ''), ...(r.kind === 'end' ? { lastCommentTs: String(r.lastCommentTs).replace('Z', '') } : {}) }));
    const { why } = await whyOf(local, { timezone: 'Asia/Taipei' });
    expect(why).toMatch(/2 SSE comments \(keep-alives\) came on it, the last 7\.00 s before it ended/);
  });
});
