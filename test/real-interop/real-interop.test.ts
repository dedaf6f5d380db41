// The analyzer on real mixed-SDK traffic recorded by test/real-interop/record.mjs into test/fixtures/real-interop:
// SDK 1.32.2 (initialize, sessions, 2025-11-25) talking to the v2 SDK (client/server 2.4.0, node 2.1.2; 2026-07-28).
// A v2 'auto' client probes with server/discover, a 1.x server refuses it (400), the client falls back to initialize;
// a 1.x client is served by a v2 server on 2025-11-25 (stateful transport or createMcpHandler's stateless fallback).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult, AttemptRow } from '../../src/index.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { recordings, scenariosOf } from '../helpers/recordings.js';
import { wireDigest } from '../helpers/wire.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real-interop');
const { both, proxyOnly, file } = recordings(FIXTURES);
const SCENARIOS = scenariosOf(join(import.meta.dirname, 'record.mjs'));
type Step = { step: string; ok: boolean; isError?: boolean; error?: { name: string; code?: unknown } };
const OBSERVED = JSON.parse(readFileSync(join(import.meta.dirname, 'observed.json'), 'utf8')) as Record<string, { client: string; steps: Step[]; era: string; serverInfo: string }>;

const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((f) => f.code);
const allCodes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => codes(a)), ...r.findings.map((f) => f.code)];
const row = (a: AttemptRow) => [a.method, a.tool ?? null, a.status, a.outcome, a.layer, a.protocolVersion];
const records = (scenario: string, side: 'client' | 'server' | 'proxy') =>
  readFileSync(file(scenario, side), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** False findings none of these recordings can justify (no re-sent ids, no lost responses, no side disagreement). */
const NEVER = ['SIDE_DIVERGENCE', 'ID_REUSED', 'ORPHAN_RESPONSE', 'CALL_NEVER_SENT', 'NO_FINAL_RESULT', 'CANCELLED'];

describe('real-interop: the recordings', () => {
  it('has the three files and the observed outcome of every scenario', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(8);
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) expect(existsSync(file(s, side)), `${s}.${side}`).toBe(true);
      expect(OBSERVED[s], s).toBeDefined();
    }
  });

  it('holds only valid canonical records; every mixed pair negotiated 2025-11-25', () => {
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) for (const rec of records(s, side)) CanonicalRecordSchema.parse(rec);
      expect(OBSERVED[s]!.era, s).toBe('2025-11-25');
    }
  });

  const sameWire = (s: string) => expect(wireDigest(file(s, 'proxy'))).toEqual(wireDigest(file(s, 'client')));
  // Every scenario, including v1-client-v2-modern, where the 1.x client cancels the body of the GET 405 that
  // createMcpHandler answers with a JSON body it has already sent whole: both recorders say "complete".
  it.each(SCENARIOS.map((s) => [s]))('%s: the proxy and the client wrapper recorded the same wire', sameWire);
});

describe('real-interop: every scenario', () => {
  it.each(SCENARIOS.map((s) => [s]))('%s: every line used, no diagnostics, every attempt joined with its server view', async (s) => {
    const r = await both(s);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.summary.lines.used).toBe(r.summary.lines.read);
    expect(r.summary.diagnostics.total).toBe(0);
    for (const a of r.attempts) expect(a.serverOutcome, `${a.method} ${JSON.stringify(a.id)}`).toBe(a.outcome);
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: no false findings, in the joined view and from the proxy file alone', async (s) => {
    for (const r of [await both(s), await proxyOnly(s)]) for (const c of NEVER) expect(allCodes(r), c).not.toContain(c);
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: the proxy file alone gives the same outcomes', async (s) => {
    const [b, p] = await Promise.all([both(s), proxyOnly(s)]);
    expect(p.attempts.map(row)).toEqual(b.attempts.map(row));
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: tools/call outcomes match what the SDK caller observed', async (s) => {
    const r = await both(s);
    const expected = OBSERVED[s]!.steps
      .filter((st) => st.step.startsWith('call '))
      .map((st) => (st.ok ? (st.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : st.error?.name === 'StreamableHTTPError' ? 'HTTP_ERROR' : 'JSONRPC_ERROR'));
    expect(r.attempts.filter((a) => a.method === 'tools/call').map((a) => a.outcome)).toEqual(expected);
  });
});

