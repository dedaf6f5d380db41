// The sixty-eighth audit's loggers, written as a developer writes them without reading mcp-triage's README: a fetch wrapper's line per exchange or per direction, Express middlewares that log the parsed request body with the status, and a route handler's own line.
import { appendFileSync } from 'node:fs';

const line = (out, rec) => appendFileSync(out, JSON.stringify(rec) + '\n');
const urlOf = (input) => String(input instanceof Request ? input.url : input);
const methodOf = (input, init) => init?.method ?? (input instanceof Request ? input.method : 'GET');
/** A JSON body parsed, any other text kept as text (an SSE body). */
const parsedOr = (text) => {
  try { return JSON.parse(text); } catch { return text; }
};

/**
 * Style A ("fetch-line"): one line per HTTP exchange once its body is read, with the request and response headers as
 * objects named requestHeaders/responseHeaders, the bodies as the text sent and received, the time when it started and
 * durationMs; a failed fetch as an `error` line.
 */
export function fetchLineLogger(out, inner = globalThis.fetch) {
  return async (input, init) => {
    const time = new Date().toISOString();
    const t0 = performance.now();
    const base = { time, method: methodOf(input, init), url: urlOf(input), requestHeaders: Object.fromEntries(new Headers(init?.headers)), requestBody: typeof init?.body === 'string' ? init.body : null };
    let res;
    try {
      res = await inner(input, init);
    } catch (e) {
      line(out, { ...base, error: String(e?.cause?.message ?? e?.message ?? e), durationMs: Math.round(performance.now() - t0) });
      throw e;
    }
    res.clone().text().then(
      (text) => line(out, { ...base, status: res.status, responseHeaders: Object.fromEntries(res.headers), responseBody: text, durationMs: Math.round(performance.now() - t0) }),
      (e) => line(out, { ...base, status: res.status, responseHeaders: Object.fromEntries(res.headers), error: String(e?.message ?? e), durationMs: Math.round(performance.now() - t0) }),
    );
    return res;
  };
}

/**
 * Style B ("fetch-pair"): a `request` line before sending and a `response` line when the body is read, `dir` naming
 * which, `headers` of each, the body parsed when it is JSON (else its text), no id tying the two lines.
 */
export function fetchPairLogger(out, inner = globalThis.fetch) {
  return async (input, init) => {
    line(out, { ts: new Date().toISOString(), dir: 'request', method: methodOf(input, init), url: urlOf(input), headers: Object.fromEntries(new Headers(init?.headers)), ...(typeof init?.body === 'string' ? { body: parsedOr(init.body) } : {}) });
    let res;
    try {
      res = await inner(input, init);
    } catch (e) {
      line(out, { ts: new Date().toISOString(), dir: 'error', url: urlOf(input), error: String(e?.cause?.message ?? e?.message ?? e) });
      throw e;
    }
    res.clone().text().then(
      (text) => line(out, { ts: new Date().toISOString(), dir: 'response', status: res.status, headers: Object.fromEntries(res.headers), body: text === '' ? null : parsedOr(text) }),
      () => {},
    );
    return res;
  };
}

/**
 * Style C ("server-status"): an Express middleware after express.json() that logs, when the response is finished, the
 * request's method, path, session header, the parsed body, the status and the time it took; not the response body.
 */
export function serverStatusLogger(out) {
  return (req, res, next) => {
    const t0 = performance.now();
    res.on('close', () => line(out, {
      ts: new Date().toISOString(), method: req.method, path: req.originalUrl, sessionId: req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id') ?? null,
      status: res.statusCode, ms: Math.round(performance.now() - t0), body: req.body ?? null,
    }));
    next();
  };
}

/**
 * Style D ("server-pino"): the same middleware in pino's shape, written by hand: level 30, epoch-ms time, pid,
 * hostname, req {method, url, headers}, res {statusCode, headers}, responseTime, the request body beside, msg.
 */
export function serverPinoLogger(out) {
  return (req, res, next) => {
    const t0 = performance.now();
    res.on('close', () => line(out, {
      level: 30, time: Date.now(), pid: process.pid, hostname: 'app-1',
      req: { method: req.method, url: req.originalUrl, headers: { 'mcp-session-id': req.headers['mcp-session-id'], 'content-type': req.headers['content-type'] } },
      res: { statusCode: res.statusCode, headers: { 'mcp-session-id': res.getHeader('mcp-session-id'), 'content-type': res.getHeader('content-type') } },
      responseTime: Math.round(performance.now() - t0), body: req.body, msg: 'request completed',
    }));
    next();
  };
}

/**
 * Style E ("server-handled"): a line the route handler logs with the app's logger once the SDK's transport has handled
 * the request: level, time, msg, the session header, res.statusCode and the parsed JSON-RPC request as `rpc`; no URL,
 * no response body.
 */
export function logHandled(out, req, res) {
  line(out, { level: 'info', time: new Date().toISOString(), msg: 'mcp request handled', sessionId: req.headers['mcp-session-id'] ?? res.getHeader('mcp-session-id') ?? null, status: res.statusCode, rpc: req.body });
}
