// zlib-format (RFC 1950) input: mitmproxy writes its HAR so when the path ends `.zhar` (har_dump.py, savehar.py:
// zlib.compress(raw, 9)). Recognised by its first two bytes, inflated as it streams.
import { GzipError } from './gzip.js';

/**
 * A zlib header (CMF 0x78: deflate, 32 KiB window; FLG for the fastest, the default or the best level, as
 * zlib.compress writes it). No UTF-8 text starts so: 0x9C and 0xDA are continuation bytes, 0x01 a control character.
 */
export function looksLikeZlib(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x78 && (head[1] === 0x01 || head[1] === 0x9c || head[1] === 0xda);
}

/** The inflated bytes of zlib data; damaged or cut data yields what it had, then a GzipError (the reader's "broken input"). */
export async function* inflateStream(input: AsyncIterator<Buffer>, first: Buffer, onRead: (bytes: number) => void): AsyncGenerator<Buffer> {
  const { createInflate } = process.getBuiltinModule('node:zlib'); // loaded only for zlib input
  const { Readable, pipeline } = process.getBuiltinModule('node:stream');
  async function* compressed(): AsyncGenerator<Buffer> {
    onRead(first.length);
    yield first;
    for (let r = await input.next(); !r.done; r = await input.next()) {
      onRead(r.value.length);
      yield r.value;
    }
  }
  const inflater = createInflate();
  pipeline(Readable.from(compressed()), inflater, () => {});
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (err) {
    throw new GzipError(`zlib data (a .zhar) is damaged or cut: ${(err as Error).message}`, 0);
  }
}