describe('real-interop: v2 client (versionNegotiation auto) against a 1.x server', () => {
  const v2Clients = () => SCENARIOS.filter((s) => OBSERVED[s]!.client === 'v2');

  it('the server/discover probe is its own HTTP_ERROR (400, transport, 2026-07-28, no session), then initialize on 2025-11-25', async () => {
    for (const s of v2Clients()) {
      const r = await both(s);
      const [probe, init] = r.attempts;
      expect(row(probe!), s).toEqual(['server/discover', null, 400, 'HTTP_ERROR', 'transport', '2026-07-28']);
      expect(probe!.id).toBe('server-discover-probe-1');
      expect(probe!.session).toBeNull();
      expect(row(init!), s).toEqual(['initialize', null, 200, 'SUCCESS', 'application', '2025-11-25']);
      // The fallback is a new call, not a retry of the probe.
      expect(init!.call).not.toBe(probe!.call);
      expect(init!.attempt).toBe(1);
      for (const a of r.attempts.slice(1)) expect(a.protocolVersion, `${s} ${a.method}`).toBe('2025-11-25');
      expect(allCodes(r), s).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
      expect(allCodes(r), s).not.toContain('SESSION_EXPIRED');
    }
  });

  it('v2-client-v1-stateful: probe without session, then one 2025 session holding every later attempt', async () => {
    const r = await both('v2-client-v1-stateful');
    expect(r.attempts.map(row).slice(2)).toEqual([
      ['tools/list', null, 200, 'SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'lookup_order', 200, 'TOOL_SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'validate_quantity', 200, 'TOOL_ERROR', 'application', '2025-11-25'],
    ]);
    const sessions = new Set(r.attempts.slice(1).map((a) => a.session));
    expect(sessions.size).toBe(1);
    expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.attempts.every((a) => a.client === 'interop-v2-client@1.0.0')).toBe(true);
  });

  it('v2-client-v1-stateless: the 1.x server names the unsupported 2026-07-28 version; nothing carries a session', async () => {
    const r = await both('v2-client-v1-stateless');
    expect(r.attempts[0]!.detail).toMatchObject({ errorCode: -32000 });
    expect(String((r.attempts[0]!.detail as { errorMessage?: string }).errorMessage)).toContain('Unsupported protocol version: 2026-07-28');
    expect(r.attempts.every((a) => a.session === null)).toBe(true);
  });

  it('v2-client-v1-json-response: JSON bodies; isError is TOOL_ERROR (application), McpError is JSONRPC_ERROR -32602 (protocol)', async () => {
    const r = await both('v2-client-v1-json-response');
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.map((a) => [a.outcome, a.layer])).toEqual([
      ['TOOL_SUCCESS', 'application'],
      ['TOOL_ERROR', 'application'],
      ['JSONRPC_ERROR', 'protocol'],
    ]);
    expect(calls[2]!.detail).toMatchObject({ errorCode: -32602 });
  });

  it('v2-client-v1-elicitation: the v2 client answering the 1.x server elicitation/create (id 0) is not an attempt', async () => {
    const r = await both('v2-client-v1-elicitation');
    expect(r.attempts.map((a) => [a.method, a.id, a.outcome])).toEqual([
      ['server/discover', 'server-discover-probe-1', 'HTTP_ERROR'],
      ['initialize', 0, 'SUCCESS'],
      ['tools/call', 1, 'TOOL_SUCCESS'],
    ]);
  });
});

describe('real-interop: 1.x client against a v2 server', () => {
  it.each([['v1-client-v2-stateful'], ['v1-client-v2-modern']])('%s: initialize, tools/list, a call, an unknown tool (-32602 JSON-RPC error)', async (s) => {
    const r = await both(s);
    expect(r.attempts.map(row)).toEqual([
      ['initialize', null, 200, 'SUCCESS', 'application', '2025-11-25'],
      ['tools/list', null, 200, 'SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'lookup_order', 200, 'TOOL_SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'no_such_tool', 200, 'JSONRPC_ERROR', 'protocol', '2025-11-25'],
    ]);
    expect(r.attempts[3]!.detail).toMatchObject({ errorCode: -32602 });
    // The stateful v2 transport issues a session id; createMcpHandler's 2025 fallback is stateless (GET 405).
    const sessions = r.attempts.map((a) => a.session);
    if (s === 'v1-client-v2-modern') expect(sessions.every((x) => x === null)).toBe(true);
    else expect(new Set(sessions).size).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it('v1-client-v2-session-expired: 404 on the forgotten session, SESSION_EXPIRED, app retry in a new session as attempt 2', async () => {
    const r = await both('v1-client-v2-session-expired');
    const [before, expired, retried] = r.attempts.filter((a) => a.method === 'tools/call');
    expect(before).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 1 });
    expect(expired).toMatchObject({ status: 404, outcome: 'HTTP_ERROR', layer: 'transport', attempt: 1 });
    expect(retried).toMatchObject({ outcome: 'TOOL_SUCCESS', attempt: 2 });
    expect(retried!.call).toBe(expired!.call);
    expect(retried!.session).not.toBe(expired!.session);
    expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
    // The app noted its retry: the origin is known.
    expect(codes(retried)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

  it('v1-client-v2-session-expired: from the proxy alone (no call note) the retry origin is unknown', async () => {
    const r = await proxyOnly('v1-client-v2-session-expired');
    const retried = r.attempts.filter((a) => a.method === 'tools/call')[2];
    expect(codes(retried)).toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(r.findings.map((f) => f.code)).toEqual(['SESSION_EXPIRED']);
  });
});

describe('real-interop: 1.x client and server with enableJsonResponse', () => {
  it('v1-json-response: application/json bodies; success, isError, JSON-RPC error', async () => {
    const r = await both('v1-json-response');
    expect(r.attempts.map(row)).toEqual([
      ['initialize', null, 200, 'SUCCESS', 'application', '2025-11-25'],
      ['tools/list', null, 200, 'SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'lookup_order', 200, 'TOOL_SUCCESS', 'application', '2025-11-25'],
      ['tools/call', 'validate_quantity', 200, 'TOOL_ERROR', 'application', '2025-11-25'],
      ['tools/call', 'lookup_order', 200, 'JSONRPC_ERROR', 'protocol', '2025-11-25'],
    ]);
    expect(r.attempts[4]!.detail).toMatchObject({ errorCode: -32602 });
    expect(r.findings).toEqual([]);
    // Two calls of lookup_order with different arguments are two calls, not a retry.
    expect(new Set(r.attempts.map((a) => a.call)).size).toBe(5);
  });
});
