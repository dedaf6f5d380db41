// End-to-end: every format sample through the built CLI (`--format ndjson`), and the same traffic read from different formats.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SAMPLES } from './helpers.js';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));

interface Attempt { type: 'attempt'; id: string | number; method: string; tool: string | null; status: number | null; outcome: string; side?: string; session: string | null }

function run(args: string[], input?: Buffer): { attempts: Attempt[]; lines: Record<string, unknown>[]; stderr: string; code: number | null } {
  const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { input, encoding: 'buffer', timeout: 30_000, env: { ...process.env, NO_COLOR: '1' } });
  const lines = r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { attempts: lines.filter((l) => l.type === 'attempt') as unknown as Attempt[], lines, stderr: r.stderr.toString('utf8'), code: r.status };
}

/** "id method tool outcome" per attempt, ids as text so string-id formats (OTLP, Kong without payloads) compare. */
const calls = (attempts: Attempt[]) => attempts.map((a) => `${String(a.id)} ${a.method} ${a.tool ?? '-'} ${a.outcome}`).sort();

/** The conversation every sample records (see samples/formats): initialize, a search, a bad search, a failing find. */
const SHARED = ['1 initialize - SUCCESS', '2 tools/call search TOOL_SUCCESS', '3 tools/call search JSONRPC_ERROR', '4 tools/call find TOOL_ERROR'];

