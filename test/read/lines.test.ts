// The line reader and input opening: CRLF, BOM, last line without newline, chunk boundaries, gzip, truncated gzip, over-long lines.
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { readLineBatches, type Line } from '../../src/read/lines.js';
import { openInput, GzipError } from '../../src/read/open.js';

async function lines(chunks: (string | Buffer)[], maxLineBytes = 1024): Promise<Line[]> {
  async function* gen() {
    for (const c of chunks) yield Buffer.isBuffer(c) ? c : Buffer.from(c);
  }
  const out: Line[] = [];
  for await (const b of readLineBatches(gen(), { maxLineBytes })) out.push(...b);
  return out;
}
const texts = (ls: Line[]) => ls.map((l) => ('text' in l ? l.text : `<${l.bytes} bytes>`));

describe('readLineBatches', () => {
  it('strips CRLF and LF, numbers lines from 1, keeps blank lines for the caller to count', async () => {
    const ls = await lines(['a\r\nb\n\nc\r\n']);
    expect(texts(ls)).toEqual(['a', 'b', '', 'c']);
    expect(ls.map((l) => l.lineNo)).toEqual([1, 2, 3, 4]);
  });
  it('drops a UTF-8 BOM at the start only', async () => {
    expect(texts(await lines(['\uFEFF{"a":1}\n\uFEFFx\n']))).toEqual(['{"a":1}', '\uFEFFx']);
  });
  it('yields a last line without a final newline', async () => {
    expect(texts(await lines(['one\ntwo']))).toEqual(['one', 'two']);
  });
  it('joins a line split across chunk boundaries, even inside a multi-byte character and between CR and LF', async () => {
    const euro = Buffer.from('€'); // 3 bytes
    const ls = await lines([Buffer.from('ab'), euro.subarray(0, 1), euro.subarray(1), Buffer.from('cd\r'), Buffer.from('\nnext\n')]);
    expect(texts(ls)).toEqual(['ab€cd', 'next']);
  });
  it('reports an over-long line with its byte count and keeps going, without holding it', async () => {
    const long = 'x'.repeat(5000);
    const ls = await lines(['ok\n', long.slice(0, 2000), long.slice(2000), '\nafter\n'], 100);
    expect(texts(ls)).toEqual(['ok', '<5000 bytes>', 'after']);
    expect(ls[1]).toMatchObject({ lineNo: 2, overLimit: true, bytes: 5000 });
  });
  it('marks invalid UTF-8', async () => {
    const ls = await lines([Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]);
    expect(ls[0]).toMatchObject({ lineNo: 1, invalidUtf8: true });
  });
});

describe('openInput', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpt-open-'));
  async function readAll(path: string): Promise<string> {
    const input = await openInput(path, Readable.from([]));
    const parts: Buffer[] = [];
    for await (const c of input.chunks) parts.push(c);
    return Buffer.concat(parts).toString();
  }
  it('detects gzip by its magic bytes, not by the file name', async () => {
    const p = join(dir, 'plain-name.ndjson');
    writeFileSync(p, gzipSync('{"a":1}\n{"b":2}\n'));
    expect(await readAll(p)).toBe('{"a":1}\n{"b":2}\n');
    const q = join(dir, 'looks.gz');
    writeFileSync(q, '{"not":"gzip"}\n');
    expect(await readAll(q)).toBe('{"not":"gzip"}\n');
  });
  it('a truncated gzip gives what was read before the break, then a GzipError saying where', async () => {
    const body = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i, pad: 'y'.repeat(50) })).join('\n');
    const gz = gzipSync(body);
    const p = join(dir, 'cut.gz');
    writeFileSync(p, gz.subarray(0, Math.floor(gz.length / 2)));
    const input = await openInput(p, Readable.from([]));
    let got = '';
    let error: unknown;
    try {
      for await (const c of input.chunks) got += c.toString();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GzipError);
    expect((error as Error).message).toMatch(/ends early/);
    expect(got.length).toBeGreaterThan(1000);
    expect(body.startsWith(got)).toBe(true);
  });
  it('reads standard input for "-"', async () => {
    const input = await openInput('-', Readable.from([Buffer.from('x\n')]));
    expect(input.name).toBe('<stdin>');
    const parts: Buffer[] = [];
    for await (const c of input.chunks) parts.push(c);
    expect(Buffer.concat(parts).toString()).toBe('x\n');
  });
});
