// Unit tests for src/formats/tshark.ts on small hand-made packets (-T ek and -T json field names): detection next to Elasticsearch hits, requests without a response, bytes read from tcp.payload, hex bodies, malformed documents.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import type { AdapterContext } from '../../src/formats/adapter.js';
import { detectJsonFormat } from '../../src/formats/index.js';
import { tsharkFormat } from '../../src/formats/tshark.js';
import { unwrapEnvelope } from '../../src/formats/unwrap.js';
import type { CanonicalRecord } from '../../src/schema/record.js';
import { toolCalls } from '../helpers/recordings.js';
import { records } from './helpers.js';

const T0 = 1796419116.5;
const hex = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => b.toString(16).padStart(2, '0')).join(':');
const CALL = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"lookup_order","arguments":{}}}';
const RESULT = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}]}}';

interface Pkt {
  n: number;
  t?: number;
  stream?: string;
  fromServer?: boolean;
  http?: Record<string, unknown>;
  fin?: boolean;
  rst?: boolean;
  payload?: string;
  seq?: number;
  /** The server's port (8000 unless given) and the client's (50000). */
  port?: string;
  clientPort?: string;
}

/** A -T ek document line for one packet (client port 50000, server port 8000, unless given). */
function ek(p: Pkt): Record<string, unknown> {
  const [server, client] = [p.port ?? '8000', p.clientPort ?? '50000'];
  const tcp: Record<string, unknown> = {
    tcp_tcp_srcport: p.fromServer ? server : client,
    tcp_tcp_dstport: p.fromServer ? client : server,
    tcp_tcp_stream: p.stream ?? '0',
    tcp_tcp_flags_fin: p.fin === true,
    tcp_tcp_flags_reset: p.rst === true,
    tcp_tcp_seq: String(p.seq ?? 1),
    tcp_tcp_len: String(p.payload === undefined ? 0 : Buffer.byteLength(p.payload)),
  };
  if (p.payload !== undefined) tcp.tcp_tcp_payload = hex(p.payload);
  const layers: Record<string, unknown> = { frame: { frame_frame_number: String(p.n), frame_frame_time_epoch: String(T0 + (p.t ?? p.n) / 1000) }, tcp };
  if (p.http) layers.http = p.http;
  return { timestamp: String(Math.round((T0 + (p.t ?? p.n) / 1000) * 1000)), layers };
}

const postHttp = (body = CALL, extra: Record<string, unknown> = {}) => ({
  http_http_request_method: 'POST',
  http_http_request_uri: '/mcp',
  http_http_request_full_uri: 'http://127.0.0.1:8000/mcp',
  http_http_request_line: ['host: 127.0.0.1:8000\r\n', 'content-type: application/json\r\n', 'mcp-session-id: s-1\r\n'],
  http_http_file_data: body,
  ...extra,
});
const responseHttp = (requestIn: number, body = RESULT, status = '200', type = 'application/json') => ({
  http_http_response_code: status,
  http_http_response_line: [`content-type: ${type}\r\n`, 'mcp-session-id: s-1\r\n'],
  http_http_request_in: String(requestIn),
  http_http_time: '0.004000000',
  http_http_file_data: body,
});

/** The records of packets read in order through one input's state. */
function read(packets: Record<string, unknown>[]): CanonicalRecord[] {
  const ctx: AdapterContext = { file: 'cap.ek.ndjson', line: 1, state: new Map() };
  return packets.flatMap((p) => records(tsharkFormat.toRecords(p, ctx)));
}

/** Analyze -T ek lines (each packet after its index line) as a file. */
async function analyzeLines(packets: Record<string, unknown>[]) {
  const dir = mkdtempSync(join(tmpdir(), 'tshark-'));
  const path = join(dir, 'cap.ek.ndjson');
  writeFileSync(path, packets.map((p) => `{"index":{"_index":"packets-2026-12-04","_type":"doc"}}\n${JSON.stringify(p)}\n`).join(''));
  return analyze({ inputs: [{ path }] });
}

