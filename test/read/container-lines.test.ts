// The container and system log wrappers (src/read/container-lines.ts): which inputs are taken as one, what each line becomes, and split lines joined.
import { describe, expect, it } from 'vitest';
import { MAX_STREAMS, OVER_STREAMS, unwrapContainerLines, type WrapperStats } from '../../src/read/container-lines.js';
import type { Line } from '../../src/read/lines.js';

async function unwrap(texts: string[], maxLineBytes = 1 << 20, batch = 3): Promise<{ lines: Line[]; stats: WrapperStats }> {
  const stats: WrapperStats = { joined: 0, yearless: 0 };
  const input = texts.map((text, i): Line => ({ lineNo: i + 1, text }));
  async function* batches(): AsyncGenerator<Line[]> {
    for (let i = 0; i < input.length; i += batch) yield input.slice(i, i + batch);
  }
  const lines: Line[] = [];
  for await (const b of unwrapContainerLines(batches(), { maxLineBytes, stats })) lines.push(...b);
  return { lines, stats };
}

const text = (l: Line) => ('text' in l ? l.text : `<over ${l.bytes}>`);
const rec = (n: number) => JSON.stringify({ v: 1, kind: 'request', ts: `2026-12-06T02:12:1${n}.000Z`, xid: `x${n}`, method: 'POST' });
const docker = (log: string, stream = 'stdout', time = '2026-12-06T02:12:18.250684142Z') => JSON.stringify({ log, stream, time });

describe('Docker json-file', () => {
  it('each entry becomes its log text, with its time; a piece without its newline is joined to the next of its stream', async () => {
    const big = rec(1).slice(0, 40);
    const { lines, stats } = await unwrap([
      docker(`${rec(0)}\n`),
      docker(big, 'stdout', '2026-12-06T02:12:19.1Z'),
      docker('listening on :3000\n', 'stderr'),
      docker(`${rec(1).slice(40)}\n`, 'stdout', '2026-12-06T02:12:19.2Z'),
      docker(`${rec(2)}\r\n`),
    ]);
    expect(stats).toEqual({ kind: 'docker-json', joined: 1, yearless: 0 });
    expect(lines.map(text)).toEqual([rec(0), 'listening on :3000', rec(1), rec(2)]);
    // The joined line keeps its first piece's number and time.
    expect(lines[2]).toMatchObject({ lineNo: 2, wrapTs: '2026-12-06T02:12:19.1Z' });
    expect(lines[0]).toMatchObject({ lineNo: 1, wrapTs: '2026-12-06T02:12:18.250684142Z' });
  });

  it('newest first (times running back): a split line\'s pieces, last piece first, are joined in their order', async () => {
    const r = rec(1);
    const { lines, stats } = await unwrap([
      docker(`${rec(2)}\n`, 'stdout', '2026-12-06T02:12:20Z'),
      docker(`${r.slice(50)}\n`, 'stdout', '2026-12-06T02:12:19.3Z'),
      docker('warn\n', 'stderr', '2026-12-06T02:12:19.25Z'),
      docker(r.slice(20, 50), 'stdout', '2026-12-06T02:12:19.2Z'),
      docker(r.slice(0, 20), 'stdout', '2026-12-06T02:12:19.1Z'),
      docker(`${rec(0)}\n`, 'stdout', '2026-12-06T02:12:18Z'),
    ]);
    expect(stats.joined).toBe(2);
    expect(lines.map(text).sort()).toEqual([rec(0), r, rec(2), 'warn'].sort());
    expect(lines.find((l) => text(l) === r)).toMatchObject({ lineNo: 5, wrapTs: '2026-12-06T02:12:19.1Z' });
  });

  it('a joined line over --max-line-bytes is one line over the limit, its pieces never held past it', async () => {
    const piece = 'a'.repeat(60);
    const { lines } = await unwrap([docker(piece), docker(piece), docker(piece), docker(`${piece}\n`), docker(`${rec(0)}\n`)], 150);
    expect(lines.map(text)).toEqual(['<over 240>', rec(0)]);
    expect(lines[0]!.lineNo).toBe(1);
  });

  it('a log cut inside a split line: the pieces read are the last line, marked unterminated', async () => {
    const { lines } = await unwrap([docker(`${rec(0)}\n`), docker(rec(1).slice(0, 30))]);
    expect(lines.map(text)).toEqual([rec(0), rec(1).slice(0, 30)]);
    expect(lines[1]).toMatchObject({ lineNo: 2, unterminated: true });
  });

  it('a line of the input in no wrapper (a broken entry) is passed on as it is', async () => {
    const broken = docker(`${rec(1)}\n`).slice(0, 50);
    const { lines } = await unwrap([docker(`${rec(0)}\n`), broken, docker(`${rec(2)}\n`)]);
    expect(lines.map(text)).toEqual([rec(0), broken, rec(2)]);
  });
});

