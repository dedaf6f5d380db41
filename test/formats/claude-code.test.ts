// Unit tests for src/formats/claude-code.ts: Claude Code's mcp-logs-<server>/*.jsonl lines, detected and read as claims.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCodeDebugFormat, claudeCodeFormat, readFailure, serverFromPath } from '../../src/formats/claude-code.js';
import { detectJsonFormat, detectTextFormat } from '../../src/formats/index.js';
import type { AdapterContext } from '../../src/formats/adapter.js';
import type { ClaimRecord } from '../../src/schema/record.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { errorOf, records, SAMPLES } from './helpers.js';
import { triageCli } from '../helpers/triage-cli.js';

const REAL = fileURLToPath(new URL('../fixtures/', import.meta.url));
const T0 = Date.parse('2026-12-03T06:44:30.700Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const line = (debug: string, ms = 0) => ({ debug, timestamp: at(ms), sessionId: '3e5651c0-0ab2-4c09-b6c0-81297397540f', cwd: '/home/user/project' });
const errLine = (error: string, ms = 0) => ({ error, timestamp: at(ms), sessionId: '3e5651c0-0ab2-4c09-b6c0-81297397540f', cwd: '/home/user/project' });

/** A fresh context per log file: the adapter keeps its open calls in ctx.state. */
function reader(file = '/home/user/.cache/claude-cli-nodejs/-home-user-project/mcp-logs-web/2026-12-03T06-44-30-000Z.jsonl') {
  const state = new Map<string, unknown>();
  let n = 0;
  return (value: Record<string, unknown>) => {
    const ctx: AdapterContext = { file, line: ++n, state };
    return records(claudeCodeFormat.toRecords(value, ctx)) as ClaimRecord[];
  };
}

beforeAll(async () => {
  await loadSchemas();
});

describe('claude-code detection', () => {
  it('takes every line of the real logs, and only as claude-code', () => {
    let n = 0;
    for (const scenario of readdirSync(`${REAL}real-claude-code`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name)) {
      for (const f of readdirSync(`${REAL}real-claude-code/${scenario}`).filter((x) => x.startsWith('mcp-logs-'))) {
        for (const l of readFileSync(`${REAL}real-claude-code/${scenario}/${f}`, 'utf8').split('\n').filter(Boolean)) {
          expect(detectJsonFormat(JSON.parse(l) as Record<string, unknown>)?.name, `${scenario}/${f}: ${l.slice(0, 80)}`).toBe('claude-code');
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(300);
  });

  it('does not take the lines of any other format (the format samples and the real recordings of the other folders)', () => {
    const files: string[] = readdirSync(SAMPLES).filter((f) => (f.endsWith('.jsonl') || f.endsWith('.ndjson')) && !f.startsWith('claude-code')).map((f) => SAMPLES + f);
    for (const dir of ['real', 'real-bridges/remote-basic', 'real-python/py-client-auto', 'real-claude-code/success']) {
      try {
        for (const f of readdirSync(REAL + dir)) if (/\.(ndjson|jsonl)$/.test(f) && !f.startsWith('mcp-logs-')) files.push(`${REAL}${dir}/${f}`);
      } catch {
        // a folder laid out otherwise: the samples still cover every format
      }
    }
    let n = 0;
    for (const f of files) {
      for (const l of readFileSync(f, 'utf8').split('\n')) {
        if (!l.startsWith('{')) continue;
        let v: unknown;
        try {
          v = JSON.parse(l);
        } catch {
          continue;
        }
        if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
        expect(detectJsonFormat(v as Record<string, unknown>)?.name, `${f}: ${l.slice(0, 80)}`).not.toBe('claude-code');
        n++;
      }
    }
    expect(n).toBeGreaterThan(1000);
  });

  it('wants the four keys with one of debug / error, and no JSON-RPC message beside them', () => {
    expect(claudeCodeFormat.detect(line('x'))).toBe(true);
    expect(claudeCodeFormat.detect(errLine('x'))).toBe(true);
    expect(claudeCodeFormat.detect({ ...line('x'), error: 'y' })).toBe(false);
    expect(claudeCodeFormat.detect({ debug: 'x', timestamp: at(0), sessionId: 's' })).toBe(false);
    expect(claudeCodeFormat.detect({ ...line('x'), sessionId: 7 })).toBe(false);
    expect(claudeCodeFormat.detect({ ...line('x'), message: { jsonrpc: '2.0', id: 1, method: 'ping' } })).toBe(false);
    expect(claudeCodeFormat.detect({ ...line('x'), jsonrpc: '2.0' })).toBe(false);
  });

  it('says why a line it was forced on is not its own', () => {
    expect(errorOf(claudeCodeFormat.toRecords({ debug: 'x' }, { file: 'f', line: 1 }))).toMatch(/not a Claude Code MCP log line/);
  });
});

describe('claude-code lines to claims', () => {
  it('a completed call: TOOL_SUCCESS, its tool, the server from the folder, the duration from its "Calling" line', () => {
    const read = reader();
    expect(read(line('Calling MCP tool: lookup_order', 0))).toEqual([]);
    const [c] = read(line("Tool 'lookup_order' completed successfully in 73ms", 73));
    expect(c).toEqual({ v: 1, kind: 'claim', ts: at(73), side: 'client', conn: 'web', claim: { client: 'claude-code', method: 'tools/call', tool: 'lookup_order', outcome: 'TOOL_SUCCESS', durationMs: 73 } });
  });

  it('pairs an end with the "Calling" line its logged duration points at: a call aborted without an end does not lend its start', () => {
    const read = reader();
    read(line('Calling MCP tool: lookup_order', 0)); // aborted by the user: Claude Code logs no end for it
    read(line('Calling MCP tool: lookup_order', 60_000));
    expect(read(line("Tool 'lookup_order' completed successfully in 40ms", 60_040))[0]!.claim.durationMs).toBe(40);
    // two calls of one tool at once, the later one ending first
    read(line('Calling MCP tool: slow_report', 100_000));
    read(line('Calling MCP tool: slow_report', 100_500));
    expect(read(line("Tool 'slow_report' completed successfully in 200ms", 100_700))[0]!.claim.durationMs).toBe(200);
    expect(read(line("Tool 'slow_report' failed after 2s: boom", 102_900))[0]!.claim.durationMs).toBe(2900);
    // no open call fits: the duration Claude Code logged
    expect(read(line("Tool 'lookup_order' completed successfully in 7ms", 200_000))[0]!.claim.durationMs).toBe(7);
  });

  it('reads the duration Claude Code logs when the "Calling" line is not in the file (s, and m s)', () => {
    const read = reader();
    expect(read(line("Tool 'slow_report' completed successfully in 31s"))[0]!.claim.durationMs).toBe(31_000);
    expect(read(line("Tool 'slow_report' completed successfully in 2m 5s"))[0]!.claim.durationMs).toBe(125_000);
  });

  it('an isError result: the `error` line with the same text just before the failure makes it TOOL_ERROR', () => {
    const read = reader();
    read(line('Calling MCP tool: validate_quantity', 0));
    expect(read(errLine('quantity must be positive, got -3', 9))).toEqual([]);
    const [c] = read(line("Tool 'validate_quantity' failed after 0s: quantity must be positive, got -3", 9));
    expect(c!.claim).toMatchObject({ tool: 'validate_quantity', outcome: 'TOOL_ERROR', message: 'quantity must be positive, got -3', durationMs: 9 });
  });

  it('the same failure text without its `error` line is not read as isError', () => {
    const read = reader();
    const [c] = read(line("Tool 'validate_quantity' failed after 0s: quantity must be positive, got -3", 9));
    expect(c!.claim.outcome).toBeUndefined();
  });

  it('a JSON-RPC error the server sent: JSONRPC_ERROR with its code; -32000 and -32001 (raised in the SDK client) give the code and no outcome', () => {
    const read = reader();
    const [rpc] = read(line(`Tool 'strict_lookup' failed after 0s: MCP error -32602: MCP error -32602: Invalid params: orderId must look like A-123, got "nope"`));
    expect(rpc!.claim).toMatchObject({ outcome: 'JSONRPC_ERROR', jsonrpc: { errorCode: -32602 } });
    const [closed] = read(line("Tool 'exit_now' failed after 0s: MCP error -32000: Connection closed"));
    expect(closed!.claim.outcome).toBeUndefined();
    expect(closed!.claim.jsonrpc).toEqual({ errorCode: -32000 });
  });

  it('reads failures for what they say, and no more', () => {
    expect(readFailure('Streamable HTTP error: Error POSTing to endpoint: upstream unavailable', undefined)).toEqual({ outcome: 'HTTP_ERROR' });
    expect(readFailure('Streamable HTTP error: Error POSTing to endpoint (HTTP 503): upstream unavailable', undefined)).toEqual({ outcome: 'HTTP_ERROR', status: 503 });
    expect(readFailure('Unable to connect. Is the computer able to access the url?', undefined)).toEqual({ outcome: 'NO_RESPONSE' });
    expect(readFailure('fetch failed', undefined)).toEqual({ outcome: 'NO_RESPONSE' });
    expect(readFailure('MCP server "web" tool "slow_report" timed out after 3s', undefined)).toEqual({});
    expect(readFailure('MCP error -32001: Request timed out', undefined)).toEqual({ jsonrpc: { errorCode: -32001 } });
  });

  it('Claude Code re-running a tool after session recovery marks the next claim of that tool as its own (app) retry', () => {
    const read = reader();
    read(line('Calling MCP tool: lookup_order', 0));
    expect(read(line("Tool 'lookup_order' failed after 0s: MCP error -32000: Connection closed", 17))[0]!.claim.retryOrigin).toBeUndefined();
    expect(read(line("Retrying tool 'lookup_order' after session recovery", 18))).toEqual([]);
    read(line('Calling MCP tool: lookup_order', 43));
    const [c] = read(line("Tool 'lookup_order' completed successfully in 60ms", 103));
    expect(c!.claim).toMatchObject({ outcome: 'TOOL_SUCCESS', retryOrigin: 'app', durationMs: 60 });
  });

  it('connection, auth and progress lines carry no call: [] (the reader counts each as a line with no MCP message)', () => {
    const read = reader();
    for (const t of ['Successfully connected (transport: http) in 73ms', 'HTTP connection dropped after 0s uptime', 'Connection error: SSE stream disconnected: AbortError: The operation was aborted.',
      'No token data found', "Tool 'slow_report' still running (30s elapsed)", 'STDIO connection dropped after 139s uptime', 'something a later version logs']) {
      expect(read(line(t))).toEqual([]);
    }
    expect(read(errLine('Connection failed: Unable to connect. Is the computer able to access the url?'))).toEqual([]);
  });

  it('holds a bounded state whatever the input: endless tool and server names do not grow it without end', () => {
    const state = new Map<string, unknown>();
    const debugState = new Map<string, unknown>();
    for (let i = 0; i < 3000; i++) {
      claudeCodeFormat.toRecords(line(`Calling MCP tool: tool_${i}`, i), { file: 'x/mcp-logs-web/1.jsonl', line: i + 1, state });
      claudeCodeFormat.toRecords(line(`Retrying tool 'tool_${i}' after session recovery`, i), { file: 'x/mcp-logs-web/1.jsonl', line: i + 1, state });
      claudeCodeDebugFormat.textToRecords(`${at(i)} [DEBUG] MCP server "s${i}": Calling MCP tool: t`, { file: 'debug.txt', line: i + 1, state: debugState });
    }
    type Held = Map<string, { calls: Map<string, number[]>; retrying: Set<string> }>;
    expect((debugState.get('claude-code') as Held).size).toBe(256);
    const web = (state.get('claude-code') as Held).get('web')!;
    expect(web.calls.size).toBe(1024);
    expect(web.retrying.size).toBe(1024);
  });

  it('takes the server name from the folder or from a copied file, else leaves it out', () => {
    expect(serverFromPath('/home/u/.cache/claude-cli-nodejs/-home-u-p/mcp-logs-web/2026-12-03T06-44-30-473Z.jsonl')).toBe('web');
    expect(serverFromPath('C:\\Users\\u\\AppData\\Local\\claude-cli-nodejs\\Cache\\p\\mcp-logs-my-server\\2026.jsonl')).toBe('my-server');
    expect(serverFromPath('fixtures/mcp-logs-local.jsonl')).toBe('local');
    expect(serverFromPath('claude.jsonl')).toBeUndefined();
    const [c] = reader('<stdin>')(line("Tool 'x' completed successfully in 1ms"));
    expect(c!.conn).toBeUndefined();
  });
});

describe('claude-code lines: what Claude Code says around a call', () => {
  it('a call the lost session failed is HTTP_ERROR, with 404 when the connection error before it can only have been one', () => {
    const read = reader();
    read(line('Calling MCP tool: lookup_order', 0));
    read(line('Connection error: Streamable HTTP error: Error POSTing to endpoint: {"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}', 15));
    read(line('MCP session expired (server no longer recognizes session ID), triggering reconnection', 15));
    const [c] = read(line("Tool 'lookup_order' failed after 0s: MCP error -32000: Connection closed", 17));
    expect(c!.claim).toMatchObject({ outcome: 'HTTP_ERROR', status: 404, jsonrpc: { errorCode: -32000 } });
    expect(c!.claim.message).toMatch(/^MCP error -32000: Connection closed \(after "MCP session expired": the POST got 404\)$/);
    // Claude Code takes a 400 that names the session for an expiry too: then the status is not told
    read(line('Connection error: Streamable HTTP error: Error POSTing to endpoint: {"error":"Bad Request: No valid session ID provided"}', 5000));
    read(line('MCP session expired (server no longer recognizes session ID), triggering reconnection', 5000));
    const [d] = read(line("Tool 'lookup_order' failed after 0s: MCP error -32000: Connection closed", 5002));
    expect(d!.claim.outcome).toBe('HTTP_ERROR');
    expect(d!.claim.status).toBeUndefined();
    // a -32000 long after it is not the session's doing
    const [e] = read(line("Tool 'lookup_order' failed after 0s: MCP error -32000: Connection closed", 60_000));
    expect(e!.claim.outcome).toBeUndefined();
  });

  it('names the transport of the server\'s connection on its claims (a stdio call is never joined to HTTP traffic)', () => {
    const read = reader('x/mcp-logs-local/1.jsonl');
    read(line('Successfully connected (transport: stdio) in 518ms', 0));
    expect(read(line("Tool 'lookup_order' completed successfully in 27ms", 30))[0]!.claim.transport).toBe('stdio');
  });
});

describe('claude-code-debug: the MCP lines of Claude Code\'s debug file', () => {
  const T = '2026-12-03T06:58:08.454Z';
  const ctx = () => ({ file: 'claude-debug.txt', line: 1, state: new Map<string, unknown>() });

  it('detects the debug file\'s lines (capital levels) and leaves Claude Desktop\'s and VS Code\'s alone', () => {
    expect(detectTextFormat(`${T} [DEBUG] MCP server "web": Calling MCP tool: lookup_order`)?.name).toBe('claude-code-debug');
    expect(detectTextFormat(`${T} [ERROR] MCP server "web" quantity must be positive, got -1`)?.name).toBe('claude-code-debug');
    expect(detectTextFormat(`${T} [DEBUG] [STARTUP] Loading MCP configs...`)?.name).toBe('claude-code-debug');
    expect(detectTextFormat(`${T} [notes] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}`)?.name).toBe('claude-desktop');
    expect(detectTextFormat(`${T} [INFO] [notes] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}`)?.name).toBe('claude-desktop');
    expect(detectTextFormat('2026-12-03 06:58:08.454 [info] [editor -> server] {"jsonrpc":"2.0","id":1,"method":"ping"}')?.name).toBe('vscode');
    for (const f of ['claude-desktop-mcp-server-notes.log', 'vscode-mcp-notes.log', 'cloudwatch-tail.log']) {
      for (const l of readFileSync(SAMPLES + f, 'utf8').split('\n').filter(Boolean)) expect(claudeCodeDebugFormat.detectText(l), `${f}: ${l.slice(0, 60)}`).toBe(false);
    }
  });

  it('reads a call from the lines of its server, the server named on each line', () => {
    const c = ctx();
    const read = (l: string) => records(claudeCodeDebugFormat.textToRecords(l, c)) as ClaimRecord[];
    expect(read(`2026-12-03T06:58:08.426Z [DEBUG] MCP server "web": Calling MCP tool: validate_quantity`)).toEqual([]);
    expect(read(`2026-12-03T06:58:08.430Z [DEBUG] MCP server "local": Calling MCP tool: validate_quantity`)).toEqual([]);
    expect(read(`${T} [ERROR] MCP server "web" quantity must be positive, got -1`)).toEqual([]);
    const [w] = read(`2026-12-03T06:58:08.456Z [DEBUG] MCP server "web": Tool 'validate_quantity' failed after 0s: quantity must be positive, got -1`);
    expect(w).toMatchObject({ conn: 'web', ts: '2026-12-03T06:58:08.456Z', claim: { tool: 'validate_quantity', outcome: 'TOOL_ERROR', durationMs: 30 } });
    // the other server's call kept its own start, and the web server's error line is not its own
    const [l] = read(`2026-12-03T06:58:08.460Z [DEBUG] MCP server "local": Tool 'validate_quantity' failed after 0s: quantity must be positive, got -1`);
    expect(l).toMatchObject({ conn: 'local', claim: { durationMs: 30 } });
    expect(l!.claim.outcome).toBeUndefined();
    expect(read(`${T} [INFO] [Stall] tool_dispatch_end tool=mcp__web__lookup_order toolUseId=toolu_1 outcome=ok durationMs=97`)).toEqual([]);
    expect(errorOf(claudeCodeDebugFormat.textToRecords('not a debug line', c))).toMatch(/not a Claude Code debug-file line/);
  });
});

describe('the format samples (samples/formats), through the built CLI', () => {
  type A = { tool: string; outcome: string; status: number | null; detail?: { errorCode?: number } };
  const said = (file: string) => triageCli<A>([SAMPLES + file]).attempts.map((a) => `${a.tool} ${a.outcome}${a.detail?.errorCode !== undefined ? ` ${a.detail.errorCode}` : ''}`);

  it('an mcp-logs file and the debug file of the same calls say the same: a search, a bad search, a failing find, a refused connection', () => {
    const want = ['search TOOL_SUCCESS', 'search JSONRPC_ERROR -32602', 'find TOOL_ERROR', 'search NO_RESPONSE'];
    expect(said('claude-code-mcp-logs-notes.jsonl')).toEqual(want);
    expect(said('claude-code-debug.txt')).toEqual(want);
    const r = triageCli([SAMPLES + 'claude-code-debug.txt']);
    expect(Object.keys((r.summary.inputs as { formats: Record<string, number> }[])[0]!.formats)).toEqual(['claude-code-debug']);
  });
});
