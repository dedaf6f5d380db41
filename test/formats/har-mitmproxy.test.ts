// Unit tests for what a real mitmproxy's HAR holds (recorded in test/fixtures/real-mitmproxy/): a body it streamed and
// did not store written as "text": null, a request body likewise, its flow error "Client disconnected.", and the time
// of a failed flow, which ends at its response head. Small hand-made entries of that shape, and ones that must not
// read so.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze, type AttemptRow } from '../../src/index.js';
import { harEntryFormat } from '../../src/formats/har-entry.js';
import { errorOf, exchange } from './helpers.js';

const ctx = { file: 'capture.har.ndjson', line: 1 };
const SID = 'c0ffee00-0000-4000-8000-000000000001';
const sse = [{ name: 'content-type', value: 'text/event-stream' }, { name: 'mcp-session-id', value: SID }];

/** An entry as mitmproxy's exporters write it: `+00:00` times, timings without blocked/dns, `_error` on the response. */
function entry(at: number, body: unknown, response: Record<string, unknown>, timings: Record<string, number | null> = { send: 0, wait: 10, receive: 0 }) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 11, 4, 16, 30, 0, at)).toISOString().replace('Z', '000+00:00'),
    time: Object.values(timings).reduce<number>((s, v) => s + (v !== null && v > 0 ? v : 0), 0),
    request: {
      method: 'POST', url: 'http://127.0.0.1:8080/mcp', httpVersion: 'HTTP/1.1', cookies: [],
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'accept', value: 'application/json, text/event-stream' }, { name: 'mcp-session-id', value: SID }, { name: 'mcp-protocol-version', value: '2025-11-25' }],
      queryString: [], headersSize: 200, bodySize: 90,
      postData: { mimeType: 'application/json', text: body === null ? null : JSON.stringify(body), params: [] },
    },
    response: { statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], redirectURL: '', headersSize: 100, bodySize: 0, ...response },
    cache: {},
    timings: { connect: -1, ssl: -1, ...timings },
  };
}
const call = (id: number, name = 'slow_report') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const cancel = (id: number) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'McpError: MCP error -32001: Request timed out' } });
const accepted = { status: 202, statusText: 'Accepted', headers: [], content: { size: 0, compression: 0, mimeType: '', text: '' } };
const streamed = (extra: Record<string, unknown> = {}) => ({ status: 200, headers: sse, content: { size: 0, compression: 0, mimeType: 'text/event-stream', text: null }, ...extra });

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-har-mitm-'));
let n = 0;
async function run(entries: unknown[]): Promise<AttemptRow[]> {
  const file = join(dir, `e${n++}.har.ndjson`);
  writeFileSync(file, entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  return (await analyze({ inputs: [{ path: file }] })).attempts.filter((a) => a.method === 'tools/call');
}
const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((f) => f.code).sort();

describe('HAR entry adapter: mitmproxy shapes', () => {
  it('reads "text": null (a body mitmproxy streamed, size 0) as no body kept, and "text": "" as an empty body', () => {
    expect(exchange(harEntryFormat.toRecords(entry(0, call(1), streamed()), ctx)).recvText).toBeUndefined();
    const empty = { status: 200, headers: sse, content: { size: 0, mimeType: 'text/event-stream', text: '' } };
    expect(exchange(harEntryFormat.toRecords(entry(0, call(1), empty), ctx)).recvText).toBe('');
    // (no text at all with size 0 stays an empty body, as Chrome writes one)
    expect(exchange(harEntryFormat.toRecords(entry(0, call(1), { status: 200, headers: sse, content: { size: 0, mimeType: 'text/event-stream' } }), ctx)).recvText).toBe('');
  });

  it('says a request body written as null (mitmproxy streamed the request) is not in the capture', () => {
    expect(errorOf(harEntryFormat.toRecords(entry(0, null, streamed()), ctx))).toMatch(/request body the capture did not store.*postData\.text is null/);
    expect(exchange(harEntryFormat.toRecords(entry(0, call(1), streamed()), ctx)).sendText).toBe(JSON.stringify(call(1)));
  });

  it('marks the end unknown for a failed flow timed only to its head (_error, receive 0), not otherwise', () => {
    const failed = exchange(harEntryFormat.toRecords(entry(0, call(1), streamed({ _error: 'Client disconnected.' })), ctx));
    expect([failed.end, failed.error, failed.endUnknown]).toEqual(['aborted', 'Client disconnected.', true]);
    const received = exchange(harEntryFormat.toRecords(entry(0, call(1), streamed({ _error: 'net::ERR_ABORTED' }), { send: 0, wait: 10, receive: 400 }), ctx));
    expect(received.endUnknown).toBeUndefined();
    const fine = exchange(harEntryFormat.toRecords(entry(0, call(1), streamed()), ctx));
    expect(fine.endUnknown).toBeUndefined();
  });
});

describe('analysis of mitmproxy HAR entries', () => {
  it('a streamed SSE response that ended normally is UNANSWERED, without NO_FINAL_RESULT; an empty stored body is STREAM_INCOMPLETE', async () => {
    const [a] = await run([entry(0, call(1, 'lookup_order'), streamed())]);
    expect([a!.outcome, codes(a)]).toEqual(['UNANSWERED', []]);
    const [b] = await run([entry(0, call(1, 'lookup_order'), { status: 200, headers: sse, content: { size: 0, mimeType: 'text/event-stream', text: '' } })]);
    expect([b!.outcome, codes(b)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
  });

  it('"Client disconnected." with the client\'s cancellation 0.4 s later (the flow timed to its head): the client gave up, no NO_FINAL_RESULT', async () => {
    const [a] = await run([
      entry(0, call(1), streamed({ _error: 'Client disconnected.' }), { send: 0, wait: 8, receive: 0 }),
      entry(405, cancel(1), accepted),
    ]);
    expect([a!.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['CANCELLED']]);
    expect(a!.detail?.why).toMatch(/the client cancelled it \(notifications\/cancelled\) 0\.4\d s after sending it, before any response came/);
  });

  it('"Client disconnected." with no cancellation (what mitmproxy writes for a flow open when it stops) is a stream that failed, NO_FINAL_RESULT', async () => {
    const [a] = await run([entry(0, call(1), streamed({ _error: 'Client disconnected.' }), { send: 0, wait: 8, receive: 0 })]);
    expect([a!.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
    expect(a!.detail?.why).toMatch(/\(Client disconnected\.\) \(mitmproxy writes that when its client closed the connection, and for a flow still open when mitmdump stops\)/);
  });

  it('a stream mitmproxy saw break upstream (its protocol error), with no cancellation, is STREAM_INCOMPLETE with NO_FINAL_RESULT', async () => {
    const [a] = await run([entry(0, call(1), streamed({ _error: 'HTTP/1 protocol error: peer closed connection without sending complete message body (incomplete chunked read)' }), { send: 0, wait: 8, receive: 0 })]);
    expect([a!.outcome, codes(a)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT']]);
    expect(a!.detail?.why).toMatch(/the stream failed after its head \(HTTP\/1 protocol error/);
  });
});

describe('whole HAR documents: what the producer leaves out', () => {
  const doc = (creator: Record<string, string>, entries: unknown[]) => {
    const file = join(dir, `d${n++}.har`);
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2));
    return file;
  };
  const notes = async (file: string) => (await analyze({ inputs: [{ path: file }] })).summary.inputs[0]!.cannotShow.join(' | ');

  it("says that mitmproxy's har_dump.py writes no flow without a response, even for an empty capture (streaming on)", async () => {
    const harDump = { name: 'mitmproxy har_dump', version: '0.1', comment: 'mitmproxy version mitmproxy 8.1.1' };
    expect(await notes(doc(harDump, [entry(0, call(1, 'lookup_order'), streamed())]))).toMatch(/har_dump\.py writes a flow only when its response ended.*not in the file at all/);
    expect(await notes(doc(harDump, []))).toMatch(/har_dump\.py writes a flow only when its response ended/);
    expect(await notes(doc({ name: 'mitmproxy exporthar', version: '0.1' }, []))).toMatch(/a body it streamed and did not store is null/);
  });

  it('says nothing of the kind for another producer', async () => {
    const said = await notes(doc({ name: 'WebInspector', version: '537.36' }, [entry(0, call(1, 'lookup_order'), streamed())]));
    expect(said).not.toMatch(/mitmproxy/);
  });
});

describe("mitmproxy's .zhar (hardump=FILE.zhar: the HAR zlib-compressed)", () => {
  const { deflateSync } = process.getBuiltinModule('node:zlib');
  const body = JSON.stringify({ log: { version: '1.2', creator: { name: 'mitmproxy har_dump', version: '0.1' }, entries: [1, 2, 3].map((i) => entry(i * 100, call(i, 'lookup_order'), { status: 200, headers: sse, content: { size: 90, mimeType: 'text/event-stream', text: `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [] } })}\n\n` } })) } }, null, 2);

  it('is inflated and read as the HAR it holds', async () => {
    const file = join(dir, 'capture.zhar');
    writeFileSync(file, deflateSync(body, { level: 9 }));
    const r = await analyze({ inputs: [{ path: file }] });
    expect(r.summary.inputs[0]!.mode).toBe('har');
    expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS', 'TOOL_SUCCESS']);
  });

  it('a cut one keeps what it had and says where it broke', async () => {
    const full = deflateSync(body, { level: 9 });
    const file = join(dir, 'cut.zhar');
    writeFileSync(file, full.subarray(0, Math.floor(full.length * 0.6)));
    const r = await analyze({ inputs: [{ path: file }] });
    expect(r.summary.inputs[0]!.brokenAt).toMatch(/^after line \d+$/);
    expect(r.summary.diagnostics.first.map((d) => d.message).join('\n')).toMatch(/zlib data \(a \.zhar\) is damaged or cut/);
  });

  it('a text file that merely starts with "x" is not taken for zlib', async () => {
    const file = join(dir, 'x.ndjson');
    writeFileSync(file, 'x^ not json\n' + JSON.stringify(entry(0, call(1, 'lookup_order'), { status: 200, headers: sse, content: { size: 90, mimeType: 'text/event-stream', text: `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })}\n\n` } })) + '\n');
    const r = await analyze({ inputs: [{ path: file }] });
    expect(r.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(r.summary.inputs[0]!.unusable).toBe(1);
  });
});
