// A loopback hop for the recorders: forwards to an MCP server and, for a tools/call it picks, rewrites the answer.
import { request as httpRequest } from 'node:http';
import { listen, readBody } from './loopback.mjs';

/**
 * A hop that forwards everything; for the POST of a tools/call that `decide` picks it takes the server's whole
 * answer and writes `transform({status, headers, body})` instead, or with {htmlAfterHead} forwards the SSE head and
 * then writes an HTML error page into the stream and ends it, as a reverse proxy that lost its upstream does.
 */
export async function startAnswerHop(upstream, decide) {
  const target = new URL(upstream);
  let n = 0;
  return listen(async (req, res) => {
    const raw = await readBody(req);
    let rpc;
    try {
      rpc = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const isCall = rpc?.method === 'tools/call';
    const action = isCall ? (decide({ n: ++n, rpc }) ?? {}) : {};
    const up = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } });
    up.on('error', () => res.destroy());
    res.on('close', () => up.destroy());
    up.on('response', (ures) => {
      const headers = { ...ures.headers };
      if (action.htmlAfterHead) {
        delete headers['content-length'];
        res.writeHead(ures.statusCode, headers);
        res.flushHeaders();
        setTimeout(() => {
          res.end('<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n');
          up.destroy();
        }, 5);
        return;
      }
      if (action.transform) {
        const chunks = [];
        ures.on('data', (c) => chunks.push(c));
        ures.on('end', () => {
          const out = action.transform({ status: ures.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') });
          delete out.headers['transfer-encoding'];
          out.headers['content-length'] = String(Buffer.byteLength(out.body));
          res.writeHead(out.status, out.headers);
          res.end(out.body);
        });
        return;
      }
      res.writeHead(ures.statusCode, headers);
      res.flushHeaders();
      ures.pipe(res);
    });
    up.end(raw);
  });
}
