// The 31st audit's hostile inputs, end to end through the built CLI: damaged gzip data, tables of 150,000 rows, HAR
// documents with wrong types, JSON-RPC ids of every type, UTF-16 files. Each must be reported, never lost or a crash.
import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BIN, expectNoCrash, scratchCli, summaryOf } from '../helpers/scratch-cli.js';

const scratch = scratchCli('mcp-triage-edges-');
const { cli, write } = scratch;

/** A tools/call exchange as the recorders write it: one line, request and answer. */
function exchange(i: number, session: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    v: 1, kind: 'exchange', method: 'POST', url: 'https://tickets.internal.example/mcp', ts: new Date(Date.UTC(2026, 9, 17, 9, 12) + i * 250).toISOString(),
    requestHeaders: { 'content-type': 'application/json', 'mcp-session-id': session },
    send: { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: `status:open #${i}` } } },
    status: 200, responseHeaders: { 'content-type': 'application/json' }, durationMs: 40,
    recvText: JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `${i} tickets` }] } }),
    ...extra,
  });
}

describe('gzip whose compressed data is damaged', () => {
  it('is said with its place and analyzed up to the break, not ended silently with no report (exit 0, nothing printed)', () => {
    const good = gzipSync([0, 1, 2].map((i) => exchange(i, 'a3f1c2d4')).join('\n') + '\n');
    const bad = Buffer.from(gzipSync([3, 4, 5].map((i) => exchange(i, 'a3f1c2d4')).join('\n') + '\n'));
    for (let i = 12; i < 40; i++) bad[i]! ^= 0x55; // a disk error in the second member's deflate data
    write('rotated.ndjson.gz', Buffer.concat([good, bad]));
    // A gzip header over bytes that are no deflate data at all (a file renamed .gz, a header glued on by a tool).
    write('header-only.ndjson.gz', Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.from('{"v":1,"kind":"exchange"}\n')]));

    const r = cli(['rotated.ndjson.gz', '--format', 'json']);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    const s = summaryOf(r);
    expect(s.attempts).toBe(3);
    expect(s.lines).toMatchObject({ read: 3, used: 3 });
    expect(s.diagnostics.byCode['gzip-truncated']).toBe(1);
    expect(r.stderr).toMatch(/rotated\.ndjson\.gz:4: gzip data is damaged \(.+\) near compressed byte \d+; the 3 lines before the break were analyzed/);

    for (const format of ['table', 'markdown', 'ndjson']) {
      const t = cli(['header-only.ndjson.gz', '--format', format]);
      expectNoCrash(t);
      expect(t.code).toBe(0);
      expect(t.stdout.length).toBeGreaterThan(0);
      expect(t.stderr).toMatch(/header-only\.ndjson\.gz:1: gzip data is damaged/);
      // Not "is empty": it held bytes, none of which could be read.
      expect(t.stderr).toContain('mcp-triage: no lines were read: header-only.ndjson.gz is damaged before its first line\n');
    }
    const strict = cli(['header-only.ndjson.gz', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/header-only\.ndjson\.gz:1: gzip data is damaged .*\(--strict\)/);
    for (const view of [['sessions'], ['timeline', 'a3f1']]) {
      const v = cli([...view, 'rotated.ndjson.gz']);
      expectNoCrash(v);
      expect(v.code).toBe(0);
      expect(v.stderr).toMatch(/gzip data is damaged/);
    }
  });
});

/** A HAR 1.2 entry as Chrome's DevTools saves a tools/call over Streamable HTTP. */
function harEntry(i: number): Record<string, any> {
  return {
    startedDateTime: new Date(Date.UTC(2026, 9, 17, 9, 12, i)).toISOString(), time: 41.2,
    request: {
      method: 'POST', url: 'https://tickets.internal.example/mcp', httpVersion: 'http/1.1',
      headers: [{ name: 'content-type', value: 'application/json' }, { name: 'mcp-session-id', value: '9b1f7c3e-52aa-4c0e-b8e4-0d6c2f1a7e55' }, { name: 'mcp-protocol-version', value: '2025-11-25' }],
      postData: { mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'create_ticket', arguments: { title: `printer ${i} offline` } } }) },
    },
    response: {
      status: 200, statusText: 'OK', httpVersion: 'http/1.1', headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: 96, mimeType: 'application/json', text: JSON.stringify({ jsonrpc: '2.0', id: i, result: { content: [{ type: 'text', text: `TCK-${i}` }] } }) },
    },
    timings: { send: 0.1, wait: 40, receive: 1.1 },
  };
}

