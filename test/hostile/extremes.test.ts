// Size extremes: strings of megabytes in the fields a log's records carry, and the code paths that once went
// quadratic (or ran out of stack) on them. Each input is generated in memory (or in a temp dir) at test time; the
// assertions are about behaviour - no crash, the documented exit code, valid output, the content kept or cut with a
// mark, secrets redacted - never about wall time (the benchmark measures speed). A path that went quadratic again
// would take minutes here and fail on the test timeout.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/redact.js';
import { buildFilter, type Filter } from '../../src/filter.js';
import { Readable } from 'node:stream';
import { streamAnalysis } from '../../src/index.js';
import { renderTimelineTable, TimelineCollector } from '../../src/views/timeline.js';
import { renderSessionsTable, SessionsCollector } from '../../src/views/sessions.js';
import type { AttemptRow, Summary } from '../../src/report/summary.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/bin.cjs');
const T0 = Date.parse('2026-10-17T09:00:00.000Z');
const ts = (ms: number) => new Date(T0 + ms).toISOString();

/** Run the built CLI on stdin; stdout and stderr as text. */
function cli(args: string[], stdin: string | Buffer): { code: number | null; stdout: string; stderr: string } {
  if (!existsSync(BIN)) throw new Error('dist/bin.cjs is missing: npm run build');
  const r = spawnSync(process.execPath, [BIN, ...args, '-'], { input: stdin, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const message = (ms: number, direction: 'c2s' | 's2c', msg: unknown, session = 's1') => JSON.stringify({ v: 1, kind: 'message', ts: ts(ms), session, direction, message: msg });

describe('regular expressions that retried from every character of a long run', () => {
  it('redacts a text with "sk-" and a megabyte of dots (a trailing-period strip retried from every dot)', () => {
    const text = `progress sk-${'.'.repeat(1_000_000)}a. and the key sk-abcdefghijklmnopqrstuvwxyz0123.`;
    const out = redactText(text);
    expect(out).toContain('progress sk-....');
    expect(out).not.toContain('sk-abcdefghijklmnopqrstuvwxyz0123');
    expect(out).toMatch(/the key \[redacted:[0-9a-f]{8}\]$/);
  });

  it('a --tool glob on a tool name of megabytes', () => {
    const filter = buildFilter({ tool: ['*a*b*'] }) as Filter;
    expect(typeof filter).toBe('object');
    const row = (tool: string) => ({ tool, method: 'tools/call', sources: [] }) as unknown as AttemptRow;
    expect(filter.attempt(row('a'.repeat(3_000_000)))).toBe(false);
    expect(filter.attempt(row(`${'a'.repeat(3_000_000)}b`))).toBe(true);
    expect(filter.attempt(row(`xa${'b'.repeat(1000)}`))).toBe(true);
    const exact = buildFilter({ tool: ['a*a'] }) as Filter;
    expect(exact.attempt(row('a'))).toBe(false); // the two pieces may not overlap
    expect(exact.attempt(row('aa'))).toBe(true);
    const literal = buildFilter({ tool: ['search.*'] }) as Filter;
    expect(literal.attempt(row('search.tickets'))).toBe(true);
    expect(literal.attempt(row('searchXtickets'))).toBe(false); // "." is literal
  });

  it('a session re-initialized with an id of megabytes of digits and a letter, then its request re-sent after a 404', () => {
    const id = `${'1'.repeat(3_000_000)}x`;
    const init = { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const exchange = (i: number, sid: string | null, send: unknown, status: number, recvText: string, responseSid?: string) => JSON.stringify({
      v: 1, kind: 'exchange', method: 'POST', url: 'https://h.example/mcp', ts: ts(i * 10), side: 'client', client: 'c@1',
      requestHeaders: sid ? { 'mcp-session-id': sid } : {}, send, status,
      responseHeaders: { 'content-type': 'application/json', ...(responseSid ? { 'mcp-session-id': responseSid } : {}) }, recvText, durationMs: 5,
    });
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
    const log = [
      exchange(0, null, init, 200, JSON.stringify({ jsonrpc: '2.0', id, result: {} }), 'A'),
      exchange(1, 'A', call, 404, ''),
      exchange(2, null, init, 200, JSON.stringify({ jsonrpc: '2.0', id, result: {} }), 'B'),
      exchange(3, 'B', call, 200, JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })),
    ].join('\n');
    const r = cli(['--format', 'ndjson'], `${log}\n`);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; id?: unknown; session?: string; retryOrigin?: { origin: string } });
    const retry = lines.find((l) => l.type === 'attempt' && l.id === 1 && l.session === 'B');
    expect(retry?.retryOrigin?.origin).toBe('sdk');
  });
});

