// A Python client's DEBUG log leaves out answers sent as application/json; an SSE stream's answer it does log. When the
// log read a request's progress (which came on its SSE stream), no answer there is the client's: the server's log
// showing its answer sent does not make the call a success (test/fixtures/real-audit25).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit25/', import.meta.url));
const read = async (run: string, client: string, server: string) => (await analyze({ inputs: [{ path: `${DIR}${run}/${client}`, side: 'client' }, { path: `${DIR}${run}/${server}`, side: 'server' }] })).attempts;

describe('the Python DEBUG log with the server\'s app log: an SSE stream cut after its progress', () => {
  it('the cut call is not TOOL_SUCCESS from the server\'s word: UNANSWERED, the why saying so, the server\'s outcome beside it', async () => {
    const cut = (await read('py-sse', 'python-debug.log', 'server-pino.jsonl')).filter((a) => a.tool === 'b_cut').sort((a, b) => String(a.ts).localeCompare(String(b.ts)))[0]!;
    expect(cut.outcome).toBe('UNANSWERED');
    expect(cut.serverOutcome).toBe('TOOL_SUCCESS');
    expect(cut.detail?.why).toMatch(/SSE stream \(its progress came on it\), never read it/);
  });

  it('must not: a call answered on its SSE stream after progress, and JSON answers the log leaves out, keep their answers', async () => {
    const sse = await read('py-sse', 'python-debug.log', 'server-pino.jsonl');
    expect(sse.find((a) => a.tool === 'b_ok2')!.outcome).toBe('TOOL_SUCCESS');
    // JSON responses: no progress (JSON mode sends none), the server's answer is taken as before
    const json = await read('py-json', 'python-debug.log', 'server-pino.jsonl');
    expect(json.find((a) => a.tool === 'b_ok1')!.outcome).toBe('TOOL_SUCCESS');
    expect(json.find((a) => a.tool === 'validate')!.outcome).toBe('TOOL_ERROR');
  });
});
