// Transparent recording proxy: forwards HTTP to one target byte for byte (SSE unbuffered) and records both directions.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Side } from '../schema/record.js';
import { ExchangeRecorder, type RecorderContext } from './exchange.js';
import { decoderFor } from './content-encoding.js';
import { fromRawHeaders } from './headers.js';
import { openRecordSink, type RecordOutput } from './sink.js';

export interface RecordingProxyOptions {
  /** "HOST:PORT", ":PORT" or a port number (host defaults to 127.0.0.1; port 0 picks a free one). */
  listen: string | number;
  /** The server to forward to, e.g. "http://127.0.0.1:3000" (its path, if any, is prefixed to request paths). */
  target: string;
  /** A file path (records are appended) or a writable stream. */
  out: RecordOutput;
  /** Written on every record when set; left out otherwise (set it with --client/--server when reading). */
  side?: Side;
  /** Allow listening on a non-loopback address (off by default: the proxy sees secrets). */
  allowRemote?: boolean;
  /** Replace secrets before writing (default true). Forwarded traffic is never changed. */
  redact?: boolean;
}

export interface RecordingProxy {
  /** The proxy's base URL, e.g. "http://127.0.0.1:43121". */
  url: string;
  /** Stop listening, drop open connections and close the output file. */
  close(): Promise<void>;
  /**
   * Synchronously end the record of every exchange still in flight (`end: "aborted"` with `reason`), so the file is
   * complete even if the process exits right after (a Ctrl-C handler that exits at once).
   */
  endOpenExchanges(reason: string): void;
}

/** Headers that belong to one connection and are not forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

/** Parse "127.0.0.1:8080", "[::1]:8080", ":8080" or 8080. */
export function parseListen(listen: string | number): { host: string; port: number } {
  if (typeof listen === 'number') return { host: '127.0.0.1', port: listen };
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen.trim()) ?? /^()()(\d+)$/.exec(listen.trim());
  if (!m) throw new Error(`--listen must look like 127.0.0.1:8080 or 8080, got "${listen}"`);
  const port = Number(m[3]);
  if (port > 65535) throw new Error(`--listen port out of range: ${port}`);
  // A bare port ("8080") matches with empty groups: the host is then loopback, as for ":8080".
  return { host: m[1] || m[2] || '127.0.0.1', port };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host) || host === '::ffff:127.0.0.1';
}

/** Start the proxy; resolves once it listens. */
export async function startRecordingProxy(options: RecordingProxyOptions): Promise<RecordingProxy> {
  const { host, port } = parseListen(options.listen);
  if (!isLoopback(host) && !options.allowRemote) {
    throw new Error(`refusing to listen on ${host}: the proxy records secrets and bodies; use a loopback address or --allow-remote`);
  }
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--target must be an http(s) URL, got "${options.target}"`);
  const sink = openRecordSink(options.out);
  const ctx: RecorderContext = { sink, side: options.side, redact: options.redact ?? true };

  const sockets = new Set<Socket>();
  const open = new Set<ExchangeRecorder>();
  const server = createServer({ requestTimeout: 0 }, (req, res) => {
    const rec = forward(req, res, target, ctx);
    open.add(rec);
    res.once('close', () => open.delete(rec));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    endOpenExchanges(reason) {
      for (const rec of open) rec.finish('aborted', reason);
      open.clear();
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      await sink.close();
    },
  };
}

/**
 * A redirect's Location as the client must see it: the proxy sends the target its own Host, so a server that builds
 * an absolute Location from Host (Starlette's 307 from /mcp to /mcp/) names the target, which the client would take
 * for another origin (the TypeScript SDK refuses to follow it). Pointed back at the proxy, as a reverse proxy does;
 * the record keeps the header the server sent.
 */
export function clientLocation(location: string, target: URL, basePath: string, proxyHost: string | undefined): string {
  let url: URL;
  try {
    url = new URL(location, target);
  } catch {
    return location;
  }
  if (url.host !== target.host || url.protocol !== target.protocol) return location;
  const path = basePath !== '' && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)) ? url.pathname.slice(basePath.length) || '/' : url.pathname;
  const rest = `${path}${url.search}${url.hash}`;
  // A relative Location stays relative (only a base path the client does not know of is taken off).
  if (!/^[a-z][a-z0-9+.-]*:/i.test(location) && !location.startsWith('//')) return location.startsWith('/') ? rest : location;
  return proxyHost ? `http://${proxyHost}${rest}` : rest;
}