describe('values nested 100,000 levels deep where a report quotes or compares them', () => {
  const D = 100_000;
  const deepArray = `${'['.repeat(D)}${']'.repeat(D)}`;
  const deepObject = `${'{"a":'.repeat(D)}1${'}'.repeat(D)}`;
  const call = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 't' } });
  // One session per shape: each once ended the run with "internal error: Maximum call stack size exceeded".
  const log = [
    // a response id (quoted by the orphan-response finding)
    message(0, 'c2s', JSON.parse(call(1)), 'id'), `{"v":1,"kind":"message","ts":"${ts(1)}","session":"id","direction":"s2c","message":{"jsonrpc":"2.0","id":${deepArray},"result":{}}}`,
    // resultType, isError and jsonrpc (quoted by the why of INVALID_*)
    message(2, 'c2s', JSON.parse(call(1)), 'rt'), `{"v":1,"kind":"message","ts":"${ts(3)}","session":"rt","direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{"resultType":${deepObject}}}}`,
    message(4, 'c2s', JSON.parse(call(1)), 'ie'), `{"v":1,"kind":"message","ts":"${ts(5)}","session":"ie","direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{"isError":${deepObject},"content":[]}}}`,
    message(6, 'c2s', JSON.parse(call(1)), 'jr'), `{"v":1,"kind":"message","ts":"${ts(7)}","session":"jr","direction":"s2c","message":{"jsonrpc":${deepObject},"id":1,"result":{}}}`,
    // an outputSchema nested deep (its size was measured with JSON.stringify)
    message(8, 'c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list' }, 'os'), `{"v":1,"kind":"message","ts":"${ts(9)}","session":"os","direction":"s2c","message":{"jsonrpc":"2.0","id":0,"result":{"tools":[{"name":"t","outputSchema":${deepObject}}]}}}`,
    // structuredContent nested deep against a const (compared with JSON.stringify)
    message(10, 'c2s', { jsonrpc: '2.0', id: 0, method: 'tools/list' }, 'sc'), message(11, 's2c', { jsonrpc: '2.0', id: 0, result: { tools: [{ name: 't', outputSchema: { type: 'object', properties: { a: { const: { x: 1 } } } } }] } }, 'sc'),
    message(12, 'c2s', JSON.parse(call(1)), 'sc'), `{"v":1,"kind":"message","ts":"${ts(13)}","session":"sc","direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":${deepObject}}}}}`,
    // a tool result's content nested deep (its digest, for the crossed-answer check, was its JSON text)
    message(14, 'c2s', JSON.parse(call(1)), 'ct'), `{"v":1,"kind":"message","ts":"${ts(15)}","session":"ct","direction":"s2c","message":{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[${deepArray}]}}}`,
  ].join('\n');

  it('where a result\'s shape is checked and a request\'s copy signature is written, they end no run either', () => {
    const D2 = 100_000;
    const deep = `${'{"a":'.repeat(D2)}1${'}'.repeat(D2)}`;
    const req = (id: number, method: string, params: string) => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":${params}}`;
    const ex = (i: number, send: string, result: string) => `{"v":1,"kind":"exchange","ts":"${ts(i * 10)}","side":"client","method":"POST","url":"https://h.example/mcp","requestHeaders":{"mcp-session-id":"d${i}"},"send":${send},"status":200,"responseHeaders":{"content-type":"application/json"},"recv":{"jsonrpc":"2.0","id":${i},"result":${result}},"durationMs":5}`;
    const shapes = [
      ex(1, req(1, 'tools/call', `{"name":"t","_meta":${deep}}`), '{"content":[]}'), // the copy signature's _meta
      ex(2, req(2, 'tools/call', '{"name":"t"}'), `{"content":[{"type":${deep}}]}`),
      ex(3, req(3, 'prompts/get', '{"name":"p"}'), `{"messages":[{"role":${deep},"content":{"type":"text","text":"x"}}]}`),
      ex(4, req(4, 'tools/list', '{}'), `{"tools":[{"name":"t","inputSchema":{"type":${deep}}}]}`),
      ex(5, req(5, 'tools/list', '{}'), `{"tools":[{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":${deep}}}]}`),
      ex(6, req(6, 'tools/call', '{"name":"t"}'), `{"content":[{"type":"text","text":"x","annotations":{"priority":${deep}}}]}`),
    ];
    const r = cli(['--format', 'json'], `${shapes.join('\n')}\n`);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { attempts: { id: number; outcome: string; detail?: { why?: string } }[]; summary: { lines: { used: number } } };
    expect(doc.summary.lines.used).toBe(6);
    expect(doc.attempts.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'INVALID_TOOL_RESULT', 'INVALID_RESULT', 'INVALID_RESULT', 'INVALID_RESULT', 'INVALID_TOOL_RESULT']);
    expect(doc.attempts[1]!.detail?.why).toMatch(/^content\[0\]\.type \{"a":\{"a":/);
  });

  it('the analysis finishes and quotes them cut at 64 levels (json and table)', () => {
    const r = cli(['--format', 'json'], `${log}\n`);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { attempts: { session: string; method: string; outcome: string; detail?: { why?: string } }[]; findings: { code: string; message: string }[]; summary: { lines: { read: number; used: number } } };
    expect(doc.summary.lines).toMatchObject({ read: 16, used: 16 });
    const why = (session: string) => doc.attempts.find((a) => a.session === session && a.method === 'tools/call')?.detail?.why ?? '';
    expect(doc.findings.find((f) => f.code === 'ORPHAN_RESPONSE')?.message).toContain('[nested too deeply]');
    expect(why('rt')).toMatch(/^unknown resultType \{"a":.*\[nested too deeply\]/);
    expect(why('ie')).toMatch(/^isError is \{"a":.*\[nested too deeply\]/);
    expect(why('jr')).toMatch(/^jsonrpc is \{"a":.*\[nested too deeply\]/);
    expect(why('sc')).toContain('structuredContent/a must be the constant value');
    // an array where a content block must be an object: the SDK clients refuse the result (the tool's error is lost)
    expect(doc.attempts.find((a) => a.session === 'ct')).toMatchObject({ outcome: 'INVALID_TOOL_RESULT', detail: { why: expect.stringMatching(/^content\[0\] is an array, not an object: /) } });
    const table = cli(['--format', 'table'], `${log}\n`);
    expect(table.stderr).not.toMatch(/internal error/);
    expect(table.code).toBe(0);
  });
});

describe('a call retried tens of thousands of times (a client in a retry loop)', () => {
  it('links every attempt into one call, numbered, with its retry findings, without walking the chain per retry', async () => {
    const N = 20_000;
    function* lines(): Generator<string> {
      for (let i = 0; i < N; i++) {
        yield `${message(i * 10, 'c2s', { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 't', arguments: { q: 1 } } })}\n`;
        yield `${message(i * 10 + 1, 's2c', { jsonrpc: '2.0', id: i, error: { code: -32000, message: 'busy' } })}\n`;
      }
    }
    const calls = new Set<string>();
    let last: { attempt?: number; findings: { code: string; message: string }[] } | undefined;
    let count = 0;
    const summary = await streamAnalysis({ stdin: Readable.from(lines()) }, {
      attempt: (a) => { count++; calls.add(a.call!); last = a; },
    });
    expect(count).toBe(N);
    expect(calls.size).toBe(1);
    expect(last?.attempt).toBe(N);
    expect(last?.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['RETRY_ORIGIN_AMBIGUOUS', 'RETRY_POLICY']));
    // A message log (no HTTP layer): its retries are requests, not POSTs (audit27).
    expect(last?.findings.find((f) => f.code === 'RETRY_ORIGIN_AMBIGUOUS')?.message).toContain(`request ${N} of the call`);
    expect(summary.lines).toMatchObject({ read: 2 * N, used: 2 * N });
  }, 15_000);
});

describe('a session of 200,000 attempts in the timeline view', () => {
  it('has its first and last time (they were the minimum and maximum of all its times spread as arguments)', () => {
    const t = new TimelineCollector('s1');
    const N = 200_000;
    for (let i = 0; i < N; i++) {
      t.attempt({ session: 's1', id: i, method: 'tools/call', tool: 't', status: null, outcome: 'TOOL_SUCCESS', layer: 'application', findings: [], sources: [], ts: ts(i), durationMs: 5 } as unknown as AttemptRow);
    }
    const timeline = t.timeline()!;
    expect(timeline.rows).toHaveLength(N);
    expect(timeline.identity.first).toBe(ts(0));
    expect(timeline.identity.last).toBe(ts(N - 1 + 5));
  });

  // The table's column widths were Math.max(...) over its rows spread as arguments: `timeline` of a stdio log of
  // 130,000 calls ended in 'internal error: Maximum call stack size exceeded', and `sessions` of 150,000 sessions too.
  it('is drawn as a table, every row in it', () => {
    const t = new TimelineCollector('input');
    const N = 150_000;
    for (let i = 0; i < N; i++) {
      t.attempt({ session: null, scope: 'input#0', id: i, method: 'tools/call', tool: 'search_tickets', status: null, outcome: 'TOOL_SUCCESS', layer: 'application', findings: [], sources: [{ file: 'stdio.ndjson', line: 2 * i + 1 }], ts: ts(i * 10), durationMs: 5 } as unknown as AttemptRow);
    }
    const summary = { filters: {}, attempts: N, redaction: true } as unknown as Summary;
    const text = renderTimelineTable(t.timeline()!, summary, false, 160);
    expect(text.match(/ TOOL_SUCCESS /g)).toHaveLength(N);
  }, 120_000);
});

describe('150,000 sessions in the sessions view', () => {
  it('are drawn as a table, one row each', () => {
    const c = new SessionsCollector();
    const N = 150_000;
    for (let i = 0; i < N; i++) {
      c.attempt({ session: `7d0c${String(i).padStart(6, '0')}-2f4e-4b8a-9c1d-5e6f7a8b9c0d`, id: 1, method: 'tools/call', tool: 'search_tickets', status: 200, outcome: i % 7 ? 'TOOL_SUCCESS' : 'HTTP_ERROR', layer: 'application', findings: [], sources: [], ts: ts(i * 10), durationMs: 5 } as unknown as AttemptRow);
    }
    const summary = { filters: {}, attempts: N, redaction: true } as unknown as Summary;
    const text = renderSessionsTable(c.rows(), summary, false, 400);
    expect(text.match(/-2f4e-4b8a-9c1d-5e6f7a8b9c0d/g)).toHaveLength(N);
  }, 120_000);
});

describe('values nested some thousands of levels deep (JSON.stringify overflows there, JSON.parse does not)', () => {
  const D = 5_000;
  const deepObject = `${'{"a":'.repeat(D)}1${'}'.repeat(D)}`;
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
  const failed = { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'down' } };

  it('a gh-aw line whose direction is such a value is unusable, named, and the rest of the input is analyzed', () => {
    const log = [
      JSON.stringify({ timestamp: ts(0), server_id: 'a', direction: 'OUT', type: 'REQUEST', payload: call }),
      `{"timestamp":"${ts(1)}","server_id":"a","direction":${deepObject},"type":"REQUEST","payload":${JSON.stringify(call)}}`,
      JSON.stringify({ timestamp: ts(2), server_id: 'a', direction: 'IN', type: 'RESPONSE', payload: failed }),
    ].join('\n');
    const r = cli(['--format', 'json'], `${log}\n`);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/read failed|internal error/);
    expect(r.stderr).toMatch(/<stdin>:2: gh-aw REQUEST with direction \{"a":/);
    const doc = JSON.parse(r.stdout) as { attempts: { outcome: string }[]; summary: { lines: { read: number; used: number; unusable: number } } };
    expect(doc.summary.lines).toMatchObject({ read: 3, used: 2, unusable: 1 });
    expect(doc.attempts.map((a) => a.outcome)).toEqual(['JSONRPC_ERROR']);
  });

  it('an item of a JSON array document (an Inspector export) is unusable, too-deep, and the other items are read', () => {
    const doc = `[\n${JSON.stringify({ timestamp: ts(0), direction: 'request', origin: 'client', message: call })},\n{"x":${deepObject}},\n${JSON.stringify({ timestamp: ts(1), direction: 'response', origin: 'server', message: failed })}\n]\n`;
    const r = cli(['--format', 'json'], doc);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/read failed|internal error/);
    expect(r.stderr).toMatch(/<stdin>:3: array item 2 is nested too deeply to read/);
    const out = JSON.parse(r.stdout) as { attempts: { outcome: string }[]; summary: { lines: { read: number; used: number; unusable: number }; inputs: { reasons: Record<string, number> }[] } };
    expect(out.summary.lines).toMatchObject({ read: 3, used: 2, unusable: 1 });
    expect(out.summary.inputs[0]!.reasons).toEqual({ 'too-deep': 1 });
    expect(out.attempts.map((a) => a.outcome)).toEqual(['JSONRPC_ERROR']);
  });
});

describe('gzip with megabytes where a few bytes are expected', () => {
  const line = `${message(0, 'c2s', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } })}\n`;
  const gz = gzipSync(line);

  it('tens of megabytes of plain text after the gzip data (a log appended to it) are counted as they stream past', () => {
    const garbage = Buffer.alloc(48_000_000, 0x61);
    const r = cli(['--format', 'json'], Buffer.concat([gz, garbage]));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`gzip data is damaged: ${garbage.length} bytes after the end of the compressed data are not gzip`);
    const doc = JSON.parse(r.stdout) as { attempts: unknown[]; summary: { lines: { read: number; used: number } } };
    expect(doc.summary.lines).toMatchObject({ read: 1, used: 1 });
    expect(doc.attempts).toHaveLength(1);
  }, 15_000);

  it('a member header whose file name runs over 1 MiB is damaged gzip, said so, and not read piece by piece', () => {
    const header = Buffer.from(gz.subarray(0, 10));
    header[3] = 0x08; // FNAME
    const r = cli(['--format', 'json'], Buffer.concat([header, Buffer.alloc(2_000_000, 0x61), Buffer.from([0]), gz.subarray(10)]));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/gzip data is damaged: a member header runs over 1048576 bytes/);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
