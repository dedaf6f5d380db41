// Real application logs of both ends (recorded by record.mjs): the TS SDK 1.32.2 client's own pino log joined with the SDK server's, with and without the session id in the client's lines.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AnalysisResult } from '../../src/index.js';
import { codesOf, toolCalls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-app-log/', import.meta.url));
const observed = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as Record<string, { steps: { step: string; ok: boolean; isError?: boolean; error?: { code?: number } }[] }>;
const file = (scenario: string, side: 'client' | 'server') => `${DIR}${scenario}/${side}.ndjson`;
const lines = (scenario: string, side: 'client' | 'server') => readFileSync(file(scenario, side), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const clientLog = (scenario: string) => analyze({ inputs: [{ path: file(scenario, 'client'), side: 'client' }] });
const joined = (scenario: string) => analyze({ inputs: [{ path: file(scenario, 'client'), side: 'client' }, { path: file(scenario, 'server'), side: 'server' }] });
const filesOf = (a: AnalysisResult['attempts'][number]) => [...new Set(a.sources.map((s) => s.file.split('/').pop()))].sort();
const CALLS = ['lookup_invoice', 'export_ledger', 'refund_invoice', 'charge_card', 'charge_card', 'lookup_invoice'];

describe.each(['pino-client', 'pino-client-session'])("the client app's own log (%s)", (scenario) => {
  it('reads every message line as the client saw it; the app\'s own lines (connected, warnings, errors) skipped, none unusable', async () => {
    const r = await clientLog(scenario);
    const all = lines(scenario, 'client');
    const rpc = all.filter((l) => l.rpc !== undefined).length;
    // The 404's line: pino's `err` of the SDK's StreamableHTTPError, whose message ends with the server's body (an error with id null).
    const lost = all.filter((l) => /Session not found/.test(String((l.err as { message?: string } | undefined)?.message)));
    expect(lost).toHaveLength(1);
    expect(r.summary.lines).toMatchObject({ read: all.length, used: rpc + 1, skipped: all.length - rpc - 1, unusable: 0 });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': rpc + 1 });
  });

  it('the client\'s "sent" is c2s: its calls, their outcomes, its cancels and its retry of the destructive tool', async () => {
    const r = await clientLog(scenario);
    const steps = observed[scenario]!.steps;
    expect(steps.map((s) => (s.ok ? (s.isError ? 'isError' : 'ok') : `threw ${s.error?.code}`))).toEqual(['ok', 'isError', 'isError', 'threw -32001', 'threw -32001', 'threw 404']);
    expect(r.attempts.map((a) => a.side)).toEqual(Array(7).fill('client'));
    const calls = toolCalls(r);
    expect(calls.map((a) => a.tool)).toEqual(CALLS);
    expect(calls.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR', 'UNANSWERED', 'UNANSWERED', 'UNANSWERED']);
    const [ok, , , first, retry, lost] = calls;
    expect(codesOf(first!)).toEqual(['CANCELLED']);
    expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
    expect(codesOf(retry!)).toEqual(expect.arrayContaining(['CANCELLED', 'UNSAFE_RETRY']));
    // Must not: nothing on the calls that went well, and the lost session is not made up (the 404 is in no message with the call's id).
    expect(codesOf(ok!)).toEqual([]);
    expect(lost!.detail.why).toContain('no response in the log');
    expect(r.findings.map((f) => f.code)).not.toEqual(expect.arrayContaining(['SESSION_EXPIRED']));
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });
});

describe("the client's and the server's app logs joined", () => {
  it('with the session id in the client\'s lines: one attempt per call with both views, the initialize included', async () => {
    const r = await joined('pino-client-session');
    const server = lines('pino-client-session', 'server').find((l) => typeof l.sessionId === 'string')!.sessionId;
    expect(r.attempts.map((a) => [a.method, a.tool])).toEqual([['initialize', null], ...CALLS.map((t) => ['tools/call', t])]);
    expect(r.attempts.every((a) => a.side === 'client' && a.session === server)).toBe(true);
    // Both logs for all but the call after the restart, which the server's hooks never saw (its router answered 404).
    expect(r.attempts.map(filesOf)).toEqual([...Array(6).fill(['client.ndjson', 'server.ndjson']), ['client.ndjson']]);
    expect(r.attempts.map((a) => a.serverOutcome ?? null)).toEqual(['SUCCESS', 'TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR', 'UNANSWERED', 'UNANSWERED', null]);
    const [, , , , first, retry, lost] = r.attempts;
    expect(codesOf(first!)).toEqual(['CANCELLED']);
    expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
    expect(codesOf(retry!)).toEqual(expect.arrayContaining(['CANCELLED', 'UNSAFE_RETRY']));
    expect(lost!.notSeenByServer).toBe(true);
    // Must not: the initialize logged before the transport had a session id is no unanswered request beside an orphan response.
    const codes = r.findings.map((f) => f.code);
    for (const c of ['ORPHAN_RESPONSE', 'CALL_NEVER_SENT']) expect(codes).not.toContain(c);
    expect(r.summary.lines.unusable).toBe(0);
  });

  it('without it (the app logs only the message): joined by id, method, arguments and answer under the server\'s session; the call after the restart, which the server never logged, stays the client\'s alone', async () => {
    const r = await joined('pino-client');
    expect(r.attempts.every((a) => a.side === 'client')).toBe(true);
    expect(r.attempts.map((a) => a.tool ?? a.method)).toEqual(['initialize', ...CALLS]);
    const [init] = r.attempts;
    const both = r.attempts.slice(0, 6);
    const lost = r.attempts[6]!;
    expect(both.every((a) => filesOf(a).length === 2 && a.session === init!.session && a.session !== null && a.serverOutcome !== undefined)).toBe(true);
    expect([lost.session, filesOf(lost).length, lost.notSeenByServer]).toEqual([null, 1, undefined]);
    expect(lost.detail?.why).toContain("no view of it in the server's log: the client's log names no session id");
    expect(r.summary.notes.some((n) => /^6 requests of a client log that names no session id/.test(n))).toBe(true);
    // One attempt per call now: the retry of the destructive tool, with both logs' evidence.
    expect(toolCalls(r).filter((a) => a.attempt === 2).map((a) => codesOf(a).includes('UNSAFE_RETRY'))).toEqual([true]);
    expect(r.findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });
});

describe("the Python SDK 2.3.0 client app's structlog log (py-client-structlog)", () => {
  const scenario = 'py-client-structlog';

  it('reads every message line, the client\'s "sent" as c2s; the app\'s own lines (tracebacks too) skipped, none unusable', async () => {
    const r = await clientLog(scenario);
    const all = lines(scenario, 'client');
    const rpc = all.filter((l) => l.rpc !== undefined).length;
    expect(all.filter((l) => typeof l.exception === 'string' && l.event === 'tool call failed')).toHaveLength(3);
    expect(r.summary.lines).toMatchObject({ read: all.length, used: rpc, skipped: all.length - rpc, unusable: 0 });
    expect(r.attempts.map((a) => a.tool ?? a.method)).toEqual(['initialize', 'lookup_invoice', 'tools/list', 'export_ledger', 'refund_invoice', 'charge_card', 'charge_card', 'lookup_invoice']);
  });

  it('what the client app got: results, the cancels, and the errors the SDK\'s transport put in its read stream itself', async () => {
    const r = await clientLog(scenario);
    const steps = observed[scenario]!.steps;
    expect(steps.map((s) => (s.ok ? (s.isError ? 'isError' : 'ok') : `threw ${s.error?.code}`))).toEqual(['ok', 'isError', 'isError', 'threw -32001', 'threw -32001', 'threw -32001']);
    const calls = toolCalls(r);
    expect(calls.slice(0, 3).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR']);
    const [, , , first, retry, lost] = calls;
    expect(codesOf(first!)).toContain('CANCELLED');
    expect([retry!.call, retry!.attempt]).toEqual([first!.call, 2]);
    // The Python client's transport makes up a JSON-RPC error for a stream that ended without a response (the server
    // restart ended the cancelled charges' streams) and for the 404: the app logs them as received, and they are read so.
    expect([first!.outcome, first!.detail.errorMessage]).toEqual(['JSONRPC_ERROR', 'SSE stream ended without a response']);
    // Must not: from the client's log alone nothing shows the error was the client's own making.
    expect(first!.findings.find((f) => f.code === 'CANCELLED')!.message).toMatch(/; its JSONRPC_ERROR result came after that, when the client had given up on it$/);
    expect([lost!.outcome, lost!.detail.errorCode, lost!.detail.errorMessage]).toEqual(['JSONRPC_ERROR', -32001, 'Session not found']);
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });

  it('joined with the server\'s pino log by id, method, arguments and answer (the SDK gives the app no session id): the errors its transport made are said to be no answer of the server\'s, and the retry is UNSAFE_RETRY', async () => {
    const r = await joined(scenario);
    const calls = toolCalls(r);
    expect(calls.map((a) => filesOf(a).length)).toEqual([2, 2, 2, 2, 2, 1]);
    const [, , , first, retry, lost] = calls;
    for (const a of [first!, retry!]) {
      expect([a.outcome, a.serverOutcome]).toEqual(['JSONRPC_ERROR', 'UNANSWERED']);
      expect(a.detail?.why).toContain("the server's log shows no such answer (UNANSWERED): the error was made on the client's side (its transport or a bridge), not sent by the server");
      expect(codesOf(a)).not.toContain('SIDE_DIVERGENCE');
    }
    expect(codesOf(retry!)).toEqual(expect.arrayContaining(['CANCELLED', 'UNSAFE_RETRY']));
    expect(first!.findings.find((f) => f.code === 'CANCELLED')!.message).toMatch(/; the JSONRPC_ERROR its log shows after that is not the server's \(the server's log has no answer for it\): the client's side made it$/);
    // The 404 the transport turned into -32001 never reached the server's app: not joined, not said to be unseen.
    expect([lost!.session, lost!.notSeenByServer]).toEqual([null, undefined]);
    expect(r.summary.lines.unusable).toBe(0);
  });
});

describe('the two app logs given without --client/--server (stop 47): each is read as the side its messages show', () => {
  const plain = (scenario: string) => analyze({ inputs: [{ path: file(scenario, 'client') }, { path: file(scenario, 'server') }] });
  const strip = (r: AnalysisResult) => JSON.stringify(r.attempts.map((a) => ({ ...a, sources: a.sources.map((s) => `${s.file}:${s.line}`) })));

  it.each(['pino-client', 'pino-client-session'])('%s: the same attempts, outcomes and findings as with --client and --server (the client\'s tools/call sent, the server\'s received)', async (scenario) => {
    const [p, j] = await Promise.all([plain(scenario), joined(scenario)]);
    expect(p.attempts.map((a) => a.side)).toEqual(j.attempts.map((a) => a.side));
    expect(strip(p)).toEqual(strip(j));
    expect(p.attempts.length).toBe(j.attempts.length);
  });

  it('the server\'s app log alone, with pino-http\'s request lines between its messages: every record is the server\'s, as with --server', async () => {
    const log = fileURLToPath(new URL('../fixtures/real-audit19/s1-ts-http/server.log', import.meta.url));
    const [p, s] = await Promise.all([analyze({ inputs: [{ path: log }] }), analyze({ inputs: [{ path: log, side: 'server' }] })]);
    expect(p.attempts.every((a) => a.side === 'server')).toBe(true);
    expect(strip(p)).toEqual(strip(s));
    // Near miss: a log whose messages say c2s/s2c (no writer) keeps no side.
    const abs = fileURLToPath(new URL('../fixtures/real-audit25/ts-json-stateless/jsonrpc.jsonl', import.meta.url));
    expect((await analyze({ inputs: [{ path: abs }] })).attempts.some((a) => a.side === 'server' || a.side === 'client')).toBe(false);
  });
});
