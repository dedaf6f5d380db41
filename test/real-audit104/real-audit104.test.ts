// The hundred-and-fourth audit: the Python SDK 2.3.0 client's own timeouts, a 429's Retry-After and its results, in its DEBUG log (with and without times) against the wire (test/fixtures/real-audit104/*/observed.json).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit104/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;

interface Seen { label: string; tool: string; args: { orderId: string }; ok?: { isError: boolean; text: string }; error?: { name: string; message: string; code?: number }; cancelled?: string; waitedMs?: number; read_timeout_seconds?: number }
interface Hop { request?: string; id?: number; args?: { orderId: string }; params?: { requestId: number; reason: string }; action?: string; closedByTheClientAfterMs?: number }
interface Observed { seen: Seen[]; serverRan: string[]; hop: Hop[] }
interface Attempt { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; findings: { code: string; message: string }[]; detail?: { why?: string }; answerNotLogged?: boolean }
interface Report { attempts: Attempt[]; findings: { code: string }[] }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;
async function run(...files: string[]): Promise<Report> {
  const r = await cli(['--format', 'json', ...files]);
  expect(r.code).not.toBe(2);
  return JSON.parse(r.stdout) as Report;
}
const byId = (r: Report, id: number) => r.attempts.find((a) => a.id === id && a.method === 'tools/call')!;
/** The hop's tools/call POSTs of an action ("holdHead", "respond 429 ..."), with the app's step for that orderId. */
function posts(o: Observed, action: RegExp) {
  return o.hop.filter((h) => h.request?.startsWith('tools/call') && action.test(h.action ?? '')).map((h) => ({ ...h, step: o.seen.find((s) => s.args.orderId === h.args!.orderId)! }));
}
const LOGS = ['client.log', 'client-basic.log'];
const UNTOLD = /cannot tell which/;

describe('real-audit104: the recordings', () => {
  it('hold what the audit is about: the 429s with Retry-After, the timeouts, the app\'s own cancel scope, a result, an isError and a result pydantic refused', () => {
    for (const scenario of ['py-ts', 'py-py']) {
      const o = observed(scenario);
      expect(posts(o, /^respond 429 Retry-After \d+$/)).toHaveLength(2);
      const timedOut = o.seen.filter((s) => s.error?.code === -32001);
      expect(timedOut.map((s) => s.error!.message)).toEqual(["Request 'tools/call' timed out", "Request 'tools/call' timed out"]);
      expect(o.seen.filter((s) => s.cancelled !== undefined)).toHaveLength(1);
      expect(o.seen.some((s) => s.ok?.isError === true)).toBe(true);
      expect(o.seen.some((s) => s.error?.name === 'ValidationError')).toBe(true);
    }
  });
});

describe('real-audit104: a POST the SDK aborted on 2026-07-28 (py-py), from its DEBUG log alone', () => {
  const o = observed('py-py');
  const held = posts(o, /^hold(Head|Body)$/);

  it('is what the wire says: NO_RESPONSE before any head, STREAM_INCOMPLETE (HTTP 200) after the head, with or without times', async () => {
    expect(held).toHaveLength(3);
    // the hop saw the client close each of them (on 2026-07-28 closing the POST is the cancellation)
    for (const h of held) expect(o.hop.some((x) => x.id === h.id && x.closedByTheClientAfterMs !== undefined)).toBe(true);
    const wire = await run(f('py-py', 'proxy.ndjson'));
    for (const log of LOGS) {
      const r = await run(f('py-py', log));
      for (const h of held) {
        const a = byId(r, h.id!);
        const w = byId(wire, h.id!);
        expect([log, h.action, a.outcome, a.status]).toEqual([log, h.action, w.outcome, w.status]);
        expect(a.outcome).toBe(h.action === 'holdHead' ? 'NO_RESPONSE' : 'STREAM_INCOMPLETE');
        expect(a.detail?.why).toMatch(/aborting in-flight POST for cancelled request" at line \d+/);
        expect(a.findings.map((x) => x.code)).toContain('CANCELLED');
      }
    }
  });

  it('says the log cannot tell the SDK\'s own timeout from the app\'s cancel scope: it logs them alike (the app got -32001 at one, nothing at the other)', async () => {
    const r = await run(f('py-py', 'client.log'));
    const kinds = new Set(held.map((h) => (h.step.cancelled !== undefined ? 'cancel scope' : h.step.error?.code === -32001 ? 'timeout' : 'other')));
    expect(kinds).toEqual(new Set(['cancel scope', 'timeout']));
    for (const h of held) expect(byId(r, h.id!).detail?.why).toMatch(UNTOLD);
  });

  it('must not: without httpcore\'s lines nothing proves where the POST was: it stays UNANSWERED', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit104-'));
    const path = join(dir, 'no-httpcore.log');
    writeFileSync(path, readFileSync(f('py-py', 'client.log'), 'utf8').split('\n').filter((l) => !/ - httpcore2?\./.test(l)).join('\n'));
    const r = await run(path);
    for (const h of held) {
      const a = byId(r, h.id!);
      expect(a.outcome).toBe('UNANSWERED');
      expect(a.detail?.why).toMatch(UNTOLD);
    }
  });
});

