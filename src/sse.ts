// Parsing text/event-stream bodies by the WHATWG rules, whole or incrementally, without holding every event.

/** One event block of an SSE stream. */
export interface ParsedSseEvent {
  /** The block's own `id:` field, when it had one. */
  id?: string;
  /** The block's `event:` field; absent means "message". */
  event?: string;
  /** The joined `data:` lines ("" when there were none). */
  data: string;
  /** Whether the block had at least one `data:` field (a priming event has `data:` with nothing after it). */
  hasData: boolean;
  /** The block's `retry:` field in milliseconds. */
  retry?: number;
  /** The body ended inside this block, before its terminating blank line: a client does not dispatch it. */
  truncated?: true;
}

/** How much of the text that is no SSE field a parser keeps. */
const FOREIGN_MAX = 4096;

/**
 * Incremental parser: push text as it arrives, get finished events back; end() flushes a cut block.
 * Comment lines (":" keep-alives) are counted, not returned.
 */
export class SseParser {
  private buf = '';
  private id: string | undefined;
  private event: string | undefined;
  /** The block's data lines so far, joined with "\n" (undefined before the first). */
  private data: string | undefined;
  private hasData = false;
  private retry: number | undefined;
  private any = false;
  private lastWasCR = false;
  /** Nothing was pushed yet: a stream's leading byte order mark is no part of its first line (WHATWG SSE). */
  private atStart = true;
  comments = 0;
  /**
   * The first lines that are no SSE field (an HTML error page a proxy wrote into the stream), joined with "\n", at most
   * FOREIGN_MAX characters: a client ignores them, so they are the only trace of what was sent there.
   */
  foreign: string | undefined;

  push(text: string, out: ParsedSseEvent[] = []): ParsedSseEvent[] {
    let pos = 0;
    if (this.atStart && text.length > 0) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    }
    if (this.lastWasCR && text.charCodeAt(0) === 0x0a) pos = 1; // CRLF split across pushes
    this.lastWasCR = false;
    // Line ends are found with indexOf (a native scan) in the new text only: the unfinished line kept from earlier
    // pushes has none, so a long line that arrives in many pieces is not scanned again with each piece. The next CR
    // is looked up again only once passed, so a body without any CR costs one scan for it.
    let cr = text.indexOf('\r', pos);
    while (pos < text.length) {
      if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
      let end = text.indexOf('\n', pos);
      if (end === -1) end = text.length;
      if (cr !== -1 && cr < end) end = cr;
      if (end === text.length) {
        this.buf += text.slice(pos);
        return out;
      }
      let line = text.slice(pos, end);
      if (this.buf.length) {
        line = this.buf + line;
        this.buf = '';
      }
      if (text.charCodeAt(end) === 0x0d) {
        if (end + 1 === text.length) this.lastWasCR = true;
        else if (text.charCodeAt(end + 1) === 0x0a) end++;
      }
      pos = end + 1;
      this.line(line, out);
    }
    return out;
  }

  /** Flush at the end of the body: a block without its blank line comes back marked truncated. */
  end(out: ParsedSseEvent[] = []): ParsedSseEvent[] {
    if (this.buf.length) {
      const line = this.buf;
      this.buf = '';
      this.line(line, out);
    }
    if (this.any) {
      const ev = this.take();
      ev.truncated = true;
      out.push(ev);
    }
    return out;
  }

  private line(line: string, out: ParsedSseEvent[]): void {
    if (line.length === 0) {
      if (this.any) out.push(this.take());
      return;
    }
    if (line.charCodeAt(0) === 0x3a) {
      this.comments++;
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data = this.data === undefined ? value : `${this.data}\n${value}`;
        this.hasData = true;
        this.any = true;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.id = value;
          this.any = true;
        }
        break;
      case 'event':
        this.event = value;
        this.any = true;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) {
          this.retry = Number(value);
          this.any = true;
        }
        break;
      default:
        // Unknown fields are ignored by the standard; a line of text with no field at all is kept for the report.
        if ((this.foreign?.length ?? 0) < FOREIGN_MAX) this.foreign = this.foreign === undefined ? line.slice(0, FOREIGN_MAX) : `${this.foreign}\n${line}`.slice(0, FOREIGN_MAX);
        break;
    }
  }

  private take(): ParsedSseEvent {
    const ev: ParsedSseEvent = { data: this.data ?? '', hasData: this.hasData };
    if (this.id !== undefined) ev.id = this.id;
    if (this.event !== undefined) ev.event = this.event;
    if (this.retry !== undefined) ev.retry = this.retry;
    this.id = undefined;
    this.event = undefined;
    this.retry = undefined;
    this.data = undefined;
    this.hasData = false;
    this.any = false;
    return ev;
  }
}

/** What a whole body held besides its events. */
export interface SseBodyRest {
  /** The start of the text in it that was no SSE field (see SseParser.foreign). */
  foreign: string | undefined;
  /** Its comment lines (": keepalive", ": ping"): a server that sends them holds the stream open while it works. */
  comments: number;
}

/**
 * Every event of a whole body, handed to fn in order, 64 KiB of body at a time (no generator on the hot path); returns
 * what else the body held.
 */
export function forEachSseEvent(body: string, fn: (ev: ParsedSseEvent) => void): SseBodyRest {
  const parser = new SseParser();
  const step = 1 << 16;
  const out: ParsedSseEvent[] = [];
  for (let i = 0; i < body.length; i += step) {
    parser.push(body.length <= step ? body : body.slice(i, i + step), out);
    for (const ev of out) fn(ev);
    out.length = 0;
  }
  parser.end(out);
  for (const ev of out) fn(ev);
  return { foreign: parser.foreign, comments: parser.comments };
}

/** Whether an event carries a JSON-RPC message: it has data and its type is "message" (the default). */
export function isMessageEvent(ev: ParsedSseEvent): boolean {
  return ev.hasData && ev.data.length > 0 && (ev.event === undefined || ev.event === 'message' || ev.event === '');
}
