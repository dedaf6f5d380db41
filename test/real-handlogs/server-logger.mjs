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