describe('CRI (containerd, CRI-O)', () => {
  it('P pieces join until the F line; the stream keeps stdout and stderr apart; an empty F line is a blank line', async () => {
    const r = rec(0);
    const { lines, stats } = await unwrap([
      `2026-12-06T02:12:18.1Z stdout P ${r.slice(0, 20)}`,
      '2026-12-06T02:12:18.2Z stderr F warn: slow disk',
      `2026-12-06T02:12:18.3Z stdout F ${r.slice(20)}`,
      '2026-12-06T02:12:18.4Z stdout F ',
      `2026-12-06T02:12:18.5Z stdout F ${rec(1)}`,
    ]);
    expect(stats.kind).toBe('cri');
    expect(stats.joined).toBe(1);
    expect(lines.map(text)).toEqual(['warn: slow disk', r, '', rec(1)]);
    expect(lines[1]).toMatchObject({ lineNo: 1, wrapTs: '2026-12-06T02:12:18.1Z' });
  });
});

describe('journalctl -o json', () => {
  const entry = (message: unknown, extra: Record<string, unknown> = {}, us = '1796523006332916') => JSON.stringify({ __CURSOR: 's=1', __REALTIME_TIMESTAMP: us, _PID: '12', _STREAM_ID: 'abc', SYSLOG_IDENTIFIER: 'mcp', MESSAGE: message, ...extra });

  it('MESSAGE as the line, the journal time in microseconds; _LINE_BREAK=line-max joins; bytes decoded; json-seq RS dropped', async () => {
    const r = rec(0);
    const colored = [...Buffer.from('\x1b[32mok\x1b[0m')];
    const { lines, stats } = await unwrap([entry(r.slice(0, 25), { _LINE_BREAK: 'line-max' }), `\x1e${entry(r.slice(25))}`, entry(colored), entry([0xff, 0x41])]);
    expect(stats).toEqual({ kind: 'journald-json', joined: 1, yearless: 0 });
    expect(lines.map(text)).toEqual([r, '\x1b[32mok\x1b[0m', '\uFFFDA']);
    expect(lines[0]).toMatchObject({ lineNo: 1, wrapTs: '1796523006332916' });
    expect(lines[2]).toMatchObject({ invalidUtf8: true });
  });

  it('an entry sent whole with several lines in it (a traceback under its log line) gives each line, with the entry\'s number', async () => {
    const { lines } = await unwrap([entry(rec(0)), entry('ERROR:app:failed\nTraceback (most recent call last):\n  File "x.py", line 1'), entry(rec(1))]);
    expect(lines.map(text)).toEqual([rec(0), 'ERROR:app:failed', 'Traceback (most recent call last):', '  File "x.py", line 1', rec(1)]);
    expect(lines.map((l) => l.lineNo)).toEqual([1, 2, 2, 2, 3]);
  });

  it('a MESSAGE left out (null, journalctl without --all) is an unreadable line that says how to export it', async () => {
    const { lines } = await unwrap([entry(rec(0)), entry(null, { _LINE_BREAK: 'line-max' }), entry('{"rest":1}'), entry(rec(2))]);
    expect(lines.map((l) => ('unreadable' in l && l.unreadable ? l.unreadable.code : text(l)))).toEqual([rec(0), 'not-exported', rec(2)]);
    expect((lines[1] as { unreadable: { message: string } }).unreadable.message).toMatch(/--all/);
  });
});

