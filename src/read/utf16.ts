// Text in UTF-16 (a log saved by Windows PowerShell 5's `>` or Out-File, or Notepad as "Unicode") or UTF-32: told by its
// byte order mark, or without one by the NUL bytes ASCII text has in them; UTF-16 is read as UTF-8, UTF-32 only named.

/** The UTF-16 byte order the first bytes announce (FF FE: little-endian, FE FF: big-endian); UTF-32's FF FE 00 00 is none. */
function utf16Bom(head: Buffer): 'le' | 'be' | undefined {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head.length >= 4 && head[2] === 0 && head[3] === 0 ? undefined : 'le';
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return 'be';
  return undefined;
}

/** A text encoding other than UTF-8 that the first bytes of an input show, and whether a byte order mark said it. */
export interface WideEncoding {
  unit: 16 | 32;
  order: 'le' | 'be';
  bom: boolean;
}

/**
 * The encoding the first bytes of an input show when it is not UTF-8: a UTF-16 or UTF-32 byte order mark, or, without
 * one, the NUL bytes of ASCII text (a JSON log's `{"`, a text log's date) in UTF-16 or UTF-32, over its first 16 bytes
 * (fewer when the input is shorter, at least 4). UTF-8 text never has NUL bytes there; a hole of NUL bytes has no
 * text between them.
 */
export function sniffEncoding(head: Buffer): WideEncoding | undefined {
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) return { unit: 32, order: 'le', bom: true };
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff) return { unit: 32, order: 'be', bom: true };
  const bom16 = utf16Bom(head);
  if (bom16) return { unit: 16, order: bom16, bom: true };
  const n = Math.min(head.length, 16) & ~3;
  if (n < 4) return undefined;
  // Which bytes of each 4 are NUL in ASCII text, per encoding: the others are printable ASCII or white space.
  const shapes: [WideEncoding, boolean[]][] = [
    [{ unit: 32, order: 'le', bom: false }, [false, true, true, true]],
    [{ unit: 32, order: 'be', bom: false }, [true, true, true, false]],
    [{ unit: 16, order: 'le', bom: false }, [false, true, false, true]],
    [{ unit: 16, order: 'be', bom: false }, [true, false, true, false]],
  ];
  for (const [encoding, nul] of shapes) {
    let fits = true;
    for (let i = 0; i < n && fits; i++) fits = nul[i % 4] ? head[i] === 0 : asciiText(head[i]!);
    if (fits) return encoding;
  }
  return undefined;
}

function asciiText(b: number): boolean {
  return (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d;
}

/** How to name an encoding to a user, and the iconv name that converts from it. */
export function encodingName(e: WideEncoding): string {
  return `UTF-${e.unit}${e.order === 'le' ? 'LE' : 'BE'}`;
}

/**
 * The UTF-16 text of `chunks` (its byte order mark first, when it has one) as UTF-8 bytes, chunk by chunk: a character cut between two
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
