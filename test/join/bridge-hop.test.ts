// A desktop client's stdio log given with an HTTP server's log: a bridge (mcp-remote) was between them, nothing was "not seen".
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at, ok, post, toolText } from '../helpers/analyze.js';

const msg = (t: number, direction: 'c2s' | 's2c', message: unknown) => ({ v: 1, kind: 'message', ts: at(t), side: 'client', conn: 'desktop-stdio', direction, message });
const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup', arguments: { q: 'x' } } };

describe('"not seen by the server" compares like with like', () => {
  it('a stdio client view against an HTTP server log: the requests went to a bridge, so none is "not seen by the server"', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [msg(0, 'c2s', call), msg(40, 's2c', JSON.parse(ok(3, toolText('ok'))))] },
      { side: 'server', lines: [post({ t: 10, id: 3, tool: 'lookup', session: 'S1', status: 200, body: ok(3, toolText('ok')) })] },
    ]);
    const stdio = r.attempts.find((a) => a.status === null)!;
    expect(stdio.outcome).toBe('TOOL_SUCCESS');
    expect(stdio.notSeenByServer).toBeUndefined();
  });

  it('near miss: an HTTP client view the HTTP server never logged is still "not seen by the server"', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 3, tool: 'lookup', session: 'S1', status: 503, body: 'upstream unavailable' }), post({ t: 900, id: 4, tool: 'other', session: 'S1', status: 200, body: ok(4, toolText('ok')) })] },
      { side: 'server', lines: [post({ t: 910, id: 4, tool: 'other', session: 'S1', status: 200, body: ok(4, toolText('ok')) })] },
    ]);
    expect(r.attempts.find((a) => a.id === 3)!.notSeenByServer).toBe(true);
  });
});

describe('an HTTP client log whose logger left out Mcp-Session-Id, beside the server log that has it', () => {
  it('each request joins the server\'s view of it (same id, arguments and answer, near in time) under the server\'s session; none is "not seen by the server"', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 3, tool: 'lookup', status: 200, body: ok(3, toolText('ok')) }), post({ t: 900, id: 4, tool: 'other', status: 200, body: ok(4, toolText('fine')) })] },
      { side: 'server', lines: [post({ t: 10, id: 3, tool: 'lookup', session: 'S1', status: 200, body: ok(3, toolText('ok')) }), post({ t: 910, id: 4, tool: 'other', session: 'S1', status: 200, body: ok(4, toolText('fine')) })] },
    ]);
    expect(r.attempts.map((a) => [a.id, a.side, a.session, a.serverOutcome, a.notSeenByServer])).toEqual([[3, 'client', 'S1', 'TOOL_SUCCESS', undefined], [4, 'client', 'S1', 'TOOL_SUCCESS', undefined]]);
    expect(r.summary.notes.join(' ')).toMatch(/^2 requests of a client log that names no session id .*or an HTTP log that did not record Mcp-Session-Id\) were joined/);
  });

  it('near miss: its request that a hop refused, which the server never logged, is still "not seen by the server"', async () => {
    const r = await analyzeInputs([
      { side: 'client', lines: [post({ t: 0, id: 3, tool: 'lookup', status: 503, body: 'upstream unavailable' }), post({ t: 900, id: 4, tool: 'other', status: 200, body: ok(4, toolText('ok')) })] },
      { side: 'server', lines: [post({ t: 910, id: 4, tool: 'other', session: 'S1', status: 200, body: ok(4, toolText('ok')) })] },
    ]);
    expect(r.attempts.map((a) => [a.id, a.session, a.notSeenByServer])).toEqual([[3, null, true], [4, 'S1', undefined]]);
  });
});
