// Long calls: a call silent for minutes while other calls go on is followed to its answer (10 minutes, or --window if longer); past that it is reported as cut, and records that come later are named, not dropped silently.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const req = (xid: string, t: number, id: number, tool: string) => ({ v: 1, kind: 'request', xid, ts: at(t), method: 'POST', requestHeaders: { 'mcp-session-id': 'S' }, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } } });
const head = (xid: string, t: number, ct: string) => ({ v: 1, kind: 'response', xid, ts: at(t), status: 200, responseHeaders: { 'content-type': ct } });
const event = (xid: string, t: number, id: number) => ({ v: 1, kind: 'event', xid, ts: at(t), event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }) });
const end = (xid: string, t: number, recvText?: string) => ({ v: 1, kind: 'end', xid, ts: at(t), end: 'complete', ...(recvText ? { recvText } : {}) });
const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });


const byTool = (attempts: { tool: string | null; outcome: string; detail?: { why?: string } }[]) => Object.fromEntries(attempts.map((a) => [a.tool, a]));

/** A call silent for `gap` ms while a second session goes on with a fast call every 10 s (time moves on). */
function silentCall(gap: number, sse: boolean): unknown[] {
  const lines: { ts: string }[] = [req('a', 0, 1, 'slow') as { ts: string }];
  if (sse) lines.push(head('a', 10, 'text/event-stream'));
  for (let t = 10_000, n = 2; t < gap; t += 10_000, n++) {
    const x = `b${n}`;
    lines.push({ ...req(x, t, n, 'fast'), requestHeaders: { 'mcp-session-id': 'T' } }, head(x, t + 5, 'application/json'), end(x, t + 9, body(n)));
  }
  if (sse) lines.push(event('a', gap, 1), end('a', gap + 10));
  else lines.push(head('a', gap, 'application/json'), end('a', gap + 10, body(1)));
  return lines.sort((x, y) => (x.ts < y.ts ? -1 : x.ts > y.ts ? 1 : 0));
}

/** The same as message-level lines (a stdio log: no HTTP layer), the slow call answered after `gap` ms. */
function silentMessages(gap: number): unknown[] {
  const msg = (t: number, direction: string, message: object) => ({ ts: at(t), direction, message: { jsonrpc: '2.0', ...message } });
  const lines = [msg(0, 'c2s', { id: 1, method: 'tools/call', params: { name: 'slow', arguments: {} } })];
  for (let t = 10_000, n = 2; t < gap; t += 10_000, n++) lines.push(msg(t, 'c2s', { id: n, method: 'tools/call', params: { name: 'fast', arguments: {} } }), msg(t + 9, 's2c', { id: n, result: { content: [] } }));
  lines.push(msg(gap, 's2c', { id: 1, result: { content: [] } }));
  return lines;
}

describe('a call that runs for minutes while other calls go on', () => {
  it('is followed through 5 minutes of silence by default: a tool that answers late succeeded (HTTP, SSE or JSON; stdio)', async () => {
    for (const lines of [silentCall(300_000, true), silentCall(300_000, false), silentMessages(300_000)]) {
      const r = await analyzeInputs([{ lines }]);
      expect(byTool(r.attempts).slow!.outcome).toBe('TOOL_SUCCESS');
      expect((byTool(r.attempts).slow! as { durationMs?: number }).durationMs).toBeGreaterThanOrEqual(300_000);
      expect(r.summary.diagnostics.total).toBe(0);
      expect(r.summary.notes.join(' ')).not.toMatch(/went on after/);
    }
  });

  it('past 10 minutes of silence it is taken as cut: said so, its late records named with their lines, and the note says which --window follows it', async () => {
    const sse = await analyzeInputs([{ name: 'slow.ndjson', lines: silentCall(700_000, true) }]);
    const slow = byTool(sse.attempts).slow!;
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.detail?.why).toMatch(/still open after 0 events and no response for it within 600 s while the log went on/);
    const late = sse.summary.diagnostics.first.filter((d) => d.code === 'no-open-exchange');
    expect(late).toHaveLength(2);
    expect(late[0]!.message).toMatch(/an SSE event of exchange "a" came 700\.0 s after the exchange's previous record, after 600 s of silence had closed it/);
    expect(sse.summary.notes).toContain('1 call went on after 600 s of silence had closed it, up to 700.0 s after its previous record: its attempts are reported as cut off or unanswered though more came; run again with --window 710 to follow it');

    const json = await analyzeInputs([{ lines: silentCall(700_000, false) }]);
    expect(byTool(json.attempts).slow!.outcome).toBe('NO_RESPONSE');
    expect(byTool(json.attempts).slow!.detail?.why).toBe('no response within 600 s while the log went on');

    // Message level: the late answer used to vanish without a word; now it is a diagnostic with its line.
    const stdio = await analyzeInputs([{ name: 'stdio.ndjson', lines: silentMessages(700_000) }]);
    expect(byTool(stdio.attempts).slow!.outcome).toBe('UNANSWERED');
    expect(byTool(stdio.attempts).slow!.detail?.why).toBe('no response within 600 s while the log went on');
    const stray = stdio.summary.diagnostics.first.filter((d) => d.code === 'no-open-exchange');
    expect(stray.map((d) => d.line)).toEqual([stdio.summary.lines.read]);
    expect(stray[0]!.message).toMatch(/the response to id 1 came 700\.0 s after its request, after 600 s without it had closed the call as unanswered/);
    expect(stdio.summary.notes.join(' ')).toMatch(/run again with --window 710/);
  });

  it('with the --window the note names, it is followed to its answer', async () => {
    for (const lines of [silentCall(700_000, true), silentCall(700_000, false), silentMessages(700_000)]) {
      const r = await analyzeInputs([{ lines }], { windowMs: 710_000 });
      expect(byTool(r.attempts).slow!.outcome).toBe('TOOL_SUCCESS');
      expect(r.summary.diagnostics.total).toBe(0);
    }
  });

  it('a log that simply ends with the call open still says the log ends', async () => {
    const r = await analyzeInputs([{ lines: [req('a', 0, 1, 'slow'), head('a', 10, 'text/event-stream')] }]);
    expect(byTool(r.attempts).slow!.detail?.why).toMatch(/SSE stream ended \(cut\)/);
    const n = await analyzeInputs([{ lines: [req('a', 0, 1, 'slow')] }]);
    expect(byTool(n.attempts).slow!.detail?.why).toBe('the log ends before any response');
  });
});

describe('records whose request is not in the input', () => {
  it('a response head, body and end for an exchange the log never opened are named, once each, with their lines', async () => {
    const r = await analyzeInputs([{ name: 'mid.ndjson', lines: [head('z', 0, 'application/json'), end('z', 5, body(9)), req('a', 10, 1, 'x'), head('a', 20, 'application/json'), end('a', 30, body(1))] }]);
    expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    // Not a window's doing: no advice to widen it.
    expect(r.summary.notes.join(' ')).not.toMatch(/--window/);
    const stray = r.summary.diagnostics.first.filter((d) => d.code === 'no-open-exchange');
    expect(stray.map((d) => d.line)).toEqual([1, 2, 2]);
    expect(stray[0]!.message).toMatch(/the response head \(HTTP 200\) of exchange "z", whose request is not in this input/);
  });
});
