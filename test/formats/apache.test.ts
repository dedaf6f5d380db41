// Unit tests for Apache httpd's logs: its combined access log told from nginx's (%b's "-", %D appended) and read with its start, duration and session (src/formats/nginx-combined.ts), and its error log's mod_proxy lines (src/formats/apache-error.ts); near misses: nginx's lines, other text formats.
import { beforeAll, describe, expect, it } from 'vitest';
import { detectTextFormat } from '../../src/formats/index.js';
import { nginxCombinedFormat } from '../../src/formats/nginx-combined.js';
import { apacheErrorFormat } from '../../src/formats/apache-error.js';
import { loadSchemas } from '../../src/schema/lazy.js';
import { exchange, records } from './helpers.js';

beforeAll(async () => { await loadSchemas(); });
const SID = '77f22f45-d080-4ba3-82f2-9b96334fc0c8';
const account = (r: unknown) => (r as { gatewayAccount?: { log: string; startKnown: boolean; stage?: string; thread?: string } }).gatewayAccount;

describe("Apache's access log (the combined layout, read by nginx-combined)", () => {
  // as Debian's 2.4.71 wrote it: LogFormat "... %>s %b ... %D \"%{Mcp-Session-Id}i\" \"%{Mcp-Session-Id}o\""
  const timed = `127.0.0.1 - - [06/Dec/2026:22:04:19 +0000] "POST /mcp HTTP/1.1" 502 381 "-" "node" 3015650 "${SID}" "-"`;

  it('%D is microseconds and %t the start: the line starts at %t and took 3016 ms (before: %D read as seconds, a start 35 days earlier)', () => {
    expect(detectTextFormat(timed)?.name).toBe('nginx-combined');
    const ex = exchange(nginxCombinedFormat.textToRecords(timed, { file: 'timed.log', line: 1 }));
    expect(ex.ts).toBe(Date.parse('2026-12-06T22:04:19Z'));
    expect(ex.durationMs).toBe(3016);
    expect(ex.requestHeaders).toEqual({ 'mcp-session-id': SID });
    expect(ex.error).toBe("Apache's access log has this POST answered with HTTP 502 after 3016 ms");
    expect(account(ex)).toMatchObject({ log: 'apache-access', startKnown: true });
  });

  it('%b\'s "-" on a POST answered 200 is a stream with no body byte, kept; with a body, skipped; a 202\'s "-" (a notification) skipped', () => {
    const line = (status: number, bytes: string) => `127.0.0.1 - - [06/Dec/2026:22:04:27 +0000] "POST /mcp HTTP/1.1" ${status} ${bytes} "-" "node" 3019355 "${SID}" "${SID}"`;
    expect(exchange(nginxCombinedFormat.textToRecords(line(200, '-'), { file: 'timed.log', line: 1 })).error).toMatch(/HTTP 200 and no byte of body after 3019 ms/);
    expect(records(nginxCombinedFormat.textToRecords(line(200, '106'), { file: 'timed.log', line: 1 }))).toEqual([]);
    expect(records(nginxCombinedFormat.textToRecords(line(202, '-'), { file: 'timed.log', line: 1 }))).toEqual([]);
    // the plain combined with %b: "-" alone tells Apache's line (its time is the start; no duration)
    const plain = exchange(nginxCombinedFormat.textToRecords('127.0.0.1 - - [06/Dec/2026:22:04:27 +0000] "POST /mcp HTTP/1.1" 200 - "-" "node"', { file: 'access.log', line: 1 }));
    expect(account(plain)).toMatchObject({ log: 'apache-access', startKnown: true });
    expect(plain.durationMs).toBeUndefined();
  });

  it("near miss: nginx's lines stay nginx's (a $request_time with its decimal point, $body_bytes_sent 0), and Debian's combined (%O) has no tell", () => {
    const nginx = exchange(nginxCombinedFormat.textToRecords('127.0.0.1 - - [06/Dec/2026:04:32:07 +0000] "POST /mcp HTTP/1.1" 504 0 "-" "node" 3.004 3.003 504 127.0.0.1:7610', { file: 'access.log', line: 1 }));
    expect(account(nginx)).toMatchObject({ log: 'nginx-access', startKnown: true });
    expect(nginx.ts).toBe(Date.parse('2026-12-06T04:32:07Z') - 3004);
    const debian = exchange(nginxCombinedFormat.textToRecords('127.0.0.1 - - [06/Dec/2026:22:03:42 +0000] "POST /mcp HTTP/1.1" 503 339 "-" "node"', { file: 'access.log', line: 1 }));
    expect(account(debian)?.log).toBe('nginx-access');
  });
});

