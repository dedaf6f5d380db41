// Unit tests for src/formats/text-lines.ts: Claude Desktop mcp*.log lines, VS Code MCP output lines and CloudWatch `aws logs tail` lines.
import { describe, expect, it } from 'vitest';
import { detectTextFormat } from '../../src/formats/index.js';
import { claudeDesktopFormat, splitClaudeDesktopLine, splitCloudWatchLine, vscodeFormat } from '../../src/formats/text-lines.js';
import { parseTimestamp } from '../../src/formats/time.js';
import { errorOf, messages, records, sampleLines } from './helpers.js';

const ctx = { file: 'mcp.log', line: 1 };
const T = '2026-02-03T09:15:02.118Z';

describe('Claude Desktop lines', () => {
  it('are detected in both bracket orders and not confused with other text', () => {
    expect(detectTextFormat(`${T} [notes] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}`)?.name).toBe('claude-desktop');
    expect(detectTextFormat(`${T} [info] [notes] Message from server: {"jsonrpc":"2.0","id":1,"result":{}}`)?.name).toBe('claude-desktop');
    expect(detectTextFormat('  File "/srv/notes/server.py", line 12, in <module>')).toBeUndefined();
    expect(detectTextFormat(`${T} [notes] [fancy] Message from client: {}`)).toBeUndefined();
  });

  it('maps a client request (per-server file order) with the metadata tail', () => {
    const out = messages(claudeDesktopFormat.textToRecords(`${T} [notes] [info] Message from client: {"method":"tools/call","params":{"name":"find","arguments":{"q":"x"}},"jsonrpc":"2.0","id":12} { metadata: undefined }`, ctx));
    expect(out[0]).toEqual({ v: 1, kind: 'message', ts: T, side: 'client', conn: 'notes', direction: 'c2s', message: { method: 'tools/call', params: { name: 'find', arguments: { q: 'x' } }, jsonrpc: '2.0', id: 12 } });
  });

  it('maps a tool error and a JSON-RPC error from the server (mcp.log order, no tail)', () => {
    const tool = messages(claudeDesktopFormat.textToRecords(`${T} [info] [notes] Message from server: {"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"none"}],"isError":true}}`, ctx));
    expect(tool[0]).toMatchObject({ direction: 's2c', conn: 'notes', message: { result: { isError: true } } });
    const rpc = messages(claudeDesktopFormat.textToRecords(`${T} [notes] [error] Message from server: {"jsonrpc":"2.0","id":13,"error":{"code":-32601,"message":"Method not found"}} { metadata: undefined }`, ctx));
    expect(rpc[0]!.message).toEqual({ jsonrpc: '2.0', id: 13, error: { code: -32601, message: 'Method not found' } });
  });

  it('keeps a body whose text contains " { metadata:" itself', () => {
    const out = messages(claudeDesktopFormat.textToRecords(`${T} [notes] [info] Message from server: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"a { metadata: b }"}]}} { metadata: undefined }`, ctx));
    expect(out[0]!.message).toMatchObject({ result: { content: [{ text: 'a { metadata: b }' }] } });
  });

  it('recognizes other Claude lines as carrying nothing', () => {
    for (const text of ['Server started and connected successfully', 'Client transport closed', 'Initializing server...', 'Using MCP server command: /usr/bin/uv with args and path: { metadata: {']) {
      expect(records(claudeDesktopFormat.textToRecords(`${T} [notes] [info] ${text}`, ctx))).toEqual([]);
    }
  });

  it('reports a message whose JSON is cut or spread over several lines', () => {
    expect(errorOf(claudeDesktopFormat.textToRecords(`${T} [notes] [info] Message from server: {`, ctx))).toMatch(/multi-line/);
  });

  it('maps the sample: 8 messages, start/stop lines skipped', () => {
    const out = sampleLines('claude-desktop-mcp-server-notes.log').flatMap((l) => records(claudeDesktopFormat.textToRecords(l, ctx)));
    expect(out).toHaveLength(8);
  });

  it('splits the parts of a line', () => {
    expect(splitClaudeDesktopLine(`${T} [info] [my server] Client transport closed`)).toEqual({ ts: T, server: 'my server', level: 'info', text: 'Client transport closed' });
  });
});

