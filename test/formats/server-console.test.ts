// Unit tests for src/formats/server-console.ts: a server's default console (uvicorn's access and INFO lines, the Python SDK's bare INFO words, rich's lines, morgan's dev/tiny/short, hono/logger's) read line by line, and its near misses other formats keep.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AdapterContext, GatewayAccount } from '../../src/formats/adapter.js';
import { TEXT_FORMATS, detectTextFormat } from '../../src/formats/index.js';
import { serverConsoleFormat, serverConsoleRestFormat } from '../../src/formats/server-console.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { analyze } from '../../src/index.js';
import { errorOf, exchange } from './helpers.js';

beforeAll(async () => {
  await loadSchemas();
});

const ctx = (state = new Map<string, unknown>()): AdapterContext => ({ file: 'server.log', line: 1, state });
const read = (line: string, state?: Map<string, unknown>) => serverConsoleFormat.textToRecords(line, ctx(state));
const accountOf = (r: unknown) => (r as { gatewayAccount: GatewayAccount }).gatewayAccount;
const tmp = (lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'server-console-')), 'server.log');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe('server-console: request lines', () => {
  it("uvicorn's access line: method, path, status; no time, no duration; the client's ip:port kept out of the record", () => {
    const line = 'INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 404 Not Found';
    expect(detectTextFormat(line)?.name).toBe('server-console');
    const rec = exchange(read(line));
    expect([rec.method, rec.url, rec.status, rec.ts, rec.durationMs, rec.side]).toEqual(['POST', '/mcp', 404, undefined, undefined, 'server']);
    expect(accountOf(rec)).toMatchObject({ log: 'server-console', producer: 'uvicorn' });
    expect(rec.error).toBe("uvicorn's access line: POST /mcp answered 404");
  });
  it("uvicorn's access line as a terminal shows it (colors, CRLF from `script`), an IPv6 client and a query string", () => {
    const tty = '\u001b[32mINFO\u001b[0m:     ::1:49502 - "\u001b[1mPOST /mcp?x=1 HTTP/1.1\u001b[0m" \u001b[31m500 Internal Server Error\u001b[0m\r';
    expect(detectTextFormat(tty)?.name).toBe('server-console');
    const rec = exchange(read(tty));
    expect([rec.method, rec.url, rec.status]).toEqual(['POST', '/mcp?x=1', 500]);
    expect(rec.error).toBe("uvicorn's access line: POST /mcp answered 500");
  });
  it("morgan's dev (colored), tiny and short lines; the time taken kept, `-` when no head went out", () => {
    const dev = exchange(read('\u001b[0mPOST /mcp \u001b[33m404\u001b[0m 0.700 ms - 81\u001b[0m'));
    expect([dev.method, dev.url, dev.status, dev.durationMs]).toEqual(['POST', '/mcp', 404, 1]);
    const tiny = exchange(read('POST /mcp 500 998 - 1.495 ms'));
    expect([tiny.status, tiny.durationMs, accountOf(tiny).producer]).toEqual([500, 1, 'morgan']);
    const short = exchange(read('::ffff:127.0.0.1 - POST /mcp HTTP/1.1 200 - - 4.424 ms'));
    expect([short.method, short.status, short.durationMs]).toEqual(['POST', 200, 4]);
    const noHead = exchange(read('POST /mcp 200 - ms - -'));
    expect(noHead.durationMs).toBeUndefined();
  });
  it("hono/logger's `-->` line (colored status, ms, whole seconds, thousands); its `<--` line read and left out", () => {
    const out = exchange(read('--> POST /mcp \u001b[31m500\u001b[0m 2ms'));
    expect([out.method, out.status, out.durationMs, accountOf(out).producer]).toEqual(['POST', 500, 2, 'hono']);
    expect(exchange(read('--> GET /mcp 200 2s')).durationMs).toBe(2000);
    expect(exchange(read('--> POST /mcp 200 1,234s')).durationMs).toBe(1_234_000);
    expect(read('<-- POST /mcp')).toEqual([]);
  });
});

