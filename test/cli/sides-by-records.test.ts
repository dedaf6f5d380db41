// A plain input next to logs whose records state one side (recordingFetch's, recordingHandler's) is read as the other side; what a file's first records state.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { assumeSides, statedSide, type Stated } from '../../src/input-sides.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-stated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const rec = (side?: string) => JSON.stringify({ v: 1, kind: 'request', ts: '2026-12-07T13:07:32.618Z', ...(side ? { side } : {}), session: null, xid: 'a-1', method: 'POST', send: { jsonrpc: '2.0', id: 0, method: 'initialize' } });
const harEntry = JSON.stringify({ startedDateTime: '2026-12-07T13:07:32.618Z', time: 3, request: { method: 'POST', url: 'http://127.0.0.1/mcp' }, response: { status: 200 } });

describe('the side a file\'s first records state', () => {
  it('a canonical log\'s side when every record states it; none for records without one, HAR entries and a HAR document', () => {
    expect(statedSide(file('c.ndjson', `${rec('client')}\n${rec('client')}\n`))).toBe('client');
    expect(statedSide(file('s.ndjson', `\r\n${rec('server')}\r\n`))).toBe('server');
    expect(statedSide(file('p.ndjson', `${rec()}\n${rec()}\n`))).toBe('none');
    expect(statedSide(file('h.ndjson', `${harEntry}\n`))).toBe('none');
    expect(statedSide(file('d.har', '{\n  "log": {\n    "version": "1.2",\n    "entries": []\n  }\n}\n'))).toBe('none');
  });

  it('through gzip (a cut stream read as far as it goes) and a byte order mark', () => {
    const gz = gzipSync(Buffer.from(`${rec('server')}\n`.repeat(5000)));
    expect(statedSide(file('s.ndjson.gz', gz.subarray(0, 2000)))).toBe('server');
    expect(statedSide(file('bom.ndjson', `\ufeff${rec('client')}\n`))).toBe('client');
    expect(statedSide(file('last.ndjson', `${rec('server')}\n${rec('server')}`))).toBe('server'); // a last line with no newline
  });

  it('must not: records of two sides, or of a side and none, another format, a line cut by the bytes read, standard input, a folder, no file', () => {
    expect(statedSide(file('mixed.ndjson', `${rec('client')}\n${rec('server')}\n`))).toBe('unknown');
    expect(statedSide(file('half.ndjson', `${rec('client')}\n${rec()}\n`))).toBe('unknown');
    expect(statedSide(file('gw.ndjson', `${rec('gateway')}\n`))).toBe('unknown');
    expect(statedSide(file('text.log', 'INFO:     127.0.0.1:5000 - "POST /mcp HTTP/1.1" 200 OK\n'))).toBe('unknown');
    expect(statedSide(file('app.jsonl', `${JSON.stringify({ level: 30, msg: 'hi' })}\n`))).toBe('unknown');
    expect(statedSide(file('cut.ndjson', `${rec('client').slice(0, -1)}, "pad": "${'x'.repeat(70_000)}"}\n`))).toBe('unknown');
    expect(statedSide('-')).toBe('unknown');
    expect(statedSide(dir)).toBe('unknown');
    expect(statedSide(join(dir, 'none.ndjson'))).toBe('unknown');
  });
});

describe('plain inputs beside logs whose records state one side', () => {
  const by = (m: Record<string, Stated>) => (path: string) => m[path] ?? 'unknown';

  it('take the other side, said by records', () => {
    expect(assumeSides([{ path: 'a' }, { path: 'b' }], by({ a: 'client', b: 'none' })))
      .toEqual([{ path: 'a' }, { path: 'b', assumed: 'server', assumedBy: 'records' }]);
    expect(assumeSides([{ path: 'a' }, { path: 'b' }, { path: 'c' }], by({ a: 'none', b: 'server', c: 'server' })))
      .toEqual([{ path: 'a', assumed: 'client', assumedBy: 'records' }, { path: 'b' }, { path: 'c' }]);
  });

  it('must not: records of both sides beside it, no record with a side, an input whose side is unknown, one input alone, a side given, names that say both sides', () => {
    const three = [{ path: 'a' }, { path: 'b' }, { path: 'c' }];
    expect(assumeSides(three, by({ a: 'client', b: 'server', c: 'none' }))).toEqual(three);
    expect(assumeSides(three, by({ a: 'none', b: 'none', c: 'none' }))).toEqual(three);
    expect(assumeSides(three, by({ a: 'client', b: 'none', c: 'unknown' }))).toEqual(three);
    expect(assumeSides([{ path: 'a' }], by({ a: 'none' }))).toEqual([{ path: 'a' }]);
    expect(assumeSides([{ path: 'a', side: 'client' }, { path: 'b', side: 'server' }, { path: 'c' }], by({ a: 'client', b: 'server', c: 'none' })))
      .toEqual([{ path: 'a', side: 'client' }, { path: 'b', side: 'server' }, { path: 'c' }]);
    // The names' rule comes first: client.ndjson and server.ndjson are those sides whatever their records say.
    expect(assumeSides([{ path: 'client.ndjson' }, { path: 'server.ndjson' }], by({ 'client.ndjson': 'none', 'server.ndjson': 'client' })))
      .toEqual([{ path: 'client.ndjson', assumed: 'client', assumedBy: 'name' }, { path: 'server.ndjson', assumed: 'server', assumedBy: 'name' }]);
  });
});
