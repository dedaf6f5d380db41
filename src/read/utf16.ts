// UTF-16 text (a log saved by Windows PowerShell 5's `>` or Out-File, or Notepad as "Unicode"): told by its byte order mark, read as UTF-8.

/** The UTF-16 byte order the first bytes announce (FF FE: little-endian, FE FF: big-endian); UTF-32's FF FE 00 00 is none. */
export function utf16Bom(head: Buffer): 'le' | 'be' | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head.length >= 4 && head[2] === 0 && head[3] === 0 ? undefined : 'le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'be';
  return undefined;
}

/**
 * The UTF-16 text of `chunks` (its byte order mark first) as UTF-8 bytes, chunk by chunk: a character cut between two
 * chunks is joined, the mark is dropped, and what is no UTF-16 (a lone surrogate, an odd last byte) becomes U+FFFD.
 */
export async function* utf16ToUtf8(first: Buffer, rest: AsyncIterator<Buffer>, order: 'le' | 'be'): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-16le'); // big-endian bytes are swapped first: utf-16be needs full ICU
  let carry: Buffer | undefined; // big-endian: an odd byte left for the next chunk
  const decode = (b: Buffer): string => {
    if (order === 'le') return decoder.decode(b, { stream: true });
    const all = carry ? Buffer.concat([carry, b]) : b;
    const even = all.length & ~1;
    carry = even < all.length ? all.subarray(even) : undefined;
    return decoder.decode(Buffer.from(all.subarray(0, even)).swap16(), { stream: true });
  };
  for (let chunk: Buffer | undefined = first; chunk !== undefined; ) {
    const text = decode(chunk);
    if (text) yield Buffer.from(text, 'utf8');
    const r = await rest.next();
    chunk = r.done ? undefined : r.value;
  }
  const end = (carry ? '\uFFFD' : '') + decoder.decode();
  if (end) yield Buffer.from(end, 'utf8');
}