describe('VS Code MCP output lines', () => {
  const V = '2026-03-01 11:00:01.200';

  it('are detected with either message marker, on their other lines too, and not confused with Claude Desktop or stray text', () => {
    expect(detectTextFormat(`${V} [debug] [editor -> server] {"jsonrpc":"2.0","id":2,"method":"tools/list"}`)?.name).toBe('vscode');
    expect(detectTextFormat(`${V} [info] [Client Says] {"jsonrpc":"2.0","id":4,"method":"tools/call"}`)?.name).toBe('vscode');
    expect(detectTextFormat(`${V} [info] Connection state: Running`)?.name).toBe('vscode');
    expect(detectTextFormat(`${T} [notes] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}`)?.name).toBe('claude-desktop');
    expect(detectTextFormat(`${V} [fancy] [editor -> server] {}`)).toBeUndefined();
    expect(detectTextFormat('2026-03-01 11:00:01 some other program said hello')).toBeUndefined();
  });

  it('maps both directions of both marker styles to client-side messages', () => {
    const req = messages(vscodeFormat.textToRecords(`${V} [debug] [editor -> server] {"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"find"}}`, ctx));
    expect(req).toEqual([{ v: 1, kind: 'message', ts: V, side: 'client', direction: 'c2s', message: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'find' } } }]);
    expect(messages(vscodeFormat.textToRecords(`${V} [debug] [server -> editor] {"jsonrpc":"2.0","id":4,"result":{}}`, ctx))[0]!.direction).toBe('s2c');
    expect(messages(vscodeFormat.textToRecords(`${V} [info] [Client Says] {"jsonrpc":"2.0","id":4,"method":"ping"}`, ctx))[0]!.direction).toBe('c2s');
    expect(messages(vscodeFormat.textToRecords(`${V} [info] [Server Says] {"jsonrpc":"2.0","id":4,"result":{}}`, ctx))[0]!.direction).toBe('s2c');
  });

  it('carries no message on connection, stderr and discovery lines, and reports a cut body', () => {
    for (const text of ['Connection state: Running', '[server stderr] INFO:notes:index loaded', 'Discovered 2 tools', 'Starting server notes']) {
      expect(records(vscodeFormat.textToRecords(`${V} [info] ${text}`, ctx))).toEqual([]);
    }
    expect(errorOf(vscodeFormat.textToRecords(`${V} [debug] [server -> editor] {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"te`, ctx))).toMatch(/not one JSON value/);
  });

  it('keeps the local time as written, which --timezone then reads', () => {
    const [m] = messages(vscodeFormat.textToRecords(`${V} [debug] [editor -> server] {"jsonrpc":"2.0","id":1,"method":"ping"}`, ctx));
    expect(parseTimestamp(m!.ts, 'Europe/Paris')).toBe(Date.parse('2026-03-01T10:00:01.200Z'));
    expect(parseTimestamp(m!.ts)).toBe(Date.parse('2026-03-01T11:00:01.200Z'));
  });

  it('maps the sample: 12 messages, 6 other lines', () => {
    const lines = sampleLines('vscode-mcp-notes.log');
    const out = lines.map((l) => records(vscodeFormat.textToRecords(l, ctx)));
    expect(out.flat()).toHaveLength(12);
    expect(out.filter((r) => r.length === 0)).toHaveLength(6);
  });
});

describe('splitCloudWatchLine', () => {
  it('splits `<time> <stream> <json>` of aws logs tail', () => {
    const line = '2026-03-01T10:00:00.120000+00:00 2026/03/01/notes-mcp[$LATEST]7f3c2a9e {"direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{}}}';
    expect(splitCloudWatchLine(line)).toEqual({ ts: '2026-03-01T10:00:00.120000+00:00', stream: '2026/03/01/notes-mcp[$LATEST]7f3c2a9e', json: '{"direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{}}}' });
  });
  it('splits --format short lines (no stream)', () => {
    expect(splitCloudWatchLine('2026-03-01T10:00:00 {"a":1}')).toEqual({ ts: '2026-03-01T10:00:00', json: '{"a":1}' });
  });
  it('leaves Claude Desktop lines, plain text and JSON lines alone', () => {
    expect(splitCloudWatchLine(`${T} [notes] [info] Message from client: {"id":1}`)).toBeUndefined();
    expect(splitCloudWatchLine('2026-03-01T10:00:00Z stream-1 server listening')).toBeUndefined();
    expect(splitCloudWatchLine('{"jsonrpc":"2.0"}')).toBeUndefined();
  });
  it('splits every line of the sample', () => {
    expect(sampleLines('cloudwatch-tail.log').every((l) => splitCloudWatchLine(l) !== undefined)).toBe(true);
  });
});
