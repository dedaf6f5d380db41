// recordingFetch(): a fetch wrapper that writes every exchange it carries as canonical split records, as it happens.
import type { Side, StreamEnd } from '../schema/record.js';
import { currentCallNote } from './call-note.js';
import { ExchangeRecorder, openRecorderContext, safely } from './exchange.js';
import { fromFetchHeaders } from './headers.js';
import type { RecordOutput } from './sink.js';

export interface RecordingFetchOptions {
  /** The fetch to wrap (default: globalThis.fetch at call time). */
  fetch?: typeof fetch;
  /** A file path (records are appended) or a writable stream. */
  out: RecordOutput;
  /** Written on every record (default "client"). */
  side?: Side;
  /** The client's identity, e.g. "my-agent@1.4.0". */
  client?: string;
  /** Replace secrets before writing (default true). */
  redact?: boolean;
  /** A connection key for logs without sessions (e.g. one per Client instance). */
  conn?: string;
}

/** A fetch-compatible function that records; `close()` releases the output file. */
export type RecordingFetch = typeof fetch & { close(): Promise<void> };

/** Statuses whose responses cannot carry a body (the Response constructor rejects one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * Wrap a fetch so every request, response head, SSE event and stream end is appended to `out` as canonical
 * records. The application gets the same response: the body is passed through chunk by chunk as the reader
 * pulls it, so SSE events are not delayed. Recording failures never reach the application.
 */
export function recordingFetch(options: RecordingFetchOptions): RecordingFetch {
  const ctx = openRecorderContext(options, 'client');

  const recorded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const inner = options.fetch ?? globalThis.fetch;
    let rec: ExchangeRecorder | undefined;
    try {
      rec = new ExchangeRecorder(ctx);
      rec.request(await describeRequest(input, init));
    } catch {
      // Never let the recorder stop the call.
    }
    // The caller's signal: an abort with a reason of its own (an Error, not an AbortError) is still an abort.
    const signal = init?.signal ?? (typeof Request !== 'undefined' && input instanceof Request ? input.signal : undefined) ?? undefined;
    let response: Response;
    try {
      response = await inner(input, init);
    } catch (err) {
      safely(() => rec?.finish(endForError(err, signal), errorText(err)));
      throw err;
    }
    if (!rec) return response;
    try {
      return tapResponse(response, rec, signal);
    } catch {
      safely(() => rec.finish('complete', 'the recorder could not follow this body'));
      return response;
    }
  };
  return Object.assign(recorded as typeof fetch, { close: () => ctx.sink.close() });
}

async function describeRequest(input: string | URL | Request, init: RequestInit | undefined) {
  const isRequest = typeof Request !== 'undefined' && input instanceof Request;
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = (init?.method ?? (isRequest ? (input as Request).method : 'GET')).toUpperCase();
  const headers = fromFetchHeaders(new Headers(init?.headers ?? (isRequest ? (input as Request).headers : undefined)));
  let bodyText: string | undefined;
  const body = init?.body;
  if (typeof body === 'string') bodyText = body;
  else if (body instanceof URLSearchParams) bodyText = body.toString();
  else if (body instanceof ArrayBuffer) bodyText = new TextDecoder().decode(body);
  else if (ArrayBuffer.isView(body)) bodyText = new TextDecoder().decode(body);
  else if (body === undefined && isRequest && (input as Request).body) bodyText = await (input as Request).clone().text();
  return { method, url, headers, bodyText, note: currentCallNote() };
}

