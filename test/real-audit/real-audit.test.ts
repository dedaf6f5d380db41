// The audit recordings: real SDK clients and servers (1.x and v2) in situations the first fixtures did not cover -
// parallel calls, aborts, two clients, paginated tools/list, late results, restarts - and what mcp-triage must say.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedPairs, type CliRun } from '../helpers/triage-cli.js';
import { toolCalls as calls, codesOf as codes } from '../helpers/recordings.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit/', import.meta.url));

interface Finding { code: string; severity: string; message: string }
interface Attempt { type: 'attempt'; id: string | number; method: string; tool: string | null; outcome: string; call: string; attempt: number; retryOrigin?: { origin: string }; findings: Finding[]; detail?: { why?: string } }
type Run = CliRun<Attempt, Finding>;

const both = recordedPairs<Attempt, Finding>(DIR);
const byId = (r: Run, id: number | string) => calls(r).find((a) => a.id === id)!;

describe('every audit recording', () => {
  const scenarios = readdirSync(DIR);
  it.each(scenarios)('%s: read whole, analyzed without error', (scenario) => {
    const r = both(scenario);
    expect(r.code).toBe(0);
    expect(r.unusable).toBe(0);
    expect(r.attempts.length).toBeGreaterThan(0);
  });
});

describe('what the audit found, fixed', () => {
  it('parallel calls with the same arguments are calls of their own, not retries of each other (1.x and v2)', () => {
    const r = both('parallel-mixed');
    for (const id of [5, 6]) expect(byId(r, id)).toMatchObject({ attempt: 1 });
    expect(byId(r, 6).call).not.toBe(byId(r, 5).call);
    expect(byId(r, 8)).toMatchObject({ call: byId(r, 6).call, attempt: 2 }); // the sequential repeat half a second later is one
    const v2 = both('v2-parallel-mixed');
    expect(byId(v2, 6).attempt).toBe(1);
  });

  it('a retry after the client aborted is measured from the cancellation, and the aborted call has no NO_FINAL_RESULT', () => {
    const r = both('abort-signal');
    const [first, again] = [byId(r, 1), byId(r, 2)];
    expect(again).toMatchObject({ call: first.call, attempt: 2 });
    expect(codes(again)).not.toContain('RETRY_POLICY');
    expect(codes(first)).toEqual(['CANCELLED']);
    expect(first.detail?.why).toMatch(/^the client cancelled it \(notifications\/cancelled\) 0\.\d\d s after sending it, before any response came/);
  });

  it('two clients (named by initialize, or by the v2 _meta clientInfo) calling with the same arguments are two calls', () => {
    for (const scenario of ['two-clients-same-call', 'two-clients-same-call-separate-recorders', 'v2-two-clients-same-call']) {
      const r = both(scenario);
      const invoices = calls(r).filter((a) => a.tool === 'send_invoice');
      expect(invoices.length, scenario).toBeGreaterThanOrEqual(2);
      for (const a of invoices) expect(a.attempt, `${scenario} id ${a.id}`).toBe(1);
      expect(r.attempts.flatMap(codes), scenario).not.toContain('ID_REUSED');
    }
  });

  it('a paginated tools/list keeps every page\'s annotations: only the unannotated tool gets UNSAFE_RETRY', () => {
    const r = both('pagination-annotations-retry');
    const unsafe = calls(r).filter((a) => codes(a).includes('UNSAFE_RETRY')).map((a) => a.tool);
    expect(unsafe).toEqual(['send_invoice']);
  });

  it('a retry after a -32602 (nothing ran) is no UNSAFE_RETRY', () => {
    const r = both('v2-parallel-mixed');
    const retry = byId(r, 8);
    expect(retry.attempt).toBeGreaterThan(1);
    expect(codes(retry)).not.toContain('UNSAFE_RETRY');
  });

  it('a result that came after the client timed out and cancelled: CANCELLED says so, and the app\'s retry is linked with a proven UNSAFE_RETRY', () => {
    const r = both('late-result-after-timeout');
    const [late, retry] = [byId(r, 2), byId(r, 3)];
    expect(late.findings.find((f) => f.code === 'CANCELLED')?.message).toMatch(/its TOOL_SUCCESS result came after that, when the client had given up on it/);
    expect(retry).toMatchObject({ call: late.call, attempt: 2, retryOrigin: { origin: 'app' } });
    expect(retry.findings.find((f) => f.code === 'UNSAFE_RETRY')).toMatchObject({ severity: 'error' });
  });

  it('a session that went on after a failed tools/list page is no CALL_NEVER_SENT', () => {
    expect(both('pagination-resources-ping').findings.map((f) => f.code)).not.toContain('CALL_NEVER_SENT');
  });

  it('a server restarted mid-call: the 404 to the GET stream is SESSION_EXPIRED', () => {
    expect(both('server-restart-mid-call').findings.find((f) => f.code === 'SESSION_EXPIRED')?.message).toMatch(/HTTP 404 to the GET stream, which carried the session id; the client re-initialized/);
  });

  it('UNSAFE_RETRY after a request the server\'s log shows: "reached the server", not "no server view"', () => {
    const r = both('v2-abort-signal');
    const msg = calls(r).flatMap((a) => a.findings).find((f) => f.code === 'UNSAFE_RETRY')?.message;
    expect(msg).toMatch(/the server view shows the earlier attempt reached the server/);
  });
});