describe('a HAR that is valid JSON with wrong types', () => {
  it('names each entry whose fields have the wrong type, rather than losing its call or reading "no body kept"', () => {
    const entries = [harEntry(1), harEntry(2), harEntry(3), harEntry(4), harEntry(5), harEntry(6)];
    entries[1]!.request.postData.text = 12345; // the call was lost: only an ORPHAN_RESPONSE said anything
    entries[2]!.response.content.text = { content: [] }; // was UNANSWERED, "the capture kept no response body"
    entries[3]!.request.headers = { 'content-type': 'application/json', 'mcp-session-id': '9b1f7c3e-52aa-4c0e-b8e4-0d6c2f1a7e55' }; // was a call without its session
    entries[4]!.response.content = 7;
    write('devtools.har', JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, pages: [], entries } }, null, 2));
    const r = cli(['devtools.har', '--format', 'json']);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    const s = summaryOf(r);
    expect(s.attempts).toBe(2);
    expect(s.lines).toEqual({ read: 6, used: 2, blank: 0, skipped: 0, unusable: 4 });
    expect(s.diagnostics.byCode).toEqual({ 'invalid-record': 4 });
    const said = r.stderr.split('\n').filter((l) => l.includes('HAR entry whose'));
    expect(said.map((l) => l.replace(/^mcp-triage: devtools\.har:\d+: /, ''))).toEqual([
      'HAR entry whose request.postData.text is a number, not text (HAR 1.2)',
      'HAR entry whose response.content.text is an object, not text (HAR 1.2)',
      'HAR entry whose request.headers is an object, not a list (HAR 1.2)',
      'HAR entry whose response.content is a number, not an object (HAR 1.2)',
    ]);
    // The entries are one per line too (jq -c '.log.entries[]'): the same account.
    write('entries.ndjson', entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const lines = summaryOf(cli(['entries.ndjson', '--format', 'json']));
    expect(lines.lines).toEqual({ read: 6, used: 2, blank: 0, skipped: 0, unusable: 4 });
    expect(lines.diagnostics.first.map((d) => d.line)).toEqual([2, 3, 4, 5]);
  });

  it('says a log.entries that is no list, or a log that is no object, where it is, rather than "holds no entries"', () => {
    write('entries-object.har', JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries: { 0: harEntry(1), 1: harEntry(2) } } }, null, 2));
    write('log-list.har', JSON.stringify({ log: [harEntry(1)] }, null, 2));
    for (const [file, what, line] of [['entries-object.har', 'log.entries is an object, not a list', 8], ['log-list.har', 'log is a list, not an object', 2]] as const) {
      for (const format of ['table', 'json', 'ndjson', 'markdown']) {
        const r = cli([file, '--format', format]);
        expectNoCrash(r);
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(`mcp-triage: ${file}:${line}: HAR document whose ${what} (HAR 1.2): no entry of it can be read\n`);
        expect(r.stderr).toContain(`no lines were read: ${file} is damaged before its first entry`);
        expect(r.stderr).not.toContain('holds no entries');
      }
      expect(summaryOf(cli([file, '--format', 'json'])).diagnostics.byCode).toEqual({ 'har-broken': 1 });
      const strict = cli([file, '--strict']);
      expect(strict.code).toBe(2);
      expect(strict.stderr).toContain(`${file}:${line}: HAR document whose ${what}`);
    }
  });
});