/** Record the head now and hand back a response whose body records each chunk as the reader takes it. */
function tapResponse(response: Response, rec: ExchangeRecorder, signal?: AbortSignal): Response {
  const headers = fromFetchHeaders(response.headers);
  rec.response(response.status, headers);
  const source = response.body;
  if (!source || NULL_BODY_STATUSES.has(response.status) || response.status < 200 || response.status > 599) {
    if (!source) rec.finish('complete');
    else void drainCopy(response, rec);
    return response;
  }
  const init: ResponseInit = { status: response.status, statusText: response.statusText, headers: response.headers };
  try {
    new Response(null, init);
  } catch {
    // A head the Response constructor refuses: record from a copy and give the application the original, untouched.
    void drainCopy(response, rec);
    return response;
  }
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          safely(() => rec.finish(endForError(err, signal), errorText(err)));
          controller.error(err);
          return;
        }
        if (chunk.done) {
          safely(() => rec.finish('complete'));
          controller.close();
          return;
        }
        safely(() => rec.body(chunk.value));
        controller.enqueue(chunk.value);
      },
      async cancel(reason) {
        // The SDK cancels bodies it does not need (a 202's, a GET 405's): a body that had already arrived whole ended normally.
        // A 202 is expected to be empty, so its end is worth waiting for a little longer.
        const expectEmpty = response.status === 202 || headers['content-length'] === '0';
        if (rec.responseBytes === 0 && (await endsAtOnce(reader, rec, expectEmpty ? 1000 : 25))) {
          safely(() => rec.finish('complete'));
          return;
        }
        const why = reason === undefined ? 'the reader cancelled the body' : `the reader cancelled the body: ${errorText(reason)}`;
        safely(() => rec.finish('aborted', why));
        // The body may have failed while it was drained for the check above: the reader's cancel is done either way.
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
  const copy = new Response(body, init);
  for (const prop of ['url', 'redirected', 'type'] as const) {
    Object.defineProperty(copy, prop, { value: response[prop], enumerable: true });
  }
  return copy;
}

/**
 * True when the body turns out to be finished within a moment: what is left of it (at most 1 MiB) arrives and ends
 * before `waitMs`. What arrives is recorded either way.
 */
async function endsAtOnce(reader: ReadableStreamDefaultReader<Uint8Array>, rec: ExchangeRecorder, waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  let bytes = 0;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0 || bytes > 1 << 20) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), left)));
    const next = await Promise.race([reader.read().catch(() => 'error' as const), timeout]);
    clearTimeout(timer);
    if (next === 'timeout' || next === 'error') return false;
    if (next.done) return true;
    const chunk = next.value;
    bytes += chunk.byteLength;
    safely(() => rec.body(chunk));
  }
}

/** For responses that cannot be rebuilt: record the body from a clone, leave the original untouched. */
async function drainCopy(response: Response, rec: ExchangeRecorder): Promise<void> {
  try {
    const reader = response.clone().body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rec.body(value);
    }
    rec.finish('complete');
  } catch (err) {
    safely(() => rec.finish(endForError(err), errorText(err)));
  }
}

/**
 * How a thrown fetch or body error ended the exchange. With the request's signal aborted it was the caller that
 * stopped it, whatever it aborted with: the Vercel AI SDK aborts with its own `MCPClientError("Request timed out
 * after 300ms")` or the application's reason, which fetch rethrows as is.
 */
function endForError(err: unknown, signal?: AbortSignal): StreamEnd {
  if (signal?.aborted) return endForError(signal.reason) === 'timeout' ? 'timeout' : 'aborted';
  const name = err instanceof Error ? err.name : typeof err === 'object' && err !== null ? String((err as { name?: unknown }).name) : '';
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'aborted';
  return 'error';
}

/** Error text including its cause chain ("fetch failed: connect ECONNREFUSED 127.0.0.1:9"). */
function errorText(err: unknown): string {
  const parts: string[] = [];
  let cur: unknown = err;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 4; depth++) {
    if (cur instanceof Error) {
      const code = (cur as { code?: unknown }).code;
      parts.push(typeof code === 'string' && !cur.message.includes(code) ? `${cur.message} (${code})` : cur.message);
      cur = cur.cause;
    } else {
      parts.push(String(cur));
      break;
    }
  }
  return parts.filter(Boolean).join(': ') || 'unknown error';
}
