// Audit 44's real runs (test/fixtures/real-audit44): what the report says of each call agrees with what its caller got.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit44/';

type Truth = { app: { what: string; name?: string; code?: string | number; type?: string; structuredContent?: unknown; attempt?: number }[]; server: { what: string }[] };
const truth = (run: string): Truth => JSON.parse(readFileSync(`${DIR}${run}/ground-truth.json`, 'utf8')) as Truth;

/** The tools/call attempts of a run: from the client's and the server's logs, or from the server's alone (the Python client's runs). */
async function calls(run: string, serverOnly = false) {
  const inputs = [...(serverOnly ? [] : [{ path: `${DIR}${run}/client.ndjson`, side: 'client' as const }]), { path: `${DIR}${run}/server.ndjson`, side: 'server' as const }];
  const r = await analyze({ inputs, onDiagnostic: () => {} });
  return r.attempts.filter((a) => a.method === 'tools/call');
}

describe('audit 44: structuredContent that is no object, on 2026-07-28', () => {
  for (const [run, serverOnly] of [['structured-array', false], ['py-structured-array', true]] as const) {
    it(`${run}: the client took the array (SEP-2106 allows any JSON value), so the call is TOOL_SUCCESS`, async () => {
      const got = truth(run).app.find((e) => e.what === 'result');
      expect(Array.isArray(got?.structuredContent)).toBe(true);
      const [a, ...more] = await calls(run, serverOnly);
      expect(more).toHaveLength(0);
      expect(a!.outcome).toBe('TOOL_SUCCESS');
      expect(a!.findings).toEqual([]);
    });
  }
});

describe('audit 44: input_required with neither inputRequests nor requestState', () => {
  for (const [run, serverOnly, refusal] of [['input-required-empty', false, /^INVALID_RESULT$/], ['py-input-required-empty', true, /^ValidationError$/]] as const) {
    it(`${run}: the client refused it, so the call is INVALID_TOOL_RESULT, not INPUT_REQUIRED`, async () => {
      const err = truth(run).app.find((e) => e.what === 'error');
      expect(err?.code ?? err?.type).toMatch(refusal);
      const [a, ...more] = await calls(run, serverOnly);
      expect(more).toHaveLength(0);
      expect(a!.outcome).toBe('INVALID_TOOL_RESULT');
      expect(a!.layer).toBe('protocol');
      expect(a!.detail.why).toMatch(/neither inputRequests nor requestState/);
    });
  }
});

describe('audit 44: UNSAFE_RETRY of a tool annotated without readOnlyHint or idempotentHint', () => {
  it('says the hints were left out and took the spec defaults, not that tools/list said so', async () => {
    // The tools/list the client got: annotations, but neither hint.
    const list = readFileSync(`${DIR}timeout-retry-title-only/client.ndjson`, 'utf8').split('\n').find((l) => l.includes('append_note') && l.includes('annotations'))!;
    const tools = JSON.parse(JSON.parse(list).recvText).result.tools as { name: string; annotations?: Record<string, unknown> }[];
    const ann = tools.find((t) => t.name === 'append_note')!.annotations!;
    expect(Object.keys(ann).length).toBeGreaterThan(0);
    expect(ann).not.toHaveProperty('readOnlyHint');
    expect(ann).not.toHaveProperty('idempotentHint');
    // The server ran the tool twice.
    expect(truth('timeout-retry-title-only').server.filter((e) => e.what === 'append_note APPENDED')).toHaveLength(2);
    const unsafe = (await calls('timeout-retry-title-only')).flatMap((a) => a.findings).filter((f) => f.code === 'UNSAFE_RETRY');
    expect(unsafe).toHaveLength(1);
    expect(unsafe[0]!.severity).toBe('error');
    expect(unsafe[0]!.message).not.toMatch(/tools\/list says/);
    expect(unsafe[0]!.message).toMatch(/give neither readOnlyHint nor idempotentHint, so by the spec defaults it is not read-only and not idempotent/);
  });
});

