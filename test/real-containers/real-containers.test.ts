// Real container and journald logs of one MCP server (test/fixtures/real-containers): read inside Docker's json-file, the CRI format, compose, `docker logs -t` and journalctl's exports, they tell what the server's own stdout told.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-containers/';
const tmp = mkdtempSync(join(tmpdir(), 'mcpt-containers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof analyze>>;
/** The host client's calls in each run (cli.mjs), as the client saw each and as the server's log shows it. */
const HOST_CALLS = [
  'echo TOOL_SUCCESS TOOL_SUCCESS',
  'inventory TOOL_SUCCESS TOOL_SUCCESS',
  'refund TOOL_ERROR TOOL_ERROR',
  'nope TOOL_ERROR TOOL_ERROR',
  'report STREAM_INCOMPLETE STREAM_INCOMPLETE',
  'echo TOOL_SUCCESS TOOL_SUCCESS',
];
const run = (paths: { path: string; side?: 'client' | 'server' }[]) => analyze({ inputs: paths, onDiagnostic: () => {} });
const rows = (r: Result) => r.attempts.map((a) => `${a.ts} ${a.session} #${String(a.id)} ${a.method} ${a.tool ?? ''} ${a.status} ${a.outcome} ${a.serverOutcome ?? ''} [${a.findings.map((f) => f.code).sort().join(',')}]`);
const input = (r: Result) => r.summary.inputs[0]!;

/** The server's stdout as the program wrote it: the json-file's stdout entries, a split line's pieces joined. */
function stdoutOf(file: string): string {
  let out = '';
  let open = '';
  for (const l of readFileSync(`${DIR}${file}`, 'utf8').split('\n').filter(Boolean)) {
    const e = JSON.parse(l) as { log: string; stream: string };
    if (e.stream !== 'stdout') continue;
    open += e.log;
    if (open.endsWith('\n')) [out, open] = [out + open, ''];
  }
  const path = join(tmp, 'stdout.ndjson');
  writeFileSync(path, out);
  return path;
}

describe('real-containers: the server in a Docker container (json-file driver), its log read five ways', async () => {
  const bare = await run([{ path: stdoutOf('server-docker.json.log') }]);
  const physical = readFileSync(`${DIR}server-docker.json.log`, 'utf8').split('\n').filter(Boolean).length;

  it('the bare stdout holds both clients\' calls, the 70 KB inventory result among them (reference)', () => {
    expect(bare.attempts.filter((a) => a.method === 'tools/call').length).toBe(9);
    expect(bare.attempts.filter((a) => a.tool === 'inventory').map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(bare.summary.lines.unusable).toBe(0);
  });

  for (const [file, wrapper] of [
    ['server-docker.json.log', 'docker-json'],
    ['server-cri.log', 'cri'],
    ['server-compose.log', 'compose'],
    ['server-compose-t.log', 'compose'],
    ['server-docker-logs-t.log', 'docker-logs'],
  ] as const) {
    it(`${file}: read in ${wrapper}, the same attempts, outcomes and findings as the bare stdout`, async () => {
      const r = await run([{ path: `${DIR}${file}`, side: 'server' }]);
      expect(input(r).wrapper).toBe(wrapper);
      expect(rows(r)).toEqual(rows(bare));
      // The one line that is no record: the server's start-up line on stderr, counted unusable, not lost.
      expect(r.summary.lines.unusable).toBe(1);
      expect(r.summary.diagnostics.first[0]).toMatchObject({ line: 1, message: 'line is not JSON and matches no text log format' });
    });
  }

  it('Docker split the two inventory results (over 16 KiB) into pieces: joined, and counted apart from the lines', async () => {
    const r = await run([{ path: `${DIR}server-docker.json.log` }]);
    const i = input(r);
    expect(i.joined).toBe(8);
    expect(i.lines + i.joined!).toBe(physical);
    expect(i.accounted).toBe(true);
  });

  it('before: a Docker json-file log was taken for a whole HAR document (its first key is "log") and nothing was read', async () => {
    const { looksLikeHarDocument } = await import('../../src/read/har-head.js');
    expect(looksLikeHarDocument(readFileSync(`${DIR}server-docker.json.log`, 'utf8').slice(0, 4096))).toBe(false);
  });

  it("joined with the host client's capture: each call's server view is the container's", async () => {
    const r = await run([{ path: `${DIR}client-docker.ndjson`, side: 'client' }, { path: `${DIR}server-docker.json.log`, side: 'server' }]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call' && a.session === r.attempts[0]!.session);
    expect(calls.map((a) => `${a.tool} ${a.outcome} ${a.serverOutcome}`)).toEqual(HOST_CALLS);
  });
});

describe('real-containers: the Python client in a container, its DEBUG log in BASIC_FORMAT (no times)', async () => {
  const r = await run([{ path: `${DIR}pyclient-docker.json.log`, side: 'client' }, { path: `${DIR}server-docker.json.log`, side: 'server' }]);
  const py = r.attempts.filter((a) => a.ts !== undefined && a.ts >= '2026-12-06T02:12:19.6');

  it("its records take Docker's times, so they join the server's container log", () => {
    expect(r.summary.inputs[0]!.wrapper).toBe('docker-json');
    expect(py.map((a) => `${a.method} ${a.tool ?? ''} ${a.outcome} ${a.serverOutcome}`)).toEqual([
      'initialize  SUCCESS SUCCESS',
      'tools/call echo TOOL_SUCCESS TOOL_SUCCESS',
      'tools/list  SUCCESS SUCCESS',
      'tools/call inventory TOOL_SUCCESS TOOL_SUCCESS',
      'tools/call refund TOOL_ERROR TOOL_ERROR',
    ]);
  });

  it('must not: the same log bare has no time at all', async () => {
    const lines = readFileSync(`${DIR}pyclient-docker.json.log`, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { log: string }).log).join('');
    const path = join(tmp, 'pyclient.log');
    writeFileSync(path, lines);
    const b = await run([{ path, side: 'client' }]);
    expect(b.attempts.length).toBe(5);
    expect(b.attempts.every((a) => a.ts === undefined)).toBe(true);
  });
});

describe('real-containers: `docker logs -t` of the Python client (text lines after Docker\'s time, record-py-t.sh)', async () => {
  const seen = (r: Result) => r.attempts.map((a) => `${a.ts} #${String(a.id)} ${a.method} ${a.tool ?? ''} ${a.outcome}`);
  const stamped = await run([{ path: `${DIR}pyclient-docker-logs-t.log`, side: 'client' }]);
  const fileLog = await run([{ path: `${DIR}pyclient-t-docker.json.log`, side: 'client' }]);

  it("reads what the same container's json-file log gives: Docker's times, the 70 KB result whole (its pieces' times taken out)", () => {
    expect(input(stamped).wrapper).toBe('docker-logs');
    expect(input(stamped).unusable).toBe(0);
    expect(seen(stamped)).toEqual(seen(fileLog));
    expect(seen(stamped).map((l) => l.slice(25))).toEqual(['#1 initialize  SUCCESS', '#2 tools/call echo TOOL_SUCCESS', '#3 tools/list  SUCCESS', '#4 tools/call inventory TOOL_SUCCESS', '#5 tools/call refund TOOL_ERROR']);
  });

  it("kubectl logs --timestamps: the kubelet's stamps, trailing zeros of the nanoseconds trimmed (8, 7 or 3 digits), are taken off too", async () => {
    // The kubelet writes RFC 3339 nano as Go does (zeros trimmed); Docker always nine digits. The same lines, re-stamped so.
    const digits = [9, 8, 7, 3];
    const lines = readFileSync(`${DIR}pyclient-docker-logs-t.log`, 'utf8').split('\n').filter(Boolean);
    const restamped = lines.map((l, i) => l.replace(/^(\S+T\d{2}:\d{2}:\d{2}\.)(\d{9})Z /, (_m, head: string, frac: string) => `${head}${frac.slice(0, digits[i % 4])}Z `));
    expect(restamped.filter((l) => /^\S+\.\d{3}Z /.test(l)).length).toBeGreaterThan(3);
    const path = join(tmp, 'kubectl-t.log');
    writeFileSync(path, restamped.join('\n') + '\n');
    const r = await run([{ path, side: 'client' }]);
    expect(input(r).wrapper).toBe('docker-logs');
    expect(input(r).unusable).toBe(0);
    expect(seen(r)).toEqual(seen(stamped));
  });

  it('must not: a text log whose every line starts with a stamp of three digits (an app\'s own, as Claude Desktop writes) is read as it is', async () => {
    const lines = readFileSync(`${DIR}pyclient-docker-logs-t.log`, 'utf8').split('\n').filter((l) => l.length > 0 && l.length < 4000);
    const path = join(tmp, 'three-digits.log');
    writeFileSync(path, lines.map((l) => l.replace(/^(\S+T\S+\.\d{3})\d{6}Z /, '$1Z ')).join('\n') + '\n');
    const r = await run([{ path, side: 'client' }]);
    expect(input(r).wrapper).toBeUndefined();
  });

  it('must not: a text log whose own times have six digits and an offset is read as it is, its times its own', async () => {
    const lines = readFileSync(`${DIR}pyclient-docker-logs-t.log`, 'utf8').split('\n').filter((l) => l.length > 0 && l.length < 4000);
    const path = join(tmp, 'six-digits.log');
    writeFileSync(path, lines.map((l) => l.replace(/^(\S+T\S+\.\d{6})\d{3}Z /, '$1+00:00 ')).join('\n') + '\n');
    const r = await run([{ path, side: 'client' }]);
    expect(input(r).wrapper).toBeUndefined();
  });
});

describe('real-containers: the server under journald (systemd-cat), exported by journalctl', async () => {
  const client = { path: `${DIR}client-journal.ndjson`, side: 'client' as const };
  const all = await run([client, { path: `${DIR}server-journal.json`, side: 'server' }]);

  it('-o json --all: every call\'s server view is there; the 70 KB line journald split at 48 KiB is joined', () => {
    expect(all.summary.inputs[1]!.wrapper).toBe('journald-json');
    expect(all.summary.inputs[1]!.joined).toBe(1);
    expect(all.attempts.filter((a) => a.method === 'tools/call').map((a) => `${a.tool} ${a.outcome} ${a.serverOutcome}`)).toEqual(HOST_CALLS);
  });

  it('journalctl -r (newest first): read from the last line back, with the journal\'s times, the same report', async () => {
    const lines = readFileSync(`${DIR}server-journal.json`, 'utf8').split('\n').filter(Boolean).reverse();
    const path = join(tmp, 'journal-r.json');
    writeFileSync(path, lines.join('\n') + '\n');
    const r = await run([client, { path, side: 'server' }]);
    expect(r.summary.inputs[1]!.newestFirst).toBe(true);
    expect(rows(r)).toEqual(rows(all));
  });

  it('-o json without --all: the entry journalctl wrote as null is unusable and says to export with --all; the other calls are the same', async () => {
    const r = await run([client, { path: `${DIR}server-journal-no-all.json`, side: 'server' }]);
    const lost = r.summary.diagnostics.first.find((d) => d.code === 'not-exported');
    expect(lost?.message).toMatch(/MESSAGE as null.*journalctl -o json --all/);
    expect(r.summary.inputs[1]!.reasons['not-exported']).toBe(1);
    const byTool = (x: Result) => x.attempts.filter((a) => a.tool !== 'inventory').map((a) => `${a.method} ${a.tool} ${a.serverOutcome}`);
    expect(byTool(r)).toEqual(byTool(all));
    expect(r.attempts.find((a) => a.tool === 'inventory')!.serverOutcome).not.toBe('TOOL_SUCCESS');
  });

  for (const file of ['server-journal-short-iso.log', 'server-journal-short.log']) {
    it(`${file}: syslog lines; the split line stays split (two unusable lines) and the report says why`, async () => {
      const r = await run([client, { path: `${DIR}${file}`, side: 'server' }]);
      const i = r.summary.inputs[1]!;
      expect(i.wrapper).toBe('syslog');
      expect(i.unusable).toBe(3); // the start-up line and the two halves of the 70 KB line
      expect(i.cannotShow.join(' ')).toMatch(/stays split in the text formats: journalctl -o json --all/);
      expect(/no year/.test(i.cannotShow.join(' '))).toBe(file === 'server-journal-short.log');
      const tools = r.attempts.filter((a) => a.method === 'tools/call' && a.tool !== 'inventory');
      expect(tools.map((a) => `${a.tool} ${a.serverOutcome}`)).toEqual(['echo TOOL_SUCCESS', 'refund TOOL_ERROR', 'nope TOOL_ERROR', 'report STREAM_INCOMPLETE', 'echo TOOL_SUCCESS']);
    });
  }
});

describe("real-containers: the server in a container with Docker's journald log driver", () => {
  it('its 16 KiB pieces (CONTAINER_PARTIAL_MESSAGE=true, all but the last) are joined per container and stream; every call\'s server view is there', async () => {
    const r = await run([{ path: `${DIR}client-docker-journald.ndjson`, side: 'client' }, { path: `${DIR}server-docker-journald.json`, side: 'server' }]);
    const i = r.summary.inputs[1]!;
    expect(i.wrapper).toBe('journald-json');
    expect(i.joined).toBe(4);
    expect(r.attempts.filter((a) => a.method === 'tools/call').map((a) => `${a.tool} ${a.outcome} ${a.serverOutcome}`)).toEqual(HOST_CALLS);
  });
});

describe('real-containers: the container lines as Kubernetes log shippers send them on', async () => {
  const whole = readFileSync(stdoutOf('server-docker.json.log'), 'utf8').split('\n').filter(Boolean);
  const bare = await run([{ path: stdoutOf('server-docker.json.log') }]);
  const k8s = { pod_name: 'mcp-7d9f', namespace_name: 'prod', container_name: 'mcp', labels: { app: 'mcp' }, host: 'node-1' };
  const SHIPPED: Record<string, (line: string, i: number) => object> = {
    'Fluent Bit to Elasticsearch (a hit)': (l, i) => ({ _index: 'logstash-2026.12.06', _id: `h${i}`, _source: { '@timestamp': '2026-12-06T02:13:00.000Z', log: `${l}\n`, stream: 'stdout', time: '2026-12-06T02:12:59.000000001Z', kubernetes: k8s } }),
    'Fluent Bit raw (file or stdout output, CRI parser)': (l) => ({ date: 1796523179.5, log: `${l}\n`, stream: 'stdout', _p: 'F', time: '2026-12-06T02:12:59Z', kubernetes: k8s }),
    'Fluentd (docker metadata, logtag)': (l) => ({ log: l, stream: 'stdout', logtag: 'F', docker: { container_id: 'abc' }, kubernetes: k8s }),
    "Vector's kubernetes_logs": (l) => ({ file: '/var/log/pods/prod_mcp-7d9f/mcp/0.log', kubernetes: k8s, message: l, source_type: 'kubernetes_logs', stream: 'stdout', timestamp: '2026-12-06T02:12:59Z' }),
    "Loki, the node's CRI line as promtail read it": (l) => ({ labels: { app: 'mcp' }, line: `2026-12-06T02:12:59.1Z stdout F ${l}`, timestamp: '2026-12-06T02:13:00Z' }),
  };
  for (const [what, wrap] of Object.entries(SHIPPED)) {
    it(`${what}: the same attempts, outcomes and findings as the bare stdout`, async () => {
      const path = join(tmp, `shipped-${what.replace(/\W+/g, '-')}.ndjson`);
      writeFileSync(path, whole.map((l, i) => JSON.stringify(wrap(l, i))).join('\n') + '\n');
      const r = await run([{ path, side: 'server' }]);
      expect(r.summary.lines.unusable).toBe(0);
      expect(rows(r)).toEqual(rows(bare));
    });
  }

  it("must not: a CRI line's partial pieces in separate envelopes are not joined: unusable, each counted", async () => {
    const path = join(tmp, 'loki-cri-pieces.ndjson');
    const cri = readFileSync(`${DIR}server-cri.log`, 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, cri.map((l) => JSON.stringify({ labels: { app: 'mcp' }, line: l, timestamp: '2026-12-06T02:13:00Z' })).join('\n') + '\n');
    const r = await run([{ path, side: 'server' }]);
    // The start-up line, and both split inventory events: four P pieces and the F piece that ends each.
    expect(r.summary.lines.unusable).toBe(1 + 2 * 5);
    expect(r.attempts.filter((a) => a.tool === 'inventory').every((a) => a.outcome !== 'TOOL_SUCCESS')).toBe(true);
  });
});
