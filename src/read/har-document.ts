// Whole HAR 1.2 documents read incrementally: yields each `log.entries[]` item with the line it starts on, never the whole document.
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';

export type HarDocumentItem = { value: unknown; line: number } | { error: string; line: number };

/** Facts about the document, filled in as they are read (the creator comes before the entries in every known producer). */
export interface HarDocumentInfo {
  creator?: string;
  creatorVersion?: string;
  version?: string;
  /** Entries yielded so far. */
  entries: number;
}

/** Depth of `{` that opens an entry: root object (1), `log` object (2), `entries` array (3). */
const ENTRY_DEPTH = 3;

/**
 * Streams the entries of a HAR document. Each entry is parsed on its own as it completes; entries already
 * yielded are not kept. A document cut short (or broken by garbage) yields every complete entry before the
 * break, then one error item at the line where it broke.
 */
export async function* harDocumentEntries(chunks: AsyncIterable<Buffer>, info: HarDocumentInfo = { entries: 0 }): AsyncGenerator<HarDocumentItem> {
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: ['$.log.entries.*', '$.log.creator', '$.log.version'], keepStack: false });
  const pending: HarDocumentItem[] = [];
  let failure: string | undefined;
  let depth = 0;
  let sawRoot = false;
  let rootClosed = false;

  // Byte offset -> line: count newlines of the current chunk up to the offsets asked for (always increasing).
  let chunk: Buffer = Buffer.alloc(0);
  let chunkStart = 0;
  let countedTo = 0; // absolute offset up to which newlines were counted
  let line = 1;
  const lineAt = (offset: number): number => {
    const from = Math.max(countedTo, chunkStart) - chunkStart;
    const to = Math.min(offset - chunkStart, chunk.length);
    for (let i = from; i < to; i++) if (chunk[i] === 10) line++;
    countedTo = Math.max(countedTo, chunkStart + to);
    return line;
  };
  let entryLine = 1;
  let lastOffset = 0; // offset of the last token read, to place an error

  tokenizer.onToken = (t) => {
    if (failure) return;
    lastOffset = t.offset;
    if (t.token === TokenType.LEFT_BRACE || t.token === TokenType.LEFT_BRACKET) {
      if (depth === 0) sawRoot = true;
      if (depth === ENTRY_DEPTH && t.token === TokenType.LEFT_BRACE) entryLine = lineAt(t.offset);
      depth++;
    } else if (t.token === TokenType.RIGHT_BRACE || t.token === TokenType.RIGHT_BRACKET) {
      depth--;
      if (depth === 0) rootClosed = true;
    } else if (depth === 0) {
      sawRoot = true;
    }
    parser.write(t);
  };
  parser.onValue = ({ value, key, stack }) => {
    const parentKey = stack[stack.length - 1]?.key;
    if (parentKey === 'entries' && typeof key === 'number') {
      info.entries++;
      pending.push({ value, line: entryLine });
    } else if (key === 'creator' && value && typeof value === 'object') {
      const c = value as { name?: unknown; version?: unknown };
      if (typeof c.name === 'string') info.creator = c.name;
      if (typeof c.version === 'string') info.creatorVersion = c.version;
    } else if (key === 'version' && typeof value === 'string') {
      info.version = value;
    }
  };
  const fail = (err: Error): void => {
    if (!failure) failure = err.message;
  };
  tokenizer.onError = fail;
  parser.onError = fail;

  for await (const buf of chunks) {
    lineAt(chunkStart + chunk.length); // count the rest of the previous chunk
    chunkStart += chunk.length;
    chunk = buf;
    try {
      tokenizer.write(buf);
    } catch (err) {
      fail(err as Error);
    }
    yield* pending.splice(0);
    if (failure) {
      yield { error: `HAR document is not valid JSON here (${failure}); entries before this point were read`, line: lineAt(Math.max(lastOffset, chunkStart) + 1) };
      return;
    }
    if (rootClosed) break; // anything after the document is ignored
  }
  try {
    if (!rootClosed) tokenizer.end();
  } catch {
    // an incomplete document is reported below
  }
  yield* pending.splice(0);
  const endLine = lineAt(chunkStart + chunk.length);
  if (!sawRoot) yield { error: 'empty HAR document', line: endLine };
  else if (!rootClosed) {
    const where = depth > ENTRY_DEPTH ? `inside the entry that starts at line ${entryLine}` : 'outside an entry';
    yield { error: `HAR document ends early, ${where} (truncated file?): ${info.entries} complete entries read`, line: endLine };
  }
}