describe('audit 44: a retry after -32603 (internal error), from the client log alone', () => {
  it('is an UNSAFE_RETRY warning: the handler failed after the tool had charged the card (the server ran it twice)', async () => {
    const run = 'v1-internal-error-retry';
    const t = truth(run);
    expect(t.app.find((e) => e.what === 'error')?.code).toBe(-32603);
    expect(t.server.filter((e) => e.what === 'charge_card CHARGED')).toHaveLength(2);
    const r = await analyze({ inputs: [{ path: `${DIR}${run}/client.ndjson`, side: 'client' }], onDiagnostic: () => {} });
    const as = r.attempts.filter((a) => a.method === 'tools/call');
    expect(as.map((a) => a.outcome)).toEqual(['JSONRPC_ERROR', 'TOOL_SUCCESS']);
    const unsafe = as[1]!.findings.filter((f) => f.code === 'UNSAFE_RETRY');
    expect(unsafe).toHaveLength(1);
    // Possible, not proven: the client's log cannot show that the server had it.
    expect(unsafe[0]!.severity).toBe('warning');
    expect(unsafe[0]!.message).toMatch(/-32603 \(internal error\)/);
  });

  it('with the server log beside it, an error as before (the server had the request)', async () => {
    const run = 'v1-internal-error-retry';
    const as = await calls(run);
    const unsafe = as.flatMap((a) => a.findings).filter((f) => f.code === 'UNSAFE_RETRY');
    expect(unsafe.map((f) => f.severity)).toEqual(['error']);
  });
});

describe('audit 44: a retry after -32602 "Invalid tools/call result" (the server SDK refused the tool\'s own result)', () => {
  const run = 'v1-result-refused-retry';
  it('the server exported twice; the retry is an UNSAFE_RETRY, an error with the server\'s log, a warning from the client\'s alone', async () => {
    const t = truth(run);
    expect(t.app.filter((e) => e.what === 'error').map((e) => e.code)).toEqual([-32602, -32602]);
    expect(t.server.filter((e) => e.what === 'export_report EXPORTED')).toHaveLength(2);
    for (const [serverLog, severity] of [[true, 'error'], [false, 'warning']] as const) {
      const inputs = [{ path: `${DIR}${run}/client.ndjson`, side: 'client' as const }, ...(serverLog ? [{ path: `${DIR}${run}/server.ndjson`, side: 'server' as const }] : [])];
      const as = (await analyze({ inputs, onDiagnostic: () => {} })).attempts.filter((a) => a.method === 'tools/call');
      expect(as.map((a) => a.outcome)).toEqual(['JSONRPC_ERROR', 'JSONRPC_ERROR']);
      expect(as[0]!.detail.why).toMatch(/checked the tool's result against the tools\/call result schema after the tool ran/);
      const unsafe = as[1]!.findings.filter((f) => f.code === 'UNSAFE_RETRY');
      expect(unsafe.map((f) => f.severity), `server log: ${serverLog}`).toEqual([severity]);
      expect(unsafe[0]!.message).toMatch(/refusing the tool's result \("Invalid tools\/call result"\)/);
    }
  });
});

describe('audit 44: a 2026-07-28 result without resultType (a wire hook answers as an earlier server would)', () => {
  for (const [run, serverOnly, refusal] of [['no-result-type', false, /^INVALID_RESULT$/], ['py-no-result-type', true, /^ValidationError$/]] as const) {
    it(`${run}: both clients refuse it, so INVALID_TOOL_RESULT, and the why names both`, async () => {
      const err = truth(run).app.find((e) => e.what === 'error');
      expect(String(err?.code ?? err?.type)).toMatch(refusal);
      const [a, ...more] = await calls(run, serverOnly);
      expect(more).toHaveLength(0);
      expect(a!.outcome).toBe('INVALID_TOOL_RESULT');
      expect(a!.detail.why).toMatch(/the TypeScript SDK v2 client refuses the result .*, as the Python SDK client does \(a ValidationError/);
    });
  }
});
