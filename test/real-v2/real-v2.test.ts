// The analyzer on real traffic of the v2 TypeScript SDK (@modelcontextprotocol/client + /server 2.4.0, /node 2.1.2),
// recorded by test/real-v2/record.mjs into test/fixtures/real-v2: protocol 2026-07-28 (server/discover, no sessions,
// MRTR input_required rounds, JSON or SSE responses) and the SDK's 2025-11-25 paths (legacy stateless fallback,
// a stateful v2 server with its MRTR-to-elicitation shim, 'auto' negotiation falling back to initialize).
// Each test states what the wire shows and what mcp-triage must make of it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult, AttemptRow } from '../../src/index.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { recordings, scenariosOf, type RecordingSide } from '../helpers/recordings.js';
import { wireDigest } from '../helpers/wire.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real-v2');
type Side = RecordingSide;
const { both, proxyOnly, file } = recordings(FIXTURES);

const SCENARIOS = scenariosOf(join(import.meta.dirname, 'record.mjs'));
const OBSERVED = JSON.parse(readFileSync(join(import.meta.dirname, 'observed.json'), 'utf8')) as Record<string, { steps: { step: string; ok: boolean; isError?: boolean; error?: { code?: unknown } }[]; era: string }>;


const calls = (r: AnalysisResult, tool?: string) => r.attempts.filter((a) => a.method === 'tools/call' && (tool === undefined || a.tool === tool));
const byId = (r: AnalysisResult, id: string | number, method = 'tools/call'): AttemptRow => {
  const a = r.attempts.find((x) => x.id === id && x.method === method);
  if (!a) throw new Error(`no ${method} attempt with id ${JSON.stringify(id)}`);
  return a;
};
const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((f) => f.code);
const allCodes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => codes(a)), ...r.findings.map((f) => f.code)];
const outcomes = (as: AttemptRow[]) => as.map((a) => a.outcome);

/** The records of one fixture file, parsed. */
function records(scenario: string, side: Side): Record<string, unknown>[] {
  return readFileSync(file(scenario, side), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * From the client's own wire: for every MRTR follow-up request (params.requestState), the id of the request whose
 * input_required result minted that requestState. This is the chain the spec defines (linked by requestState echo).
 */
function mrtrChains(scenario: string): Map<number | string, number | string> {
  const recs = records(scenario, 'client');
  const idOfXid = new Map<string, number | string>();
  const minted = new Map<string, number | string>();
  const followUps: [number | string, string][] = [];
  for (const r of recs) {
    if (r.kind === 'request') {
      const send = r.send as { id?: number | string; params?: { requestState?: string } } | undefined;
      if (send?.id === undefined) continue;
      idOfXid.set(String(r.xid), send.id);
      if (typeof send.params?.requestState === 'string') followUps.push([send.id, send.params.requestState]);
    }
    const bodies: string[] = [];
    if (r.kind === 'end' && typeof r.recvText === 'string') bodies.push(r.recvText);
    if (r.kind === 'event' && typeof r.data === 'string') bodies.push(r.data);
    for (const b of bodies) {
      let m: { id?: number | string; result?: { resultType?: string; requestState?: string } } | undefined;
      try {
        m = JSON.parse(b) as typeof m;
      } catch {
        continue;
      }
      if (m?.result?.resultType === 'input_required' && typeof m.result.requestState === 'string' && m.id !== undefined) minted.set(m.result.requestState, m.id);
    }
  }
  const chain = new Map<number | string, number | string>();
  for (const [id, state] of followUps) chain.set(id, minted.get(state)!);
  return chain;
}

// ---------------------------------------------------------------- the recordings themselves

describe('real-v2 fixtures: the recordings', () => {
  it('has the three files of every scenario of record.mjs, and what the caller observed', () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(18);
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) expect(existsSync(file(s, side)), `${s}.${side}`).toBe(true);
      expect(OBSERVED[s], `observed.json has ${s}`).toBeDefined();
    }
  });

  it('holds only valid canonical split records with the side the writer was given', () => {
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) {
        for (const rec of records(s, side)) {
          const r = CanonicalRecordSchema.parse(rec);
          expect(r.side).toBe(side === 'proxy' ? undefined : side);
        }
      }
    }
  });

  it('negotiated 2026-07-28 except in the three 2025-era scenarios', () => {
    const legacy = ['legacy-client-stateless', 'legacy-stateful-mrtr-shim', 'auto-negotiation-fallback'];
    for (const s of SCENARIOS) expect(OBSERVED[s]!.era, s).toBe(legacy.includes(s) ? '2025-11-25' : '2026-07-28');
  });

  it('2026-07-28 traffic carries no Mcp-Session-Id anywhere, and every 2026 result carries resultType', () => {
    for (const s of SCENARIOS.filter((x) => OBSERVED[x]!.era === '2026-07-28')) {
      for (const r of records(s, 'client')) {
        const h = { ...(r.requestHeaders as object), ...(r.responseHeaders as object) } as Record<string, unknown>;
        expect(Object.keys(h).map((k) => k.toLowerCase()), s).not.toContain('mcp-session-id');
        const body = typeof r.recvText === 'string' ? r.recvText : r.kind === 'event' ? String(r.data) : '';
        if (body.includes('"result"')) expect((JSON.parse(body) as { result: { resultType?: string } }).result.resultType, `${s}: ${body.slice(0, 80)}`).toMatch(/^(complete|input_required)$/);
      }
    }
  });
});


