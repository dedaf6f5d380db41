// The Python SDK 2.3.0 client takes at most 1,048,576 bytes in one SSE event by default (max_sse_event_size, httpx2's
// EventSource): a bigger result on an SSE stream fails its call ("Server-sent event exceeded the 1048576 byte limit."),
// though the stream holds it. The TypeScript SDK client takes it. test/fixtures/real-audit32/*-sse-event-limit: three
// results of 1,048,400, 1,048,500 and 1,048,600 characters (SSE events of 1,048,493, 1,048,593 and 1,048,693 bytes).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit32/', import.meta.url));
type Side = 'client' | 'server';
const run = async (scenario: string, files: [string, Side?][]) =>
  (await analyze({ inputs: files.map(([f, side]) => ({ path: `${DIR}${scenario}/${f}`, ...(side ? { side } : {}) })), onDiagnostic: () => {} })).attempts.filter((a) => a.tool === 'big');
const truth = (scenario: string) => readFileSync(`${DIR}${scenario}/truth-client.ndjson`, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { ok: boolean }).ok);

describe("an SSE event over the Python SDK client's 1 MiB", () => {
  it('the Python client: the two results over the limit are STREAM_INCOMPLETE in every view, the why naming the limit; the one under it a success', async () => {
    expect(truth('py-sse-event-limit')).toEqual([true, false, false]);
    for (const files of [[['proxy.ndjson.gz', 'client']], [['server.ndjson.gz', 'server']], [['proxy.ndjson.gz', 'client'], ['server.ndjson.gz', 'server']]] as [string, Side?][][]) {
      const as = await run('py-sse-event-limit', files);
      expect(as.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'STREAM_INCOMPLETE', 'STREAM_INCOMPLETE']);
      expect(as.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('SIDE_DIVERGENCE');
    }
    const [, over] = await run('py-sse-event-limit', [['proxy.ndjson.gz', 'client']]);
    expect(over!.findings.find((f) => f.code === 'NO_FINAL_RESULT')!.message).toContain('its stream carried an SSE event of 1,048,593 bytes, over the 1,048,576 the Python SDK client takes in one event by default (max_sse_event_size), and this client (User-Agent "python-httpx2/');
  });

  it('must not: the TypeScript SDK client took all three (its User-Agent is not httpx)', async () => {
    expect(truth('ts-sse-event-limit')).toEqual([true, true, true]);
    for (const files of [[['client.ndjson.gz']], [['proxy.ndjson.gz']], [['server.ndjson.gz', 'server']], [['client.ndjson.gz', 'client'], ['server.ndjson.gz', 'server']]] as [string, Side?][][]) {
      const as = await run('ts-sse-event-limit', files);
      expect(as.map((a) => [a.outcome, a.findings.length])).toEqual([['TOOL_SUCCESS', 0], ['TOOL_SUCCESS', 0], ['TOOL_SUCCESS', 0]]);
    }
  });
});
