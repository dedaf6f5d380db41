// The ninety-fourth audit: the Python SDK 2.3.0 client's own DEBUG log (the SDK's, httpx's and httpcore's lines) on 2026-07-28, with faults, read alone and beside the recording proxy's capture, held to test/fixtures/real-audit94/*/observed.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const F = `${ROOT}test/fixtures/`;
const D = `${F}real-audit94/`;
interface Seen { label?: string; tool?: string; args?: unknown; ok?: { isError: boolean; text: string }; error?: { name: string; message: string; code?: number }; elicitation?: string; answer?: string }
interface Hop { request: string; id: number; args: unknown; continuation: boolean; action: string }
interface Observed { server: string; seen: Seen[]; serverRan: string[]; hop: Hop[] }
interface Attempt { sources?: { file: string; line: number }[]; session: string | null; scope?: string; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; findings?: { code: string }[]; call?: string; attempt?: number; detail?: { why?: string }; retryOrigin?: { origin: string } }

const truth = (name: string) => JSON.parse(readFileSync(`${D}${name}/observed.json`, 'utf8')) as Observed;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const run = async (...args: string[]) => {
  const r = await cli([...args, '--format', 'json']);
  return { ...r, attempts: (JSON.parse(r.stdout) as { attempts: Attempt[] }).attempts, notes: (JSON.parse(r.stdout) as { summary: { inputs: { cannotShow?: string[] }[] } }).summary.inputs.flatMap((i) => i.cannotShow ?? []) };
};
const calls = (a: Attempt[]) => a.filter((x) => x.method === 'tools/call');
/** Each tools/call POST the hop saw (in order), with the app's step it belongs to and the elicitation answer its continuation carried. */
function posts(o: Observed) {
  const steps = o.seen.filter((s) => s.tool !== undefined);
  const answers = o.seen.filter((s) => s.answer !== undefined);
  let rounds = 0;
  return o.hop.map((h, i) => {
    const step = steps.find((s) => same(s.args, h.args))!;
    const next = o.hop[i + 1];
    const asks = next?.continuation === true && same(next.args, h.args);
    return { h, step, asks, answer: asks ? answers[rounds++]?.answer : undefined };
  });
}