describe('tshark detection', () => {
  it('takes -T ek document lines and their index lines; the index line gives no records', () => {
    expect(detectJsonFormat(ek({ n: 1 }))?.name).toBe('tshark');
    const index = { index: { _index: 'packets-2026-12-04', _type: 'doc' } };
    expect(detectJsonFormat(index)?.name).toBe('tshark');
    expect(tsharkFormat.toRecords(index, { file: 'x', line: 1, state: new Map() })).toEqual([]);
  });

  it('does not take other bulk index lines, or objects that merely have a layers key', () => {
    expect(detectJsonFormat({ index: { _index: 'logs-2026.12.04' } })?.name).not.toBe('tshark');
    expect(detectJsonFormat({ layers: { frame: {} }, message: 'x' })?.name).not.toBe('tshark');
    expect(detectJsonFormat({ layers: ['a'] })?.name).not.toBe('tshark');
  });

  it('-T json items are Elasticsearch hits: unwrapped through _source to the packet; other hits keep their formats', () => {
    const item = { _index: 'packets-2026-12-04', _type: 'doc', _score: null, _source: { layers: ek({ n: 1 }).layers } };
    expect(detectJsonFormat(item)).toBeUndefined();
    const inner = unwrapEnvelope(item)!.value as Record<string, unknown>;
    expect(detectJsonFormat(inner)?.name).toBe('tshark');
    const logHit = { _index: 'logs', _source: { '@timestamp': '2026-12-04T21:00:00Z', message: CALL } };
    expect(detectJsonFormat(unwrapEnvelope(logHit)!.value as Record<string, unknown>)?.name).toBe('jsonrpc');
    const jsonHit = { _index: 'logs', _source: { json: { v: 1, kind: 'message', direction: 'c2s', message: JSON.parse(CALL) } } };
    expect(detectJsonFormat(unwrapEnvelope(jsonHit)!.value as Record<string, unknown>)?.name).toBe('canonical');
  });
});

