// Opening one input: a file path or "-" (standard input) as a byte stream, gunzipped when its first bytes say gzip,
// inflated when they say zlib (mitmproxy's `.zhar`).
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { gunzipStream, GzipError } from './gzip.js';
import { inflateStream, looksLikeZlib } from './zlib.js';
import { utf16Bom, utf16ToUtf8 } from './utf16.js';
import type { Readable } from 'node:stream';

export interface OpenedInput {
  /** Display name: the path as given, or "<stdin>". */
  name: string;
  /** Size in bytes of the file on disk (undefined for stdin and pipes). */
  size: number | undefined;
  /** Raw (possibly compressed) bytes read so far, for progress reporting. */
  bytesRead(): number;
  /** The decompressed bytes. */
  chunks: AsyncIterable<Buffer>;
  /** Set once the first bytes were seen: whether the input is gzip. */
  gzip(): boolean;
}

export { GzipError };

export async function openInput(spec: string, stdin: NodeJS.ReadableStream): Promise<OpenedInput> {
  const isStdin = spec === '-';
  const name = isStdin ? '<stdin>' : spec;
  let size: number | undefined;
  if (!isStdin) {
    const info = await stat(spec); // throws ENOENT / EACCES / EISDIR for the caller to report
    if (info.isDirectory()) throw Object.assign(new Error(`${spec} is a directory`), { code: 'EISDIR' });
    size = info.isFile() ? info.size : undefined;
  }
  const source: NodeJS.ReadableStream = isStdin ? stdin : createReadStream(spec, { highWaterMark: 1 << 16 });
  let raw = 0;
  let isGzip = false;
  async function* decompressed(): AsyncGenerator<Buffer> {
    const it = (source as Readable)[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
    let first = await it.next();
    while (!first.done && toBuf(first.value).length < 2) {
      // Too short to sniff: join with the next chunk.
      const next = await it.next();
      if (next.done) break;
      first = { done: false, value: Buffer.concat([toBuf(first.value), toBuf(next.value)]) };
    }
    if (first.done) return;
    const head = toBuf(first.value);
    isGzip = head[0] === 0x1f && head[1] === 0x8b;
    if (!isGzip && looksLikeZlib(head)) {
      // mitmproxy's `.zhar`: its HAR zlib-compressed.
      const buffers: AsyncIterator<Buffer> = { next: async () => {
        const r = await it.next();
        return r.done ? { done: true, value: undefined } : { done: false, value: toBuf(r.value) };
      } };
      yield* inflateStream(buffers, head, (n) => {
        raw += n;
      });
      return;
    }
    const utf16 = isGzip ? undefined : utf16Bom(head);
    if (utf16) {
      // Read as the UTF-8 it holds: otherwise every line is unusable (NUL bytes, not UTF-8).
      const buffers: AsyncIterator<Buffer> = { next: async () => {
        const r = await it.next();
        if (r.done) return { done: true, value: undefined };
        const b = toBuf(r.value);
        raw += b.length;
        return { done: false, value: b };
      } };
      raw += head.length;
      yield* utf16ToUtf8(head, buffers, utf16);
      return;
    }
    if (!isGzip) {
      raw += head.length;
      yield head;
      for (let r = await it.next(); !r.done; r = await it.next()) {
        const b = toBuf(r.value);
        raw += b.length;
        yield b;
      }
      return;
    }
    const buffers: AsyncIterator<Buffer> = { next: async () => {
      const r = await it.next();
      return r.done ? { done: true, value: undefined } : { done: false, value: toBuf(r.value) };
    } };
    yield* gunzipStream(buffers, head, (n) => {
      raw += n;
    });
  }
  return { name, size, bytesRead: () => raw, chunks: decompressed(), gzip: () => isGzip };
}

function toBuf(v: Buffer | string): Buffer {
  return typeof v === 'string' ? Buffer.from(v) : v;
}
