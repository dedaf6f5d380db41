// Whole JSON documents read incrementally - a HAR 1.2 file's `log.entries[]`, a top-level array's items (an MCP Inspector export), a paged API response's `items[]` (the MCP test kitchen's observations, pretty-printed), an OTLP export's `resourceSpans[]` or mcpsnoop's JSON export's `events[]` - each item with the line it starts on, never the whole document.
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';

export type HarDocumentItem = { value: unknown; line: number } | { error: string; line: number };

/** Facts about the document, filled in as they are read (the creator comes before the entries in every known producer). */
export interface HarDocumentInfo {
  creator?: string;
  creatorVersion?: string;
  version?: string;
  /** Entries yielded so far. */
  entries: number;
  /** mcpsnoop's `export -T json`: its `session` object (read before its `events`). */
  snoopSession?: Record<string, unknown>;
}

/** Where the items of a document are, and what to call it in messages. */
interface DocumentShape {
  /** Depth of the `{` that opens an item: for HAR the root object (1), `log` (2), `entries` (3); for an array, 1. */
  itemDepth: number;
  paths: string[];
  /** The parent key of an item (`entries` for HAR; undefined for the root array). */
  parentKey: string | undefined;
  name: string;
  what: string;
}

const HAR: DocumentShape = { itemDepth: 3, paths: ['$.log.entries.*', '$.log.creator', '$.log.version'], parentKey: 'entries', name: 'HAR document', what: 'entries' };
const ARRAY: DocumentShape = { itemDepth: 1, paths: ['$.*'], parentKey: undefined, name: 'JSON array document', what: 'items' };
// mcpsnoop's `export -T json`: `{"generated_at", "session": {...}, "summary", "capabilities", "calls", "events": [...], "interactions"}`; its events are the trace's frames.
const SNOOP: DocumentShape = { itemDepth: 2, paths: ['$.session', '$.events.*'], parentKey: 'events', name: "mcpsnoop's JSON export", what: 'events' };
const page = (key: string): DocumentShape => ({ itemDepth: 2, paths: [`$.${key}.*`], parentKey: key, name: 'JSON page document', what: key });

/**
 * Streams the entries of a HAR document. Each entry is parsed on its own as it completes; entries already
 * yielded are not kept. A document cut short (or broken by garbage) yields every complete entry before the
 * break, then one error item at the line where it broke.
 */
export function harDocumentEntries(chunks: AsyncIterable<Buffer>, info: HarDocumentInfo = { entries: 0 }): AsyncGenerator<HarDocumentItem> {
  return documentItems(chunks, HAR, info);
}

/** Streams the items of a document that is one JSON array (pretty-printed or not), the same way. */
export function jsonArrayItems(chunks: AsyncIterable<Buffer>, info: HarDocumentInfo = { entries: 0 }): AsyncGenerator<HarDocumentItem> {
  return documentItems(chunks, ARRAY, info);
}

/** Streams the events of mcpsnoop's `export -T json` document, the same way; its `session` object is put in `info.snoopSession` as soon as it is read. */
export function mcpsnoopExportEvents(chunks: AsyncIterable<Buffer>, info: HarDocumentInfo = { entries: 0 }): AsyncGenerator<HarDocumentItem> {
  return documentItems(chunks, SNOOP, info);
}

/** Streams the items of a document whose first key is the list `key` (`{"items": [...], "totalCount": ...}`, pretty-printed), the same way. */
export function jsonPageItems(chunks: AsyncIterable<Buffer>, key: string, info: HarDocumentInfo = { entries: 0 }): AsyncGenerator<HarDocumentItem> {
  return documentItems(chunks, page(key), info);
}

async function* documentItems(chunks: AsyncIterable<Buffer>, shape: DocumentShape, info: HarDocumentInfo): AsyncGenerator<HarDocumentItem> {
  const ENTRY_DEPTH = shape.itemDepth;
  const tokenizer = new Tokenizer();
  const parser = new TokenParser({ paths: shape.paths, keepStack: false });
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
  // HAR: `log` must be an object and `log.entries` a list, else no entry is read and the document seemed to hold none.
  // Their types are read from the tokens (the parser keeps only the entries' items): the last key of the root object
  // or of `log`, and whether the next token is its value.
  let key: string | undefined;
  let valueNext = false;
  let inLog = false;
  let wrongShape: HarDocumentItem | undefined; // the document's one error: nothing after it is read

  tokenizer.onToken = (t) => {
    if (failure || wrongShape) return;
    lastOffset = t.offset;
    if (shape === HAR && (depth === 1 || (depth === 2 && inLog))) {
      if (valueNext) {
        valueNext = false;
        const [name, want, what] = depth === 1 ? ['log', TokenType.LEFT_BRACE, 'an object'] : ['log.entries', TokenType.LEFT_BRACKET, 'a list'];
        if (key === name.replace('log.', '') && t.token !== want) {
          wrongShape = { error: `${shape.name} whose ${name} is ${tokenKind(t.token)}, not ${what} (HAR 1.2): no entry of it can be read`, line: lineAt(t.offset) };
          return;
        } else if (depth === 1 && key === 'log') inLog = true;
      } else if (t.token === TokenType.STRING) key = String(t.value);
      else if (t.token === TokenType.COLON) valueNext = true;
    }
    if (t.token === TokenType.LEFT_BRACE || t.token === TokenType.LEFT_BRACKET) {
      if (depth === 0) sawRoot = true;
      if (depth === ENTRY_DEPTH) entryLine = lineAt(t.offset);
      depth++;
    } else if (t.token === TokenType.RIGHT_BRACE || t.token === TokenType.RIGHT_BRACKET) {
      depth--;
      if (depth === 1) inLog = false;
      if (depth === 0) rootClosed = true;
    } else if (depth === 0) {
      sawRoot = true;
    } else if (depth === ENTRY_DEPTH && t.token !== TokenType.COMMA && t.token !== TokenType.COLON) {
      entryLine = lineAt(t.offset); // an item that is a plain value (a number, a string) starts here
    }
    parser.write(t);
  };
  parser.onValue = ({ value, key, stack }) => {
    const parentKey = stack[stack.length - 1]?.key;
    if (parentKey === shape.parentKey && typeof key === 'number') {
      info.entries++;
      pending.push({ value, line: entryLine });
    } else if (shape === SNOOP) {
      if (key === 'session' && value && typeof value === 'object' && !Array.isArray(value)) info.snoopSession = value as Record<string, unknown>;
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
    if (wrongShape) {
      yield wrongShape;
      return;
    }
    if (failure) {
      yield { error: `${shape.name} is not valid JSON here (${failure}); ${shape.what} before this point were read`, line: lineAt(Math.max(lastOffset, chunkStart) + 1) };
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
  const one = shape.what === 'entries' ? 'entry' : 'item';
  if (!sawRoot) yield { error: `empty ${shape.name}`, line: endLine };
  else if (!rootClosed) {
    const where = depth > ENTRY_DEPTH ? `inside the ${one} that starts at line ${entryLine}` : `outside an ${one}`;
    yield { error: `${shape.name} ends early, ${where} (truncated file?): ${info.entries} complete ${shape.what} read`, line: endLine };
  }
}

/** A JSON value's type, from its first token, for a diagnostic. */
function tokenKind(token: TokenType): string {
  if (token === TokenType.LEFT_BRACE) return 'an object';
  if (token === TokenType.LEFT_BRACKET) return 'a list';
  if (token === TokenType.STRING) return 'text';
  if (token === TokenType.NUMBER) return 'a number';
  if (token === TokenType.TRUE || token === TokenType.FALSE) return 'a boolean';
  return 'null';
}