describe('real-audit94: the Python SDK 2.3.0 client\'s DEBUG log on 2026-07-28', () => {
  it('recorded what the app got for every fault, against the Python server and the TypeScript v2 server', () => {
    for (const name of ['py-py', 'py-v2']) {
      const o = truth(name);
      for (const p of posts(o)) expect(p.step, `${name} ${JSON.stringify(p.h)}`).toBeDefined();
      const actions = new Set(o.hop.map((h) => h.action));
      for (const a of ['forward', 'respond 503', 'respond 429', 'respond 500', 'cut', 'delay', 'badContent']) expect(actions, name).toContain(a);
    }
    expect(posts(truth('py-py')).filter((p) => p.asks).map((p) => p.answer)).toEqual(['accept', 'decline']);
  });

  for (const name of ['py-py', 'py-v2']) {
    it(`${name}: the log alone says what the app got where its lines can tell, and "answered" (content not logged) where they cannot`, async () => {
      const o = truth(name);
      const { attempts } = await run(`${D}${name}/client.log`);
      const log = calls(attempts);
      const all = posts(o);
      expect(log).toHaveLength(all.length);
      all.forEach(({ h, step, asks, answer }, i) => {
        const x = log[i]!;
        const why = x.detail?.why ?? '';
        const label = `${name} ${step.label}${asks ? ' (first round)' : ''}`;
        if (h.action.startsWith('respond ')) {
          // A 4xx/5xx the hop sent: the SDK's own error, which the app raised, named as what it got (not "X, else Y").
          expect(x.outcome, label).toBe('HTTP_ERROR');
          expect(x.status, label).toBe(Number(h.action.slice(8)));
          expect(why, label).toContain(`${step.error!.code} "${step.error!.message}"`);
          expect(why, label).toMatch(/(?:its caller got|gave its caller) -32603/);
          expect(why, label).not.toContain('else');
        } else if (step.error?.code === -32602) {
          // The Python server's MCPError in HTTP 400: the body held a JSON-RPC error, which the app raised.
          expect(x.outcome, label).toBe('HTTP_ERROR');
          expect(why, label).toMatch(/it held a JSON-RPC error, which the SDK gives its caller as MCPError/);
        } else if (h.action === 'cut') {
          // The JSON body broke off: the SDK does not catch that, and the app's call was cancelled, no MCPError.
          expect(step.error?.name, label).toBe('CancelledError');
          expect(x.outcome, label).toBe('STREAM_INCOMPLETE');
          expect(why, label).toMatch(/broke off before its end, .*httpcore.s "receive_response_body\.failed" RemoteProtocolError/);
          expect(why, label).toContain('CancelledError');
          // The peer cut it: no close by the client, so no CANCELLED (on 2026-07-28 only the client's close is the cancellation).
          expect(why, label).toContain('cut by the peer');
          expect((x.findings ?? []).map((f) => f.code), label).not.toContain('CANCELLED');
        } else if (asks) {
          // The round the app's elicitation callback answered: the continuation proves an input_required result.
          expect(x.outcome, label).toBe('INPUT_REQUIRED');
          expect(why, label).toContain(`"${answer}"`);
          expect(log[i + 1]!.retryOrigin?.origin, label).toBe('none');
          expect(log[i + 1]!.call, label).toBe(x.call);
        } else if (h.action === 'delay') {
          expect(step.error?.code, label).toBe(-32001);
          // The SDK aborted the POST before any head came (httpcore's lines show it waiting): NO_RESPONSE, as the
          // capture says (before the hundred-and-fourth audit, UNANSWERED); the log cannot tell its timeout from a cancel.
          expect(x.outcome, label).toBe('NO_RESPONSE');
          expect(why, label).toMatch(/aborted its POST before any response head came.*cannot tell which/);
        } else {
          // A result, an isError result, a broken result the SDK refused (pydantic's ValidationError): all alike in the log.
          expect(x.outcome, label).toBe('UNANSWERED');
          expect(why, label).toMatch(/^answered: HTTP 200, Content-Type "application\/json" .*what it held is not known here/);
        }
      });
    });
  }

  it('the log beside the capture, and the capture alone: the capture\'s outcome is what the app got', async () => {
    const o = truth('py-py');
    const capture = calls((await run(`${D}py-py/proxy.ndjson`)).attempts);
    const log = calls((await run('--client', `${D}py-py/client.log`, '--server', `${D}py-py/server.log`)).attempts);
    const all = posts(o);
    expect(capture).toHaveLength(all.length);
    const continued = new Set(all.flatMap((p, i) => (p.asks ? [i + 1] : [])));
    all.forEach(({ h, step, asks }, i) => {
      const got = capture[i]!.outcome;
      const want = asks ? 'INPUT_REQUIRED'
        : h.action.startsWith('respond ') || step.error?.code === -32602 ? 'HTTP_ERROR'
          : h.action === 'cut' ? 'STREAM_INCOMPLETE'
            : h.action === 'delay' ? 'NO_RESPONSE'
              : step.error?.name === 'ValidationError' ? 'INVALID_TOOL_RESULT'
                : continued.has(i) ? (step.ok!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS')
                  : step.ok!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
      expect(got, step.label).toBe(want);
      // The log (with the server's SDK log, which holds no message) never contradicts it where it gives an outcome.
      if (log[i]!.outcome !== 'UNANSWERED') expect(log[i]!.outcome, step.label).toBe(got);
    });
  });

  it('the line account: every line a report cites counts as used, a held answer\'s line too', async () => {
    const r = await cli([`${D}py-py/client.log`, '--format', 'json']);
    const out = JSON.parse(r.stdout) as { attempts: Attempt[]; summary: { inputs: { used: number; skipped: number; lines: number; accounted: boolean }[] } };
    const cited = new Set(out.attempts.flatMap((a) => (a.sources ?? []).map((s) => s.line)));
    const account = out.summary.inputs[0]!;
    expect(account.accounted).toBe(true);
    expect(account.used).toBeGreaterThanOrEqual(cited.size);
  });

  it('a non-2xx JSON body the log ends on is not taken as a JSON-RPC error: the line that would say so may be cut', async () => {
    const lines = readFileSync(`${D}py-py/client.log`, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"HTTP/1.1 400 Bad Request"'));
    const closed = lines.findIndex((l, i) => i > at && l.endsWith('response_closed.complete'));
    const dir = mkdtempSync(join(tmpdir(), 'audit94-'));
    writeFileSync(join(dir, 'client.log'), `${lines.slice(0, closed + 1).join('\n')}\n`);
    const last = calls((await run(join(dir, 'client.log'))).attempts).at(-1)!;
    expect(last.outcome).toBe('HTTP_ERROR');
    expect(last.detail?.why).toMatch(/its client gives the caller the body's JSON-RPC error, else -32603/);
  });

  it('two sessionless Clients, the first idle while the second calls: the note says the first was still open, and what follows stands alone', async () => {
    const o = truth('two-open');
    expect(o.seen.every((s) => s.ok !== undefined)).toBe(true);
    const r = await run(`${D}two-open/client.log`);
    expect(r.notes.some((n) => /taken as ended when the next one started, but a request id then broke the new transport's count/.test(n))).toBe(true);
    const c = calls(r.attempts);
    expect(c).toHaveLength(o.seen.length);
    // The second Client's second call (its id the same as the first Client's last) is read apart from the first's.
    expect(c.at(-1)!.scope).not.toBe(c.at(-2)!.scope);
    // Must not: Clients one after the other (audit 91's legacy session after the 2026-07-28 one; audit 19's two blocks).
    for (const f of ['real-audit91/py/client.log', 'real-audit19/s2-python/client.log']) {
      const other = await run(`${F}${f}`);
      expect(other.notes.some((n) => n.includes('broke the new transport\'s count')), f).toBe(false);
    }
  });
});
