// UNSAFE_RETRY after a JSON-RPC error whose code is an HTTP client-error status (Genkit's MCP server: 400 INVALID_ARGUMENT, 404 NOT_FOUND): a refusal before the tool ran, even in the server's view.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, ok, post } from '../helpers/analyze.js';

const S = 'sess-genkit';
const list = post({ t: 0, id: 1, method: 'tools/list', session: S, status: 200, side: 'server', body: ok(1, { tools: [{ name: 'refund', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } }] }) });
const err = (t: number, id: number, code: number, message: string) =>
  post({ t, id, tool: 'refund', args: { orderId: 'A-1' }, session: S, status: 200, side: 'server', body: JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) });
/** The server's log: an unannotated tool refused (or failed) twice, the second the same request again. */
async function unsafe(code: number, message: string): Promise<string[]> {
  const r = await analyzeInputs([{ side: 'server', lines: [list, err(100, 2, code, message), err(400, 3, code, message)] }]);
  const [first, again] = r.attempts.filter((a) => a.method === 'tools/call');
  expect(again).toMatchObject({ call: first!.call, attempt: 2 });
  return again!.findings.filter((f) => f.code === 'UNSAFE_RETRY').map((f) => `${f.severity} ${f.message}`);
}

describe('UNSAFE_RETRY after a JSON-RPC error with an HTTP status as its code', () => {
  it('404 NOT_FOUND (an unknown tool) and 400 INVALID_ARGUMENT (arguments its schema refused): nothing ran, no UNSAFE_RETRY (before: an error, "the server view shows the earlier attempt reached the server")', async () => {
    expect(await unsafe(404, "NOT_FOUND: Tried to call tool 'refund' but it could not be found.")).toEqual([]);
    expect(await unsafe(400, 'INVALID_ARGUMENT: Schema validation failed.')).toEqual([]);
  });

  it('must not: -32603 (the tool threw as it ran, Genkit\'s server passes that on) still is one: the server saw the earlier attempt', async () => {
    expect(await unsafe(-32603, 'database connection refused')).toEqual([expect.stringMatching(/^error tools\/call refund retried after JSONRPC_ERROR \(HTTP 200\): it has no annotations, .*the server view shows the earlier attempt reached the server$/)]);
    // nor is a 5xx status as the code a refusal
    expect(await unsafe(500, 'INTERNAL: boom')).toHaveLength(1);
  });
});