describe("Apache's error log (apache-error)", () => {
  const ctx = { file: 'error.log', line: 1 };
  it("reads mod_proxy's lines: the system error, the client, the message code, the stage and the thread", () => {
    const line = '[Sun Dec 06 22:04:22.760217 2026] [proxy_http:error] [pid 26126:tid 26133] (70007)The timeout specified has expired: [client 127.0.0.1:36472] AH01102: error reading status line from remote server 127.0.0.1:9235';
    expect(detectTextFormat(line)?.name).toBe('apache-error');
    const ex = exchange(apacheErrorFormat.textToRecords(line, ctx));
    expect(ex.ts).toBe('2026-12-06 22:04:22.760217');
    expect(ex.error).toMatch(/^Apache's error log \[proxy_http:error\]: AH01102: error reading status line from remote server 127\.0\.0\.1:9235 \(70007\)The timeout specified has expired; the MCP server had the request and sent no response head within ProxyTimeout/);
    expect(account(ex)).toMatchObject({ log: 'apache-error', stage: 'head', thread: '26126:26133' });
    const cut = exchange(apacheErrorFormat.textToRecords('[Sun Dec 06 22:04:50.024518 2026] [proxy_http:error] [pid 28517:tid 28558] (70008)Partial results are valid but processing is incomplete: [client 127.0.0.1:53030] AH01110: error reading response', ctx));
    expect(account(cut)?.stage).toBe('body');
    const refused = exchange(apacheErrorFormat.textToRecords('[Sun Dec 06 22:03:42.210484 2026] [proxy:error] [pid 23784:tid 23837] (111)Connection refused: AH00957: http: attempt to connect to 127.0.0.1:9215 (127.0.0.1:9215) failed', ctx));
    expect(account(refused)?.stage).toBe('connect');
  });

  it("skips lines of no failed request: start-up, children, mod_proxy's debug narration (with its source file)", () => {
    for (const line of [
      '[Sun Dec 06 22:01:41.679285 2026] [mpm_event:notice] [pid 21876:tid 21876] AH00489: Apache/2.4.71 (Debian) configured -- resuming normal operations',
      '[Sun Dec 06 22:01:50.594154 2026] [core:warn] [pid 21876:tid 21876] AH00045: child process 21877 still did not exit, sending a SIGTERM',
      '[Sun Dec 06 22:03:46.200437 2026] [proxy:debug] [pid 23881:tid 23884] mod_proxy.c(1467): [client 127.0.0.1:33404] AH01143: Running scheme http handler (attempt 0)',
    ]) {
      expect(detectTextFormat(line)?.name, line).toBe('apache-error');
      expect(records(apacheErrorFormat.textToRecords(line, ctx))).toEqual([]);
    }
  });

  it("near miss: nginx's error log, Claude Desktop's and HAProxy's lines keep their formats", () => {
    expect(detectTextFormat('2026/12/06 04:32:04 [error] 4213#4213: *1 connect() failed (111: Connection refused) while connecting to upstream, client: 127.0.0.1, server: , request: "POST /mcp HTTP/1.1", upstream: "http://127.0.0.1:7610/mcp", host: "127.0.0.1:7611"')?.name).toBe('nginx-error');
    expect(detectTextFormat('2025-06-01T10:00:00.000Z [info] [weather] Message from client: {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}')?.name).toBe('claude-desktop');
    expect(detectTextFormat('[Sun Dec 06 22:01:41 2026] not a module part')).toBeUndefined();
  });
});
