// Opening one input: a file path or "-" (standard input) as a byte stream, gunzipped when its first bytes say gzip,
// inflated when they say zlib (mitmproxy's `.zhar`), then as UTF-8 when what they held is UTF-16.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { gunzipStream, GzipError } from './gzip.js';
import { inflateStream, looksLikeZlib } from './zlib.js';
import { encodingName, sniffEncoding, utf16ToUtf8, type WideEncoding } from './utf16.js';
import type { Readable } from 'node:stream';

interface OpenedInput {
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

/** The input (once unpacked) is text in an encoding that is not read: UTF-32. Thrown at its first read; nothing of it is read. */
export class UnreadEncodingError extends Error {
  override name = 'UnreadEncodingError';
  constructor(readonly encoding: WideEncoding) {
    super(`the text is in ${encodingName(encoding)}${encoding.bom ? '' : ' (it has no byte order mark: told by its NUL bytes)'}, which mcp-triage does not read`);
  }
}

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
  return { name, size, bytesRead: () => raw, chunks: asUtf8(decompressed()), gzip: () => isGzip };
}

/**
 * The unpacked bytes as UTF-8: UTF-16 (with its byte order mark or without) is decoded, so that its lines are not each
 * unusable (NUL bytes, not UTF-8); UTF-32 is an UnreadEncodingError at the first read; anything else passes as it is.
 */
async function* asUtf8(bytes: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> {
  let head: Buffer = Buffer.alloc(0);
  while (head.length < 4) { // the first chunk holds more, but for a pipe written a few bytes at a time
    const r = await bytes.next();
    if (r.done) break;
    head = head.length ? Buffer.concat([head, r.value]) : r.value;
  }
  if (head.length === 0) return;
  const encoding = sniffEncoding(head);
  if (encoding?.unit === 32) throw new UnreadEncodingError(encoding);
  if (encoding?.unit === 16) {
    yield* utf16ToUtf8(head, bytes, encoding.order);
    return;
  }
  yield head;
  yield* bytes;
}

function toBuf(v: Buffer | string): Buffer {
  return typeof v === 'string' ? Buffer.from(v) : v;
}
