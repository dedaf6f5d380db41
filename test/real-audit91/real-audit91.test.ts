// The ninety-first audit: the seed article's eleven cases replayed on the Python SDK 2.3.0 (client and server) through a fault hop, each run read from `mcp-triage record`'s capture, the client's own DEBUG log, and the server's logs, held to test/fixtures/real-audit91/py/observed.json.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const D = `${ROOT}test/fixtures/real-audit91/py/`;
interface Step { case?: number; label?: string; args?: unknown; article?: string; ok?: { isError: boolean; text: string }; error?: { name: string; message: string; code?: number }; serverRan?: string[]; hop?: { request: string; args: unknown; n: number; action: string }[] }
interface Attempt { session: string | null; scope?: string; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; detail?: { why?: string; errorCode?: number }; retryOrigin?: { origin: string; how: string } }

const observed = JSON.parse(readFileSync(`${D}observed.json`, 'utf8')) as Step[];
const steps = observed.filter((s) => s.case !== undefined);
const hop = observed.find((s) => s.hop)!.hop!;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** Each tools/call POST the hop saw (in order) with the app's step it belongs to, and whether it is that step's MRTR continuation. */
const posts = hop.map((h) => {
  const mine = steps.filter((s) => same(s.args, h.args));
  const step = mine.length > 1 ? mine[h.n - 1]! : mine[0]!;
  return { h, step, continuation: mine.length === 1 && h.n > 1 };
});
const run = async (...args: string[]) => {
  const r = await cli([...args, '--format', 'json']);
  return { ...r, attempts: (JSON.parse(r.stdout) as { attempts: Attempt[] }).attempts };
};
const calls = (a: Attempt[]) => a.filter((x) => x.method === 'tools/call');

describe('real-audit91: the article\'s eleven cases on the Python SDK 2.3.0', () => {
  it('recorded every case: each step has what the app got or raised, the article\'s outcome, and the hop\'s action', () => {
    expect(new Set(steps.map((s) => s.case))).toEqual(new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]));
    for (const s of steps) expect(s.article).toBeTruthy();
    for (const p of posts) expect(p.step, JSON.stringify(p.h)).toBeDefined();
  });

  it('mcp-triage record\'s capture: each attempt as the article classifies it (transport first, as the article says), the MRTR continuation as what the app got', async () => {
    const { attempts } = await run(`${D}proxy.ndjson`);
    const a = calls(attempts);
    expect(a).toHaveLength(posts.length);
    posts.forEach(({ step, continuation }, i) => {
      const want = a[i]!.status! >= 400 ? 'HTTP_ERROR' : continuation ? (step.ok?.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : step.article;
      expect(a[i]!.outcome, `${step.label}`).toBe(want);
      // What the app raised with a JSON-RPC code in an error body is the report's errorCode (the Python server's -32602 in HTTP 400).
      if (a[i]!.status === 400) expect(a[i]!.detail?.errorCode).toBe(step.error?.code);
    });
    // The app's explicit second POST after the 503 is the same call's attempt 2, its sender not claimed; the MRTR continuation is no retry.
    posts.forEach(({ step, continuation }, i) => {
      const again = steps.filter((s) => same(s.args, step.args)).indexOf(step) > 0;
      if (again || continuation) {
        expect(a[i]!.call).toBe(a[i - 1]!.call);
        expect(a[i]!.attempt).toBe(2);
        expect(a[i]!.retryOrigin?.origin).toBe(continuation ? 'none' : 'unknown');
      } else expect(a[i]!.attempt).toBe(1);
    });
  });

  it('the client\'s own DEBUG log: what it can tell agrees with the capture, the rest says it was answered (never a false failure or success)', async () => {
    const [log, proxy] = [calls((await run(`${D}client.log`)).attempts), calls((await run(`${D}proxy.ndjson`)).attempts)];
    expect(log).toHaveLength(proxy.length);
    log.forEach((x, i) => {
      if (x.outcome === 'UNANSWERED') expect(x.detail?.why, posts[i]!.step.label).toMatch(/^answered: HTTP 200, Content-Type "application\/json"/);
      else expect([x.outcome, x.status ?? proxy[i]!.status], posts[i]!.step.label).toEqual([proxy[i]!.outcome, proxy[i]!.status]);
      if (proxy[i]!.status! >= 400) expect(x.outcome).toBe('HTTP_ERROR');
    });
  });

  it('the client\'s DEBUG log: the legacy Client after the sessionless 2026-07-28 one is one session, the id its server gave (a sessionless transport ends without a line)', async () => {
    const text = readFileSync(`${D}client.log`, 'utf8');
    const given = /Received session ID: (\S+)/.exec(text)![1]!;
    const r = await run(`${D}client.log`);
    const later = r.attempts.filter((x) => x.session !== null || x.method === 'initialize' && x.scope !== 'input#0');
    expect(later.map((x) => x.method)).toEqual(['initialize', 'tools/call', 'tools/list']);
    for (const x of later) expect(x.session).toBe(given);
    expect(r.attempts.some((x) => x.scope?.startsWith('python-sdk-log'))).toBe(false);
    expect(calls(r.attempts).find((x) => x.session === given)!.outcome).toBe(steps.find((s) => s.case === 10)!.ok!.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS');
  });

  it('two transports open at once are still told apart: a start while the first one\'s POST has no status yet', async () => {
    // The recorded log cut right after the first POST's request line, then the legacy transport's lines: the first transport is still waiting.
    const lines = readFileSync(`${D}client.log`, 'utf8').split('\n');
    const firstPost = lines.findIndex((l) => /Sending client message: .*method='server\/discover'/.test(l));
    const second = lines.findIndex((l, i) => i > firstPost && /Connecting to StreamableHTTP endpoint/.test(l));
    const dir = mkdtempSync(join(tmpdir(), 'a91-'));
    writeFileSync(`${dir}/client.log`, [...lines.slice(0, firstPost + 1), ...lines.slice(second)].join('\n'));
    const r = await run(`${dir}/client.log`);
    expect(r.attempts.filter((x) => x.method !== 'server/discover').every((x) => x.scope?.startsWith('python-sdk-log'))).toBe(true);
  });

  it('two transports started in the same moment (two Clients gathered, real-audit39) are still read as open at once, though the first one\'s first POST is answered before the second one\'s start is read', async () => {
    const r = await run(`${ROOT}test/fixtures/real-audit39/v2-gather-two-basic/client-debug.log`);
    // Only the first request is read before the repeated start line is: every one after it stands alone.
    expect(r.attempts.length).toBeGreaterThan(2);
    for (const x of r.attempts.slice(1)) expect(x.scope ?? '').toMatch(/^python-sdk-log#/);
  });

  it('the capture with the server\'s console beside it: the same outcomes, uvicorn\'s lines counted, nothing lost', async () => {
    const [alone, pair] = [await run(`${D}proxy.ndjson`), await run(`${D}proxy.ndjson`, `${D}server-console.log`)];
    expect(pair.attempts.map((x) => x.outcome)).toEqual(alone.attempts.map((x) => x.outcome));
    const server = await run(`${D}server.log`);
    expect(server.attempts).toHaveLength(0);
    expect(server.stderr).toMatch(/no line of it carries MCP traffic/);
  });
});
