// A Python client's OTLP spans joined with the server's log: the span has no arguments, the server's view has them.
// Two calls of one tool with other arguments are two calls, not a call and its retry (test/fixtures/real-audit25).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AttemptRow } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit25/', import.meta.url));
const read = async (run: string) => (await analyze({ inputs: [{ path: `${DIR}${run}/traces.jsonl`, side: 'client' }, { path: `${DIR}${run}/server.ndjson`, side: 'server' }] })).attempts;
const of = (as: AttemptRow[], tool: string) => as.filter((a) => a.tool === tool).sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
const codes = (a: AttemptRow) => a.findings.map((f) => f.code);

describe('OTLP client spans + the server log: retries are told by the server view\'s arguments', () => {
  it('ask A-10 after a failed ask A-9 is a call of its own, no UNSAFE_RETRY', async () => {
    for (const run of ['py-json', 'py-json-stateless']) {
      const as = await read(run);
      for (const tool of ['ask', 'summarize']) {
        const [first, second] = of(as, tool);
        expect(first!.outcome, `${run} ${tool}`).toBe('JSONRPC_ERROR');
        expect(second!.attempt, `${run} ${tool}`).toBe(1);
        expect(second!.call).not.toBe(first!.call);
        expect(codes(second!)).not.toContain('UNSAFE_RETRY');
        expect(codes(second!)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
      }
    }
  });

  it('must not: the same call again (the same arguments in the server view) is still its retry', async () => {
    for (const run of ['py-json', 'py-sse']) {
      const as = await read(run);
      for (const tool of ['b_busy', 'b_cut']) {
        const [first, second] = of(as, tool);
        expect(second!.attempt, `${run} ${tool}`).toBe(2);
        expect(second!.call).toBe(first!.call);
      }
      expect(codes(of(as, 'b_cut')[1]!)).toContain('UNSAFE_RETRY');
    }
  });
});
