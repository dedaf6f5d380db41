// Incremental text/event-stream parser for recorders: text chunks in, whole events out, as they complete.

/** One SSE event block as it was on the wire (fields absent when the block did not carry them). */
export interface TappedEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/**
 * Splits an event stream into events following the WHATWG rules (CR, LF or CRLF line ends, ':' comments,
 * one optional space after the colon). Unlike a browser it keeps blocks with empty data (priming events that
 * only carry an id), because a recording must show them.
 */
export class SseTap {
  private buffer = '';
  private current: { id?: string; event?: string; data: string[]; retry?: number; seen: boolean } = { data: [], seen: false };

  /** Feed decoded text; returns the events completed by it. */
  push(text: string): TappedEvent[] {
    this.buffer += text;
    const events: TappedEvent[] = [];
    let start = 0;
    for (;;) {
      const lf = this.buffer.indexOf('\n', start);
      const cr = this.buffer.indexOf('\r', start);
      if (lf < 0 && cr < 0) break;
      let end: number;
      let next: number;
      if (cr >= 0 && (lf < 0 || cr < lf)) {
        // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
        if (cr === this.buffer.length - 1) break;
        end = cr;
        next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
      } else {
        end = lf;
        next = lf + 1;
      }
      this.line(this.buffer.slice(start, end), events);
      start = next;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** The stream ended: a trailing CR ends its line; an unterminated event is discarded (as browsers do). */
  finish(): { events: TappedEvent[]; incomplete: boolean } {
    const events: TappedEvent[] = [];
    if (this.buffer.endsWith('\r')) {
      this.line(this.buffer.slice(0, -1), events);
      this.buffer = '';
    }
    const incomplete = this.buffer.length > 0 || this.current.seen;
    this.buffer = '';
    this.current = { data: [], seen: false };
    return { events, incomplete };
  }

  private line(line: string, out: TappedEvent[]): void {
    if (line === '') {
      if (this.current.seen) {
        const { id, event, data, retry } = this.current;
        const e: TappedEvent = { data: data.join('\n') };
        if (id !== undefined) e.id = id;
        if (event !== undefined) e.event = event;
        if (retry !== undefined) e.retry = retry;
        out.push(e);
      }
      this.current = { data: [], seen: false };
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.current.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.current.id = value;
        break;
      case 'event':
        this.current.event = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.current.retry = Number(value);
        break;
      default:
        return;
    }
    this.current.seen = true;
  }
}
