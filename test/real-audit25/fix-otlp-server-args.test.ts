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

  it('a span alone: the same tool after a failure reads as its retry, and the why says the log has no arguments', async () => {
    const as = (await analyze({ inputs: [{ path: `${DIR}py-json/traces.jsonl`, side: 'client' }] })).attempts;
    const [, second] = of(as, 'ask');
    expect(second!.attempt).toBe(2);
    expect(second!.retryOrigin?.how).toBe('a new request with the same tool and no arguments in the log; nothing in the logs says who sent it');
    expect(second!.findings.find((f) => f.code === 'RETRY_ORIGIN_AMBIGUOUS')?.message).toContain('no arguments in the log');
    // A log that has the arguments says so: a HAR of the same run.
    const wire = (await analyze({ inputs: [{ path: `${DIR}py-json/har-entries.ndjson`, side: 'client' }] })).attempts;
    const [, retry] = of(wire, 'b_busy');
    expect(retry!.attempt).toBe(2);
    expect(retry!.retryOrigin?.how).toMatch(/the same tool and arguments/);
  });
});
