// The sixteenth audit's real captures (test/fixtures/real-audit16/): what an outside judge found wrong on plain apps.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit16/', import.meta.url));
const tmp = (name: string, lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit16-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};

describe('two Python SDK Clients (mode="auto") that start together against an older server (py-auto-two-clients)', () => {
  // Both probe server/discover, both get 400, both fall back to initialize (app-truth.json: both on 2025-11-25).
  const proxy = `${DIR}py-auto-two-clients/proxy.ndjson`;
  const server = `${DIR}py-auto-two-clients/server.ndjson`;

  it('each refused probe is the version fallback of its client, not a failure', async () => {
    const truth = JSON.parse(readFileSync(`${DIR}py-auto-two-clients/app-truth.json`, 'utf8')) as { protocol: string }[];
    expect(truth.map((t) => t.protocol)).toEqual(['2025-11-25', '2025-11-25']);
    for (const inputs of [[{ path: proxy }], [{ path: proxy, side: 'client' as const }, { path: server, side: 'server' as const }]]) {
      const r = await analyze({ inputs });
      const probes = r.attempts.filter((a) => a.method === 'server/discover');
      expect(probes.map((a) => [a.status, a.outcome])).toEqual([[400, 'HTTP_ERROR'], [400, 'HTTP_ERROR']]);
      expect(probes.every((a) => a.versionFallback === true)).toBe(true);
      expect(r.findings).toEqual([]);
    }
  });

  it('must not: a probe whose client never fell back (its initialize not in the log) stays a failure', async () => {
    const lines = readFileSync(proxy, 'utf8').trimEnd().split('\n');
    // The second initialize's exchange (every record of its xid) taken out.
    const xid = lines.map((l) => JSON.parse(l) as { kind: string; xid: string; send?: { method?: string } }).filter((r) => r.kind === 'request' && r.send?.method === 'initialize')[1]!.xid;
    const r = await analyze({ inputs: [{ path: tmp('proxy.ndjson', lines.filter((l) => (JSON.parse(l) as { xid?: string }).xid !== xid)) }] });
    const probes = r.attempts.filter((a) => a.method === 'server/discover');
    expect(probes.map((a) => a.versionFallback === true)).toEqual([true, false]);
  });
});

