// The two client loggers of the fifteenth audit, written as a user would from the README alone: fetch wrappers for the SDK's StreamableHTTPClientTransport that append canonical records to a file.
import { appendFileSync } from 'node:fs';

const line = (out, rec) => appendFileSync(out, JSON.stringify(rec) + '\n');
const bodyOf = (init) => (typeof init?.body === 'string' ? init.body : undefined);
const methodOf = (input, init) => init?.method ?? (input instanceof Request ? input.method : 'GET');

/**
 * Variant A, one `exchange` record per request, logged when the response body is done: ts as epoch ms (Date.now()),
 * durationMs from performance.now() (a float), headers copied from the Headers objects, the JSON body parsed into
 * `send`, the response body teed and kept whole as `recvText` (an SSE body too), a failed fetch as `status: null` with
 * the error's message.
 */
export function exchangeLogger(out, inner = globalThis.fetch) {
  return async (input, init) => {
    const ts = Date.now();
    const t0 = performance.now();
    const body = bodyOf(init);
    const base = {
      v: 1, kind: 'exchange', ts, side: 'client', method: methodOf(input, init), url: String(input instanceof Request ? input.url : input),
      requestHeaders: Object.fromEntries(new Headers(init?.headers)),
      ...(body !== undefined ? { send: JSON.parse(body) } : {}),
    };
    let res;
    try {
      res = await inner(input, init);
    } catch (e) {
      line(out, { ...base, status: null, error: e?.cause?.message ? `${e.message}: ${e.cause.message}` : String(e?.message ?? e), durationMs: performance.now() - t0 });
      throw e;
    }
    if (!res.body) {
      line(out, { ...base, status: res.status, responseHeaders: Object.fromEntries(res.headers), recvText: '', durationMs: performance.now() - t0 });
      return res;
    }
    const [mine, theirs] = res.body.tee();
    new Response(mine).text().then(
      (text) => line(out, { ...base, status: res.status, responseHeaders: Object.fromEntries(res.headers), recvText: text, end: 'complete', durationMs: performance.now() - t0 }),
      (e) => line(out, { ...base, status: res.status, responseHeaders: Object.fromEntries(res.headers), end: init?.signal?.aborted ? 'aborted' : 'error', error: String(e?.message ?? e), durationMs: performance.now() - t0 }),
    );
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/**
 * Variant B, split records as the exchange happens: `request` when it is sent, `response` at the head, one `event`
 * per SSE event (a small parser of its own), `end` when the body is done; ts as ISO strings, xid a counter (a number,
 * as a user's counter is), a non-SSE body carried whole on the `end` record.
 */
export function splitLogger(out, inner = globalThis.fetch) {
  let n = 0;
  return async (input, init) => {
    const xid = ++n;
    const now = () => new Date().toISOString();
    const t0 = performance.now();
    const body = bodyOf(init);
    line(out, { v: 1, kind: 'request', xid, ts: now(), side: 'client', method: methodOf(input, init), url: String(input), requestHeaders: Object.fromEntries(new Headers(init?.headers)), ...(body !== undefined ? { sendText: body } : {}) });
    let res;
    try {
      res = await inner(input, init);
    } catch (e) {
      line(out, { v: 1, kind: 'end', xid, ts: now(), end: 'error', error: String(e?.cause?.code ?? e?.message ?? e), durationMs: performance.now() - t0 });
      throw e;
    }
    line(out, { v: 1, kind: 'response', xid, ts: now(), status: res.status, responseHeaders: Object.fromEntries(res.headers) });
    if (!res.body) {
      line(out, { v: 1, kind: 'end', xid, ts: now(), end: 'complete', durationMs: performance.now() - t0 });
      return res;
    }
    const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
    const [mine, theirs] = res.body.tee();
    (async () => {
      const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      let whole = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!sse) { whole += value; continue; }
          buf += value;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const ev = { v: 1, kind: 'event', xid, ts: now(), data: '' };
            const data = [];
            for (const l of block.split('\n')) {
              const [k, ...rest] = l.split(':');
              const val = rest.join(':').replace(/^ /, '');
              if (k === 'data') data.push(val);
              else if (k === 'id') ev.id = val;
              else if (k === 'event') ev.event = val;
            }
            ev.data = data.join('\n');
            line(out, ev);
          }
        }
        line(out, { v: 1, kind: 'end', xid, ts: now(), end: 'complete', durationMs: performance.now() - t0, ...(sse ? {} : { recvText: whole }) });
      } catch (e) {
        line(out, { v: 1, kind: 'end', xid, ts: now(), end: init?.signal?.aborted ? 'aborted' : 'error', error: String(e?.message ?? e), durationMs: performance.now() - t0 });
      }
    })();
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}
