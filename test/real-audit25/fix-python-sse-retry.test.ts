// A Python client's DEBUG log with six calls in flight: a request whose SSE stream brought progress and then no answer
// failed for its caller as far as the log shows (it logs such a stream's answer), so the app's retry of it is linked,
// with UNSAFE_RETRY; an unanswered request with no sign of its stream is still no failure (test/fixtures/real-audit25).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit25/', import.meta.url));
const calls = async (run: string, tool: string) => (await analyze({ inputs: [{ path: `${DIR}${run}/python-debug.log` }] })).attempts.filter((a) => a.tool === tool).sort((a, b) => String(a.ts).localeCompare(String(b.ts)));

describe('the Python DEBUG log, calls in flight at once: the retry of a stream cut after its progress', () => {
  it('b_cut #2 is the retry of b_cut #1 (UNANSWERED after progress), with UNSAFE_RETRY', async () => {
    const [first, second] = await calls('py-sse', 'b_cut');
    expect(first!.outcome).toBe('UNANSWERED');
    expect(first!.sse?.progress).toBe(1);
    expect(second).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 2, call: first!.call });
    expect(second!.findings.map((f) => f.code)).toContain('UNSAFE_RETRY');
  });

  it('must not: a request with no sign of its answer\'s stream (the 503 httpx could not tie to it; a JSON answer) is no failure, the next like call is its own', async () => {
    const [busy1, busy2] = await calls('py-sse', 'b_busy');
    expect(busy1!.outcome).toBe('UNANSWERED');
    expect(busy2!.attempt).toBe(1);
    // JSON responses: the log shows neither the cut body's nor the retry's answer
    const [cut1, cut2] = await calls('py-json', 'b_cut');
    expect(cut1!.outcome).toBe('UNANSWERED');
    expect(cut2!.attempt).toBe(1);
  });
});
