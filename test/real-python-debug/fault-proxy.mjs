// The HTTP failures of record.mjs's http-errors scenario, in front of the server (127.0.0.1 only): forwards every
// request to TARGET but the first tools/call of set_flag (503, text), lookup k2's (500, a JSON-RPC error body) and
// lookup k4's (503 after 10 ms); none of those three reaches the server.
//   node fault-proxy.mjs PORT TARGET_URL
import http from 'node:http';
const [listen, target] = [Number(process.argv[2]), new URL(process.argv[3])];
let setFlagSeen = 0;
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const text = body.toString();
    let m; try { m = JSON.parse(text); } catch {}
    if (m?.method === 'tools/call' && m.params?.name === 'set_flag' && setFlagSeen++ === 0) { res.writeHead(503, { 'content-type': 'text/plain' }); res.end('upstream unavailable'); return; }
    if (m?.method === 'tools/call' && m.params?.arguments?.key === 'k2') { res.writeHead(500, { 'content-type': 'application/json' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: 'gateway: upstream reset' } })); return; }
    if (m?.method === 'tools/call' && m.params?.arguments?.key === 'k4') { setTimeout(() => { res.writeHead(503, { 'content-type': 'text/plain' }); res.end('busy'); }, 10); return; }
    const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (ur) => { res.writeHead(ur.statusCode, ur.headers); ur.pipe(res); });
    up.on('error', () => { res.destroy(); });
    up.end(body);
  });
}).listen(listen, '127.0.0.1');