describe('tshark records', () => {
  it('a POST and its response: request, response, end joined by tcp<stream>/<request frame>; handshakes and ACKs give nothing', () => {
    const rs = read([ek({ n: 1 }), ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true }), ek({ n: 6, fromServer: true, http: responseHttp(4), payload: 'x' })]);
    expect(rs.map((r) => [r.kind, 'xid' in r ? r.xid : undefined])).toEqual([['request', 'tcp0/4'], ['response', 'tcp0/4'], ['end', 'tcp0/4']]);
    expect(rs[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:8000/mcp', sendText: CALL, requestHeaders: { 'mcp-session-id': 's-1', 'content-type': 'application/json' }, ts: (T0 + 0.004) * 1000 });
    expect(rs[1]).toMatchObject({ status: 200, recvText: RESULT, responseHeaders: { 'content-type': 'application/json' } });
    expect(rs[2]).toMatchObject({ end: 'complete', durationMs: 4 });
  });

  it('-T json field names (dotted, request fields nested under the request line) read the same', () => {
    const json = (p: Record<string, unknown>) => {
      const layers = p.layers as Record<string, Record<string, unknown>>;
      const dotted = (layer: string, o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.replace(`${layer}_${layer}_`, `${layer}.`).replaceAll('_', '.'), v]));
      const http = layers.http ? dotted('http', layers.http) : undefined;
      const nested = http && 'http.request.method' in http ? { 'POST /mcp HTTP/1.1\\r\\n': { 'http.request.method': http['http.request.method'], 'http.request.uri': http['http.request.uri'] }, ...Object.fromEntries(Object.entries(http).filter(([k]) => k !== 'http.request.method' && k !== 'http.request.uri')) } : http;
      return { layers: { frame: dotted('frame', layers.frame!), tcp: { ...dotted('tcp', layers.tcp!), 'tcp.flags_tree': { 'tcp.flags.fin': '0', 'tcp.flags.reset': '0' } }, ...(nested ? { http: nested } : {}) } };
    };
    const packets = [ek({ n: 4, http: postHttp() }), ek({ n: 6, fromServer: true, http: responseHttp(4) })];
    const strip = (rs: CanonicalRecord[]) => rs.map((r) => ({ ...r, ts: undefined }));
    const fromJson = read(packets.map(json));
    expect(fromJson.map((r) => r.kind)).toEqual(['request', 'response', 'end']);
    expect(strip(fromJson)).toEqual(strip(read(packets)));
  });

  it('a request with no response whose connection the server closed (FIN): it ends with an error, and the call is NO_RESPONSE', async () => {
    const packets = [ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true, fin: true })];
    const rs = read(packets);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'end']);
    expect(rs[1]).toMatchObject({ end: 'error', error: 'the server closed the connection (FIN), before any HTTP response' });
    const r = await analyzeLines(packets);
    expect(toolCalls(r).map((a) => [a.outcome, a.status])).toEqual([['NO_RESPONSE', null]]);
  });

  it('a request still waiting when the capture stopped does not vanish: the call is NO_RESPONSE', async () => {
    const r = await analyzeLines([ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true })]);
    expect(toolCalls(r).map((a) => a.outcome)).toEqual(['NO_RESPONSE']);
  });

  it('a client FIN alone does not end the request (the server may still answer); the server\'s answer then does', () => {
    const rs = read([ek({ n: 4, http: postHttp() }), ek({ n: 5, fin: true }), ek({ n: 6, fromServer: true, http: responseHttp(4) })]);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'response', 'end']);
  });

  it('an SSE response tshark has not dissected: head and events from tcp.payload at their packets; a retransmission is read once; RST ends it', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
    const ev1 = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n';
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const first = head + chunk(ev1);
    const packets = [
      ek({ n: 4, http: postHttp(CALL.replace('"arguments":{}', '"arguments":{},"_meta":{"progressToken":1}')) }),
      ek({ n: 5, t: 10, fromServer: true, payload: first, seq: 1 }),
      ek({ n: 6, t: 11, fromServer: true, payload: first, seq: 1 }), // retransmitted
      ek({ n: 7, t: 50, fromServer: true, rst: true, seq: 1 + Buffer.byteLength(first) }),
    ];
    const rs = read(packets);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'response', 'event', 'end']);
    expect(rs[1]).toMatchObject({ status: 200, ts: (T0 + 0.01) * 1000, responseHeaders: { 'content-type': 'text/event-stream' } });
    expect(rs[2]).toMatchObject({ data: expect.stringContaining('"progress":1'), event: 'message' });
    expect(rs[3]).toMatchObject({ end: 'aborted', error: 'connection reset (RST) by the server, before the response ended (no last chunk)' });
    const r = await analyzeLines(packets);
    expect(toolCalls(r).map((a) => [a.outcome, a.status, a.sse?.progress])).toEqual([['STREAM_INCOMPLETE', 200, 1]]);
  });

  it('keep-alive comments on the wire: their count and the last one\'s packet time on the end record, and the why says the stream was held open; near miss: none, no count', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
    const chunk = (s: string) => `${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`;
    const ka = chunk(': keepalive\n\n');
    const packets = [
      ek({ n: 4, http: postHttp() }),
      ek({ n: 5, t: 10, fromServer: true, payload: head, seq: 1 }),
      ek({ n: 6, t: 15_010, fromServer: true, payload: ka, seq: 1 + head.length }),
      ek({ n: 7, t: 30_010, fromServer: true, payload: ka, seq: 1 + head.length + ka.length }),
      ek({ n: 8, t: 37_000, fromServer: true, rst: true, seq: 1 + head.length + 2 * ka.length }),
    ];
    const rs = read(packets);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'response', 'end']);
    expect(rs[2]).toMatchObject({ end: 'aborted', comments: 2, lastCommentTs: (T0 + 30.01) * 1000 });
    const why = (toolCalls(await analyzeLines(packets))[0]!.detail as { why?: string }).why;
    expect(why).toMatch(/; 2 SSE comments \(keep-alives\) came on it, the last 6\.99 s before it ended: the stream was held open and the answer had not been sent by then/);
    const none = read([packets[0]!, packets[1]!, ek({ n: 8, t: 37_000, fromServer: true, rst: true, seq: 1 + head.length })]);
    expect(none[2]).not.toHaveProperty('comments');
  });

  it('a gzipped SSE response: its head at its packet, but no event from the compressed bytes; the events come with tshark\'s decoded dissection', () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-encoding: gzip\r\ntransfer-encoding: chunked\r\n\r\n';
    const gz = '1f\r\n\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03event: message\ndata: x\n\n\r\n';
    const sse = `event: message\ndata: ${RESULT}\n\n`;
    const rs = read([ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true, payload: head + gz }), ek({ n: 9, fromServer: true, http: responseHttp(4, sse, '200', 'text/event-stream') })]);
    expect(rs.map((r) => [r.kind, r.ts])).toEqual([['request', (T0 + 0.004) * 1000], ['response', (T0 + 0.005) * 1000], ['event', (T0 + 0.009) * 1000], ['end', (T0 + 0.009) * 1000]]);
    expect(rs[2]).toMatchObject({ data: RESULT });
  });

  it('two requests in one packet (a list of http layers): each its own xid; the answer without http.request_in is the older one waiting', () => {
    const second = CALL.replace('"id":7', '"id":8');
    const rs = read([ek({ n: 4, http: [postHttp(), postHttp(second)] }), ek({ n: 6, fromServer: true, http: responseHttp(4) }), ek({ n: 7, fromServer: true, http: { ...responseHttp(4, RESULT.replace('"id":7', '"id":8')), http_http_request_in: undefined } })]);
    expect(rs.map((r) => [r.kind, 'xid' in r ? r.xid : undefined])).toEqual([['request', 'tcp0/4.0'], ['request', 'tcp0/4.1'], ['response', 'tcp0/4.0'], ['end', 'tcp0/4.0'], ['response', 'tcp0/4.1'], ['end', 'tcp0/4.1']]);
    expect(rs[4]).toMatchObject({ recvText: expect.stringContaining('"id":8') });
  });

  it('a JSON response cut before its end: the status and the partial body, ended aborted', () => {
    const rs = read([ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true, payload: `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 80\r\n\r\n${RESULT.slice(0, 20)}` }), ek({ n: 6, fromServer: true, fin: true, seq: 999 })]);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'response', 'end']);
    expect(rs[1]).toMatchObject({ status: 200 });
    expect(rs[2]).toMatchObject({ end: 'aborted', recvText: RESULT.slice(0, 20) });
  });

  it('a body tshark wrote as hex bytes is decoded', () => {
    const rs = read([ek({ n: 4, http: postHttp(hex(CALL)) })]);
    expect(rs[0]).toMatchObject({ kind: 'request', sendText: CALL });
  });

  it('HTTP that is no MCP traffic (a page asset) and its response are skipped', () => {
    const get = { http_http_request_method: 'GET', http_http_request_uri: '/favicon.ico', http_http_request_line: ['accept: image/*\r\n'] };
    expect(read([ek({ n: 4, http: get }), ek({ n: 5, fromServer: true, http: responseHttp(4, '', '404', 'text/html') })])).toEqual([]);
  });
});

