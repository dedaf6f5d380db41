// Unit tests for src/formats/otlp.ts: OTLP JSON spans with MCP attributes turned into request/response messages.
import { describe, expect, it } from 'vitest';
import { detectJsonFormat } from '../../src/formats/index.js';
import { otlpFormat } from '../../src/formats/otlp.js';
import { errorOf, messages, records, sampleJson } from './helpers.js';

const ctx = { file: 'traces.jsonl', line: 1 };
const s = (key: string, v: string) => ({ key, value: { stringValue: v } });

function exportLine(spans: unknown[]) {
  return { resourceSpans: [{ resource: { attributes: [s('service.name', 'notes-mcp')] }, scopeSpans: [{ scope: { name: 'mcp' }, spans }] }] };
}
function span(attrs: unknown[], over: Record<string, unknown> = {}) {
  return {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name: 'tools/call search', kind: 2,
    startTimeUnixNano: '1767261600000000000', endTimeUnixNano: '1767261600842000000',
    attributes: [s('mcp.method.name', 'tools/call'), s('mcp.session.id', 's-42'), s('jsonrpc.request.id', '7'), s('gen_ai.tool.name', 'search'), ...attrs],
    status: {}, ...over,
  };
}

describe('OTLP adapter', () => {
  it('is detected on resourceSpans and resourceLogs lines', () => {
    expect(detectJsonFormat(exportLine([]))?.name).toBe('otlp');
    expect(detectJsonFormat({ resourceLogs: [] })?.name).toBe('otlp');
  });

  it('rebuilds a successful tools/call from a SERVER span: request c2s at start, response s2c at end, string id', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([])]), ctx));
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ direction: 'c2s', side: 'server', session: 's-42', ts: '1767261600000000000', message: { jsonrpc: '2.0', id: '7', method: 'tools/call', params: { name: 'search' } } });
    expect(out[1]).toMatchObject({ direction: 's2c', side: 'server', ts: '1767261600842000000', message: { jsonrpc: '2.0', id: '7', result: { content: [], isError: false } } });
  });

  it('rebuilds a JSON-RPC error from rpc.response.status_code, with the span status message', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([s('rpc.response.status_code', '-32602'), s('error.type', '-32602')], { status: { code: 2, message: 'Invalid params' } })]), ctx));
    expect(out[1]!.message).toEqual({ jsonrpc: '2.0', id: '7', error: { code: -32602, message: 'Invalid params' } });
  });

  it('rebuilds a tool error from error.type tool_error even though the span status is unset (Jaeger)', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([s('error.type', 'tool_error')])]), ctx));
    expect(out[1]!.message).toEqual({ jsonrpc: '2.0', id: '7', result: { content: [], isError: true } });
  });

  it('never makes an error response from span status alone: an ERROR status without error attributes ends the span with no response (the Python SDK client\'s timeout)', () => {
    const ended = span([], { status: { code: 2, message: 'TimeoutError: ' }, events: [{ name: 'exception', timeUnixNano: '1767261600842000000', attributes: [s('exception.type', 'TimeoutError'), s('exception.message', '')] }] });
    const out = messages(otlpFormat.toRecords(exportLine([{ ...ended, kind: 3 }]), ctx));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ direction: 'c2s', side: 'client', durationMs: 842, error: "the client's span ended with TimeoutError after 0.84 s, with no response" });
    // Without an exception event the status message names the failure.
    const bare = messages(otlpFormat.toRecords(exportLine([span([], { status: { code: 2, message: 'boom' } })]), ctx));
    expect(bare).toHaveLength(1);
    expect(bare[0]!.error).toBe("the server's span ended with ERROR status: boom after 0.84 s; the span does not record the error response sent for it");
  });

  it('says what ended a SERVER span whose error.type is an exception class, without inventing an error code', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([s('error.type', 'RuntimeError')], { status: { code: 2, message: 'database connection lost' } })]), ctx));
    expect(out).toHaveLength(1);
    expect(out[0]!.error).toMatch(/^the server's span ended with error\.type RuntimeError after 0\.84 s; the span does not record the error response/);
  });

  it('takes the tool and prompt name from the span name when gen_ai.* is absent (the Python SDK\'s "MCP send tools/call NAME" CLIENT spans)', () => {
    const attrs = (m: string) => [s('mcp.method.name', m), s('jsonrpc.request.id', '4')];
    const tool = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 3, name: 'MCP send tools/call validate_quantity', attributes: attrs('tools/call') }]), ctx));
    expect(tool[0]!.message).toMatchObject({ method: 'tools/call', params: { name: 'validate_quantity' } });
    const prompt = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 2, name: 'prompts/get summarize_order', attributes: attrs('prompts/get') }]), ctx));
    expect(prompt[0]!.message).toMatchObject({ params: { name: 'summarize_order' } });
    // A name that only contains the method inside a word, or no target, gives none.
    const none = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 3, name: 'xtools/call search', attributes: attrs('tools/call') }]), ctx));
    expect((none[0]!.message as { params?: { name?: unknown } }).params?.name).toBeUndefined();
    const bare = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 3, name: 'MCP send tools/call', attributes: attrs('tools/call') }]), ctx));
    expect((bare[0]!.message as { params?: { name?: unknown } }).params?.name).toBeUndefined();
  });

  it('puts the trace context the request carried in params._meta.traceparent: a CLIENT span\'s own id, a SERVER span\'s parent, none without one', () => {
    const attrs = [s('mcp.method.name', 'tools/list'), s('jsonrpc.request.id', '2')];
    const [client] = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 3, spanId: 'aaaaaaaaaaaaaaaa', attributes: attrs }]), ctx));
    expect(client!.message).toMatchObject({ params: { _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-aaaaaaaaaaaaaaaa-01' } } });
    const [server] = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 2, parentSpanId: 'aaaaaaaaaaaaaaaa', attributes: attrs }]), ctx));
    expect(server!.message).toMatchObject({ params: { _meta: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-aaaaaaaaaaaaaaaa-01' } } });
    const [root] = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 2, attributes: attrs }]), ctx));
    expect((root!.message as { params?: unknown }).params).toBeUndefined();
  });

  it('names the client of a CLIENT span by its resource (service.name@version and instance), never the server\'s', () => {
    const line = { resourceSpans: [{ resource: { attributes: [s('service.name', 'py-mcp-client'), s('service.version', '2.3.0'), s('service.instance.id', 'i-1')] }, scopeSpans: [{ scope: { name: 'mcp-python-sdk' }, spans: [
      { ...span([]), kind: 3, attributes: [s('mcp.method.name', 'tools/list'), s('jsonrpc.request.id', '2')] },
      { ...span([]), kind: 2, attributes: [s('mcp.method.name', 'tools/list'), s('jsonrpc.request.id', '2')] },
    ] }] }] };
    const out = messages(otlpFormat.toRecords(line, ctx));
    expect(out.filter((m) => m.side === 'client').map((m) => m.client)).toEqual(['py-mcp-client@2.3.0 i-1', 'py-mcp-client@2.3.0 i-1']);
    expect(out.filter((m) => m.side === 'server').map((m) => m.client)).toEqual([undefined, undefined]);
  });

  it('yields the request alone when error.type is neither tool_error nor a code (timeout)', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([s('error.type', 'timeout')])]), ctx));
    expect(out).toHaveLength(1);
    expect(out[0]!.direction).toBe('c2s');
  });

  it('maps a CLIENT span to the client side, with the trace as connection when there is no session', () => {
    const attrs = [s('mcp.method.name', 'tools/list'), s('jsonrpc.request.id', '2')];
    const out = messages(otlpFormat.toRecords(exportLine([{ ...span([]), kind: 3, attributes: attrs }]), ctx));
    expect(out[0]).toMatchObject({ side: 'client', conn: 'trace:4bf92f3577b34da6a3ce929d0e0e4736' });
    expect(out[0]!.session).toBeUndefined();
    expect(out[1]!.message).toEqual({ jsonrpc: '2.0', id: '2', result: {} });
  });

  it('maps many spans of one line and skips spans without MCP attributes (HTTP server spans)', () => {
    const httpSpan = { traceId: 'ab', spanId: 'cd', name: 'POST /mcp', kind: 2, attributes: [s('http.request.method', 'POST')] };
    const out = messages(otlpFormat.toRecords(exportLine([httpSpan, span([]), { ...span([]), attributes: [s('mcp.method.name', 'notifications/initialized')] }]), ctx));
    expect(out.map((m) => (m.message as { method?: string }).method ?? 'response')).toEqual(['tools/call', 'response', 'notifications/initialized']);
  });

  it('treats an unset time ("0") as absent', () => {
    const out = messages(otlpFormat.toRecords(exportLine([span([], { startTimeUnixNano: '0', endTimeUnixNano: '0' })]), ctx));
    expect(out[0]!.ts).toBeUndefined();
    expect(out[1]!.ts).toBeUndefined();
  });

  it('maps a log record whose body is a JSON-RPC message', () => {
    const line = { resourceLogs: [{ resource: {}, scopeLogs: [{ scope: { name: 'mcp' }, logRecords: [
      { timeUnixNano: '1767261600000000000', severityNumber: 9, body: { stringValue: '{"jsonrpc":"2.0","id":1,"result":{}}' }, attributes: [s('mcp.session.id', 's-9')] },
      { timeUnixNano: '1767261600000000001', severityNumber: 9, body: { stringValue: 'server listening on :3000' } },
    ] }] }] };
    const out = messages(otlpFormat.toRecords(line, ctx));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ direction: 's2c', session: 's-9', message: { id: 1 } });
  });

  it('reports a broken line without spans or log records', () => {
    expect(errorOf(otlpFormat.toRecords({ resourceSpans: [{ resource: {}, scopeSpans: 'oops' }] }, ctx))).toMatch(/without scopeSpans/);
  });

  it('says results are reconstructed, ids are strings and exports are unordered', () => {
    expect(otlpFormat.limits).toMatchObject({ bodies: false, typedIds: false, http: false });
    expect(otlpFormat.limits.notes.join('\n')).toMatch(/reconstructed[\s\S]*not time-ordered/);
  });

  it('maps the sample: 4 MCP spans over 2 lines, out of order, HTTP span skipped', () => {
    const out = sampleJson('otlp-traces.jsonl').flatMap((v) => messages(otlpFormat.toRecords(v, ctx)));
    expect(out).toHaveLength(8);
    expect(out.filter((m) => m.direction === 'c2s').map((m) => (m.message as { id: string }).id)).toEqual(['2', '1', '4', '3']);
  });
});