describe('a plain app: two SDK 1.32.2 clients, a fault proxy, the server; four captures of the same traffic (app)', () => {
  const f = (name: string) => `${DIR}app/${name}`;
  // ground-truth.json: 14 attempts in 12 calls, 2 retries.
  const truth = JSON.parse(readFileSync(f('ground-truth.json'), 'utf8')) as { expected_totals: { attempts: number; logical_calls: number; retries: number } };

  it('the client and server logs joined give the truth\'s counts', async () => {
    const r = await analyze({ inputs: [{ path: f('client.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }] });
    expect([r.summary.attempts, r.summary.calls, r.summary.retries]).toEqual([truth.expected_totals.attempts, truth.expected_totals.logical_calls, truth.expected_totals.retries]);
  });

  it("the proxy's capture given plain beside both: its calls are counted again, and a notice says so and how to avoid it", async () => {
    for (const sides of [true, false]) {
      const said: string[] = [];
      const r = await analyze({
        inputs: [{ path: f('client.ndjson'), ...(sides ? { side: 'client' as const } : {}) }, { path: f('server.ndjson'), ...(sides ? { side: 'server' as const } : {}) }, { path: f('proxy.ndjson') }],
        onDiagnostic: (m) => said.push(m),
      });
      expect(r.summary.attempts).toBe(2 * truth.expected_totals.attempts);
      const note = 'proxy.ndjson carries the same sessions as client.ndjson (client) and server.ndjson (server) but says no side, so its calls are analyzed apart and counted a second time (a third view of the same traffic, such as a recording proxy\'s between them): give it with --client or --server in place of that side\'s log, or leave it out';
      expect(said.map((m) => m.replace(/[^ ]*\/app\//g, ''))).toContain(`mcp-triage: ${note}`);
      expect(r.summary.notes.map((n) => n.replace(/[^ ]*\/app\//g, ''))).toContain(note);
    }
  });

  it('must not: given as the client side in place of the client log, the proxy capture joins the server\'s with no such notice', async () => {
    const said: string[] = [];
    const r = await analyze({ inputs: [{ path: f('proxy.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }], onDiagnostic: (m) => said.push(m) });
    expect(r.summary.attempts).toBe(truth.expected_totals.attempts);
    expect(said.some((m) => m.includes('counted a second time'))).toBe(false);
    // Nor two plain inputs (their own notice, unchanged).
    const plain: string[] = [];
    await analyze({ inputs: [{ path: f('proxy.ndjson') }, { path: f('capture.har.ndjson') }], onDiagnostic: (m) => plain.push(m) });
    expect(plain.some((m) => m.includes('counted a second time'))).toBe(false);
    expect(plain.some((m) => m.includes('carry the same sessions without saying which side wrote them'))).toBe(true);
  });

  it("a hop that cut both connections after the server's 200 head: SIDE_DIVERGENCE says the connection broke, not that a status was changed", async () => {
    const r = await analyze({ inputs: [{ path: f('client.ndjson'), side: 'client' }, { path: f('server.ndjson'), side: 'server' }] });
    const cut = r.attempts.find((a) => a.tool === 'slow_report' && a.outcome === 'NO_RESPONSE')!;
    expect([cut.id, cut.serverOutcome, cut.serverStatus]).toEqual([5, 'STREAM_INCOMPLETE', 200]);
    const m = cut.findings.find((x) => x.code === 'SIDE_DIVERGENCE')!.message;
    expect(m).toBe("tools/call slow_report id 5: client saw no response NO_RESPONSE, server sent HTTP 200 STREAM_INCOMPLETE: the client never got the HTTP 200 head the server sent: the connection broke between them (a hop or the network cut it), and the server's stream was aborted too");
    // Must not: no other divergence of this capture is worded as a changed status.
    expect(r.findings.filter((x) => x.code === 'SIDE_DIVERGENCE' && /changed the HTTP status/.test(x.message))).toEqual([]);
  });
});

describe("a Python agent with two servers, both sessions' DEBUG lines in one log (py-two-servers, py-app)", () => {
  // One ClientSession per server, used at once; each session counts its ids from 1, and no line names its session.
  const two = (name: string) => `${DIR}py-two-servers/${name}`;
  const app = (name: string) => `${DIR}py-app/${name}`;
  const interleaved = (notes: string[]) => notes.some((n) => n.includes('holds client transports open at once'));
  const codes = (r: { findings: { code: string }[] }) => r.findings.map((f) => f.code);

  it('alone: every request is its own call with no session; no ID_REUSED, orphan or duplicate row of the other session\'s ids', async () => {
    const truth = JSON.parse(readFileSync(two('ground-truth.json'), 'utf8')) as { expected_totals: { attempts: number; TOOL_ERROR: number } };
    const r = await analyze({ inputs: [{ path: two('client.log') }] });
    expect(r.summary.attempts).toBe(truth.expected_totals.attempts);
    expect(r.findings).toEqual([]);
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
    // Alike requests (the same method and params) take their answers in order; the two slow_report calls (their tags
    // differ) share id 4, so their answers are tied to neither.
    expect(r.attempts.map((a) => [a.id, a.tool ?? a.method, a.outcome])).toEqual([
      [1, 'initialize', 'SUCCESS'], [1, 'initialize', 'SUCCESS'],
      [2, 'tools/list', 'SUCCESS'], [2, 'tools/list', 'SUCCESS'],
      [3, 'get_record', 'TOOL_SUCCESS'], [3, 'get_record', 'TOOL_SUCCESS'],
      [4, 'slow_report', 'UNANSWERED'], [4, 'slow_report', 'UNANSWERED'],
      [5, 'get_record', 'TOOL_SUCCESS'], [5, 'get_record', 'TOOL_SUCCESS'],
      [6, 'validate_quantity', 'TOOL_ERROR'], [6, 'validate_quantity', 'TOOL_ERROR'],
    ]);
    expect(r.summary.byOutcome.TOOL_ERROR).toBe(truth.expected_totals.TOOL_ERROR);
    const cannot = r.summary.inputs[0]!.cannotShow;
    expect(interleaved(cannot)).toBe(true);
    expect(cannot.some((n) => n.includes('an answer came whose id more than one request in flight had, not alike'))).toBe(true);
  });

  it("joined with both servers' logs: no finding, and every client request and server view shows once", async () => {
    const r = await analyze({ inputs: [{ path: two('client.log'), side: 'client' }, { path: two('server-orders.ndjson'), side: 'server' }, { path: two('server-billing.ndjson'), side: 'server' }] });
    expect(r.findings).toEqual([]);
    const from = (file: string) => r.attempts.filter((a) => a.sources.some((s) => s.file.endsWith(file))).length;
    expect([from('client.log'), from('server-orders.ndjson'), from('server-billing.ndjson')]).toEqual([12, 6, 6]);
    // Each joins a server view across the session the client's log lacks (by id, method, arguments, answer and time):
    // twelve attempts, as many as there were. Two sessions' alike requests a few ms apart each take a server view
    // (before, the earlier one's best fit was the other's, and both it and one server view stayed alone).
    expect(r.summary.attempts).toBe(12);
    expect(r.attempts.every((a) => a.sources.some((s) => s.file.endsWith('client.log')) && a.serverOutcome === a.outcome)).toBe(true);
  });

  it('with faults (py-app): the 503 of the one POST in flight is tied in the interleaved log; different requests sharing an id stay unanswered; no false error', async () => {
    const r = await analyze({ inputs: [{ path: app('client.log') }] });
    const truth = JSON.parse(readFileSync(app('ground-truth.json'), 'utf8')) as { expected_totals: { attempts: number } };
    expect(r.summary.attempts).toBe(truth.expected_totals.attempts);
    expect(codes(r).filter((c) => ['ID_REUSED', 'ORPHAN_RESPONSE', 'DUPLICATE_RECORD', 'RETRY_POLICY'].includes(c))).toEqual([]);
    expect(r.attempts.filter((a) => a.outcome === 'HTTP_ERROR').map((a) => [a.id, a.tool, a.status])).toEqual([[4, 'delete_record', 503]]);
    expect(r.attempts.filter((a) => a.id === 3).map((a) => [a.tool, a.outcome])).toEqual([['get_record', 'UNANSWERED'], ['slow_report', 'UNANSWERED']]);
    expect(r.attempts.filter((a) => ['validate_quantity', 'crash'].includes(a.tool ?? '')).map((a) => a.outcome)).toEqual(['TOOL_ERROR', 'TOOL_ERROR']);
  });

  it('must not: sessions one after the other (the first ended with its DELETE) keep their session ids', async () => {
    const dbg = fileURLToPath(new URL('../fixtures/real-python-debug/', import.meta.url));
    const lines = [...readFileSync(`${dbg}sse/client.log`, 'utf8').trimEnd().split('\n'), ...readFileSync(`${dbg}json-response/client.log`, 'utf8').trimEnd().split('\n')];
    const r = await analyze({ inputs: [{ path: tmp('client.log', lines) }] });
    const sessions = [...lines.join('\n').matchAll(/Received session ID: (\S+)/g)].map((m) => m[1]);
    expect(sessions).toHaveLength(2);
    // The second transport's initialize went before its server gave a session, and its (JSON) answer is not logged: it
    // has none; it is not the first session's.
    expect(r.attempts.map((a) => a.session)).toEqual([...Array(6).fill(sessions[0]), null, ...Array(5).fill(sessions[1])]);
    expect(interleaved(r.summary.inputs[0]!.cannotShow)).toBe(false);
    expect(r.findings).toEqual([]);
  });
});