describe('real-v2 fixtures: the proxy and the client wrapper recorded the same wire', () => {
  it.each(SCENARIOS.map((s) => [s]))('%s', (scenario) => {
    expect(wireDigest(join(FIXTURES, `${scenario}.proxy.ndjson`))).toEqual(wireDigest(join(FIXTURES, `${scenario}.client.ndjson`)));
  });
});

// ---------------------------------------------------------------- every scenario

describe('real-v2: every scenario', () => {
  it.each(SCENARIOS.map((s) => [s]))('%s: every line used, no diagnostics, both views joined', async (scenario) => {
    const r = await both(scenario);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.summary.lines.used).toBe(r.summary.lines.read);
    expect(r.summary.diagnostics.total).toBe(0);
    for (const a of r.attempts) {
      // Every attempt the server saw is joined with its server view (the one 503 came from the hop).
      if (!a.notSeenByServer) expect(a.serverOutcome, `${a.method} ${JSON.stringify(a.id)}`).toBeDefined();
    }
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: the proxy file alone gives the same outcomes as the client view', async (scenario) => {
    const [b, p] = await Promise.all([both(scenario), proxyOnly(scenario)]);
    const line = (a: AttemptRow) => `${a.method} ${JSON.stringify(a.id)} ${a.tool ?? ''} ${a.status} ${a.outcome}`;
    expect(p.attempts.map(line).sort()).toEqual(b.attempts.map(line).sort());
    expect(p.summary.diagnostics.total).toBe(0);
  });

  it.each(SCENARIOS.filter((s) => OBSERVED[s]!.era === '2026-07-28').map((s) => [s]))('%s: 2026 traffic: no session, protocol 2026-07-28, a server/discover probe, no ID_REUSED', async (scenario) => {
    for (const r of [await both(scenario), await proxyOnly(scenario)]) {
      expect(r.attempts.every((a) => a.session === null)).toBe(true);
      expect(r.attempts.every((a) => a.protocolVersion === '2026-07-28')).toBe(true);
      const probe = r.attempts.find((a) => a.method === 'server/discover');
      expect(probe?.id).toBe('server-discover-probe-1');
      expect(allCodes(r)).not.toContain('ID_REUSED');
      expect(allCodes(r)).not.toContain('SESSION_EXPIRED');
    }
  });
});

// ---------------------------------------------------------------- per scenario

