// Incremental text/event-stream parsing for recorders: text chunks in, whole events out, as they complete.
import { SseParser, type ParsedSseEvent } from '../sse.js';

/** One SSE event block as it was on the wire (fields absent when the block did not carry them). */
interface TappedEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/**
 * The analysis's own SSE parser (WHATWG rules: CR, LF or CRLF line ends, ':' comments, one optional space after
 * the colon), read the way a recording needs it. Unlike a browser it keeps blocks with empty data (priming events
 * that only carry an id), because a recording must show them; an event the stream ended inside is reported, not
 * invented.
 */
export class SseTap {
  private readonly parser = new SseParser();

  /** The comment lines (`: keepalive`) seen so far: a recording writes no record for each, only their count at the end. */
  get comments(): number {
    return this.parser.comments;
  }

  /** Feed decoded text; returns the events completed by it. */
  push(text: string): TappedEvent[] {
    return this.parser.push(text).map(tapped);
  }

  /**
   * The stream ended: whether it ended inside an event (one without its blank line, which is not returned), and the
   * start of the text in it that was no SSE field (an error page a proxy wrote after the head), which no event shows.
   */
  finish(): { events: TappedEvent[]; incomplete: boolean; nonSseText: string | undefined } {
    const incomplete = this.parser.end().length > 0;
    return { events: [], incomplete, nonSseText: this.parser.foreign };
  }
}

function tapped(ev: ParsedSseEvent): TappedEvent {
  const e: TappedEvent = { data: ev.data };
  if (ev.id !== undefined) e.id = ev.id;
  if (ev.event !== undefined) e.event = ev.event;
  if (ev.retry !== undefined) e.retry = ev.retry;
  return e;
}
