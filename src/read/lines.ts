// Splitting a byte stream into numbered lines: CRLF, BOM, a last line without newline, over-long lines skipped unbuffered.
import { isUtf8 } from 'node:buffer';

/** One line of input, 1-based; text has no line terminator. */
export interface TextLine {
  lineNo: number;
  text: string;
  /** The bytes were not valid UTF-8 (text holds U+FFFD where they were). */
  invalidUtf8?: true;
  /** The input's last line, ended by the end of the input rather than a line break (a log cut, or still being written). */
  unterminated?: true;
  /** The time a container or system log's wrapper gave the line (container-lines.ts): a record inside with none takes it. */
  wrapTs?: string | number;
  /** The program the line came from, where one input holds several (a compose service, a kubectl pod's container): its lines are read apart from the others'. */
  stream?: string;
  /** A wrapper's own line, no line of the program (a journal marker): counted as skipped, for this reason. */
  skipped?: string;
  /** The wrapper says the line's text is not there (journalctl without --all): unusable, with this diagnostic. */
  unreadable?: { code: string; message: string };
}

/** A line longer than the limit: its bytes were counted and dropped, never held whole. */
interface LongLine {
  lineNo: number;
  overLimit: true;
  bytes: number;
}

export type Line = TextLine | LongLine;

interface LineOptions {
  /** Longest line kept, in bytes (without the terminator). */
  maxLineBytes: number;
}

const NL = 0x0a;
const CR = 0x0d;

/**
 * Lines in batches (one batch per input chunk, for speed). Blank lines are yielded too (text "");
 * the caller counts them. A UTF-8 BOM at the very start is dropped.
 */
export async function* readLineBatches(chunks: AsyncIterable<Buffer>, opts: LineOptions): AsyncGenerator<Line[]> {
  const max = opts.maxLineBytes;
  let lineNo = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false; // inside an over-long line

  const emit = (batch: Line[], buf: Buffer) => {
    lineNo++;
    let end = buf.length;
    if (end > 0 && buf[end - 1] === CR) end--;
    let start = 0;
    if (lineNo === 1 && end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
    const text = buf.toString('utf8', start, end);
    if (text.includes('\uFFFD') && !isUtf8(buf.subarray(start, end))) batch.push({ lineNo, text, invalidUtf8: true });
    else batch.push({ lineNo, text });
  };

  for await (const chunk of chunks) {
    const batch: Line[] = [];
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NL, pos);
      if (nl === -1) {
        const rest = chunk.length - pos;
        if (skipping) pendingBytes += rest;
        else if (pendingBytes + rest > max + 1) {
          skipping = true;
          pending = [];
          pendingBytes += rest;
        } else {
          pending.push(chunk.subarray(pos));
          pendingBytes += rest;
        }
        break;
      }
      const len = nl - pos;
      if (skipping) {
        lineNo++;
        batch.push({ lineNo, overLimit: true, bytes: pendingBytes + len });
        skipping = false;
        pending = [];
        pendingBytes = 0;
      } else if (pendingBytes + len > max + 1 || (pendingBytes + len === max + 1 && lastByte(pending, chunk, pos, nl) !== CR)) {
        lineNo++;
        batch.push({ lineNo, overLimit: true, bytes: pendingBytes + len });
        pending = [];
        pendingBytes = 0;
      } else if (pendingBytes === 0) {
        emit(batch, chunk.subarray(pos, nl));
      } else {
        pending.push(chunk.subarray(pos, nl));
        emit(batch, Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      }
      pos = nl + 1;
    }
    if (batch.length) yield batch;
  }
  if (skipping) {
    yield [{ lineNo: lineNo + 1, overLimit: true, bytes: pendingBytes }];
  } else if (pendingBytes > 0) {
    const last = Buffer.concat(pending);
    const content = last[last.length - 1] === CR ? last.length - 1 : last.length;
    if (content > max) yield [{ lineNo: lineNo + 1, overLimit: true, bytes: last.length }];
    else {
      const batch: Line[] = [];
      emit(batch, last);
      (batch[0] as TextLine).unterminated = true;
      yield batch;
    }
  }
}

function lastByte(pending: Buffer[], chunk: Buffer, pos: number, nl: number): number | undefined {
  if (nl > pos) return chunk[nl - 1];
  const tail = pending[pending.length - 1];
  return tail ? tail[tail.length - 1] : undefined;
}

/** True for a line that holds nothing but white space. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false;
  }
  return true;
}
