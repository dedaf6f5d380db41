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