describe('real-audit104: a 429\'s Retry-After from httpcore\'s head line', () => {
  for (const scenario of ['py-ts', 'py-py']) {
    const o = observed(scenario);
    const limited = posts(o, /^respond 429 Retry-After \d+$/);

    it(`${scenario}: the HTTP_ERROR says it, and a retry sooner than it is RETRY_AFTER_IGNORED, as on the wire (client.log, with times)`, async () => {
      const r = await run(f(scenario, 'client.log'));
      const wire = await run(f(scenario, 'proxy.ndjson'));
      for (const h of limited) {
        const asked = Number(/Retry-After (\d+)/.exec(h.action!)![1]) * 1000;
        const a = byId(r, h.id!);
        expect(a.outcome).toBe('HTTP_ERROR');
        expect(a.detail?.why).toContain(`Retry-After ${asked / 1000} s`);
        // the app's retry: the next tools/call of the same orderId, after waitedMs
        const retry = o.hop.find((x) => x.request?.startsWith('tools/call') && x.args?.orderId === h.args!.orderId && x.id! > h.id!)!;
        const waited = o.seen.find((s) => s.args.orderId === h.args!.orderId && s.waitedMs !== undefined)!.waitedMs!;
        const ignored = (x: Report) => byId(x, retry.id!).findings.some((y) => y.code === 'RETRY_AFTER_IGNORED');
        expect([h.args!.orderId, ignored(r)]).toEqual([h.args!.orderId, waited < asked]);
        expect(ignored(r)).toBe(ignored(wire));
      }
      expect(limited.some((h) => o.seen.find((s) => s.args.orderId === h.args!.orderId && s.waitedMs !== undefined)!.waitedMs! >= 1000)).toBe(true); // the must-not is in the recording
    });

    it(`${scenario}: must not: the log without times (client-basic.log) judges no wait`, async () => {
      const r = await run(f(scenario, 'client-basic.log'));
      for (const h of limited) expect(byId(r, h.id!).detail?.why).toContain('Retry-After 1 s');
      const codes = r.attempts.flatMap((a) => a.findings.map((x) => x.code));
      expect(codes).not.toContain('RETRY_AFTER_IGNORED');
      expect(codes).not.toContain('RETRY_POLICY');
    });
  }
});

describe('real-audit104: the reason of the 2025-11-25 cancellation (py-ts: the TypeScript server, sessions, SSE)', () => {
  const o = observed('py-ts');
  const cancels = o.hop.filter((h) => h.request === 'notifications/cancelled');

  it('names the client\'s own timeout, or the app\'s cancellation, as the reason the SDK sent proves it (both formats)', async () => {
    expect(cancels.map((c) => c.params!.reason).sort()).toEqual(['caller cancelled', 'timed out after 1s', 'timed out after 1s']);
    for (const log of LOGS) {
      const r = await run(f('py-ts', log));
      for (const c of cancels) {
        const a = byId(r, c.params!.requestId);
        const step = o.seen.find((s) => s.args.orderId === o.hop.find((h) => h.id === c.params!.requestId && h.request?.startsWith('tools/call'))!.args!.orderId)!;
        if (step.error?.code === -32001) expect(a.detail?.why).toContain(`the Python SDK's own timeout, MCPError -32001 "${step.error.message}"`);
        else expect([step.cancelled !== undefined, a.detail?.why]).toEqual([true, expect.stringContaining('"caller cancelled": the app cancelled the call')]);
        expect(a.detail?.why).not.toMatch(/^no response in the log/);
      }
    }
  });

  it('must not: another reason proves neither (the TypeScript SDK\'s timeout race keeps "its own timeout or cancellation")', async () => {
    const dir = `${ROOT}test/fixtures/real-audit32/ts-timeout-race/`;
    const r = await run(`${dir}client.ndjson`, `${dir}proxy.ndjson`, `${dir}server.ndjson`);
    const late = r.attempts.filter((a) => /the client cancelled it .*its caller got/.test(a.detail?.why ?? ''));
    expect(late.length).toBeGreaterThan(0);
    for (const a of late) expect(a.detail?.why).toContain('its caller got its own timeout or cancellation');
  });
});

describe('real-audit104: a result, an isError and a result pydantic refused (py-py, JSON answers)', () => {
  it('read alike in the DEBUG log, which says so, while the wire tells them apart as the app saw them', async () => {
    const o = observed('py-py');
    const wire = await run(f('py-py', 'proxy.ndjson'));
    const r = await run(f('py-py', 'client.log'));
    const answered = o.hop.filter((h) => h.request?.startsWith('tools/call') && ['forward', 'badContent'].includes(h.action!) && o.seen.some((s) => s.args.orderId === h.args!.orderId && s.waitedMs === undefined && (s.ok !== undefined || s.error?.name === 'ValidationError')));
    const kinds = new Set<string>();
    for (const h of answered) {
      const step = o.seen.find((s) => s.args.orderId === h.args!.orderId && s.waitedMs === undefined)!;
      const truth = step.error?.name === 'ValidationError' ? 'INVALID_TOOL_RESULT' : step.ok!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
      kinds.add(truth);
      expect(byId(wire, h.id!).outcome).toBe(truth);
      const a = byId(r, h.id!);
      expect([a.outcome, a.answerNotLogged]).toEqual(['UNANSWERED', true]);
      expect(a.detail?.why).toMatch(/a result, an isError result, a JSON-RPC error .* and a result the SDK refused .* all read alike/);
    }
    expect(kinds).toEqual(new Set(['TOOL_SUCCESS', 'TOOL_ERROR', 'INVALID_TOOL_RESULT']));
  });
});
