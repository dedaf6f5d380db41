// The fifteenth audit's server logger, written as a user would from the README alone: an Express middleware that wraps res.write/res.end and logs one canonical `exchange` per request.
import { appendFileSync } from 'node:fs';

/**
 * Logs each request when its response is finished (or its connection closed first): req.headers copied as Node gives
 * them (lowercase names, IncomingHttpHeaders), the body express.json() parsed as `send`, res.getHeaders() as
 * responseHeaders, every chunk written as `recvText`, ts as ISO text, durationMs from performance.now().
 */
export function serverLogger(out) {
  return (req, res, next) => {
    const ts = new Date().toISOString();
    const t0 = performance.now();
    const chunks = [];
    const write = res.write;
    const end = res.end;
    res.write = function (chunk, ...rest) {
      if (chunk) chunks.push(Buffer.from(chunk));
      return write.call(this, chunk, ...rest);
    };
    res.end = function (chunk, ...rest) {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk));
      return end.call(this, chunk, ...rest);
    };
    let logged = false;
    const log = () => {
      if (logged) return;
      logged = true;
      appendFileSync(out, JSON.stringify({
        v: 1, kind: 'exchange', ts, side: 'server',
        session: req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id'),
        method: req.method, url: req.originalUrl,
        requestHeaders: req.headers,
        send: req.body,
        status: res.statusCode,
        responseHeaders: res.getHeaders(),
        recvText: Buffer.concat(chunks).toString('utf8'),
        end: res.writableFinished ? 'complete' : 'aborted',
        durationMs: performance.now() - t0,
      }) + '\n');
    };
    res.on('finish', log);
    res.on('close', log);
    next();
  };
}

/**
 * The split variant, as a user writes it after the README's "written as it happens": `request` when the request
 * arrives (after express.json()), `response` at the first write, one `event` per chunk the SSE response writes (the
 * chunk's text as it is, "event: message\ndata: {...}\n\n", in `data`), `end` when it finishes or closes, a non-SSE body
 * on the `end` as `recvText`; ts as epoch ms, xid a counter.
 */
export function serverSplitLogger(out) {
  let n = 0;
  const line = (rec) => appendFileSync(out, JSON.stringify(rec) + '\n');
  return (req, res, next) => {
    const xid = ++n;
    const t0 = performance.now();
    line({ v: 1, kind: 'request', xid, ts: Date.now(), side: 'server', method: req.method, url: req.originalUrl, requestHeaders: req.headers, ...(req.body !== undefined ? { send: req.body } : {}) });
    let headSent = false;
    const head = () => {
      if (headSent) return;
      headSent = true;
      line({ v: 1, kind: 'response', xid, ts: Date.now(), status: res.statusCode, responseHeaders: res.getHeaders() });
    };
    const sse = () => String(res.getHeader('content-type') ?? '').includes('text/event-stream');
    const body = [];
    const write = res.write;
    const end = res.end;
    res.write = function (chunk, ...rest) {
      head();
      if (chunk) {
        if (sse()) line({ v: 1, kind: 'event', xid, ts: Date.now(), data: Buffer.from(chunk).toString('utf8') });
        else body.push(Buffer.from(chunk));
      }
      return write.call(this, chunk, ...rest);
    };
    res.end = function (chunk, ...rest) {
      head();
      if (chunk && typeof chunk !== 'function') {
        if (sse()) line({ v: 1, kind: 'event', xid, ts: Date.now(), data: Buffer.from(chunk).toString('utf8') });
        else body.push(Buffer.from(chunk));
      }
      return end.call(this, chunk, ...rest);
    };
    let ended = false;
    const done = () => {
      if (ended) return;
      ended = true;
      head();
      line({ v: 1, kind: 'end', xid, ts: Date.now(), end: res.writableFinished ? 'complete' : 'aborted', durationMs: performance.now() - t0, ...(sse() ? {} : { recvText: Buffer.concat(body).toString('utf8') }) });
    };
    res.on('finish', done);
    res.on('close', done);
    next();
  };
}
