// Real application logs (python-json-logger, structlog, loguru) of a Python SDK 2.3.0 server, recorded by record-py.mjs: mcp-triage reads the JSON-RPC messages in the apps' own fields.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { isoTime, parseTimestamp } from '../../src/formats/time.js';
import { codesOf, toolCalls } from '../helpers/recordings.js';

type Line = Record<string, any>;
const DIR = fileURLToPath(new URL('../fixtures/real-app-log/', import.meta.url));
const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const observed = JSON.parse(readFileSync(`${DIR}observed-py.json`, 'utf8')) as Record<string, { client: string; steps: { step: string; ok: boolean; isError?: boolean; text?: string; error?: { message: string } }[] }>;
const serverLog = (scenario: string) => analyze({ inputs: [{ path: `${DIR}${scenario}/server.ndjson`, side: 'server' }] });
const lines = (scenario: string): Line[] => readFileSync(`${DIR}${scenario}/server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);

/** Each logger's own fields, as the test reads them from the raw line: the bound fields, the time and the text. */
const LOGGERS = {
  pjl: { fields: (l: Line) => l, time: (l: Line) => l.asctime, text: (l: Line) => l.message, session: (l: Line) => l.sessionId },
  structlog: { fields: (l: Line) => l, time: (l: Line) => l.timestamp, text: (l: Line) => l.event, session: (l: Line) => l.session_id },
  loguru: { fields: (l: Line) => l.record.extra, time: (l: Line) => l.record.time.repr, text: (l: Line) => l.record.message, session: (l: Line) => l.record.extra.sessionId },
  // The message dict formatted into the text: logger.info("mcp message received {}", message).
  'loguru-text': { fields: (l: Line) => ({ rpc: /^mcp message (received|sent) \{'jsonrpc': '2\.0'/.test(l.record.message) ? l.record.message : undefined }), time: (l: Line) => l.record.time.repr, text: (l: Line) => l.record.message.replace(/ \{.*/, ''), session: (l: Line) => l.record.extra.sessionId },
} as const;

const CASES = [
  ['py-pjl', 'pjl'],
  ['py-structlog', 'structlog'],
  ['py-loguru', 'loguru'],
  ['py-loguru-text', 'loguru-text'],
] as const;

describe.each(CASES)('an app log of the Python SDK server (%s)', (scenario, kind) => {
  const logger = LOGGERS[kind];
  const messageLines = () => lines(scenario).filter((l) => logger.fields(l).rpc !== undefined);

  it('reads every line: the message lines used, the start-up line skipped, none unusable', async () => {
    const r = await serverLog(scenario);
    const all = lines(scenario).length;
    const used = messageLines().length;
    expect(used).toBeGreaterThan(12);
    expect(r.summary.lines).toMatchObject({ read: all, used, skipped: all - used, unusable: 0 });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': used });
  });

  it('takes each message\'s time, session and direction from the logger\'s own fields', async () => {
    const r = await serverLog(scenario);
    const raw = lines(scenario);
    const sessions = new Set(messageLines().map(logger.session));
    expect(sessions.size).toBe(1);
    expect(new Set(r.attempts.map((a) => a.session))).toEqual(sessions);
    for (const a of r.attempts) {
      // The request's line time (pjl's comma milliseconds, structlog's ISO, loguru's record.time.repr), to the ms.
      const line = raw[a.sources[0]!.line - 1]!;
      expect(logger.text(line)).toBe('mcp message received');
      expect(a.ts).toBe(isoTime(parseTimestamp(logger.time(line))));
    }
  });

  it('has the outcome the client app got for every call, joined by the logged session id', async () => {
    const r = await serverLog(scenario);
    const steps = observed[scenario]!.steps;
    const calls = toolCalls(r);
    expect(calls.map((a) => a.tool)).toEqual(['lookup_invoice', 'export_ledger', 'void_invoice', 'refund_invoice', 'charge_card', 'charge_card']);
    // The Python SDK 2.3.0 server answers an unknown tool with an isError result; the tool's own MCPError is a JSON-RPC error.
    expect(steps.map((s) => (s.ok ? (s.isError ? 'isError' : 'ok') : 'threw'))).toEqual(['ok', 'isError', 'threw', 'isError', 'threw', 'ok']);
    expect(calls.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR', 'TOOL_ERROR', 'UNANSWERED', 'TOOL_SUCCESS']);
    expect(calls[2]!.detail).toMatchObject({ errorCode: -32602, errorMessage: 'invoice INV-7 is already paid and cannot be voided' });
  });

  it('sees the client cancel the first charge and the app\'s retry of a destructive tool; no HTTP layer it did not log', async () => {
    const r = await serverLog(scenario);
    const calls = toolCalls(r);
    const [first, retry] = calls.slice(4);
    expect(codesOf(first!)).toEqual(['CANCELLED']);
    expect(retry!.call).toBe(first!.call);
    expect(retry!.attempt).toBe(2);
    expect(codesOf(retry!)).toEqual(expect.arrayContaining(['UNSAFE_RETRY', 'RETRY_ORIGIN_AMBIGUOUS']));
    // Must not: the success, the isError results and the JSON-RPC error raise nothing; no status made up; no orphan.
    for (const a of calls.slice(0, 4)) expect(codesOf(a)).toEqual([]);
    expect(r.attempts.every((a) => a.status === null)).toBe(true);
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });
});

describe('a session lost when the Python server restarts (py-loguru-restart)', () => {
  it('shows the first session only: the 404 the SDK\'s session manager answered never reached the app\'s hooks, and nothing is made up for it', async () => {
    const steps = observed['py-loguru-restart']!.steps;
    expect(steps.map((s) => [s.step, s.ok])).toEqual([['lookup_invoice', true], ['lookup_invoice (after restart)', false]]);
    expect(steps[1]!.error!.message).toBe('Session not found');
    const r = await serverLog('py-loguru-restart');
    const raw = lines('py-loguru-restart');
    // Both start-up lines (before and after the restart) skipped, every message line used.
    expect(raw.filter((l) => /listening on/.test(l.record.message))).toHaveLength(2);
    expect(r.summary.lines).toMatchObject({ read: raw.length, used: raw.length - 2, skipped: 2, unusable: 0 });
    expect(toolCalls(r).map((a) => [a.tool, a.outcome])).toEqual([['lookup_invoice', 'TOOL_SUCCESS']]);
    expect(r.findings.map((f) => f.code)).not.toContain('SESSION_EXPIRED');
  });
});

describe('an app that logs the SDK\'s message object, not its JSON (py-pjl-model)', () => {
  it("reads pydantic's text of each message (str(message)) as the same app's JSON log is read: the same attempts and outcomes", async () => {
    const raw = lines('py-pjl-model');
    const objectLines = raw.filter((l) => typeof l.rpc === 'string' && l.rpc.startsWith("jsonrpc='2.0' "));
    expect(objectLines.length).toBeGreaterThan(12);
    const run = spawnSync(process.execPath, [BIN, '--format', 'ndjson', '--server', `${DIR}py-pjl-model/server.ndjson`], { encoding: 'utf8' });
    const summary = JSON.parse(run.stdout.trim().split('\n').pop()!) as { inputs: { used: number; skipped: number; unusable: number }[] };
    expect(summary.inputs[0]).toMatchObject({ used: objectLines.length, skipped: raw.length - objectLines.length, unusable: 0 });
    const asJson = spawnSync(process.execPath, [BIN, '--format', 'ndjson', '--server', `${DIR}py-pjl/server.ndjson`], { encoding: 'utf8' });
    // Two runs of the same app (other session ids and times): the same calls, outcomes, details and findings.
    const rows = (out: string) => out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'attempt')
      .map(({ sources: _s, session: _id, ts: _ts, durationMs: _ms, findings, ...r }) => ({ ...r, findings: (findings as { code: string }[]).map((f) => f.code) }));
    expect(rows(run.stdout)).toEqual(rows(asJson.stdout));
    expect(rows(run.stdout).map((r) => r.outcome)).toEqual(['SUCCESS', 'TOOL_SUCCESS', 'SUCCESS', 'TOOL_ERROR', 'JSONRPC_ERROR', 'TOOL_ERROR', 'UNANSWERED', 'TOOL_SUCCESS']);
  });
});