describe('OTLP adapter: Gemini CLI\'s gemini_cli.tool_call events', () => {
  const b = (key: string, v: boolean) => ({ key, value: { boolValue: v } });
  const i = (key: string, v: number) => ({ key, value: { intValue: v } });
  const failed = (response: unknown) => `MCP tool 'lookup' reported tool error for function call: {"name":"lookup","args":{}} with response: ${JSON.stringify([{ functionResponse: { name: 'lookup', response } }])}`;
  function toolCall(success: boolean, error?: string, tool = 'mcp_web_lookup') {
    return {
      timeUnixNano: '1767261600842000000', body: { stringValue: `Tool call: ${tool}.` },
      attributes: [s('event.name', 'gemini_cli.tool_call'), s('function_name', tool), i('duration_ms', 42), b('success', success), s('tool_type', 'mcp'), s('mcp_server_name', 'web'), ...(error ? [s('error', error), s('error.type', 'mcp_tool_error')] : [])],
    };
  }
  const claims = (...recs: unknown[]) => records(otlpFormat.toRecords({ resourceLogs: [{ resource: {}, scopeLogs: [{ scope: { name: 'gemini-cli' }, logRecords: recs }] }] }, ctx)) as { kind: string; conn?: string; ts?: unknown; claim: Record<string, unknown> }[];

  it('makes a claim of an MCP tool call: the tool without mcp_<server>_, the server as connection, the duration, the end time', () => {
    const [c] = claims(toolCall(true));
    expect(c).toMatchObject({ kind: 'claim', conn: 'web', ts: '1767261600842000000', claim: { client: 'gemini-cli', method: 'tools/call', tool: 'lookup', outcome: 'TOOL_SUCCESS', durationMs: 42 } });
  });

  it('reads the failure from the functionResponse embedded in the error text, not from error.type (mcp_tool_error for all)', () => {
    const out = claims(
      toolCall(false, failed({ content: [{ type: 'text', text: 'bad' }], isError: true })),
      toolCall(false, failed({ error: { message: 'MCP error -32602: MCP error -32602: Invalid params', isError: true } })),
      toolCall(false, failed({ error: { message: 'Error POSTing to endpoint (HTTP 503): upstream unavailable', isError: true } })),
      toolCall(false, failed({ error: { message: 'fetch failed', isError: true } })),
      toolCall(false, failed({ error: { message: 'MCP error -32001: Request timed out', isError: true } })),
      toolCall(false, 'something else'),
    );
    expect(out.map((c) => [c.claim.outcome, c.claim.status, (c.claim.jsonrpc as { errorCode?: number } | undefined)?.errorCode])).toEqual([
      ['TOOL_ERROR', undefined, undefined],
      ['JSONRPC_ERROR', undefined, -32602],
      ['HTTP_ERROR', 503, undefined],
      ['NO_RESPONSE', undefined, undefined],
      // the SDK client's own timeout: no outcome is claimed
      [undefined, undefined, -32001],
      [undefined, undefined, undefined],
    ]);
    for (const c of out) expect(c.claim.message).toBeTypeOf('string');
  });

  it('makes no claim of a built-in tool, nor of any other Gemini CLI event', () => {
    const builtIn = { ...toolCall(true, undefined, 'read_file'), attributes: toolCall(true, undefined, 'read_file').attributes.map((a) => (a.key === 'tool_type' ? s('tool_type', 'native') : a)) };
    expect(claims(builtIn, { timeUnixNano: '1767261600000000000', attributes: [s('event.name', 'gemini_cli.api_request')] })).toEqual([]);
  });
});
