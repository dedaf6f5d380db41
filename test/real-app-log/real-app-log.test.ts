// Real application logs (pino 9 with pino-http, winston 3) of an SDK 1.32.2 server, recorded by record.mjs: mcp-triage reads the JSON-RPC messages in the apps' own fields.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';
import { codesOf, toolCalls } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-app-log/', import.meta.url));
const observed = JSON.parse(readFileSync(`${DIR}observed.json`, 'utf8')) as Record<string, { steps: { step: string; ok: boolean; isError?: boolean }[] }>;
const serverLog = (scenario: string) => analyze({ inputs: [{ path: `${DIR}${scenario}/server.ndjson`, side: 'server' }] });
const lines = (scenario: string) => readFileSync(`${DIR}${scenario}/server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
/** The lines that carry a JSON-RPC message: pino's `rpc` object, winston's message text after "received"/"sending". */
const messageLines = (scenario: string) => lines(scenario).filter((l) => l.rpc !== undefined || /^(received|sending) \{/.test(String(l.message)));

describe.each(['pino-hooks', 'winston-hooks'])('an app log of the SDK server (%s)', (scenario) => {
  it('reads every line: the message lines used, the logger\'s other lines (start-up, pino-http\'s request lines) skipped, none unusable', async () => {
    const r = await serverLog(scenario);
    const all = lines(scenario).length;
    const used = messageLines(scenario).length;
    expect(used).toBeGreaterThan(10);
    expect(r.summary.lines).toMatchObject({ read: all, used, skipped: all - used, unusable: 0 });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': used });
  });

  it('joins each request with its response by the session id the app logged, as the caller saw them', async () => {
    const r = await serverLog(scenario);
    const steps = observed[scenario]!.steps;
    const calls = toolCalls(r);
    expect(calls.map((a) => a.tool)).toEqual(['lookup_invoice', 'export_ledger', 'refund_invoice', 'charge_card', 'charge_card']);
    expect(new Set(r.attempts.map((a) => a.session)).size).toBe(1);
    expect(r.attempts[0]!.session).toMatch(/^[0-9a-f-]{36}$/);
    // What the caller got: a result, an isError result (twice: the SDK 1.x answers an unknown tool so), two timeouts.
    expect(steps.map((s) => (s.ok ? (s.isError ? 'isError' : 'ok') : 'threw'))).toEqual(['ok', 'isError', 'isError', 'threw', 'threw']);
    expect(calls.map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_ERROR', 'TOOL_ERROR', 'UNANSWERED', 'UNANSWERED']);
    expect(calls[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('sees the client cancel both charges, the app\'s retry of a destructive tool, and no HTTP layer it did not log', async () => {
    const r = await serverLog(scenario);
    const [, , , first, retry] = toolCalls(r);
    expect(codesOf(first!)).toEqual(['CANCELLED']);
    expect(retry!.call).toBe(first!.call);
    expect(retry!.attempt).toBe(2);
    expect(codesOf(retry!)).toEqual(expect.arrayContaining(['CANCELLED', 'UNSAFE_RETRY']));
    // Must not: the successful and isError calls raise nothing, and no status was made up for lines without one.
    for (const a of toolCalls(r).slice(0, 3)) expect(codesOf(a)).toEqual([]);
    expect(r.attempts.every((a) => a.status === null)).toBe(true);
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });
});
