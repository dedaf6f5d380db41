// Unit tests for src/formats/go-sdk.ts: the Go SDK's LoggingTransport lines, from a client's and from a server's side, bare and after a Go log date.
import { describe, expect, it } from 'vitest';
import { detectTextFormat } from '../../src/formats/index.js';
import { goSdkFormat } from '../../src/formats/go-sdk.js';
import { errorOf, messages, records, sampleLines } from './helpers.js';

/** The lines of one run, as the SDK's own ExampleLoggingTransport prints them (a client's side, no time). */
const CLIENT = [
  'write: {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"client","version":"v0.0.1"},"protocolVersion":"2025-06-18"}}',
  'read: {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"logging":{}},"protocolVersion":"2025-06-18","serverInfo":{"name":"server","version":"v0.0.1"}}}',
  'write: {"jsonrpc":"2.0","method":"notifications/initialized","params":{}}',
];

/** Each line read with one context, as one input is: the first client-only method tells whose log it is. */
function readAll(lines: string[], side?: 'client' | 'server') {
  const ctx = { file: 'go.log', line: 1, state: new Map<string, unknown>(), side };
  return lines.flatMap((l) => messages(goSdkFormat.textToRecords(l, ctx)));
}

describe('Go SDK LoggingTransport lines', () => {
  it('are detected bare and after a Go log date, and not for other text', () => {
    expect(detectTextFormat(CLIENT[0]!)?.name).toBe('go-sdk');
    expect(detectTextFormat(`2026/03/01 11:00:00.038214 ${CLIENT[1]}`)?.name).toBe('go-sdk');
    expect(detectTextFormat('2026/03/01 11:00:00 write error: sending "tools/call": broken session: 404 Not Found')?.name).toBe('go-sdk');
    expect(detectTextFormat('read: the manual before writing')).toBeUndefined();
    expect(detectTextFormat('2026/03/01 11:00:00 listening on 127.0.0.1:8080')).toBeUndefined();
  });

  it("a client's log: what it wrote goes to the server, what it read comes back", () => {
    const out = readAll(CLIENT);
    expect(out.map((r) => r.direction)).toEqual(['c2s', 's2c', 'c2s']);
    expect(out[0]!.message).toMatchObject({ id: 1, method: 'initialize' });
    expect(out.every((r) => r.ts === undefined)).toBe(true);
  });

  it("a server's log (a tools/call read, its result written) is read the other way round", () => {
    const out = readAll([
      'read: {"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":{"name":"ana"}}}',
      'write: {"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi ana"}]}}',
    ]);
    expect(out.map((r) => r.direction)).toEqual(['c2s', 's2c']);
  });

  it('--server or --client, when given, says whose log it is before any method does', () => {
    const result = 'read: {"jsonrpc":"2.0","id":3,"result":{}}';
    expect(readAll([result], 'server')[0]!.direction).toBe('c2s');
    expect(readAll([result], 'client')[0]!.direction).toBe('s2c');
  });

  it('keeps the local time of a log.Logger date, to the microsecond', () => {
    expect(readAll([`2026/03/01 11:00:00.038214 ${CLIENT[1]}`])[0]!.ts).toBe('2026-03-01 11:00:00.038214');
    expect(readAll([`2026/03/01 11:00:00 ${CLIENT[1]}`])[0]!.ts).toBe('2026-03-01 11:00:00');
  });

  it('reports a failed write or read with its text (the message that failed is not logged)', () => {
    const ctx = { file: 'go.log', line: 9 };
    expect(errorOf(goSdkFormat.textToRecords('write error: sending "tools/call": transient error: 503 Service Unavailable', ctx))).toBe(
      'Go SDK LoggingTransport: a message failed to go out and is not in the log: sending "tools/call": transient error: 503 Service Unavailable',
    );
    expect(errorOf(goSdkFormat.textToRecords('read error: unexpected EOF', ctx))).toMatch(/reading failed: unexpected EOF/);
    expect(errorOf(goSdkFormat.textToRecords('read: {"jsonrpc":"2.0","id":1,', ctx))).toMatch(/not one JSON value/);
  });

  it('reads the message an error line without its newline ran into (older SDK versions)', () => {
    const out = readAll(['read error: context canceledwrite: {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a"}}']);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ direction: 'c2s', message: { id: 5, method: 'tools/call' } });
  });

  it('maps the sample: 12 messages and one failed write', () => {
    const ctx = { file: 'go.log', line: 1, state: new Map<string, unknown>() };
    const results = sampleLines('go-sdk-logging-transport.log').map((l) => goSdkFormat.textToRecords(l, ctx));
    expect(results.filter(Array.isArray).flatMap((r) => records(r))).toHaveLength(12);
    expect(results.filter((r) => !Array.isArray(r))).toHaveLength(1);
  });
});
