// A plain input next to logs whose records state one side (recordingFetch's, recordingHandler's, a format one side only writes) is read as the other side; what a file's first records state; a hop's log among them.
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
  it('a canonical log\'s side when every record states it; none for records without one, HAR entries and a HAR document', async () => {
    expect(await statedSide(file('c.ndjson', `${rec('client')}\n${rec('client')}\n`))).toBe('client');
    expect(await statedSide(file('s.ndjson', `\r\n${rec('server')}\r\n`))).toBe('server');
    expect(await statedSide(file('p.ndjson', `${rec()}\n${rec()}\n`))).toBe('none');
    expect(await statedSide(file('h.ndjson', `${harEntry}\n`))).toBe('none');
    expect(await statedSide(file('d.har', '{\n  "log": {\n    "version": "1.2",\n    "entries": []\n  }\n}\n'))).toBe('none');
  });

  it('through gzip (a cut stream read as far as it goes) and a byte order mark', async () => {
    const gz = gzipSync(Buffer.from(`${rec('server')}\n`.repeat(5000)));
    expect(await statedSide(file('s.ndjson.gz', gz.subarray(0, 2000)))).toBe('server');
    expect(await statedSide(file('bom.ndjson', `\ufeff${rec('client')}\n`))).toBe('client');
    expect(await statedSide(file('last.ndjson', `${rec('server')}\n${rec('server')}`))).toBe('server'); // a last line with no newline
  });

  it('must not: records of two sides, or of a side and none, a format that cannot tell whose log it is, a line cut by the bytes read, standard input, a folder, no file', async () => {
    expect(await statedSide(file('mixed.ndjson', `${rec('client')}\n${rec('server')}\n`))).toBe('unknown');
    expect(await statedSide(file('half.ndjson', `${rec('client')}\n${rec()}\n`))).toBe('unknown');
    expect(await statedSide(file('app.jsonl', `${JSON.stringify({ level: 30, msg: 'hi' })}\n`))).toBe('silent'); // (no record: it keeps no other input from a side)
    expect(await statedSide(file('cut.ndjson', `${rec('client').slice(0, -1)}, "pad": "${'x'.repeat(70_000)}"}\n`))).toBe('unknown');
    expect(await statedSide('-')).toBe('unknown');
    expect(await statedSide(dir)).toBe('unknown');
    expect(await statedSide(join(dir, 'none.ndjson'))).toBe('unknown');
  });
});

describe('the side a log of another format states, as its reader gives it', () => {
  const fixture = (p: string) => join(import.meta.dirname, '..', '..', p);

  it('a format one side only writes: its side; a hop\'s own log: gateway', async () => {
    expect(await statedSide(fixture('samples/formats/python-sdk-debug.log'))).toBe('client');
    expect(await statedSide(fixture('samples/formats/claude-code-debug.txt'))).toBe('client');
    expect(await statedSide(fixture('samples/formats/vscode-mcp-notes.log'))).toBe('client');
    expect(await statedSide(file('uvicorn.log', 'INFO:     Started server process [1]\nINFO:     127.0.0.1:5000 - "POST /mcp HTTP/1.1" 200 OK\n'))).toBe('server');
    expect(await statedSide(file('banner.log', 'INFO:     Started server process [1]\n'))).toBe('server'); // (its reader's record of a start)
    expect(await statedSide(file('gw.ndjson', `${rec('gateway')}\n`))).toBe('gateway');
    expect(await statedSide(fixture('samples/formats/kong-file-log.jsonl'))).toBe('gateway');
    expect(await statedSide(fixture('test/fixtures/real-audit66/ts1-expired-404/access.log'))).toBe('gateway');
  });

  it('must not: records without a side from a reader that cannot tell whose they are (an app\'s log, a sniffer\'s, bare JSON-RPC), a line no reader knows among them', async () => {
    expect(await statedSide(fixture('samples/formats/app-log-pino.jsonl'))).toBe('unknown');
    expect(await statedSide(fixture('samples/formats/mcpsnoop.jsonl'))).toBe('unknown');
    expect(await statedSide(fixture('samples/formats/mcpspy.jsonl'))).toBe('unknown');
    expect(await statedSide(file('rpc.jsonl', `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })}\n`))).toBe('unknown');
    expect(await statedSide(file('odd.log', 'something else entirely\nINFO:     127.0.0.1:5000 - "POST /mcp HTTP/1.1" 200 OK\n'))).toBe('unknown');
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

describe('a hop\'s own log among plain inputs (nginx\'s, HAProxy\'s, Caddy\'s access lines): no view of either side', () => {
  const by = (m: Record<string, Stated>) => (path: string) => m[path] ?? 'unknown';

  it('neither tells nor takes a side in the records\' rule', () => {
    expect(assumeSides([{ path: 'a' }, { path: 'b' }, { path: 'gw' }], by({ a: 'client', b: 'none', gw: 'gateway' })))
      .toEqual([{ path: 'a' }, { path: 'b', assumed: 'server', assumedBy: 'records' }, { path: 'gw' }]);
  });

  it('beside two plain logs whose names say client and server: those two are read by their names', () => {
    expect(assumeSides([{ path: 'run/client.ndjson' }, { path: 'run/server.ndjson' }, { path: 'run/access.log' }, { path: 'run/error.log' }], by({ 'run/client.ndjson': 'none', 'run/server.ndjson': 'none', 'run/access.log': 'gateway', 'run/error.log': 'gateway' })))
      .toEqual([{ path: 'run/client.ndjson', assumed: 'client', assumedBy: 'name' }, { path: 'run/server.ndjson', assumed: 'server', assumedBy: 'name' }, { path: 'run/access.log' }, { path: 'run/error.log' }]);
  });

  it('must not: names among more views (a folder of scenarios\' logs), a third input whose side is unknown, names that do not say both sides, a gateway log alone beside one view', () => {
    const folder = [{ path: 'client-timeout.har' }, { path: 'client-timeout.server.ndjson' }, { path: 'baseline.client.har' }, { path: 'baseline.server.ndjson' }, { path: 'access.log' }];
    expect(assumeSides(folder, by({ 'client-timeout.har': 'none', 'client-timeout.server.ndjson': 'none', 'baseline.client.har': 'none', 'baseline.server.ndjson': 'none', 'access.log': 'gateway' }))).toEqual(folder);
    const app = [{ path: 'client.har' }, { path: 'server.log' }, { path: 'app.log' }];
    expect(assumeSides(app, by({ 'client.har': 'none', 'server.log': 'unknown', 'app.log': 'unknown' }))).toEqual(app);
    const same = [{ path: 'client.har' }, { path: 'client-2.har' }, { path: 'access.log' }];
    expect(assumeSides(same, by({ 'client.har': 'none', 'client-2.har': 'none', 'access.log': 'gateway' }))).toEqual(same);
    const one = [{ path: 'capture.har' }, { path: 'access.log' }];
    expect(assumeSides(one, by({ 'capture.har': 'none', 'access.log': 'gateway' }))).toEqual(one);
  });
});
