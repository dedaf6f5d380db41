// The twenty-fourth audit: a client's wire view joined with the server's own message log (pino) claimed a
// SIDE_DIVERGENCE for a call the client cancelled and nobody answered. Records shaped as the audit's recordings have them.
import { describe, expect, it } from 'vitest';
import { analyzeInputs, at } from '../helpers/analyze.js';

const S = '4755c29d-b293-4681-809b-8bd28e13fcff';
const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'slow_export', arguments: {} } };
const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'McpError: MCP error -32001: Request timed out' } };

/** recordingFetch's records of a tools/call the TypeScript SDK 1.32.2 client timed out on and cancelled (its SSE stream still open). */
const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'app', version: '1.0.0' } } };
const initResult = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1.0.0' } } };
const clientRecords = [
  { v: 1, kind: 'request', ts: at(-100), side: 'client', session: null, xid: 'a-0', method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json' }, send: init },
  { v: 1, kind: 'response', ts: at(-95), side: 'client', session: S, xid: 'a-0', status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } },
  { v: 1, kind: 'event', ts: at(-94), side: 'client', session: S, xid: 'a-0', event: 'message', data: JSON.stringify(initResult) },
  { v: 1, kind: 'end', ts: at(-93), side: 'client', session: S, xid: 'a-0', end: 'complete', durationMs: 7 },
  { v: 1, kind: 'request', ts: at(0), side: 'client', session: S, xid: 'a-1', method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': S, 'mcp-protocol-version': '2025-11-25' }, send: call },
  { v: 1, kind: 'response', ts: at(2), side: 'client', session: S, xid: 'a-1', status: 200, responseHeaders: { 'content-type': 'text/event-stream', 'mcp-session-id': S } },
  { v: 1, kind: 'request', ts: at(501), side: 'client', session: S, xid: 'a-2', method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': S, 'mcp-protocol-version': '2025-11-25' }, send: cancel },
  { v: 1, kind: 'response', ts: at(503), side: 'client', session: S, xid: 'a-2', status: 202, responseHeaders: {} },
  { v: 1, kind: 'end', ts: at(503), side: 'client', session: S, xid: 'a-2', end: 'complete', recvText: '', durationMs: 2 },
  { v: 1, kind: 'end', ts: at(2600), side: 'client', session: S, xid: 'a-1', end: 'complete', durationMs: 2600 },
];
/** The server app's own pino log of each message its transport got and sent: the request and the cancellation, no answer (the SDK sends none to a cancelled request). */
const serverAppLog = [
  { level: 30, time: Date.parse(at(-99)), pid: 1, hostname: 'mcp-server-0', sessionId: S, direction: 'received', rpc: init, msg: 'mcp message received' },
  { level: 30, time: Date.parse(at(-96)), pid: 1, hostname: 'mcp-server-0', sessionId: S, direction: 'sent', rpc: initResult, msg: 'mcp message sent' },
  { level: 30, time: Date.parse(at(1)), pid: 1, hostname: 'mcp-server-0', sessionId: S, direction: 'received', rpc: call, msg: 'mcp message received' },
  { level: 30, time: Date.parse(at(502)), pid: 1, hostname: 'mcp-server-0', sessionId: S, direction: 'received', rpc: cancel, msg: 'mcp message received' },
];

describe("a client's wire view joined with the server's own message log", () => {
  it('a call the client cancelled and nobody answered is no SIDE_DIVERGENCE (before: "something between them changed the body")', async () => {
    const r = await analyzeInputs([{ name: 'client.ndjson', side: 'client', lines: clientRecords }, { name: 'server-pino.jsonl', side: 'server', lines: serverAppLog }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.outcome).toBe('STREAM_INCOMPLETE');
    expect(a.serverOutcome).toBe('UNANSWERED');
    expect(a.findings.map((f) => f.code)).toEqual(['CANCELLED']);
  });

  it('must not: a result the server logged sent that the client never got is still a SIDE_DIVERGENCE', async () => {
    const sent = { level: 30, time: Date.parse(at(400)), pid: 1, hostname: 'mcp-server-0', sessionId: S, direction: 'sent', rpc: { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'exported' }] } }, msg: 'mcp message sent' };
    const r = await analyzeInputs([{ name: 'client.ndjson', side: 'client', lines: clientRecords }, { name: 'server-pino.jsonl', side: 'server', lines: [...serverAppLog.slice(0, 3), sent, serverAppLog[3]] }]);
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect(a.serverOutcome).toBe('TOOL_SUCCESS');
    expect(a.findings.map((f) => f.code)).toContain('SIDE_DIVERGENCE');
  });
});