describe('real-v2: plain 2026-07-28 calls', () => {
  it('baseline: discover, tools/list and three calls succeed; one call each, no findings', async () => {
    const r = await both('baseline');
    expect(r.attempts.map((a) => [a.method, a.tool, a.status, a.outcome, a.serverOutcome])).toEqual([
      ['server/discover', null, 200, 'SUCCESS', 'SUCCESS'],
      ['tools/list', null, 200, 'SUCCESS', 'SUCCESS'],
      ['tools/call', 'lookup_order', 200, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
      ['tools/call', 'set_shipping_address', 200, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
      ['tools/call', 'send_invoice', 200, 'TOOL_SUCCESS', 'TOOL_SUCCESS'],
    ]);
    expect(r.attempts.every((a) => a.attempt === 1)).toBe(true);
    expect(allCodes(r)).toEqual([]);
    expect(r.summary.retries).toBe(0);
  });

  it('baseline: server/discover names the client (request _meta) and the server (result _meta), as initialize does on 2025', async () => {
    for (const r of [await both('baseline'), await proxyOnly('baseline')]) {
      const [discover, ...rest] = r.attempts;
      expect(discover!.initialize).toEqual({ clientInfo: 'triage-v2-client/1.0.0', requestedVersion: '2026-07-28', serverInfo: 'triage-v2-server/1.0.0', userAgent: 'node' });
      expect(discover!.protocolVersion).toBe('2026-07-28');
      expect(rest.every((a) => a.initialize === undefined)).toBe(true);
    }
  });

  it('tool-error: isError on resultType "complete" is TOOL_ERROR (application)', async () => {
    const [a] = calls(await both('tool-error'));
    expect([a!.status, a!.outcome, a!.layer, a!.serverOutcome]).toEqual([200, 'TOOL_ERROR', 'application', 'TOOL_ERROR']);
    expect(a!.detail?.errorMessage).toBe('quantity must be positive, got -3');
    expect(codes(a)).toEqual([]);
  });

  it('jsonrpc-error: the v2 server answers an unknown tool with -32602 on HTTP 200: JSONRPC_ERROR (protocol)', async () => {
    const [a] = calls(await both('jsonrpc-error'));
    expect([a!.status, a!.outcome, a!.layer]).toEqual([200, 'JSONRPC_ERROR', 'protocol']);
    expect(a!.detail?.errorCode).toBe(-32602);
    expect(OBSERVED['jsonrpc-error']!.steps[0]!.error?.code).toBe(-32602);
    expect(codes(a)).toEqual([]);
  });

  it('unknown-method-404: HTTP 404 with a -32601 body is HTTP_ERROR keeping the code; no session, so no SESSION_EXPIRED', async () => {
    const r = await both('unknown-method-404');
    const ping = r.attempts.find((a) => a.method === 'vendor/ping')!;
    expect([ping.status, ping.outcome, ping.detail?.errorCode]).toEqual([404, 'HTTP_ERROR', -32601]);
    expect(calls(r).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  it('progress-upgrades-to-sse: a JSON-mode response upgraded to SSE by two progress notifications is one TOOL_SUCCESS', async () => {
    const [a] = calls(await both('progress-upgrades-to-sse'));
    expect(a!.outcome).toBe('TOOL_SUCCESS');
    expect(a!.sse).toMatchObject({ events: 3, progress: 2, serverRequests: 0, end: 'complete' });
    expect(codes(a)).toEqual([]);
  });

  it('sse-response-mode: SSE bodies without priming events or ids; an MRTR chain over SSE is one call', async () => {
    const r = await both('sse-response-mode');
    expect(outcomes(calls(r, 'lookup_order'))).toEqual(['TOOL_SUCCESS']);
    const chain = calls(r, 'approve_refund');
    expect(outcomes(chain)).toEqual(['INPUT_REQUIRED', 'TOOL_SUCCESS']);
    expect(chain[1]!.call).toBe(chain[0]!.call);
    expect(allCodes(r)).toEqual([]);
  });

  it('two-clients-ids-reused: two clients reuse the probe id and ids 0, 1 without sessions; all joined, nothing flagged', async () => {
    const r = await both('two-clients-ids-reused');
    expect(r.attempts).toHaveLength(6);
    expect(r.attempts.map((a) => a.scope)).toEqual(['client-a', 'client-a', 'client-a', 'client-b', 'client-b', 'client-b']);
    expect(r.attempts.every((a) => a.serverOutcome === a.outcome)).toBe(true);
    expect(allCodes(r)).toEqual([]);
    // The proxy file has neither conn nor client key: ids repeat after completion, legal in 2026-07-28.
    expect(allCodes(await proxyOnly('two-clients-ids-reused'))).toEqual([]);
  });
});

describe('real-v2: MRTR (input_required) chains', () => {
  it.each([
    ['mrtr-roundtrip', 'approve_refund', ['INPUT_REQUIRED', 'TOOL_SUCCESS']],
    ['mrtr-declined', 'approve_refund', ['INPUT_REQUIRED', 'TOOL_ERROR']],
    ['mrtr-two-rounds', 'close_ticket', ['INPUT_REQUIRED', 'INPUT_REQUIRED', 'TOOL_SUCCESS']],
    ['mrtr-request-state-only', 'queue_export', ['INPUT_REQUIRED', 'TOOL_SUCCESS']],
    ['mrtr-max-rounds', 'endless_questions', ['INPUT_REQUIRED', 'INPUT_REQUIRED', 'INPUT_REQUIRED']],
  ] as const)('%s: one call, follow-ups are continuations (new ids), not retries, nothing flagged', async (scenario, tool, expected) => {
    for (const r of [await both(scenario), await proxyOnly(scenario)]) {
      const chain = calls(r, tool);
      expect(outcomes(chain)).toEqual(expected);
      expect(new Set(chain.map((a) => a.call)).size).toBe(1);
      expect(chain.map((a) => a.attempt)).toEqual(expected.map((_, i) => i + 1));
      expect(new Set(chain.map((a) => a.id)).size).toBe(chain.length);
      expect(chain[0]!.layer).toBe('interaction');
      for (const a of chain.slice(1)) expect(a.retryOrigin?.origin).toBe('none');
      expect(allCodes(r)).toEqual([]);
    }
  });

  it('mrtr-max-rounds: the caller got INPUT_REQUIRED_ROUNDS_EXCEEDED after the third input_required (the call never completed)', async () => {
    expect(OBSERVED['mrtr-max-rounds']!.steps[0]!.error?.code).toBe('INPUT_REQUIRED_ROUNDS_EXCEEDED');
    const chain = calls(await both('mrtr-max-rounds'));
    expect(chain.at(-1)!.outcome).toBe('INPUT_REQUIRED');
  });

  // A follow-up after INPUT_REQUIRED continues the call and is not a retry: the summary counts no retries, and the
  // rows say `continuation: true`.
  it('mrtr-two-rounds: the summary counts no retries for a chain of continuations', async () => {
    const r = await both('mrtr-two-rounds');
    expect(calls(r).map((a) => a.continuation ?? false)).toEqual([false, true, true]);
    expect(r.summary.attempts).toBe(4);
    expect(r.summary.calls).toBe(2);
    expect(r.summary.retries).toBe(0);
  });

  it('mrtr-parallel-same-args: two chains, each an INPUT_REQUIRED then a TOOL_SUCCESS, nothing flagged', async () => {
    const r = await both('mrtr-parallel-same-args');
    expect(outcomes(calls(r)).sort()).toEqual(['INPUT_REQUIRED', 'INPUT_REQUIRED', 'TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(allCodes(r)).toEqual([]);
  });

  // Two same-argument calls in flight: each follow-up is linked by the requestState it echoes, as the spec links an
  // MRTR chain (not by id, and not only by tool and arguments).
  it('mrtr-parallel-same-args: each follow-up joins the call whose input_required minted the requestState it echoes', async () => {
    const chains = mrtrChains('mrtr-parallel-same-args');
    expect(chains.size).toBe(2);
    for (const r of [await both('mrtr-parallel-same-args'), await proxyOnly('mrtr-parallel-same-args')]) {
      for (const [followUp, original] of chains) {
        const f = byId(r, followUp);
        const o = byId(r, original);
        expect(f.call, `follow-up id ${followUp} continues id ${original}`).toBe(o.call);
        expect([o.attempt, f.attempt]).toEqual([1, 2]);
      }
      expect(new Set(calls(r).map((a) => a.call)).size).toBe(2);
    }
  });
});

describe('real-v2: cancellation by closing the stream (2026-07-28)', () => {
  it('timeout-stream-closed: the client aborts before any response head: NO_RESPONSE on both sides, no divergence', async () => {
    const r = await both('timeout-stream-closed');
    const slow = calls(r, 'slow_report')[0]!;
    expect([slow.status, slow.outcome, slow.serverOutcome]).toEqual([null, 'NO_RESPONSE', 'NO_RESPONSE']);
    expect(codes(slow)).not.toContain('SIDE_DIVERGENCE');
    expect(outcomes(calls(r, 'lookup_order'))).toEqual(['TOOL_SUCCESS']);
    expect(OBSERVED['timeout-stream-closed']!.steps[0]!.error?.code).toBe('REQUEST_TIMEOUT');
    // v2 on 2026-07-28 sends no notifications/cancelled: closing the stream is the cancellation.
    expect(records('timeout-stream-closed', 'client').some((x) => JSON.stringify(x.send ?? '').includes('notifications/cancelled'))).toBe(false);
  });

  // On 2026-07-28 "closing the SSE response stream MUST be treated as cancellation", and the v2 SDK cancels exactly
  // that way on timeout: the client record ends `end: "aborted"` with no notifications/cancelled. That is CANCELLED,
  // as the same user-visible event is with SDK 1.x.
  it.each([['timeout-stream-closed'], ['timeout-sse-stream-closed']])('%s: the client closing the response stream on 2026-07-28 is CANCELLED', async (scenario) => {
    const slow = calls(await both(scenario), 'slow_report')[0]!;
    expect(codes(slow)).toContain('CANCELLED');
  });

  it('timeout-sse-stream-closed: nothing of the 200 SSE head reached the wire (the proxy recorded no response)', async () => {
    const proxy = records('timeout-sse-stream-closed', 'proxy');
    const xid = proxy.find((x) => x.kind === 'request' && (x.send as { params?: { name?: string } } | undefined)?.params?.name === 'slow_report')!.xid;
    expect(proxy.filter((x) => x.xid === xid).map((x) => x.kind)).toEqual(['request', 'end']);
    const slow = calls(await both('timeout-sse-stream-closed'), 'slow_report')[0]!;
    expect([slow.status, slow.outcome]).toEqual([null, 'NO_RESPONSE']);
  });

  // In responseMode 'sse' the server called writeHead(200) but wrote no frame before the client gave up, and Node
  // never sent that head (the proxy between them recorded no response). This recording was made before the server
  // recorder learned to log a head only when it is sent, so its server log says `response 200`, as any recorder that
  // logs at writeHead would. The client aborted its own request before a byte arrived and the server sent no result:
  // nothing between them changed anything, so no SIDE_DIVERGENCE.
  it('timeout-sse-stream-closed: no SIDE_DIVERGENCE when the client aborted before the head was flushed', async () => {
    const slow = calls(await both('timeout-sse-stream-closed'), 'slow_report')[0]!;
    expect(codes(slow)).not.toContain('SIDE_DIVERGENCE');
  });
});

describe('real-v2: retries', () => {
  it('http-503-app-retry: HTTP_ERROR not seen by the server, then the app retry (noted) in the same call', async () => {
    const r = await both('http-503-app-retry');
    const [first, second] = calls(r);
    expect([first!.status, first!.outcome, first!.notSeenByServer]).toEqual([503, 'HTTP_ERROR', true]);
    expect([second!.outcome, second!.call, second!.attempt, second!.retryOrigin?.origin]).toEqual(['TOOL_SUCCESS', first!.call, 2, 'app']);
    // The app retried at once: below the default 200 ms policy (as with SDK 1.x).
    expect(codes(second)).toEqual(['RETRY_POLICY']);
    expect(r.summary.retries).toBe(1);
  });

  it('header-mismatch-sdk-retry: 400 + -32020 is HTTP_ERROR keeping the code; the re-sent call (new id) is its retry', async () => {
    const r = await both('header-mismatch-sdk-retry');
    const [first, second] = calls(r);
    expect([first!.status, first!.outcome, first!.detail?.errorCode]).toEqual([400, 'HTTP_ERROR', -32020]);
    expect([second!.outcome, second!.call, second!.attempt]).toEqual(['TOOL_SUCCESS', first!.call, 2]);
    expect(second!.id).not.toBe(first!.id);
    expect(codes(second)).not.toContain('UNSAFE_RETRY');
    // Between the two, the SDK refreshed tools/list (its HeaderMismatch recovery), then re-sent the call.
    expect(r.attempts.filter((a) => a.method === 'tools/list')).toHaveLength(2);
  });

  // The v2 client re-sends a tools/call by itself, once, after HTTP 400 + JSON-RPC -32020 HeaderMismatch (refreshing
  // tools/list first), as the 2026-07-28 spec asks: origin "sdk", and no retry-policy judgement of that re-send.
  it('header-mismatch-sdk-retry: the re-send after -32020 is the SDK\'s (origin sdk), with no ambiguity or policy warning', async () => {
    const [, second] = calls(await both('header-mismatch-sdk-retry'));
    expect(second!.retryOrigin?.origin).toBe('sdk');
    expect(codes(second)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
    expect(codes(second)).not.toContain('RETRY_POLICY');
  });
});

describe('real-v2: the SDK on 2025-11-25', () => {
  it('legacy-client-stateless: initialize settles 2025-11-25 without a session; the GET 405 is no attempt; the MRTR tool answers isError', async () => {
    const r = await both('legacy-client-stateless');
    expect(r.attempts.map((a) => [a.method, a.tool, a.outcome])).toEqual([
      ['initialize', null, 'SUCCESS'],
      ['tools/list', null, 'SUCCESS'],
      ['tools/call', 'lookup_order', 'TOOL_SUCCESS'],
      ['tools/call', 'approve_refund', 'TOOL_ERROR'],
    ]);
    expect(r.attempts.every((a) => a.session === null && a.protocolVersion === '2025-11-25')).toBe(true);
    expect(allCodes(r)).toEqual([]);
  });

  it('legacy-stateful-mrtr-shim: the server turns input_required into elicitation/create on the call stream; one TOOL_SUCCESS, no id clash', async () => {
    const r = await both('legacy-stateful-mrtr-shim');
    const sessions = new Set(r.attempts.map((a) => a.session));
    expect(sessions.size).toBe(1);
    expect([...sessions][0]).toMatch(/^[0-9a-f-]{36}$/);
    const refund = calls(r, 'approve_refund');
    expect(outcomes(refund)).toEqual(['TOOL_SUCCESS']);
    expect(refund[0]!.sse).toMatchObject({ serverRequests: 1, end: 'complete' });
    // The client's answer to elicitation/create (server request id 0) is a POST with id 0, like its initialize.
    expect(allCodes(r)).toEqual([]);
  });

  it('auto-negotiation-fallback: the server/discover probe gets 400, then initialize opens a 2025 session and the call succeeds', async () => {
    const r = await both('auto-negotiation-fallback');
    expect(r.attempts.map((a) => [a.method, a.status, a.outcome, a.protocolVersion])).toEqual([
      ['server/discover', 400, 'HTTP_ERROR', '2026-07-28'],
      ['initialize', 200, 'SUCCESS', '2025-11-25'],
      ['tools/call', 200, 'TOOL_SUCCESS', '2025-11-25'],
    ]);
    expect(r.attempts[0]!.session).toBeNull();
    expect(r.attempts[1]!.session).toBe(r.attempts[2]!.session);
    expect(r.attempts[1]!.session).not.toBeNull();
    expect(allCodes(r)).not.toContain('CALL_NEVER_SENT');
    expect(allCodes(r)).toEqual([]);
  });
});

describe('real-v2: the reports for people show an answered input_required round as a step, not a failure', () => {
  const BIN = join(ROOT, 'dist', 'bin.cjs');
  const run = (scenario: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [BIN, ...args, '--client', join(FIXTURES, `${scenario}.client.ndjson`), '--server', join(FIXTURES, `${scenario}.server.ndjson`)], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toBe('');
    return r.stdout;
  };
  /** The lines of a report section, from its heading to the next one. */
  const section = (text: string, heading: string, next: RegExp) => {
    const from = text.indexOf(heading);
    if (from === -1) return '';
    const rest = text.slice(from + heading.length);
    const m = next.exec(rest);
    return m ? rest.slice(0, m.index) : rest;
  };

  it.each([['table', [] as string[], /\n(Calls with|Findings|Inputs)/], ['markdown', ['--format', 'markdown'], /\n## /]] as const)('%s: only the round nobody answered is listed as not succeeded', (_name, args, next) => {
    for (const scenario of ['mrtr-roundtrip', 'mrtr-two-rounds']) {
      expect(section(run(scenario, ...args), 'Attempts that did not succeed', next)).not.toContain('INPUT_REQUIRED');
    }
    // mrtr-max-rounds: the caller gave up; its last round is still waiting for input, and is listed.
    const listed = section(run('mrtr-max-rounds', ...args), 'Attempts that did not succeed', next);
    expect(listed.match(/INPUT_REQUIRED/g)).toHaveLength(1);
  });

  it('sessions: the failed column counts only the unanswered round', () => {
    const row = (scenario: string) => run(scenario, 'sessions', '--format', 'markdown').split('\n').find((l) => l.startsWith('| triage-v2-client'))!.split('|').map((c) => c.trim());
    expect(row('mrtr-two-rounds')[8]).toBe('0');
    expect(row('mrtr-max-rounds')[8]).toBe('1 INPUT\\_REQUIRED');
  });
});
