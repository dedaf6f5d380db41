// The nineteenth audit's real captures (test/fixtures/real-audit19/): an outside judge's first hour, the most ordinary
// logs of the TypeScript and Python SDKs (pino, console.log, Python logging) and the reshapes a log platform makes.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit19/', import.meta.url));
type Side = 'client' | 'server';
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;
const run = (path: string, side?: Side, more: Record<string, unknown> = {}) => analyze({ inputs: [{ path, ...(side ? { side } : {}) }], ...more });
type Row = Awaited<ReturnType<typeof analyze>>['attempts'][number];
const codes = (rows: Row[]) => rows.flatMap((a) => a.findings.map((x) => x.code));
const tmp = (name: string, lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'audit19-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const linesOf = (path: string) => readFileSync(path, 'utf8').trimEnd().split('\n');

describe("an express server's pino log (pino-http and the app's own message lines), restarted mid-run (s1-ts-http)", () => {
  const server = f('s1-ts-http', 'server.log');

  it("pino-http's 404 to the call after the restart ends that call: HTTP_ERROR, its re-send a retry, and no proven UNSAFE_RETRY", async () => {
    const r = await run(server, 'server');
    const refused = r.attempts.find((a) => a.id === 7)!;
    expect([refused.tool, refused.status, refused.outcome]).toEqual(['add', 404, 'HTTP_ERROR']);
    expect(refused.detail.why).toMatch(/^HTTP 404 \(the app's HTTP request line for the POST, after its log of the request at line \d+: no body of the answer in the log\)$/);
    const again = r.attempts.find((a) => a.tool === 'add' && a.attempt === 2)!;
    expect(again.call).toBe(refused.call);
    expect(r.attempts.flatMap((a) => a.findings.filter((x) => x.code === 'UNSAFE_RETRY' && x.severity === 'error'))).toEqual([]);
  });

  it('must not: with two requests open in that session and process, the 404 is tied to neither', async () => {
    const lines = linesOf(server);
    const at = lines.findIndex((l) => l.includes('"id":7},"msg":"mcp request received"'));
    const twin = lines[at]!.replace('"id":7}', '"id":8}');
    const r = await run(tmp('server.log', [...lines.slice(0, at + 1), twin, ...lines.slice(at + 1)]), 'server');
    expect(r.attempts.filter((a) => a.status === 404)).toEqual([]);
  });
});

describe("the Python client's DEBUG log across a server restart (s2-python)", () => {
  it.each(['client-legacy-asctime.log', 'client-legacy.log'])('%s: the new transport\'s initialize is its own session\'s, answered; the 404\'d call\'s re-send is its retry; no orphan or duplicate row', async (name) => {
    const r = await run(f('s2-python', name));
    const inits = r.attempts.filter((a) => a.method === 'initialize');
    expect(inits.map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(new Set(inits.map((a) => a.session)).size).toBe(2);
    const refused = r.attempts.find((a) => a.status === 404)!;
    expect([refused.tool, refused.outcome]).toEqual(['add', 'HTTP_ERROR']);
    expect(r.attempts.filter((a) => a.call === refused.call).map((a) => a.attempt)).toEqual([1, 2]);
    expect(codes(r.attempts).concat(r.findings.map((x) => x.code)).filter((c) => c === 'ORPHAN_RESPONSE' || c === 'DUPLICATE_RECORD')).toEqual([]);
  });

  it.each(['client-legacy-asctime.log', 'client-legacy.log'])('%s: the 404 to a POST sent after "Received session ID" is SESSION_EXPIRED, re-initialized and retried (line order tells it in the untimed log)', async (name) => {
    const r = await run(f('s2-python', name));
    const lines = linesOf(f('s2-python', name));
    const expired = r.findings.filter((x) => x.code === 'SESSION_EXPIRED');
    const first = /Received session ID: (\S+)/.exec(lines.join('\n'))![1];
    expect(expired.map((x) => x.message)).toEqual([`session ${first}: HTTP 404 to tools/call add id 7 that carried the session id; the client re-initialized and retried the call`]);
    // The refused POST's request line, then httpx's 404 line.
    expect(expired[0]!.sources.map((s) => lines[s.line - 1]!)).toEqual([expect.stringContaining("id=7 method='tools/call'"), expect.stringContaining('POST http://127.0.0.1:3929/mcp "HTTP/1.1 404 Not Found"')]);
    expect(r.summary.inputs[0]!.cannotShow.join(' ')).toContain('a 404 is SESSION_EXPIRED');
  });

  it('must not: a 404 to a POST before any "Received session ID" (a wrong URL, no session yet) is HTTP_ERROR without SESSION_EXPIRED; nor one whose re-initialize the log lacks says it re-initialized', async () => {
    const lines = linesOf(f('s2-python', 'client-legacy.log'));
    const noSession = lines.filter((l) => !l.includes('Received session ID'));
    const r = await run(tmp('client.log', noSession));
    expect(r.attempts.find((a) => a.status === 404)!.outcome).toBe('HTTP_ERROR');
    expect(r.findings.map((x) => x.code)).not.toContain('SESSION_EXPIRED');
    const cut = lines.findIndex((l) => l.includes('POST http://127.0.0.1:3929/mcp "HTTP/1.1 404 Not Found"'));
    const alone = await run(tmp('client.log', lines.slice(0, cut + 1)));
    expect(alone.findings.filter((x) => x.code === 'SESSION_EXPIRED').map((x) => x.message)).toEqual([expect.stringMatching(/; the client did not re-initialize$/)]);
  });

  it('on 2026-07-28 (Client(url), the default): the aborted POST of the timed-out call is CANCELLED; the other calls are not', async () => {
    const r = await run(f('s2-python', 'client.log'));
    const cancelled = r.attempts.filter((a) => a.findings.some((x) => x.code === 'CANCELLED'));
    expect(cancelled.map((a) => [a.id, a.tool])).toEqual([[6, 'slow']]);
    expect(cancelled[0]!.findings.find((x) => x.code === 'CANCELLED')!.message).toContain('on 2026-07-28 closing the stream is the cancellation');
  });
});

describe('log-platform reshapes of the same logs (s4-shapes)', () => {
  it('a newest-first export whose first line is a response: the newest call keeps its answer', async () => {
    const r = await run(f('s4-shapes', 'repro-newest-first-3lines.log'));
    expect(r.attempts.map((a) => [a.id, a.outcome])).toEqual([[1, 'TOOL_SUCCESS']]);
  });

  it.each(['client-pino', 'server', 'client-console'])('%s wrapped as {"timestamp", "message": "<line>"}: read as the line itself', async (base) => {
    const plain = await run(f('s4-shapes', `${base}.log`));
    const wrapped = await run(f('s4-shapes', `${base}.wrapped.ndjson`));
    expect(wrapped.summary.lines.unusable).toBe(0);
    expect(wrapped.attempts.map((a) => [a.id, a.method, a.outcome])).toEqual(plain.attempts.map((a) => [a.id, a.method, a.outcome]));
  });

  it('--input-format jsonrpc on an app log whose messages are in another field: every line unusable with a fix, none counted used', async () => {
    const r = await analyze({ inputs: [{ path: f('s1-ts-http', 'client-pino.log') }], inputFormat: 'jsonrpc', onDiagnostic: () => {} });
    const n = linesOf(f('s1-ts-http', 'client-pino.log')).length;
    expect(r.summary.lines).toMatchObject({ read: n, used: 0, unusable: n });
    expect(r.summary.diagnostics.first[0]!.message).toContain('no JSON-RPC message in this line for the jsonrpc format');
  });

  it('must not: a stringified JSON-RPC message in an app log\'s message field is still read by app-log, with its session', async () => {
    const line = JSON.stringify({ timestamp: '2026-03-01T10:00:00Z', message: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } }) });
    const r = await run(tmp('app.ndjson', [line]));
    expect(r.attempts.map((a) => [a.id, a.tool])).toEqual([[1, 'x']]);
  });
});

describe('two sides\' app logs concatenated into one stream (cat client.log server.log | mcp-triage -)', () => {
  const client = f('s1-ts-http', 'client-pino.log');
  const server = f('s1-ts-http', 'server.log');
  const note = (r: Awaited<ReturnType<typeof analyze>>) => r.summary.inputs[0]!.cannotShow.some((n) => n.includes("this input holds both sides' log lines of the same requests"));

  it("says the input holds both sides' lines of the same requests, and how to give them", async () => {
    const r = await run(tmp('both.log', [...linesOf(client), ...linesOf(server)]));
    expect(note(r)).toBe(true);
    expect(r.findings.filter((x) => x.code === 'ID_REUSED')).toEqual([]);
  });

  it('must not: each side alone says nothing of the kind', async () => {
    expect(note(await run(client))).toBe(false);
    expect(note(await run(server))).toBe(false);
  });
});