describe('each format sample analyzed on its own', () => {
  it.each([
    ['har-entries.ndjson', 'har'],
    ['capture.har', 'har'],
    ['mcpsnoop.jsonl', 'mcpsnoop'],
    ['mcpspy.jsonl', 'mcpspy'],
    ['otlp-traces.jsonl', 'otlp'],
    ['kong-file-log.jsonl', 'kong'],
    ['claude-desktop-mcp-server-notes.log', 'claude-desktop'],
    ['vscode-mcp-notes.log', 'vscode'],
    ['go-sdk-logging-transport.log', 'go-sdk'],
    ['inspector-history.json', 'inspector'],
    ['inspector-network.json', 'inspector-network'],
    ['cloud-logging.jsonl', 'canonical'],
    ['loki-claude-desktop.jsonl', 'claude-desktop'],
    ['app-log-pino.jsonl', 'app-log'],
    ['python-sdk-debug.log', 'python-sdk'],
    ['dotnet-console.log', 'dotnet-console'],
  ])('%s (%s)', (file, format) => {
    const r = run([SAMPLES + file]);
    expect(r.code).toBe(0);
    for (const call of SHARED) expect(calls(r.attempts)).toContain(call);
    const summary = r.lines.find((l) => l.type === 'summary') as { inputs?: { formats: Record<string, number> }[] } | undefined;
    expect(Object.keys(summary?.inputs?.[0]?.formats ?? {})).toEqual([format]);
  });

  it('HAR: the dropped connection is NO_RESPONSE, sessions come from the mcp-session-id header', () => {
    const r = run([SAMPLES + 'har-entries.ndjson']);
    expect(calls(r.attempts)).toEqual([...SHARED, '5 tools/call search NO_RESPONSE'].sort());
    expect(new Set(r.attempts.map((a) => a.session))).toEqual(new Set(['s-42']));
    expect(r.attempts.find((a) => a.id === 5)?.status).toBeNull();
  });

  it('message-level sources show no HTTP status (MCPSpy, Claude Desktop, VS Code), sniffed HTTP status where recorded (mcpsnoop)', () => {
    expect(run([SAMPLES + 'mcpspy.jsonl']).attempts.every((a) => a.status === null)).toBe(true);
    expect(run([SAMPLES + 'claude-desktop-mcp-server-notes.log']).attempts.every((a) => a.status === null)).toBe(true);
    const vscode = run([SAMPLES + 'vscode-mcp-notes.log']);
    expect(vscode.attempts.every((a) => a.status === null && a.side === 'client')).toBe(true);
    expect(calls(vscode.attempts)).toEqual(SHARED); // the server's roots/list request to the editor is not an attempt
    expect(run([SAMPLES + 'mcpsnoop.jsonl']).attempts.every((a) => a.status === 200)).toBe(true);
  });

  it("Go SDK LoggingTransport: the client's log, its failed write named with its line, times local unless --timezone", () => {
    const r = run([SAMPLES + 'go-sdk-logging-transport.log']);
    expect(calls(r.attempts)).toEqual(SHARED); // the server's roots/list request (id 1 too) is not an attempt, nor a reuse of id 1
    expect(r.attempts.every((a) => a.status === null)).toBe(true);
    expect(r.lines.filter((l) => l.type === 'finding')).toEqual([]);
    expect(r.stderr).toContain('go-sdk-logging-transport.log:13: Go SDK LoggingTransport: a message failed to go out and is not in the log: sending "tools/call": transient error: 503 Service Unavailable');
    const ts = (args: string[]) => (run([...args, SAMPLES + 'go-sdk-logging-transport.log']).attempts[1] as unknown as { ts?: string }).ts;
    expect(ts([])).toBe('2026-03-01T11:00:01.200Z');
    expect(ts(['--timezone', '+01:00'])).toBe('2026-03-01T10:00:01.200Z');
  });

  it('gh-aw gateway log: requests logged without ids are joined to their responses per server, in order', () => {
    const r = run([SAMPLES + 'gh-aw-rpc-messages.jsonl']);
    expect(r.code).toBe(0);
    expect(calls(r.attempts)).toEqual([
      'no-id-1 tools/list - SUCCESS', 'no-id-2 tools/list - SUCCESS', 'no-id-3 tools/call search_issues TOOL_ERROR',
      '7 tools/call find JSONRPC_ERROR', 'no-id-4 tools/call get_me UNANSWERED',
    ].sort());
    expect(r.attempts.every((a) => a.status === null && a.session === null)).toBe(true);
    // The DIFC_FILTERED entry (line 9) is well-formed and carries no message: skipped, without a diagnostic.
    expect(r.stderr).not.toContain('gh-aw-rpc-messages.jsonl:9');
    expect((r.lines.find((l) => l.type === 'summary') as { inputs: { skipped: number; unusable: number }[] }).inputs[0]).toMatchObject({ skipped: 1, unusable: 0 });
  });

  it('a server\'s own JSON-RPC log with in/out directions: requests are what it received', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-inout-'));
    const file = join(dir, 'server.jsonl');
    writeFileSync(file, [
      { ts: '2026-03-04T09:12:07.530Z', direction: 'in', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { q: 'x' } } } },
      { ts: '2026-03-04T09:12:07.900Z', direction: 'out', message: { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'rate limited' }], isError: true } } },
      { ts: '2026-03-04T09:12:08.100Z', direction: 'in', message: { jsonrpc: '2.0', id: 3, method: 'tools/list' } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    for (const args of [['--server', file], [file]]) {
      const r = run(args);
      expect(calls(r.attempts), args.join(' ')).toEqual(['2 tools/call search TOOL_ERROR', '3 tools/list - UNANSWERED']);
    }
  });

  it('OTLP keeps the stringified ids of its spans and the server side', () => {
    const r = run([SAMPLES + 'otlp-traces.jsonl']);
    expect(r.attempts.map((a) => a.id).sort()).toEqual(['1', '2', '3', '4']);
    expect(r.attempts.every((a) => a.side === 'server')).toBe(true);
  });

  it('a whole HAR piped gzipped on stdin (zcat-free) gives the same attempts as the file', () => {
    const fromFile = run([SAMPLES + 'capture.har']);
    const fromStdin = run(['-'], gzipSync(readFileSync(SAMPLES + 'capture.har')));
    expect(calls(fromStdin.attempts)).toEqual(calls(fromFile.attempts));
  });

  it('a HAR document cut short keeps the complete entries and says where it broke', () => {
    const text = readFileSync(SAMPLES + 'capture.har', 'utf8');
    const cut = text.slice(0, text.indexOf('"startedDateTime": "2026-03-01T10:00:04.100Z"') + 20);
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-har-'));
    writeFileSync(join(dir, 'cut.har'), cut);
    const r = run([join(dir, 'cut.har')]);
    expect(calls(r.attempts)).toEqual(SHARED.slice(0, 3));
    expect(r.stderr).toMatch(/cut\.har:\d+: HAR document ends early/);
  });

  it('--timezone places times written without a zone (an IANA name and an offset agree)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-tz-'));
    const lines = [
      { ts: '2026-03-01 11:00:00.120', direction: 'c2s', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search' } } },
      { ts: '2026-03-01 11:00:00.300', direction: 's2c', message: { jsonrpc: '2.0', id: 1, result: { content: [] } } },
    ];
    writeFileSync(join(dir, 'local.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const ts = (args: string[]) => (run([...args, join(dir, 'local.jsonl')]).attempts[0] as unknown as { ts?: string }).ts;
    expect(ts([])).toBe('2026-03-01T11:00:00.120Z');
    expect(ts(['--timezone', 'Europe/Paris'])).toBe('2026-03-01T10:00:00.120Z');
    expect(ts(['--timezone', '+01:00'])).toBe('2026-03-01T10:00:00.120Z');
  });

  it('--unwrap reads records from an unknown envelope', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-unwrap-'));
    const lines = readFileSync(SAMPLES + 'mcpsnoop.jsonl', 'utf8').split('\n').filter(Boolean)
      .map((l) => JSON.stringify({ shipper: 'vector', event: { original: l } }));
    writeFileSync(join(dir, 'vector.jsonl'), lines.join('\n') + '\n');
    const r = run(['--unwrap', 'event.original', join(dir, 'vector.jsonl')]);
    expect(calls(r.attempts)).toEqual(SHARED);
  });
});

