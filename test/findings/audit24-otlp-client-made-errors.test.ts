// The twenty-fourth audit: the Python SDK 2.3.0 client's OpenTelemetry span records the errors its transport makes
// itself (an HTTP 500 without a JSON-RPC body: -32603 "Server returned an error response"; a stream that ended without
// the response: -32000 "SSE stream ended without a response") as it records a server's JSON-RPC error. Read as the
// server's answer, each was a JSONRPC_ERROR, and with the server's log a SIDE_DIVERGENCE "something between them
// changed the body". Spans shaped as /work/audit24/recordings/py/traces.jsonl has them.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const s = (key: string, v: string) => ({ key, value: { stringValue: v } });
const nanos = (ms: number) => `${BigInt(Date.parse(at(ms))) * 1000000n}`;
function clientSpan(id: string, tool: string, code: string, message: string, traceId: string, spanId: string) {
  return {
    traceId, spanId, name: `MCP send tools/call ${tool}`, kind: 3, startTimeUnixNano: nanos(0), endTimeUnixNano: nanos(15),
    attributes: [s('mcp.method.name', 'tools/call'), s('jsonrpc.request.id', id), s('error.type', code), s('rpc.response.status_code', code)],
    status: { message, code: 2 }, flags: 256,
  };
}
const exportLine = (spans: unknown[]) => ({ resourceSpans: [{ resource: { attributes: [s('service.name', 'audit24-py'), s('service.version', '2.3.0')] }, scopeSpans: [{ scope: { name: 'mcp-python-sdk' }, spans }] }] });

const T1 = '0af7651916cd43dd8448eb211c80319c';
const S1 = 'b7ad6b7169203331';
/** The server's recordingHandler records of the same request: a middleware answered HTTP 500 text/plain. */
const server500 = [
  { v: 1, kind: 'request', ts: at(2), side: 'server', session: null, xid: 's-9', method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json' }, send: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'flaky_write', arguments: { note: 'n1' }, _meta: { traceparent: `00-${T1}-${S1}-03` } } } },
  { v: 1, kind: 'response', ts: at(3), side: 'server', session: null, xid: 's-9', status: 500, responseHeaders: { 'content-type': 'text/plain' } },
  { v: 1, kind: 'end', ts: at(3), side: 'server', session: null, xid: 's-9', end: 'complete', recvText: 'Internal Server Error', durationMs: 1 },
];

describe("the Python SDK client's span of an error its transport made", () => {
  it('alone: no answer of the server, and the why says what the client made (before: JSONRPC_ERROR -32603)', async () => {
    const r = await analyzeInputs([{ name: 'traces.jsonl', lines: [exportLine([clientSpan('9', 'flaky_write', '-32603', 'Server returned an error response', T1, S1)])] }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.outcome).toBe('UNANSWERED');
    expect(a.detail.why).toContain('"Server returned an error response", which the Python SDK client makes itself');
  });

  it("with the server's log (HTTP 500): no SIDE_DIVERGENCE (before: \"something between them changed the body\")", async () => {
    const r = await analyzeInputs([{ name: 'traces.jsonl', side: 'client', lines: [exportLine([clientSpan('9', 'flaky_write', '-32603', 'Server returned an error response', T1, S1)])] }, { name: 'server.ndjson', side: 'server', lines: server500 }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.serverOutcome).toBe('HTTP_ERROR');
    expect(a.findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });

  it("with the server's log: the JSON-RPC error an HTTP 503's body carried, surfaced by the client, is no SIDE_DIVERGENCE", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Server busy, retry later' }, id: null });
    const server503 = [server500[0], { ...server500[1], status: 503, responseHeaders: { 'content-type': 'application/json', 'retry-after': '1' } }, { ...server500[2], recvText: body }];
    const r = await analyzeInputs([{ name: 'traces.jsonl', side: 'client', lines: [exportLine([clientSpan('9', 'flaky_write', '-32000', 'Server busy, retry later', T1, S1)])] }, { name: 'server.ndjson', side: 'server', lines: server503 }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
    // The server's view says what it was: an HTTP 503 whose body's error the client's SDK handed its caller.
    expect(a.outcome).toBe('HTTP_ERROR');
    expect(a.status).toBe(503);
    expect(a.detail.why).toMatch(/HTTP 503 from the server's view/);
  });

  it("must not: a client span's JSON-RPC error beside a server's HTTP error with another code in its body keeps its own", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Server busy, retry later' }, id: null });
    const server503 = [server500[0], { ...server500[1], status: 503, responseHeaders: { 'content-type': 'application/json' } }, { ...server500[2], recvText: body }];
    const r = await analyzeInputs([{ name: 'traces.jsonl', side: 'client', lines: [exportLine([clientSpan('9', 'flaky_write', '-32602', 'Invalid params', T1, S1)])] }, { name: 'server.ndjson', side: 'server', lines: server503 }]);
    expect(r.attempts.find((x) => x.method === 'tools/call')!.outcome).toBe('JSONRPC_ERROR');
  });

  it("must not: a server's JSON-RPC error in a client span is still that error", async () => {
    const r = await analyzeInputs([{ name: 'traces.jsonl', lines: [exportLine([clientSpan('5', 'nosuch', '-32602', 'MCP error -32602: Unknown tool: nosuch', T1, S1)])] }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.outcome).toBe('JSONRPC_ERROR');
    expect(a.detail.errorCode).toBe(-32602);
  });
});
