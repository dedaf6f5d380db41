// The join window: a call slower than --window is reported as still open when the window closed it, and records that come later are named, not dropped silently.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const req = (xid: string, t: number, id: number, tool: string) => ({ v: 1, kind: 'request', xid, ts: at(t), method: 'POST', requestHeaders: { 'mcp-session-id': 'S' }, send: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } } });
const head = (xid: string, t: number, ct: string) => ({ v: 1, kind: 'response', xid, ts: at(t), status: 200, responseHeaders: { 'content-type': ct } });
const event = (xid: string, t: number, id: number) => ({ v: 1, kind: 'event', xid, ts: at(t), event: 'message', data: JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } }) });
const end = (xid: string, t: number, recvText?: string) => ({ v: 1, kind: 'end', xid, ts: at(t), end: 'complete', ...(recvText ? { recvText } : {}) });
const body = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });

/** A slow call (95 s) on an SSE stream, with a fast call logged while it runs. */
const slowSse = [req('a', 0, 1, 'slow'), head('a', 10, 'text/event-stream'), req('b', 90_000, 2, 'fast'), head('b', 90_010, 'application/json'), end('b', 90_020, body(2)), event('a', 95_000, 1), end('a', 95_010)];
/** The same without SSE: the response head itself comes late. */
const slowJson = [req('a', 0, 1, 'slow'), req('b', 90_000, 2, 'fast'), head('b', 90_010, 'application/json'), end('b', 90_020, body(2)), head('a', 95_000, 'application/json'), end('a', 95_010, body(1))];

const byTool = (attempts: { tool: string | null; outcome: string; detail?: { why?: string } }[]) => Object.fromEntries(attempts.map((a) => [a.tool, a]));

describe('a call slower than --window', () => {
  it('SSE: still open when the window closed it (said so), and its late event and end are diagnostics with their lines', async () => {
    const r = await analyzeInputs([{ name: 'slow.ndjson', lines: slowSse }]);
    const slow = byTool(r.attempts).slow!;
    expect(slow.outcome).toBe('STREAM_INCOMPLETE');
    expect(slow.detail?.why).toMatch(/still open after 0 event\(s\) and no response for it within --window \(60 s\) while the log went on/);
    expect(slow.detail?.why).not.toMatch(/ended|cut/);
    expect(byTool(r.attempts).fast!.outcome).toBe('TOOL_SUCCESS');
    const late = r.summary.diagnostics.first.filter((d) => d.code === 'no-open-exchange');
    expect(late.map((d) => d.line)).toEqual([6, 7]);
    expect(late[0]!.message).toMatch(/an SSE event of exchange "a" came 95\.0 s after the exchange's previous record, after --window \(60 s\) had closed it/);
    // Line accounting is unchanged: the lines were read and matched to their exchange; what they said is the diagnostic.
    expect(r.summary.lines).toEqual({ read: 7, used: 7, blank: 0, unusable: 0 });
  });

  it('JSON: no response within the window, not "the log ends"', async () => {
    const r = await analyzeInputs([{ lines: slowJson }]);
    const slow = byTool(r.attempts).slow!;
    expect(slow.outcome).toBe('NO_RESPONSE');
    expect(slow.detail?.why).toBe('no response within --window (60 s) while the log went on');
    expect(r.summary.diagnostics.byCode['no-open-exchange']).toBe(3);
  });

  it('with a longer --window the late response joins its call, and nothing is reported', async () => {
    for (const lines of [slowSse, slowJson]) {
      const r = await analyzeInputs([{ lines }], { windowMs: 120_000 });
      expect(byTool(r.attempts).slow!.outcome).toBe('TOOL_SUCCESS');
      expect(r.summary.diagnostics.total).toBe(0);
      expect(r.summary.notes.join(' ')).not.toMatch(/went on after --window/);
    }
  });

  it('the summary says how many exchanges went on after the window closed them, and the --window that follows them', async () => {
    for (const lines of [slowSse, slowJson]) {
      const r = await analyzeInputs([{ lines }]);
      // One exchange however many of its records came late; 95 s of silence asks for a window of 110 s.
      expect(r.summary.notes).toContain('1 exchange(s) went on after --window (60 s) had closed them, up to 95.0 s after their previous record: their attempts are reported as cut off (no response within --window) though more came; run again with --window 110 to follow them');
      const again = await analyzeInputs([{ lines }], { windowMs: 110_000 });
      expect(byTool(again.attempts).slow!.outcome).toBe('TOOL_SUCCESS');
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
