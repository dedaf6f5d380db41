// A loopback hop for the audit recorders: forwards to an MCP server and, for a request it picks, changes the answer.
import { request as httpRequest } from 'node:http';
import { listen, readBody } from './loopback.mjs';

export const NGINX_502 = '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

/**
 * A hop that forwards everything. For each JSON-RPC request it asks `decide({n, nMethod, rpc, method, tool})` (n counts
 * the requests of this method and tool, nMethod those of this method) and does what the action says:
 *  {respond: {status, headers, body}}   answer without forwarding (the server never sees it)
 *  {afterRun: {status, headers, body}}  let the server answer in full, then answer the client with this instead
 *  {transform}      take the server's whole answer and write transform({status, headers, body}) instead
 *  {htmlAfterHead}  forward the head, then write nginx's 502 page (or the page given) as the body and end it (a proxy
 *                   that lost its upstream)
 *  {moveToGet: 'end'|'hold'}  forward the call's SSE stream, but write the response event on the session's standalone
 *                   GET stream instead; then end the POST stream ('end') or keep it open until the client leaves ('hold')
 *  {stripSessionHeader: true}  remove Mcp-Session-Id from the response (a proxy that drops it)
 */
export async function startAnswerHop(upstream, decide) {
  const target = new URL(upstream);
  const counts = new Map();
  const getStreams = new Map();
  const bump = (key) => {
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return counts.get(key);
  };
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const nMethod = bump(`${rpc?.method ?? req.method}`);
    const n = bump(`${rpc?.method ?? req.method} ${rpc?.params?.name ?? ''}`);
    const action = rpc?.method ? (decide({ n, nMethod, rpc, method: rpc.method, tool: rpc.params?.name }) ?? {}) : {};
    if (action.respond) {
      res.writeHead(action.respond.status, action.respond.headers ?? {});
      res.end(action.respond.body ?? '');
      return;
    }
    const sid = req.headers['mcp-session-id'];
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (action.stripSessionHeader) delete headers['mcp-session-id'];
      if (action.htmlAfterHead) {
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        setTimeout(() => {
          res.end(typeof action.htmlAfterHead === 'string' ? action.htmlAfterHead : NGINX_502);
          up.destroy();
        }, 5);
        return;
      }
      if (action.afterRun || action.transform) {
        const chunks = [];
        ures.on('data', (c) => chunks.push(c));
        ures.on('end', () => {
          const out = action.afterRun ?? action.transform({ status: ures.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
          const h = { ...(out.headers ?? {}) };
          delete h['transfer-encoding'];
          h['content-length'] = String(Buffer.byteLength(out.body));
          res.writeHead(out.status, h);
          res.end(out.body);
        });
        return;
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      if (req.method === 'GET' && ures.statusCode === 200 && typeof sid === 'string') {
        getStreams.set(sid, res);
        res.on('close', () => getStreams.get(sid) === res && getStreams.delete(sid));
      }
      if (action.moveToGet && /event-stream/.test(headers['content-type'] ?? '')) {
        let buf = '';
        ures.on('data', (chunk) => {
          const [evs, rest] = splitEvents(buf + chunk.toString('utf8'));
          buf = rest;
          for (const ev of evs) {
            const get = getStreams.get(sid);
            if (!isResponse(ev) || !get) res.write(ev);
            else if (action.moveToGet === 'hold') get.write(ev);
            else {
              // the POST stream ends first, the response follows on the GET stream 30 ms later
              res.end();
              setTimeout(() => get.write(ev), 30);
            }
          }
        });
        ures.on('end', () => {
          if (action.moveToGet === 'end' && !res.writableEnded) res.end();
        });
        return;
      }
      ures.pipe(res);
    });
    up.end(raw);
  });
}

/** Only tools/call requests, counted over all tools: `decide({n, rpc})` as the fourth audit's scenarios are written. */
export function callsOnly(decide) {
  let calls = 0;
  return ({ method, rpc }) => (method === 'tools/call' ? decide({ n: ++calls, rpc }) : {});
}

/** Complete SSE events (each with its blank line, LF or CRLF as the Python SDK writes) from a buffer, and what is left after the last one. */
function splitEvents(text) {
  const evs = [];
  let at = 0;
  const blank = /\r?\n\r?\n/g;
  for (let m = blank.exec(text); m; m = blank.exec(text)) {
    evs.push(text.slice(at, blank.lastIndex));
    at = blank.lastIndex;
  }
  return [evs, text.slice(at)];
}

/** An SSE event whose data is a JSON-RPC response (result or error with an id). */
function isResponse(ev) {
  const data = ev.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
  try {
    const m = JSON.parse(data);
    return m && m.id !== undefined && m.id !== null && (m.result !== undefined || m.error !== undefined);
  } catch {
    return false;
  }
}