describe('server-console: the other lines of a console', () => {
  it("uvicorn's own lines and the Python SDK's words are read; those that tell something are counted as events", () => {
    expect(read('INFO:     Waiting for application startup.')).toEqual([]);
    expect(read('StreamableHTTP session manager started')).toEqual([]);
    const ev = (line: string) => { const r = read(line); return Array.isArray(r) && r.length === 1 ? accountOf(r[0]).consoleEvent : r; };
    expect(ev('INFO:     Started server process [3116]')).toBe('server processes started');
    expect(ev('ERROR:    Exception in ASGI application')).toMatch(/^exceptions in the app uvicorn printed/);
    expect(ev('Rejected request with unknown or expired session ID: f00d')).toMatch(/unknown or expired session/);
    expect(ev('Created new transport with session ID: 41f54901883e404893894ddeedec4985')).toMatch(/^sessions created/);
    expect(ev("Tool 'refund_order' raised an unexpected exception")).toMatch(/raised an exception/);
    expect(ev('MCP server listening on http://127.0.0.1:9402/mcp')).toBe('server processes started');
  });
  it('the refusal names its session as the refused request sent it (printable, bounded); other events name none', () => {
    const r = read('Rejected request with unknown or expired session ID: 61f2a72b85a943a28eb0566f8622f3a5\r') as { requestHeaders: Record<string, string> }[];
    expect(r[0]!.requestHeaders).toEqual({ 'mcp-session-id': '61f2a72b85a943a28eb0566f8622f3a5' });
    const odd = read('Rejected request with unknown or expired session ID: a b') as { requestHeaders: Record<string, string> }[];
    expect(odd[0]!.requestHeaders).toEqual({});
    const created = read('Created new transport with session ID: 41f5') as { requestHeaders: Record<string, string> }[];
    expect(created[0]!.requestHeaders).toEqual({});
  });
  it("rich's lines (the Python SDK's logging with rich installed), with and without their time, are read and left out", () => {
    expect(detectTextFormat('[12/07/26 00:50:00] INFO     Processing request of type CallToolRequest        server.py:720')?.name).toBe('server-console');
    expect(read('[12/07/26 00:50:00] INFO     Processing request of type CallToolRequest        server.py:720')).toEqual([]);
    expect(read('                    INFO     Processing request of type ListToolsRequest       server.py:720')).toEqual([]);
  });
  it('a traceback or stack-trace line is the console\'s once one of its lines was seen (skipped), else no line of it', () => {
    const state = new Map<string, unknown>();
    expect(errorOf(read('  File "/app/server.py", line 61, in crashing', state))).toMatch(/not a line of a server console/);
    expect(serverConsoleRestFormat.detectText('  File "/app/server.py", line 61, in crashing', state)).toBe(false);
    read('INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 200 OK', state);
    expect(serverConsoleRestFormat.detectText('    at Layer.handleRequest (/app/node_modules/router/lib/layer.js:169:33)', state)).toBe(true);
    expect(read('RuntimeError: inventory backend unreachable', state)).toEqual([]);
  });
});

describe('server-console: near misses other formats keep', () => {
  it.each([
    ['nginx-combined', '127.0.0.1 - - [07/Dec/2026:00:45:51 +0000] "POST /mcp HTTP/1.1" 500 998 "-" "node"'],
    ['python-sdk', 'INFO:mcp.server.lowlevel.server:Processing request of type CallToolRequest'],
    ['python-sdk', 'DEBUG:mcp.server.streamable_http:Created new transport with session ID: abc'],
    ['dotnet-console', 'info: Microsoft.AspNetCore.Hosting.Diagnostics[2]'],
    ['claude-desktop', '2026-12-07T00:00:00.000Z [info] [weather] Message from client: {"jsonrpc":"2.0","method":"x","id":1}'],
    // ASP.NET Core's start line says "listening on http://" too: .NET's console keeps it (a Node server's own such line is the console's, after every other format)
    ['dotnet-console', 'info: Microsoft.Hosting.Lifetime[14] Now listening on: http://localhost:5000'],
  ])('%s keeps %s', (name, line) => {
    expect(detectTextFormat(line)?.name).toBe(name);
  });
  it.each([
    'POST /mcp 200',
    'GET /mcp 200 12 apples',
    '--> POST /mcp 200',
    'Server listening on port 3000',
  ])('no line of a console: %s', (line) => {
    expect(serverConsoleFormat.detectText(line)).toBe(false);
  });
  it('a Node server\'s "listening on http://..." line is the console\'s only where no other format takes it (tried last); .NET\'s indented message line stays its', () => {
    expect(detectTextFormat('MCP server listening on http://127.0.0.1:9402/mcp')?.name).toBe('server-console');
    expect(serverConsoleFormat.detectText('MCP server listening on http://127.0.0.1:9402/mcp')).toBe(false);
    expect(serverConsoleRestFormat.detectText('      Now listening on: http://localhost:5000', new Map())).toBe(false);
  });
  it("a uvicorn line whose request is no HTTP method's is uvicorn's line, and no request", () => {
    expect(read('INFO:     127.0.0.1:50000 - "FETCH /mcp HTTP/1.1" 200 OK')).toEqual([]);
  });
});

