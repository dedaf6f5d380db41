// One HTTP exchange written as canonical v1 split records (request, response, event..., end) as it happens, and the recorder context it writes with.
import type { JsonRpcId, Side, StreamEnd } from '../schema/record.js';
import { redactHeaders, redactText, redactUrl, redactValue } from '../redact.js';
import type { CallNote } from './call-note.js';
import { mediaType, type FlatHeaders } from './headers.js';
import { openRecordSink, type RecordOutput, type RecordSink } from './sink.js';
import { SseTap } from './sse-tap.js';

/** What every record of one recorder carries. */
export interface RecorderContext {
  sink: RecordSink;
  /** Written on every record when set (proxies may leave it out). */
  side?: Side | undefined;
  client?: string | undefined;
  conn?: string | undefined;
  /** Replace secrets in headers, URLs and bodies before they are written (default true). */
  redact: boolean;
}

/** Run a recording step; a recorder failure is never the application's problem. */
export function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Swallowed: the call the application made goes on as if nothing were recorded.
  }
}

/** A client's or a server's recorder context from its options: the output opened, the side defaulted, redaction on unless turned off. */
export function openRecorderContext(options: { out: RecordOutput; side?: Side; client?: string; conn?: string; redact?: boolean }, side: Side): RecorderContext {
  return { sink: openRecordSink(options.out), side: options.side ?? side, client: options.client, conn: options.conn, redact: options.redact ?? true };
}

interface RequestHead {
  method: string;
  url?: string | undefined;
  headers: FlatHeaders;
  /** The body as text (parsed as JSON when it is JSON). */
  bodyText?: string | undefined;
  /** A body that was already parsed by someone else (e.g. express.json()). */
  bodyValue?: unknown;
  note?: CallNote | undefined;
}

const SESSION_HEADER = 'mcp-session-id';

/** True when the value is a JSON-RPC request (or a batch holding one): only those get call notes. */
function carriesJsonRpcRequest(value: unknown): boolean {
  const isRequest = (m: unknown): boolean =>
    typeof m === 'object' && m !== null && 'method' in m && 'id' in m && (m as { id: JsonRpcId | undefined }).id !== undefined;
  return Array.isArray(value) ? value.some(isRequest) : isRequest(value);
}

export class ExchangeRecorder {
  readonly xid: string;
  private readonly started = Date.now();
  private session: string | null = null;
  private requestWritten = false;
  private responseWritten = false;
  private finished = false;
  private sse: SseTap | undefined;
  /** When the last SSE comment (a keep-alive) passed: the end record says it, since no record is written for each. */
  private lastCommentAt: string | undefined;
  // A byte order mark before the body is kept: the Python SDK's client refuses a JSON body that has one.
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private bodyText = '';
  private bodyBytes = 0;

  constructor(private readonly ctx: RecorderContext) {
    this.xid = ctx.sink.nextXid();
  }

  get hasRequest(): boolean {
    return this.requestWritten;
  }

  get hasResponse(): boolean {
    return this.responseWritten;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Bytes of response body seen so far. */
  get responseBytes(): number {
    return this.bodyBytes;
  }

  /** Write the request record (once). */
  request(head: RequestHead): void {
    if (this.requestWritten) return;
    this.requestWritten = true;
    this.session = head.headers[SESSION_HEADER] ?? null;
    const record: Record<string, unknown> = { ...this.common('request'), method: head.method.toUpperCase() };
    if (head.url !== undefined) record.url = this.ctx.redact ? redactUrl(head.url) : head.url;
    record.requestHeaders = this.ctx.redact ? redactHeaders(head.headers) : head.headers;
    let sent: unknown;
    let parsed = false;
    if (head.bodyValue !== undefined) {
      sent = head.bodyValue;
      parsed = true;
    } else if (head.bodyText !== undefined && head.bodyText !== '') {
      try {
        sent = JSON.parse(head.bodyText);
        parsed = true;
      } catch {
        record.sendText = this.ctx.redact ? redactText(head.bodyText) : head.bodyText;
      }
    }
    if (parsed) record.send = this.ctx.redact ? redactValue(sent) : sent;
    if (head.note && parsed && carriesJsonRpcRequest(sent) && Object.keys(head.note).length > 0) record.note = { ...head.note };
    this.ctx.sink.write(record);
  }

  /** Write the response record when the status line and headers arrive (once). */
  response(status: number, headers: FlatHeaders): void {
    if (this.responseWritten || this.finished) return;
    this.responseWritten = true;
    // The request's session keys the exchange; a response header only names it when the request had none
    // (initialize). A different id on a later response stays visible in responseHeaders.
    const fromResponse = headers[SESSION_HEADER];
    if (this.session === null && fromResponse) this.session = fromResponse;
    if (mediaType(headers) === 'text/event-stream') this.sse = new SseTap();
    this.ctx.sink.write({
      ...this.common('response'),
      status,
      responseHeaders: this.ctx.redact ? redactHeaders(headers) : headers,
    });
  }

  /** A piece of the response body as it passed; SSE events are written as soon as they are complete. */
  body(chunk: Uint8Array | string): void {
    if (this.finished) return;
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    this.bodyBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (this.sse) {
      const before = this.sse.comments;
      this.writeEvents(this.sse.push(text));
      if (this.sse.comments > before) this.lastCommentAt = new Date().toISOString();
    } else this.bodyText += text;
  }

  /** Write the end record (once): how the body or connection ended. */
  finish(end: StreamEnd, error?: string): void {
    if (this.finished) return;
    this.finished = true;
    const tail = this.decoder.decode();
    const record: Record<string, unknown> = { ...this.common('end'), end };
    let errorText = error;
    if (this.sse) {
      const rest = this.sse.push(tail);
      const { events, incomplete, nonSseText } = this.sse.finish();
      this.writeEvents([...rest, ...events]);
      if (incomplete) errorText = [errorText, 'the stream ended inside an unterminated event'].filter(Boolean).join('; ');
      if (nonSseText !== undefined) record.nonSseText = this.ctx.redact ? redactText(nonSseText) : nonSseText;
      if (this.sse.comments > 0) {
        record.comments = this.sse.comments;
        if (this.lastCommentAt !== undefined) record.lastCommentTs = this.lastCommentAt;
      }
    } else {
      this.bodyText += tail;
      if (this.bodyText !== '') record.recvText = this.ctx.redact ? redactText(this.bodyText) : this.bodyText;
    }
    if (errorText !== undefined) record.error = this.ctx.redact ? redactText(errorText) : errorText;
    record.durationMs = Date.now() - this.started;
    this.ctx.sink.write(record);
  }

  private writeEvents(events: ReturnType<SseTap['push']>): void {
    for (const e of events) {
      const record: Record<string, unknown> = { ...this.common('event') };
      if (e.id !== undefined) record.id = e.id;
      if (e.event !== undefined) record.event = e.event;
      record.data = this.ctx.redact ? redactText(e.data) : e.data;
      if (e.retry !== undefined) record.retry = e.retry;
      this.ctx.sink.write(record);
    }
  }

  private common(kind: string): Record<string, unknown> {
    const record: Record<string, unknown> = { v: 1, kind, ts: new Date().toISOString() };
    if (this.ctx.side !== undefined) record.side = this.ctx.side;
    record.session = this.session;
    if (this.ctx.conn !== undefined) record.conn = this.ctx.conn;
    if (this.ctx.client !== undefined) record.client = this.ctx.client;
    record.xid = this.xid;
    return record;
  }
}