describe('tshark traffic it cannot read', () => {
  it('TLS without keys, or HTTP/2: said once per input (unusable, with what to do), the other such packets skipped', () => {
    const ctx: AdapterContext = { file: 'x', line: 1, state: new Map() };
    const tls = (n: number) => ({ ...ek({ n }), layers: { ...(ek({ n }).layers as object), tls: { tls_tls_record_content_type: '23' } } });
    expect(tsharkFormat.toRecords(tls(4), ctx)).toEqual({ error: expect.stringMatching(/^tshark packet \(frame 4\) of TLS: encrypted, no HTTP layer without the session keys \(tshark -o tls.keylog_file:KEYLOG\)/) });
    expect(tsharkFormat.toRecords(tls(5), ctx)).toEqual([]);
    const h2 = { ...ek({ n: 4 }), layers: { ...(ek({ n: 4 }).layers as object), http2: {} } };
    expect(tsharkFormat.toRecords(h2, { file: 'x', line: 1, state: new Map() })).toEqual({ error: expect.stringMatching(/of HTTP\/2: mcp-triage reads HTTP\/1\.1 only/) });
  });

  it('a page asset before an MCP request on the same connection: its answer is dropped, the MCP one still read from the wire', () => {
    const get = { http_http_request_method: 'GET', http_http_request_uri: '/favicon.ico', http_http_request_line: ['accept: image/*\r\n'] };
    const rs = read([
      ek({ n: 4, http: get }),
      ek({ n: 5, fromServer: true, http: responseHttp(4, '', '404', 'text/html'), payload: 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', seq: 1 }),
      ek({ n: 6, http: postHttp() }),
      ek({ n: 7, fromServer: true, payload: 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n', seq: 46 }),
      ek({ n: 8, fromServer: true, rst: true, seq: 99 }),
    ]);
    expect(rs.map((r) => [r.kind, 'xid' in r ? r.xid : undefined])).toEqual([['request', 'tcp0/6'], ['response', 'tcp0/6'], ['end', 'tcp0/6']]);
  });

  it('server bytes that never make an HTTP head are given up on, not held', () => {
    const rs = read([ek({ n: 4, http: postHttp() }), ek({ n: 5, fromServer: true, payload: 'x'.repeat(70 * 1024) }), ek({ n: 6, fromServer: true, fin: true, seq: 1 + 70 * 1024 })]);
    expect(rs.map((r) => r.kind)).toEqual(['request', 'end']);
    expect(rs[1]).toMatchObject({ end: 'error' });
  });
});

describe('tshark malformed documents: clear diagnostics', () => {
  const ctx = () => ({ file: 'x', line: 3, state: new Map() });
  it('says what is missing', () => {
    expect(tsharkFormat.toRecords({ layers: { frame: {} } }, ctx())).toEqual({ error: 'tshark packet without frame.number' });
    expect(tsharkFormat.toRecords({ layers: { frame: { frame_frame_number: '3' }, tcp: {} } }, ctx())).toEqual({ error: 'tshark TCP packet (frame 3) without tcp.stream' });
    const noLink = ek({ n: 6, fromServer: true, http: { ...responseHttp(4), http_http_request_in: undefined } });
    expect(tsharkFormat.toRecords(noLink, ctx())).toEqual({ error: 'tshark HTTP response 200 without http.request_in, and no request waits on its connection: its request is not in the capture' });
    expect(tsharkFormat.toRecords(ek({ n: 6, fromServer: true, http: responseHttp(4) }), ctx())).toEqual({ error: 'tshark HTTP response 200 to frame 4, whose request is not in the capture (or was answered already)' });
    expect(tsharkFormat.toRecords(ek({ n: 6, http: { ...responseHttp(4), http_http_response_code: 'abc' } }), ctx())).toEqual({ error: 'tshark HTTP response without a valid http.response.code' });
  });

  it('in a file, such a line is unusable with that message; the others are read', async () => {
    const r = await analyzeLines([ek({ n: 6, fromServer: true, http: responseHttp(2) }), ek({ n: 8, http: postHttp() }), ek({ n: 9, fromServer: true, http: responseHttp(8) })]);
    expect(r.summary.inputs[0]!.unusable).toBe(1);
    expect(r.summary.diagnostics.first[0]!.message).toMatch(/response 200 to frame 2, whose request is not in the capture/);
    expect(toolCalls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
  });
});

describe('tshark on a real capture (test/fixtures/real-tshark/progress)', () => {
  it('each progress event is timed by the packet that carried it, not by the end of the response', () => {
    const lines = readFileSync(new URL('../fixtures/real-tshark/progress/capture.ek.ndjson', import.meta.url), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const events = read(lines).filter((r) => r.kind === 'event');
    expect(events).toHaveLength(4);
    const ts = events.map((e) => e.ts as number);
    for (let i = 1; i < ts.length; i++) expect(ts[i]!, `event ${i}`).toBeGreaterThan(ts[i - 1]!);
    expect(ts[3]! - ts[0]!).toBeGreaterThan(150); // three 60 ms steps of the tool
  });
});

describe('tshark: one capture of both legs of a hop', () => {
  // The client talks to a hop on port 8000 (stream 0); the hop forwards to the server on port 9000 (stream 1).
  const outerReq = (n: number) => ek({ n, stream: '0', http: postHttp() });
  const innerReq = (n: number, body = CALL) => ek({ n, stream: '1', port: '9000', clientPort: '50001', http: postHttp(body) });
  const innerRes = (n: number, req: number) => ek({ n, stream: '1', port: '9000', clientPort: '50001', fromServer: true, http: responseHttp(req) });
  const outerRes = (n: number, req: number) => ek({ n, stream: '0', fromServer: true, http: responseHttp(req) });

  it('a request repeated on another port while it still waits is the hop forwarding it: that port is skipped, said once with the commands to split the capture', () => {
    const ctx: AdapterContext = { file: 'cap.ek.ndjson', line: 1, state: new Map() };
    const results = [outerReq(1), innerReq(2), innerRes(3, 2), outerRes(4, 1), innerReq(5), innerRes(6, 5)].map((p) => tsharkFormat.toRecords(p, ctx));
    const errors = results.filter((r) => !Array.isArray(r)).map((r) => (r as { error: string }).error);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^tshark packet \(frame 2\): .*both legs of a hop.*-Y tcp\.port==8000 -T ek > client-leg\.ek\.ndjson.*-Y tcp\.port==9000 -T ek > server-leg\.ek\.ndjson/);
    const recs = results.flatMap((r) => (Array.isArray(r) ? r : []));
    expect(recs.map((r) => [r.kind, r.xid])).toEqual([['request', 'tcp0/1'], ['response', 'tcp0/1'], ['end', 'tcp0/1']]);
  });

  it('analyzed: one attempt per call, no ID_REUSED, one unusable line', async () => {
    const r = await analyzeLines([outerReq(1), innerReq(2), innerRes(3, 2), outerRes(4, 1)]);
    expect(toolCalls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(r.summary.inputs[0]!.unusable).toBe(1);
  });

  it('must not: one client\'s identical initialize to two servers at once (no session id yet) is two requests, both read', () => {
    const ctx: AdapterContext = { file: 'cap.ek.ndjson', line: 1, state: new Map() };
    const init = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}';
    const noSession = (body: string) => ({ ...postHttp(body), http_http_request_line: ['host: 127.0.0.1:8000\r\n', 'content-type: application/json\r\n'] });
    const results = [ek({ n: 1, stream: '0', http: noSession(init) }), ek({ n: 2, stream: '1', port: '9000', clientPort: '50001', http: noSession(init) })].map((p) => tsharkFormat.toRecords(p, ctx));
    expect(results.every(Array.isArray)).toBe(true);
    expect(results.flatMap((r) => (Array.isArray(r) ? r : [])).filter((x) => x.kind === 'request').map((x) => x.xid)).toEqual(['tcp0/1', 'tcp1/2']);
  });

  it('must not: the same request to another port after its answer (a client repeating it elsewhere), or another request while one waits, is read as its own', () => {
    const ctx: AdapterContext = { file: 'cap.ek.ndjson', line: 1, state: new Map() };
    const other = CALL.replace('"id":7', '"id":8');
    const results = [outerReq(1), outerRes(2, 1), innerReq(3), innerRes(4, 3), outerReq(5), innerReq(6, other), innerRes(7, 6), outerRes(8, 5)].map((p) => tsharkFormat.toRecords(p, ctx));
    expect(results.every(Array.isArray)).toBe(true);
    const requests = results.flatMap((r) => (Array.isArray(r) ? r : [])).filter((x) => x.kind === 'request').map((x) => x.xid);
    expect(requests).toEqual(['tcp0/1', 'tcp1/3', 'tcp0/5', 'tcp1/6']);
  });
});