function forward(req: IncomingMessage, res: ServerResponse, target: URL, ctx: RecorderContext): ExchangeRecorder {
  const rec = new ExchangeRecorder(ctx);
  const basePath = target.pathname.replace(/\/$/, '');
  const path = basePath + (req.url ?? '/');
  const upstreamUrl = `${target.protocol}//${target.host}${path}`;
  const requestChunks: Buffer[] = [];
  const writeRequest = (): void => {
    if (rec.hasRequest) return;
    rec.request({
      method: req.method ?? 'GET',
      url: upstreamUrl,
      headers: fromRawHeaders(req.rawHeaders),
      bodyText: requestChunks.length > 0 ? Buffer.concat(requestChunks).toString('utf8') : undefined,
    });
  };

  const headers: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower)) continue;
    headers.push(name, lower === 'host' ? target.host : req.rawHeaders[i + 1]!);
  }
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const upstream = send({
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || undefined,
    method: req.method,
    path,
    headers: headers as unknown as Record<string, string>,
  });

  let clientGone = false;
  upstream.on('response', (ures) => {
    writeRequest();
    rec.response(ures.statusCode ?? 0, fromRawHeaders(ures.rawHeaders));
    const out: string[] = [];
    for (let i = 0; i + 1 < ures.rawHeaders.length; i += 2) {
      const name = ures.rawHeaders[i]!.toLowerCase();
      if (HOP_BY_HOP.has(name)) continue;
      out.push(ures.rawHeaders[i]!, name === 'location' ? clientLocation(ures.rawHeaders[i + 1]!, target, basePath, req.headers.host) : ures.rawHeaders[i + 1]!);
    }
    res.writeHead(ures.statusCode ?? 502, ures.statusMessage, out);
    res.flushHeaders();
    // The client gets the bytes as they came; the record gets the body decoded, as the client reads it.
    const decoder = decoderFor(ures.headers['content-encoding']);
    let decodedEnd: Promise<void> = Promise.resolve();
    if (decoder) {
      decoder.on('data', (c: Buffer) => rec.body(c));
      decodedEnd = new Promise((done) => {
        decoder.on('end', done);
        decoder.on('error', () => done()); // a body that does not decode is recorded as far as it decoded
      });
    }
    ures.on('data', (chunk: Buffer) => {
      if (decoder) decoder.write(chunk);
      else rec.body(chunk);
      if (!res.write(chunk)) ures.pause();
    });
    res.on('drain', () => ures.resume());
    ures.on('end', () => {
      res.end();
      decoder?.end();
      void decodedEnd.then(() => rec.finish('complete'));
    });
    ures.on('error', () => {});
    ures.on('close', () => {
      if (ures.complete || clientGone) return;
      rec.finish('error', 'the upstream connection closed before the response was complete');
      res.destroy();
    });
  });
  upstream.on('error', (err) => {
    if (clientGone) return;
    writeRequest();
    rec.finish('error', err.message);
    // Transparent: the client sees its connection drop, as it would without the proxy.
    res.destroy();
  });

  req.on('data', (chunk: Buffer) => {
    requestChunks.push(chunk);
    if (!upstream.write(chunk)) req.pause();
  });
  upstream.on('drain', () => req.resume());
  req.on('end', () => {
    writeRequest();
    upstream.end();
  });
  res.on('close', () => {
    if (res.writableFinished) return;
    clientGone = true;
    writeRequest();
    rec.finish('aborted', 'the client closed the connection');
    upstream.destroy();
  });
  return rec;
}
