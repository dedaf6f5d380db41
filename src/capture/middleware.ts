// Server-side recorder for Node http handlers and Express-style middleware: what the server received and sent.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Side } from '../schema/record.js';
import { ExchangeRecorder, openRecorderContext, safely, type RecorderContext } from './exchange.js';
import { decoderFor } from './content-encoding.js';
import { fromNodeHeaders, type FlatHeaders } from './headers.js';
import type { RecordOutput } from './sink.js';

export interface ServerRecorderOptions {
  /** A file path (records are appended) or a writable stream. */
  out: RecordOutput;
  /** Written on every record (default "server"). */
  side?: Side;
  /** Replace secrets before writing (default true). */
  redact?: boolean;
  /** A connection key written on every record. */
  conn?: string;
  /** An identity written on every record. */
  client?: string;
}

type NodeHandler<Req extends IncomingMessage, Res extends ServerResponse> = (req: Req, res: Res, ...rest: never[]) => unknown;

/** Records one exchange without changing what the handler reads or what the client receives. */
export type ExchangeTap = (req: IncomingMessage, res: ServerResponse) => void;

/** A tap bound to one output; use it directly, or through the two wrappers below. */
export function createServerRecorder(options: ServerRecorderOptions): { tap: ExchangeTap; close(): Promise<void> } {
  const ctx = openRecorderContext(options, 'server');
  return { tap: (req, res) => tapExchange(req, res, ctx), close: () => ctx.sink.close() };
}

/**
 * Wrap a Node http request handler: `http.createServer(recordingHandler(handler, { out: 'server.ndjson' }))`.
 * The handler gets the same req and res; records are written as the body is read and the response is written.
 */
export function recordingHandler<Req extends IncomingMessage, Res extends ServerResponse>(
  handler: NodeHandler<Req, Res>,
  options: ServerRecorderOptions,
): (req: Req, res: Res) => unknown {
  const { tap } = createServerRecorder(options);
  return (req, res) => {
    tap(req, res);
    return handler(req, res);
  };
}

/** Express-style middleware: `app.use(recordingMiddleware({ out: 'server.ndjson' }))`; mount it before body parsers. */
export function recordingMiddleware(options: ServerRecorderOptions): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  const { tap } = createServerRecorder(options);
  return (req, res, next) => {
    tap(req, res);
    next();
  };
}

/** Observe the request body through emitted 'data' events and the response through writeHead/write/end. */
function tapExchange(req: IncomingMessage, res: ServerResponse, ctx: RecorderContext): void {
  let rec: ExchangeRecorder;
  try {
    rec = new ExchangeRecorder(ctx);
  } catch {
    return;
  }
  const chunks: Buffer[] = [];
  const url = requestUrl(req);
  const writeRequest = (): void =>
    safely(() => {
      if (rec.hasRequest) return;
      // A body parser mounted before us consumed the stream; its parsed value is what the handler sees.
      const preParsed = chunks.length === 0 ? (req as { body?: unknown }).body : undefined;
      rec.request({
        method: req.method ?? 'GET',
        url,
        headers: fromNodeHeaders(req.headers),
        bodyText: chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined,
        bodyValue: preParsed,
      });
    });
  if (req.readableEnded) writeRequest();

  const emit = req.emit;
  req.emit = function (this: IncomingMessage, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') {
      safely(() => {
        const chunk = args[0];
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk), (req.readableEncoding ?? 'utf8') as BufferEncoding));
      });
    } else if (event === 'end') {
      writeRequest();
    }
    return emit.call(this, event, ...args);
  } as typeof req.emit;

  const noteHead = (status: number, extra?: FlatHeaders): void =>
    safely(() => {
      if (rec.hasResponse) return;
      writeRequest();
      rec.response(status, { ...fromNodeHeaders(res.getHeaders()), ...extra });
    });

  // writeHead only stores the head: Node sends it with the first body bytes, on end() or on flushHeaders(). It is
  // recorded then, so a head that never left (the client gave up first) is not logged as a response.
  let unsentHead: { status: number; headers: FlatHeaders } | undefined;
  const sendHead = (): void => {
    if (unsentHead === undefined) return;
    const head = unsentHead;
    unsentHead = undefined;
    noteHead(head.status, head.headers);
  };
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const result = (writeHead as (...a: unknown[]) => ServerResponse).call(this, statusCode, ...rest);
    const headersArg = typeof rest[0] === 'string' ? rest[1] : rest[0];
    safely(() => {
      if (!rec.hasResponse && unsentHead === undefined) unsentHead = { status: statusCode, headers: fromNodeHeaders(headersArg) };
    });
    return result;
  } as typeof res.writeHead;

  const flushHeaders = res.flushHeaders;
  res.flushHeaders = function (this: ServerResponse) {
    flushHeaders.call(this);
    sendHead();
    noteHead(res.statusCode);
  } as typeof res.flushHeaders;

  // A compression middleware mounted after this one (Express's compression()) writes the encoded bytes through it: the
  // record gets them decoded, as the client reads them (else a gzip body reads as broken JSON).
  let decoder: ReturnType<typeof decoderFor> | null = null;
  let decoded: Promise<void> = Promise.resolve();
  const body = (bytes: Uint8Array): void => {
    if (decoder === null) {
      decoder = decoderFor(res.getHeader('content-encoding'));
      if (decoder) {
        const d = decoder;
        d.on('data', (c: Buffer) => safely(() => rec.body(c)));
        decoded = new Promise((done) => {
          d.on('end', done);
          d.on('error', () => done()); // recorded as far as it decoded
        });
      }
    }
    if (decoder) decoder.write(bytes);
    else rec.body(bytes);
  };
  const record = (chunk: unknown, encoding: unknown): void =>
    safely(() => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
      sendHead();
      noteHead(res.statusCode);
      if (typeof chunk === 'string') body(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) body(chunk);
    });

  const write = res.write;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    const result = (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    record(chunk, rest[0]);
    return result;
  } as typeof res.write;

  const end = res.end;
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    const result = (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    record(chunk, rest[0]);
    sendHead();
    noteHead(res.statusCode);
    return result;
  } as typeof res.end;

  let finished = false;
  res.once('finish', () =>
    safely(() => {
      finished = true;
      if (!decoder) return rec.finish('complete');
      decoder.end();
      void decoded.then(() => safely(() => rec.finish('complete')));
    }));
  res.once('close', () =>
    safely(() => {
      if (rec.isFinished || finished) return;
      writeRequest();
      const unsent = unsentHead;
      unsentHead = undefined;
      rec.finish(
        'aborted',
        rec.hasResponse ? 'the connection closed before the response was complete'
          : unsent ? `the connection closed before a response was sent (a ${unsent.status} head was set but never sent)`
          : 'the connection closed before a response was sent',
      );
    }),
  );
}

function requestUrl(req: IncomingMessage): string | undefined {
  if (req.url === undefined) return undefined;
  if (/^https?:\/\//i.test(req.url)) return req.url;
  const host = req.headers.host;
  if (!host) return req.url;
  const tls = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return `${tls ? 'https' : 'http'}://${host}${req.url}`;
}