describe('JSON-RPC ids of every JSON type', () => {
  it('a request whose id is null, a boolean, an object, an array or beyond any float is said, not lost without a word', () => {
    // A stdio bridge's message log: each request, then its answer. Ids as a buggy client sends them.
    const ids = ['0', 'null', 'true', '{"seq":4}', '[5]', '1e400', '"7"', '9007199254740993', '""', '1.5'];
    const lines = ids.flatMap((id, i) => [
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"read_file","arguments":{"path":"/srv/data/${i}.csv"}}}`,
      `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"row ${i}"}]}}`,
    ]);
    write('stdio-ids.ndjson', lines.join('\n') + '\n');
    // The same requests over HTTP, one exchange record each.
    write('http-ids.ndjson', ids.map((id, i) => exchange(i, '5c2e9a41').replace(`"id":${i},"method"`, `"id":${id},"method"`)).join('\n') + '\n');
    const bad = [['null', 2], ['a boolean', 3], ['an object', 4], ['an array', 5], ['a number too large for any float', 6]] as const;
    for (const [file, lineOf] of [['stdio-ids.ndjson', (n: number) => 2 * n - 1], ['http-ids.ndjson', (n: number) => n]] as const) {
      const r = cli([file, '--format', 'json']);
      expectNoCrash(r);
      expect(r.code).toBe(0);
      const s = summaryOf(r);
      expect(s.attempts).toBe(ids.length - bad.length);
      expect(s.lines.used).toBe(s.lines.read);
      expect(s.diagnostics.byCode['invalid-id']).toBe(bad.length);
      for (const [what, n] of bad) {
        expect(r.stderr).toContain(`mcp-triage: ${file}:${lineOf(n)}: request "tools/call" has ${what} as its id, which MCP does not allow (text or an integer): read as a notification, so it is no attempt`);
      }
      for (const format of ['table', 'markdown', 'ndjson']) expect(cli([file, '--format', format]).code).toBe(0);
      for (const view of [['sessions'], ['timeline', file === 'stdio-ids.ndjson' ? 'input' : '5c2e']]) expect(cli([...view, file]).code).toBe(0);
    }
  });
});

describe('UTF-16 files with a byte order mark', () => {
  it('are read as the text they hold (Windows PowerShell 5 writes `>` so), not as lines of NUL bytes', () => {
    const text = [0, 1, 2, 3].map((i) => exchange(i, 'e41b7a90', { client: 'Büro-Agent 😀@1.0' })).join('\r\n') + '\r\n';
    write('utf8.ndjson', text);
    write('powershell.ndjson', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    write('utf16be.ndjson', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    const want = cli(['utf8.ndjson', '--format', 'ndjson']).stdout.split('\n').filter((l) => l.startsWith('{"type":"attempt"'));
    expect(want).toHaveLength(4);
    for (const file of ['powershell.ndjson', 'utf16be.ndjson']) {
      const r = cli([file, '--format', 'ndjson']);
      expectNoCrash(r);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout.split('\n').filter((l) => l.startsWith('{"type":"attempt"')).map((l) => l.replaceAll(file, 'utf8.ndjson'))).toEqual(want);
      const s = summaryOf(cli([file, '--format', 'json']));
      expect(s.lines).toEqual({ read: 4, used: 4, blank: 0, skipped: 0, unusable: 0 });
      expect(cli(['sessions', file]).stdout).toContain('Büro-Agent 😀@1.0');
    }
    // Without a mark, UTF-16 is told by its NUL bytes and read too (audit 35; test/hostile/audit35.test.ts).
    write('no-bom.ndjson', Buffer.from(text, 'utf16le'));
    const s = summaryOf(cli(['no-bom.ndjson', '--format', 'json']));
    expect(s.lines).toEqual({ read: 4, used: 4, blank: 0, skipped: 0, unusable: 0 });
  });
});

describe('a POST whose JSON body holds no JSON-RPC message', () => {
  it('is said with its line (an empty batch, a bare number, an object that is no message), not dropped without a word', () => {
    const refused = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } });
    const bodies: unknown[] = [[], [1, 2], 42, { jsonrpc: '2.0' }];
    const lines = [exchange(1, 'c0ffee01'), ...bodies.map((send, i) => exchange(2 + i, 'c0ffee01', { send, status: 400, recvText: refused })), exchange(9, 'c0ffee01')];
    write('batches.ndjson', lines.join('\n') + '\n');
    const r = cli(['batches.ndjson', '--format', 'json']);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    const s = summaryOf(r);
    expect(s.attempts).toBe(2);
    expect(s.diagnostics.byCode['no-jsonrpc-message']).toBe(4);
    expect(r.stderr.split('\n').filter((l) => l.includes('no JSON-RPC message'))).toEqual([
      'mcp-triage: batches.ndjson:2: a POST whose body holds no JSON-RPC message (an empty list): nothing in it is analyzed',
      'mcp-triage: batches.ndjson:3: a POST whose body holds no JSON-RPC message (a list of 2, none a request, notification or response): nothing in it is analyzed',
      'mcp-triage: batches.ndjson:4: a POST whose body holds no JSON-RPC message (a number): nothing in it is analyzed',
      'mcp-triage: batches.ndjson:5: a POST whose body holds no JSON-RPC message (an object that is no request, notification or response): nothing in it is analyzed',
    ]);
  });
});

describe('a file that may not be read', () => {
  // Root reads any file: the CLI then runs as nobody (setpriv), when it can.
  const asNobody = process.getuid?.() === 0 ? spawnSync('setpriv', ['--version']).status === 0 : true;
  it.skipIf(!asNobody)('exits 2 with "permission denied", as a missing file with "no such file", and prints no report', () => {
    chmodSync(scratch.dir, 0o755);
    write('locked.ndjson', exchange(1, 'a3f1c2d4') + '\n');
    chmodSync(join(scratch.dir, 'locked.ndjson'), 0o000);
    const argv = [BIN, 'locked.ndjson'];
    const r = process.getuid?.() === 0
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...argv], { cwd: scratch.dir, encoding: 'utf8' })
      : spawnSync(process.execPath, argv, { cwd: scratch.dir, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('mcp-triage: locked.ndjson: permission denied\n'); // was 'read failed (EACCES)'
  });
});

describe('a timestamp that holds no date', () => {
  it('is said with its line (no-time), and the record is still analyzed without a time; good and absent times say nothing', () => {
    const times = ['"NaN"', '"2026-13-45T99:99:99Z"', '"05:51:43.484"', '-1', '1e22'];
    const lines = [
      exchange(1, '5c2e9a41'),
      ...times.map((t, i) => exchange(i + 2, '5c2e9a41').replace(/"ts":"[^"]+"/, `"ts":${t}`)),
      exchange(9, '5c2e9a41').replace(/"ts":"[^"]+",/, ''),
      exchange(10, '5c2e9a41').replace(/"ts":"[^"]+"/, '"ts":1792228320000'),
    ];
    write('no-date.ndjson', lines.join('\n') + '\n');
    const r = cli(['no-date.ndjson', '--format', 'json']);
    expectNoCrash(r);
    expect(r.code).toBe(0);
    const s = summaryOf(r);
    expect(s.attempts).toBe(lines.length);
    expect(s.diagnostics.byCode['no-time']).toBe(times.length);
    expect(r.stderr).toContain('mcp-triage: no-date.ndjson:2: timestamp "NaN" holds no date: the record is read without a time (it passes no --since or --until)');
    expect(r.stderr).toContain('mcp-triage: no-date.ndjson:4: timestamp "05:51:43.484" holds no date');
    expect(r.stderr).toContain('mcp-triage: no-date.ndjson:5: timestamp -1 holds no date');
    // Lines 1, 7 (no ts at all) and 8 (epoch milliseconds): nothing said.
    expect(r.stderr).not.toMatch(/no-date\.ndjson:(1|7|8): timestamp/);
    const attempts = (JSON.parse(r.stdout) as { attempts: { id: number; ts?: string }[] }).attempts;
    expect(attempts.filter((a) => a.ts === undefined).map((a) => a.id).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 9]);
  });
});