describe('syslog lines (journalctl -o short*, /var/log/syslog)', () => {
  it('the text after `<time> <host> <ident>[<pid>]:`, the time when it has a year; journal markers are skipped', async () => {
    const { lines, stats } = await unwrap([
      '-- Boot 6ce70d5ac1b34e8b9c3f0d2f2c3c9b51 --',
      `2026-12-06T02:12:20.837827+0000 vm mcp-server[23601]: ${rec(0)}`,
      `2026-12-06T02:12:21+00:00 vm mcp-server[23601]: ${rec(1)}`,
      `1796523006.332916 vm mcp-server[23601]: ${rec(2)}`,
    ]);
    expect(stats.kind).toBe('syslog');
    expect(lines.map((l) => ('skipped' in l && l.skipped ? 'skipped' : text(l)))).toEqual(['skipped', rec(0), rec(1), rec(2)]);
    expect(lines.map((l) => ('wrapTs' in l ? l.wrapTs : undefined))).toEqual([undefined, '2026-12-06T02:12:20.837827+0000', '2026-12-06T02:12:21+00:00', 1796523006332.916]);
  });

  it('journalctl -o short has no year: no time is taken, and counted', async () => {
    const { lines, stats } = await unwrap([`Dec 06 02:12:20 vm mcp-server[23601]: ${rec(0)}`, `Dec  6 02:12:21 vm mcp-server[23601]: ${rec(1)}`]);
    expect(lines.map(text)).toEqual([rec(0), rec(1)]);
    expect(stats.yearless).toBe(2);
    expect(lines.every((l) => !('wrapTs' in l))).toBe(true);
  });
});

describe('docker compose logs and docker logs -t', () => {
  it('compose: the text after `<service>-<n>  |`, colored or not, with --timestamps its time', async () => {
    const { lines, stats } = await unwrap([
      'mcp-server-1  | listening',
      `\x1b[36mmcp-server-1  |\x1b[0m ${rec(0)}`,
      `mcp_server_1  | 2026-12-06T02:12:18.250684142Z ${rec(1)}`,
    ]);
    expect(stats.kind).toBe('compose');
    expect(lines.map(text)).toEqual(['listening', rec(0), rec(1)]);
    expect(lines[2]).toMatchObject({ wrapTs: '2026-12-06T02:12:18.250684142Z' });
  });

  it('kubectl logs --prefix: the text after `[pod/<pod>/<container>]`, with --timestamps its time', async () => {
    const { lines, stats } = await unwrap([`[pod/mcp-7d9f/mcp] ${rec(0)}`, `[pod/mcp-7d9f/mcp] 2026-12-06T02:12:18.250684142Z ${rec(1)}`, '[pod/mcp-8a1c/mcp] listening']);
    expect(stats.kind).toBe('kubectl-prefix');
    expect(lines.map(text)).toEqual([rec(0), rec(1), 'listening']);
    expect(lines[1]).toMatchObject({ wrapTs: '2026-12-06T02:12:18.250684142Z' });
  });

  it('several services in one compose output: each line names its service (read apart); compose\'s own lines are skipped', async () => {
    // As docker-compose 1.29.2 printed them (test/fixtures/real-audit53): `logs` opens with "Attaching to", `up` ends each container with "exited with code".
    const { lines, stats } = await unwrap([
      'Attaching to a53d_client_1, a53d_server_1, a53d_py1_1, a53d_py2_1',
      `server_1  | ${rec(0)}`,
      'py1_1     | DEBUG:mcp.client.streamable_http:Received session ID: 1f0c',
      '\x1b[33mpy2_1     |\x1b[0m DEBUG:mcp.client.streamable_http:Received session ID: 9a2e',
      'a53d_client_1 exited with code 0',
      '\x1b[36ma53d_py1_1 exited with code 0\x1b[0m',
      'Gracefully stopping... (press Ctrl+C again to force)',
    ]);
    expect(stats.kind).toBe('compose');
    expect(stats.streams).toEqual(['server_1', 'py1_1', 'py2_1']);
    expect(lines.map((l) => ('text' in l ? (l.skipped !== undefined ? 'skipped' : `${l.stream} ${l.text}`) : '?'))).toEqual([
      'skipped',
      `server_1 ${rec(0)}`,
      'py1_1 DEBUG:mcp.client.streamable_http:Received session ID: 1f0c',
      'py2_1 DEBUG:mcp.client.streamable_http:Received session ID: 9a2e',
      'skipped',
      'skipped',
      'skipped',
    ]);
  });

  it('kubectl logs --prefix of several pods, as kubectl prints them: each line names its pod and container', async () => {
    // Shaped as kubectl 1.2x writes `kubectl logs -l app=mcp --prefix --timestamps` (no cluster here: not recorded).
    const { lines, stats } = await unwrap([
      `[pod/mcp-server-7d9f8c6b5-x2k4q/server] 2026-12-06T02:12:18.250684142Z ${rec(0)}`,
      '[pod/mcp-client-5b6c7d8e9-abcde/client] 2026-12-06T02:12:18.251000000Z DEBUG:mcp.client.streamable_http:Received session ID: 1f0c',
      `[pod/mcp-server-7d9f8c6b5-x2k4q/server] 2026-12-06T02:12:18.252684142Z ${rec(1)}`,
    ]);
    expect(stats.kind).toBe('kubectl-prefix');
    expect(lines.map((l) => ('text' in l ? l.stream : undefined))).toEqual(['pod/mcp-server-7d9f8c6b5-x2k4q/server', 'pod/mcp-client-5b6c7d8e9-abcde/client', 'pod/mcp-server-7d9f8c6b5-x2k4q/server']);
  });

  it('one service\'s log without its prefix (`docker-compose logs --no-log-prefix SERVICE`): its "Attaching to" first line is skipped', async () => {
    const { lines, stats } = await unwrap(['Attaching to a53a_server_1', 'compose-demo listening on 127.0.0.1:7801', rec(0)]);
    expect(stats.kind).toBeUndefined();
    expect(lines.map((l) => ('text' in l && l.skipped === undefined ? l.text : 'skipped'))).toEqual(['skipped', 'compose-demo listening on 127.0.0.1:7801', rec(0)]);
  });

  it(`past ${MAX_STREAMS} services, the lines of the others are read together`, async () => {
    const texts = Array.from({ length: MAX_STREAMS + 3 }, (_, i) => `svc${i}_1  | ${rec(0)}`);
    const { lines, stats } = await unwrap(texts);
    expect(stats.streams).toHaveLength(MAX_STREAMS);
    expect(stats.streamsOver).toBe(3);
    expect(lines.slice(-3).map((l) => ('text' in l ? l.stream : undefined))).toEqual([OVER_STREAMS, OVER_STREAMS, OVER_STREAMS]);
  });

  it('docker logs -t: the time Docker wrote into a long line at each 16 KiB piece is taken out, also past multi-byte text', async () => {
    const value = `${'é'.repeat(9000)}${'x'.repeat(20000)}`;
    const whole = JSON.stringify({ v: 1, kind: 'event', data: value });
    const bytes = Buffer.from(whole);
    const stamped: Buffer[] = [];
    for (let at = 0, n = 0; at < bytes.length; at += 16384, n++) stamped.push(Buffer.from(n === 0 ? '' : `2026-12-06T02:12:18.25068${n}Z `), bytes.subarray(at, at + 16384));
    const line = `2026-12-06T02:12:18.250684142Z ${Buffer.concat(stamped).toString('utf8')}`;
    const { lines, stats } = await unwrap([line, `2026-12-06T02:12:19Z ${rec(0)}`]);
    expect(stats.kind).toBe('docker-logs');
    expect(text(lines[0]!)).toBe(whole);
    expect(text(lines[1]!)).toBe(rec(0));
  });
});

