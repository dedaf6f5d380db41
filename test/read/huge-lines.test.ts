// Logs of large results: lines of megabytes are read whole and joined, the clock alignment's read-ahead stays bounded in bytes, and errors of megabytes are cut in the report.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAnalysis } from '../../src/analyze.js';
import type { Attempt } from '../../src/join/match.js';
import { analyzeInputs, post, toolText } from '../helpers/analyze.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-huge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse('2026-11-30T09:00:00.000Z');
const SESSION = 'huge-1';

/** One side's log: 40 tool calls 30 s apart, each answered with a result of about 1 MB, half as SSE, half as JSON. */
function writeSide(side: 'client' | 'server'): { path: string; bytes: number } {
  const lines: string[] = [];
  for (let i = 1; i <= 40; i++) {
    const result = { jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `${i}:`.padEnd(1_000_000, 'abc,') }], isError: i === 7 } };
    const sseBody = i % 2 === 0;
    lines.push(JSON.stringify({
      v: 1, kind: 'exchange', ts: new Date(T0 + i * 30_000 + (side === 'server' ? 2 : 0)).toISOString(), side, session: SESSION,
      method: 'POST', url: 'http://127.0.0.1:3000/mcp', requestHeaders: { 'mcp-session-id': SESSION },
      send: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'export', arguments: { n: i } } },
      status: 200, responseHeaders: { 'content-type': sseBody ? 'text/event-stream' : 'application/json' },
      recvText: sseBody ? `id: e${i}\r\nevent: message\r\ndata: ${JSON.stringify(result)}\r\n\r\n` : JSON.stringify(result),
      durationMs: 400,
    }));
  }
  const text = `${lines.join('\n')}\n`;
  const path = join(dir, `${side}.ndjson`);
  writeFileSync(path, text);
  return { path, bytes: Buffer.byteLength(text) };
}

describe('huge lines', () => {
  const client = writeSide('client');
  const server = writeSide('server');

  it('reads results of a megabyte in SSE and JSON bodies whole, and joins both sides', async () => {
    const attempts: Attempt[] = [];
    await runAnalysis({ inputs: [{ path: client.path, side: 'client' }, { path: server.path, side: 'server' }] }, { attempt: (a) => attempts.push(a), finding: () => undefined });
    expect(attempts).toHaveLength(40);
    expect(attempts.every((a) => a.client !== undefined && a.server !== undefined)).toBe(true);
    expect(attempts.filter((a) => a.outcome === 'TOOL_ERROR').map((a) => a.id)).toEqual([7]);
    expect(attempts.filter((a) => a.outcome === 'TOOL_SUCCESS')).toHaveLength(39);
  });

  it('does not read whole inputs ahead to align their clocks: the first call is reported before most bytes are read', async () => {
    // The client log comes through standard input, from a stream that counts what the analysis pulled out of it.
    const text = readFileSync(client.path);
    let pulled = 0;
    const stdin = Readable.from((function* () {
      for (let i = 0; i < text.length; i += 65_536) {
        const piece = text.subarray(i, i + 65_536);
        pulled += piece.length;
        yield piece;
      }
    })());
    let atFirstAttempt: number | undefined;
    let attempts = 0;
    await runAnalysis({ inputs: [{ path: '-', side: 'client' }, { path: server.path, side: 'server' }], stdin }, {
      attempt: () => {
        atFirstAttempt ??= pulled;
        attempts++;
      },
      finding: () => undefined,
    });
    expect(attempts).toBe(40);
    expect(pulled).toBe(client.bytes);
    // The alignment reads at most 16 MiB of an input ahead (it used to read up to 2,000 records, here the whole 40 MB),
    // and the first call is final some 200 s of log time in: about 26 MB have been pulled by then.
    expect(atFirstAttempt).toBeDefined();
    expect(atFirstAttempt!).toBeLessThan(client.bytes * 0.75);
  });
});

describe('errors of many megabytes', () => {
  it('a tool error and a JSON-RPC error of 12 MB are reported, cut to 4,096 characters with what was left out, secrets redacted', async () => {
    const dump = 'row,'.repeat(3_000_000);
    const r = await analyzeInputs([{ lines: [
      post({ t: 0, id: 1, status: 200, recv: { jsonrpc: '2.0', id: 1, result: toolText(`Bearer abcdefgh12345678 ${dump}`, { isError: true }) } }),
      post({ t: 1000, id: 2, status: 200, recv: { jsonrpc: '2.0', id: 2, error: { code: -32603, message: `failed: ${dump}`, data: { stack: dump, token: 'tok-123456789', small: 'kept' } } } }),
    ] }]);
    const [toolError, rpcError] = r.attempts;
    expect(toolError!.outcome).toBe('TOOL_ERROR');
    const message = toolError!.detail!.errorMessage!;
    expect(message.startsWith('Bearer [redacted:')).toBe(true);
    expect(message).toMatch(/… \[\d+ more characters\]$/);
    expect(message.length).toBeLessThan(4_200);
    expect(rpcError!.outcome).toBe('JSONRPC_ERROR');
    expect(rpcError!.detail!.errorMessage).toMatch(/^failed: row,row,.*… \[11995\d{3} more characters\]$/);
    const data = rpcError!.detail!.errorData as Record<string, string>;
    expect(data.small).toBe('kept');
    expect(data.token).toMatch(/^\[redacted:[0-9a-f]{8}\]$/);
    expect(data.stack).toMatch(/… \[11995904 more characters\]$/);
  });
});