describe('server-console through analyze', () => {
  it('a uvicorn console alone: no line unusable; the POSTs counted by status, the 4xx and 5xx named, the SDK\'s events, and why nothing is joined', async () => {
    const path = tmp([
      'INFO:     Started server process [1]',
      'INFO:     Uvicorn running on http://127.0.0.1:8000 (Press CTRL+C to quit)',
      'Created new transport with session ID: aaa',
      'INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 200 OK',
      'INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 202 Accepted',
      'INFO:     127.0.0.1:50000 - "GET /mcp HTTP/1.1" 200 OK',
      'Rejected request with unknown or expired session ID: bbb',
      'INFO:     127.0.0.1:50002 - "POST /mcp HTTP/1.1" 404 Not Found',
      'INFO:     127.0.0.1:50002 - "POST /mcp HTTP/1.1" 404 Not Found',
      'ERROR:    Exception in ASGI application',
      'Traceback (most recent call last):',
      '  File "/app/server.py", line 61, in crashing',
      'RuntimeError: inventory backend unreachable',
      'INFO:     127.0.0.1:50004 - "POST /mcp HTTP/1.1" 500 Internal Server Error',
      'INFO:     127.0.0.1:50006 - "GET /health HTTP/1.1" 200 OK',
    ]);
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    expect(r.summary.lines).toMatchObject({ read: 15, unusable: 0 });
    expect(r.attempts).toEqual([]);
    const note = r.summary.notes.find((n) => n.includes("the server's console"))!;
    expect(note).toContain("(uvicorn's access lines) has 7 request lines and no time on any");
    expect(note).toContain('5 POSTs: /mcp 200 x1, /mcp 202 x1, /mcp 404 x2, /mcp 500 x1');
    expect(note).toMatch(/2 got 404 \(POST \/mcp, the first at .*:8\), 1 got 500/);
    expect(note).toContain('other requests: GET /mcp 200 x1, GET /health 200 x1');
    expect(note).toMatch(/requests refused for an unknown or expired session .*: 1/);
    expect(note).toMatch(/no request line is an attempt, and none is joined to a client's attempt/);
  });
  it('near miss: a Python logging DEBUG line in the same console is still the Python SDK\'s (read by python-sdk), the access lines still counted', async () => {
    const path = tmp([
      'INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 200 OK',
      'DEBUG:mcp.server.streamable_http:Created new transport with session ID: abc',
      'INFO:     127.0.0.1:50000 - "POST /mcp HTTP/1.1" 404 Not Found',
    ]);
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    const input = r.summary.inputs[0] as unknown as { formats: Record<string, number>; skipped: number; unusable: number };
    expect([input.formats['server-console'], input.skipped, input.unusable]).toEqual([2, 1, 0]);
    const state = new Map<string, unknown>([['server-console', true]]);
    expect(TEXT_FORMATS.find((f) => f.detectText('DEBUG:mcp.server.streamable_http:Created new transport with session ID: abc', state))?.name).toBe('python-sdk');
    expect(r.summary.notes.join('\n')).toContain('1 got 404');
  });
});