describe('must not: inputs in no wrapper pass untouched', () => {
  const cases: [string, string[]][] = [
    ['canonical records', [rec(0), rec(1), rec(2)]],
    ['`aws logs tail` lines (a stream after the time)', [`2026-12-06T02:12:18.250Z mcp/web-1/8f2c ${rec(0)}`, `2026-12-06T02:12:18.251Z mcp/web-1/8f2c ${rec(1)}`]],
    ['Claude Desktop lines', ['2026-03-01T10:00:00.000Z [notes] [info] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}', '2026-03-01T10:00:00.100Z [notes] [info] Message from server: {"jsonrpc":"2.0","id":1,"result":{}}']],
    ['loguru-style text with bars', ['2026-12-06 02:12:18.250 | INFO     | app:main:12 - sent {"jsonrpc":"2.0","id":1,"method":"ping"}', 'web | GET /health 200', rec(0)]],
    ['an app log whose field is called log', [JSON.stringify({ level: 'info', log: 'x' }), rec(0)]],
    ['a single line that looks like compose', ['api-1 | started', rec(0), rec(1)]],
    ['a line "Attaching to ..." that is not the first', [rec(0), 'Attaching to a53a_server_1', rec(1)]],
  ];
  for (const [what, texts] of cases) {
    it(what, async () => {
      const { lines, stats } = await unwrap(texts);
      expect(stats.kind).toBeUndefined();
      expect(lines.map(text)).toEqual(texts);
    });
  }
});