describe('log-platform pages and CloudWatch lines', () => {
  it.each([
    ['datadog-logs-page.json'],
    ['elasticsearch-hits.json'],
    ['cloudwatch-tail.log'],
  ])('%s', (file) => {
    const r = run([SAMPLES + file]);
    expect(calls(r.attempts)).toEqual(SHARED);
  });
});

describe('the same traffic in different formats gives the same outcomes where both can show them', () => {
  it('HAR entries (HTTP) and mcpsnoop (proxy frames): same calls, same outcomes, same HTTP status', () => {
    const har = run([SAMPLES + 'har-entries.ndjson']).attempts.filter((a) => a.id !== 5); // mcpsnoop never saw call 5
    const snoop = run([SAMPLES + 'mcpsnoop.jsonl']).attempts;
    expect(calls(snoop)).toEqual(calls(har));
    const status = (as: Attempt[]) => Object.fromEntries(as.map((a) => [String(a.id), a.status]));
    expect(status(snoop)).toEqual(status(har));
  });

  it('every format sample tells the same story for the four shared calls', () => {
    const base = calls(run([SAMPLES + 'har-entries.ndjson']).attempts).filter((c) => !c.startsWith('5 '));
    for (const file of ['capture.har', 'mcpsnoop.jsonl', 'mcpspy.jsonl', 'otlp-traces.jsonl', 'kong-file-log.jsonl', 'claude-desktop-mcp-server-notes.log', 'vscode-mcp-notes.log', 'go-sdk-logging-transport.log', 'cloud-logging.jsonl', 'loki-claude-desktop.jsonl', 'python-sdk-debug.log', 'dotnet-console.log']) {
      expect(calls(run([SAMPLES + file]).attempts).filter((c) => !c.startsWith('5 ')), file).toEqual(base);
    }
  }, 180_000);
});

describe('a whole HAR document on one line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-har-line-'));
  const file = join(dir, 'page.har');
  const asset = { startedDateTime: '2026-03-01T10:00:00.000Z', request: { method: 'GET', url: 'https://app.example.com/app.js?access_token=abcdefghijklmnopqrstuvwxyz123456', headers: [] }, response: { status: 200, headers: [], content: { size: 8, mimeType: 'text/javascript', text: 'var a=1;' } } };
  const entries = readFileSync(SAMPLES + 'har-entries.ndjson', 'utf8').split('\n').filter((l) => l.startsWith('{"')).map((l) => JSON.parse(l) as unknown);
  writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [asset, ...entries] } }));

  it('counts the page asset as skipped, with no diagnostic, and reads the MCP entries as their NDJSON lines', () => {
    const r = run([file]);
    const asLines = run([SAMPLES + 'har-entries.ndjson']);
    expect(r.stderr).toBe('');
    const account = (x: typeof r) => (x.lines.find((l) => l.type === 'summary') as { inputs: { lines: number; skipped: number; unusable: number }[] }).inputs[0]!;
    expect(account(asLines).skipped).toBe(1); // the sample's own favicon entry
    expect(account(r)).toMatchObject({ lines: entries.length + 1, skipped: 2, unusable: 0 });
    expect(calls(r.attempts)).toEqual(calls(asLines.attempts));
  });

  it('redacts what a diagnostic quotes in the summary too, unless --no-redact', () => {
    // An unknown record's diagnostic quotes its keys; a key can be a secret.
    const keys = join(dir, 'keys.ndjson');
    writeFileSync(keys, '{"?access_token=abcdefghijklmnopqrstuvwxyz123456":1}\n');
    const first = (args: string[]) => (run(args).lines.find((l) => l.type === 'summary') as { diagnostics: { first: { message: string }[] } }).diagnostics.first[0]!.message;
    expect(first([keys])).not.toContain('abcdefghijklmnopqrstuvwxyz123456');
    expect(first(['--no-redact', keys])).toContain('access_token=abcdefghijklmnopqrstuvwxyz123456');
  });
});
