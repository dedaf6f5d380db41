// The ninety-fifth audit: the endpoint of sessionless requests in the reports, MCP POSTs redirected 307/308 by the server in front of the three SDKs' clients, and an app's connect loop (test/fixtures/real-audit95/*/observed.json).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const DIR = `${ROOT}test/fixtures/real-audit95/`;
const A88 = `${ROOT}test/fixtures/real-audit88/`;
const A21 = `${ROOT}test/fixtures/real-audit21/s13-redirect-307/`;
const f = (scenario: string, name: string) => `${DIR}${scenario}/${name}`;

interface Step { app?: number; step: string; ok?: unknown; threw?: { name: string; message: string } }
interface Observed { scenario: string; redirect?: number; endpoints?: { asked: string; redirectedTo: string }; app: Step[]; front: { request: string; action: string }[]; ran: unknown[] }
interface Attempt { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; endpoint?: string; scope?: string; session: string | null; findings: { code: string; message: string }[]; retryOrigin?: { origin: string; how: string }; sources: { file: string; line: number }[] }
interface Report { attempts: Attempt[]; findings: { code: string }[]; summary: { retries: number; notes: string[] } }

const observed = (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Observed;
async function run(args: string[]): Promise<Report> {
  const r = await cli(['--format', 'json', ...args]);
  expect(r.code).not.toBe(2);
  return JSON.parse(r.stdout) as Report;
}
/** Every finding of a report: the session-level ones and those on its attempts. */
const codes = (r: Report) => [...r.findings.map((x) => x.code), ...r.attempts.flatMap((a) => a.findings.map((x) => x.code))];
const FOLLOWED = /^the same request sent again to where HTTP 30[78] redirected it: the HTTP client followed the redirect$/;

describe('real-audit95: the endpoint of a request without a session id, in the machine reports and the timeline', () => {
  // real-audit88/v1-two-ports: one SDK 1.32.2 client (one recordingFetch, no conn) and two stateless servers on two
  // ports whose ids and tools collide; its observed.json names the two endpoints.
  const o88 = JSON.parse(readFileSync(`${A88}v1-two-ports/observed.json`, 'utf8')) as { endpoints: { A: string; B: string } };

  it('every attempt has the URL it went to (without the query), and the two servers\' rows with the same id and tool are told apart by it', async () => {
    const r = await run([`${A88}v1-two-ports/client.ndjson`]);
    const urls = new Set(Object.values(o88.endpoints));
    expect(r.attempts.every((a) => a.session === null && urls.has(a.endpoint!))).toBe(true);
    // each call's attempts went to one endpoint; the two first sync calls (same id, same tool) to the two servers
    for (const call of new Set(r.attempts.map((a) => a.call))) expect(new Set(r.attempts.filter((a) => a.call === call).map((a) => a.endpoint)).size).toBe(1);
    const twins = r.attempts.filter((a) => a.tool === 'sync' && a.attempt === 1 && a.id === r.attempts.find((x) => x.tool === 'sync')!.id);
    expect(twins.map((a) => a.endpoint).sort()).toEqual([...urls].sort());
  });

  it('the NDJSON lines carry it too', async () => {
    const r = await cli(['--format', 'ndjson', `${A88}v1-two-ports/client.ndjson`]);
    const attempts = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Attempt & { type: string }).filter((l) => l.type === 'attempt');
    expect(new Set(attempts.map((a) => a.endpoint))).toEqual(new Set(Object.values(o88.endpoints)));
  });

  it('the timeline shows an endpoint column when its scope went to more than one URL (terminal and Markdown)', async () => {
    for (const format of [[], ['--format', 'markdown']]) {
      const t = await cli(['timeline', 'audit88-v1', ...format, `${A88}v1-two-ports/client.ndjson`], { env: { COLUMNS: '250' } });
      expect(t.code).toBe(0);
      expect(t.stdout).toMatch(/\bendpoint\b/);
      for (const url of Object.values(o88.endpoints)) expect(t.stdout).toContain(url);
    }
  });

  it('must not: a scope whose requests all went to one URL has no endpoint column (its rows still have the field)', async () => {
    const proxy = `${A88}two-apps/proxy.ndjson`;
    const r = await run([proxy]);
    expect(new Set(r.attempts.map((a) => a.endpoint)).size).toBe(1);
    const scope = r.attempts[0]!.scope!;
    const t = await cli(['timeline', scope, proxy], { env: { COLUMNS: '250' } });
    expect(t.code).toBe(0);
    expect(t.stdout).not.toMatch(/\bendpoint\b/);
  });

  it('a key in the URL is redacted in the field (a known token shape, a key-like path segment, a ;parameter), and kept with --no-redact', async () => {
    const url = 'http://127.0.0.1:9/mcp/sk-live-abcdef1234567890/u/3f2a9c7e1b4d6a8f0e2c4b6d8a0f1e3c/x;jsessionid=S3SS10NVALUE';
    const rec = { v: 1, kind: 'exchange', ts: '2026-12-07T20:00:00.000Z', side: 'client', session: null, xid: 'r1', method: 'POST', url: `${url}?api_key=K3YK3YK3YK3Y`, requestHeaders: { 'content-type': 'application/json' }, send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sync', arguments: {} } }, status: 503, responseHeaders: {}, recvText: 'busy' };
    const dir = mkdtempSync(join(tmpdir(), 'ra95-'));
    writeFileSync(join(dir, 'client.ndjson'), `${JSON.stringify(rec)}\n`);
    const r = await run([join(dir, 'client.ndjson')]);
    const text = JSON.stringify(r);
    for (const secret of ['abcdef1234567890', '3f2a9c7e1b4d6a8f0e2c4b6d8a0f1e3c', 'S3SS10NVALUE', 'K3YK3YK3YK3Y']) expect(text).not.toContain(secret);
    expect(r.attempts[0]!.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:9\/mcp\/\[redacted:[0-9a-f]{8}\]\/u\/\[redacted:[0-9a-f]{8}\]\/x;\[redacted:[0-9a-f]{8}\]$/);
    expect((await run(['--no-redact', join(dir, 'client.ndjson')])).attempts[0]!.endpoint).toBe(url);
  });
});

describe('real-audit95: a 307/308 of an MCP POST within its origin, which each SDK client follows itself', () => {
  for (const scenario of ['redirect-ts', 'redirect-v2', 'redirect-py']) {
    const o = observed(scenario);
    // (requests with an id: a notification's or a GET's redirect is no attempt of a call)
    const redirects = o.front.filter((x) => /^30[78] /.test(x.action) && / id /.test(x.request)).length;
    const appRetries = o.app.filter((s) => / #[2-9]$/.test(s.step)).length;
    const views = [['--client', f(scenario, 'client.ndjson')], ['--server', f(scenario, 'server.ndjson')], ['--client', f(scenario, 'client.ndjson'), '--server', f(scenario, 'server.ndjson')]];

    it(`${scenario}: each request the client sent to the Location is its call's next attempt, by the SDK; only the app's own retry counts as a retry; no RETRY_POLICY`, async () => {
      expect(redirects).toBeGreaterThan(0);
      for (const args of views) {
        const r = await run(args);
        const followed = r.attempts.filter((a) => a.retryOrigin !== undefined && FOLLOWED.test(a.retryOrigin.how));
        expect(followed).toHaveLength(redirects);
        for (const a of followed) {
          expect(a.retryOrigin!.origin).toBe('sdk');
          const before = r.attempts.find((x) => x.call === a.call && x.attempt === a.attempt! - 1)!;
          expect(before.status).toBe(o.redirect);
          // (by path: a recording proxy logs the URL it forwards to, a server the one it serves)
          const path = (u: string) => new URL(u, 'http://server.invalid').pathname;
          if (before.endpoint !== undefined) expect([path(before.endpoint), path(a.endpoint!)]).toEqual([path(o.endpoints!.asked), path(o.endpoints!.redirectedTo)]);
        }
        // the tool call the app made (and called again once) is one call
        expect(new Set(r.attempts.filter((a) => a.tool === 'sync').map((a) => a.call)).size).toBe(1);
        expect(r.summary.retries).toBe(appRetries);
        expect(codes(r)).not.toContain('RETRY_POLICY');
      }
    });

    it(`${scenario}: the followed redirects are not listed among the attempts that did not succeed, a note counts them; the Location is no second server`, async () => {
      const args = views[2]!;
      const md = await cli(['--format', 'markdown', ...args]);
      const failing = md.stdout.slice(md.stdout.indexOf('## Attempts that did not succeed'), md.stdout.indexOf('\n## ', md.stdout.indexOf('## Attempts that did not succeed') + 5));
      expect(failing).toContain('503');
      expect(failing).not.toMatch(/\| 30[78] \|/);
      const r = await run(args);
      expect(r.summary.notes.filter((n) => n.startsWith(`${redirects} redirects (HTTP 3xx) were followed at once by the client's HTTP library`))).toHaveLength(1);
      expect(r.summary.notes.filter((n) => n.includes('its requests without a session id go to'))).toEqual([]);
    });
  }

  it('what the clients did: each followed every redirect within its origin and the tool ran once, after the app\'s one retry', () => {
    for (const scenario of ['redirect-ts', 'redirect-v2', 'redirect-py']) {
      const o = observed(scenario);
      expect(o.app.map((s) => [s.step, s.ok !== undefined])).toEqual([['connect', true], ['sync inv-1 #1', false], ['sync inv-1 #2', true]]);
      expect(o.ran).toHaveLength(1);
      expect(o.front.filter((x) => x.request.startsWith('POST /old/mcp')).length).toBe(o.front.filter((x) => x.request.startsWith('POST /mcp')).length);
    }
  });

  it('the sessions view counts no followed redirect as a failure nor its request as a retry, in the session each was in (real-audit2/redirect-trailing-slash: Express redirects every POST /mcp to /mcp/)', async () => {
    const dir = `${ROOT}test/fixtures/real-audit2/redirect-trailing-slash/`;
    const r = await cli(['sessions', '--format', 'json', '--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`]);
    const sessions = (JSON.parse(r.stdout) as { sessions: { retries: number; failed: Record<string, number> }[] }).sessions;
    // (the app made no call twice; its one isError result is the only failure)
    const steps = (JSON.parse(readFileSync(`${dir}observed.json`, 'utf8')) as { steps: { step: string; summary?: { isError?: boolean } }[] }).steps;
    expect(sessions.map((x) => x.retries)).toEqual(sessions.map(() => 0));
    expect(sessions.reduce((n, x) => n + (x.failed.HTTP_ERROR ?? 0), 0)).toBe(0);
    expect(sessions.reduce((n, x) => n + (x.failed.TOOL_ERROR ?? 0), 0)).toBe(steps.filter((x) => x.summary?.isError === true).length);
  });

  it('must not: another log\'s request is not the follow-up of a redirect the client did not follow (real-audit21/s13-redirect-307 read whole)', async () => {
    // client.ndjson: the 307 the SDK refused (its Location another origin); client-direct.ndjson: another run, whose
    // own 307 it followed.
    expect(readFileSync(`${A21}truth-client.ndjson`, 'utf8')).toContain("not followed (redirectPolicy: 'same-origin')");
    const r = await run([`${A21}client.ndjson`, `${A21}client-direct.ndjson`, `${A21}proxy.ndjson`]);
    const init = r.attempts.filter((a) => a.method === 'initialize');
    const refused = init.find((a) => a.sources.some((s) => s.file.endsWith('/client.ndjson')))!;
    const direct = init.filter((a) => a.sources.every((s) => s.file.endsWith('/client-direct.ndjson')));
    expect(direct.map((a) => [a.status, a.attempt])).toEqual([[307, 1], [200, 2]]);
    expect(direct.every((a) => a.call !== refused.call)).toBe(true);
    expect(FOLLOWED.test(direct[1]!.retryOrigin!.how)).toBe(true);
  });

  it('must not: the app\'s own request 2 s after a 307, even to the Location with the same id, is not the HTTP client\'s follow-up', async () => {
    const lines = readFileSync(f('redirect-ts', 'client.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    // initialize's follow-up (the request after the first 307) and everything after it, moved 2 s later
    const first = lines.findIndex((x) => x.kind === 'request' && x.xid !== lines[0]!.xid);
    const moved = lines.map((x, i) => (i >= first ? { ...x, ts: new Date(Date.parse(x.ts as string) + 2000).toISOString() } : x));
    const dir = mkdtempSync(join(tmpdir(), 'ra95-'));
    writeFileSync(join(dir, 'client.ndjson'), `${moved.map((x) => JSON.stringify(x)).join('\n')}\n`);
    const r = await run([join(dir, 'client.ndjson')]);
    const init = r.attempts.filter((a) => a.method === 'initialize');
    expect(init[1]!.retryOrigin === undefined || !FOLLOWED.test(init[1]!.retryOrigin.how)).toBe(true);
  });
});

describe('real-audit95: an app\'s connect loop (a new Client after each failed connect) and two instances of one app', () => {
  const connects = (o: Observed, app?: number) => o.app.filter((s) => s.step.startsWith('connect') && (app === undefined || s.app === app));

  for (const [scenario, views] of [['connect-loop-ts', [['--client', 'client.ndjson'], ['proxy.ndjson'], ['--server', 'server.ndjson'], ['--client', 'client.ndjson', '--server', 'server.ndjson']]], ['connect-loop-py', [['--client', 'client.ndjson'], ['--server', 'server.ndjson'], ['--client', 'client.ndjson', '--server', 'server.ndjson']]]] as const) {
    it(`${scenario}: the app's connects are one call, an attempt per connect, in every view`, async () => {
      const o = observed(scenario);
      expect(connects(o).map((s) => s.ok !== undefined)).toEqual([false, false, false, true]);
      for (const args of views) {
        const r = await run(args.map((a) => (a.startsWith('--') ? a : f(scenario, a))));
        const init = r.attempts.filter((a) => a.method === 'initialize');
        expect(init).toHaveLength(connects(o).length);
        expect(new Set(init.map((a) => a.call)).size).toBe(1);
        expect(init.map((a) => a.attempt)).toEqual(init.map((_, i) => i + 1));
        expect(init.at(-1)!.outcome).toBe('SUCCESS');
      }
    });
  }

  it('two-instances: each instance\'s own log keeps its connect apart (app 1 gave up; app 2\'s connect is no retry of it)', async () => {
    const o = observed('two-instances');
    expect([connects(o, 1).length, connects(o, 2).length]).toEqual([1, 1]);
    const r = await run(['--client', f('two-instances', 'app1.ndjson'), '--client', f('two-instances', 'app2.ndjson'), '--server', f('two-instances', 'server.ndjson')]);
    const init = r.attempts.filter((a) => a.method === 'initialize');
    expect(init.map((a) => a.attempt)).toEqual([1, 1]);
    expect(init[0]!.call).not.toBe(init[1]!.call);
  });

  it('two-instances-overlap: app 2\'s initialize, sent before app 1\'s failed, is no retry of it, in the one log of both too', async () => {
    for (const args of [[f('two-instances-overlap', 'proxy.ndjson')], ['--server', f('two-instances-overlap', 'server.ndjson')]]) {
      const init = (await run(args)).attempts.filter((a) => a.method === 'initialize');
      expect(init.map((a) => a.attempt)).toEqual([1, 1]);
    }
  });

  it('two-instances, one log of both (known gap): the second instance\'s connect reads as a retry, whose origin says nothing tells who sent it', async () => {
    const init = (await run([f('two-instances', 'proxy.ndjson')])).attempts.filter((a) => a.method === 'initialize');
    expect(init.map((a) => a.attempt)).toEqual([1, 2]);
    expect(init[1]!.retryOrigin).toMatchObject({ origin: 'unknown', how: expect.stringContaining('nothing in the logs says who sent it') });
  });
});
