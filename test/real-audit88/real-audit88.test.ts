// The eighty-eighth audit: sessionless traffic (stateless servers) from one client to two servers, and from two apps to one server, held to what the apps and servers saw (test/fixtures/real-audit88/*/observed.json).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from '../cli/helpers.js';

const A88 = `${ROOT}test/fixtures/real-audit88/`;

interface Step { app?: string; label: string; server?: 'A' | 'B'; item?: string; attempt?: number; ok?: unknown; error?: { message: string }; at?: string }
interface Observed { readOnly: Record<string, boolean>; endpoints?: Record<string, string>; app: Step[]; ran: { server: string; item: string }[]; faults: { ts: string; action: string }[] }
interface JsonAttempt { id: unknown; method: string; tool: string | null; status: number | null; outcome: string; call?: string; attempt?: number; findings: { code: string; message: string }[]; retryOrigin?: { origin: string; how: string }; sources: { file: string; line: number }[] }
interface Report { attempts: JsonAttempt[]; summary: { notes: string[] } }

/** A source's file name without its folder (the report names the files as given: full paths here). */
const base = (file: string) => file.slice(file.lastIndexOf('/') + 1);
const observed = (scenario: string) => JSON.parse(readFileSync(`${A88}${scenario}/observed.json`, 'utf8')) as Observed;
interface Rec { url?: string; ts?: string; send?: { params?: { arguments?: { item?: string } } } }
const lines = new Map<string, Rec[]>();
/** The record an attempt's source names (its request record: url and time). */
function record(scenario: string, src: { file: string; line: number }): Rec {
  const path = src.file.startsWith('/') ? src.file : `${A88}${scenario}/${src.file}`;
  if (!lines.has(path)) lines.set(path, readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Rec));
  return lines.get(path)![src.line - 1]!;
}
async function report(scenario: string, args: string[]): Promise<Report> {
  const r = await cli([...args.map((a) => (a.startsWith('--') ? a : `${A88}${scenario}/${a}`)), '--format', 'json']);
  return JSON.parse(r.stdout) as Report;
}
/** Which server (A or B) a request went to, by the URL its record holds: A's endpoint (path /a/ or A's port). */
function serverOf(o: Observed, url: string): 'A' | 'B' {
  const path = new URL(url).pathname;
  if (path.startsWith('/a/')) return 'A';
  if (path.startsWith('/b/')) return 'B';
  return new URL(url).port === new URL(o.endpoints!.A!).port ? 'A' : 'B';
}
/** The app's calls of `sync` as observed.json tells them: server and item, and how many attempts each had. */
function truthCalls(o: Observed): Map<string, number> {
  const m = new Map<string, number>();
  for (const s of o.app) if (s.attempt !== undefined) m.set(`${s.app ?? ''}${s.server ?? ''} ${s.item ?? 'inv-1'}`, Math.max(m.get(`${s.app ?? ''}${s.server ?? ''} ${s.item ?? 'inv-1'}`) ?? 0, s.attempt));
  return m;
}

/** The one-app scenarios: one client's two stateless servers, and the logs each was recorded in. */
const ONE_APP = [
  ['v1-two-ports', 'SDK 1.32.2 client, two TS servers on two ports', [['client.ndjson'], ['--client', 'client.ndjson', '--server', 'serverA.ndjson', '--server', 'serverB.ndjson']]],
  ['v2-py-router', 'v2 2.4.0 client, two Python servers behind one path router', [['client.ndjson'], ['proxy.ndjson']]],
  ['py-client-ts-router', 'Python SDK client, two TS servers behind one path router', [['proxy.ndjson'], ['server.ndjson'], ['--client', 'proxy.ndjson', '--server', 'server.ndjson']]],
] as const;

describe.each(ONE_APP)('real-audit88 %s (%s)', (scenario, _, views) => {
  const o = observed(scenario);

  it('recorded what the scenario says: the first sync of each server failed, the app retried each once, B ran its charges once each', () => {
    for (const server of ['A', 'B']) {
      const steps = o.app.filter((s) => s.server === server && s.item === 'inv-1' && s.attempt !== undefined);
      expect(steps.map((s) => (s.error ? 'failed' : 'ok'))).toEqual(['failed', 'ok']);
    }
    expect(o.ran.filter((r) => r.server === 'B').map((r) => r.item)).toEqual(['inv-1', 'inv-2']);
    expect(o.faults).toHaveLength(2);
  });

  describe.each(views.map((v) => [v.join(' '), v] as const))('read from %s', (_label, view) => {
    it("each call's attempts went to one server, and the calls and their attempts are the app's", async () => {
      const r = await report(scenario, [...view]);
      const calls = new Map<string, { server: 'A' | 'B'; item: string; attempts: number[] }>();
      for (const a of r.attempts.filter((x) => x.method === 'tools/call')) {
        const rec = record(scenario, a.sources[0]!);
        const server = serverOf(o, rec.url!);
        const item = rec.send!.params!.arguments!.item!;
        const c = calls.get(a.call!) ?? { server, item, attempts: [] };
        // (Not another server's: the bug this audit fixed linked A's retry to B's failure.)
        expect(c.server).toBe(server);
        c.attempts.push(a.attempt!);
        calls.set(a.call!, c);
      }
      const got = new Map([...calls.values()].map((c) => [`${c.server} ${c.item}`, c.attempts.length]));
      expect(got).toEqual(truthCalls(o));
      for (const c of calls.values()) expect(c.attempts).toEqual(c.attempts.map((_, i) => i + 1));
    });

    it("UNSAFE_RETRY only on the destructive server's retry, never on the read-only one's; no RETRY_POLICY (the app waited 300 ms)", async () => {
      const r = await report(scenario, [...view]);
      for (const a of r.attempts.filter((x) => x.method === 'tools/call')) {
        const server = serverOf(o, record(scenario, a.sources[0]!).url!);
        if (o.readOnly[server]) expect(a.findings.map((f) => f.code)).not.toContain('UNSAFE_RETRY');
        expect(a.findings.map((f) => f.code)).not.toContain('RETRY_POLICY');
      }
    });
  });
});

describe('real-audit88: the join with the servers\' own logs pairs each request with its own server\'s record', () => {
  it.each([
    ['v1-two-ports', ['--client', 'client.ndjson', '--server', 'serverA.ndjson', '--server', 'serverB.ndjson']],
    ['py-client-ts-router', ['--client', 'proxy.ndjson', '--server', 'server.ndjson']],
  ] as const)('%s', async (scenario, args) => {
    const o = observed(scenario);
    const r = await report(scenario, [...args]);
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    expect(calls.length).toBe(o.app.filter((s) => s.attempt !== undefined).length);
    for (const a of calls) {
      const client = a.sources[0]!;
      const server = a.sources.find((s) => base(s.file).startsWith('server'));
      expect(server).toBeDefined();
      const want = serverOf(o, record(scenario, client).url!);
      // serverA.ndjson / serverB.ndjson, or the one router's log, whose URL names the path.
      const got = base(server!.file) === 'server.ndjson' ? (new URL(record(scenario, server!).url!, 'http://x').pathname.startsWith('/a/') ? 'A' : 'B') : base(server!.file) === 'serverA.ndjson' ? 'A' : 'B';
      expect(got).toBe(want);
    }
  });
});

describe('real-audit88: the note on one client\'s several sessionless endpoints', () => {
  it("with the servers' logs joined: it names the endpoints and says the join does not use them", async () => {
    const o = observed('v1-two-ports');
    const r = await report('v1-two-ports', ['--client', 'client.ndjson', '--server', 'serverA.ndjson', '--server', 'serverB.ndjson']);
    const note = r.summary.notes.find((n) => n.includes('endpoints'))!;
    expect(note).toContain(`go to 2 endpoints (${JSON.stringify(o.endpoints!.A)}, ${JSON.stringify(o.endpoints!.B)})`);
    expect(note).toContain("their retries are linked by endpoint, but a server's log is joined to them by JSON-RPC id, method, arguments and time alone");
  });

  it("must not: from the client's log alone (nothing is mixed any more), nor for one endpoint (two apps, one server)", async () => {
    expect((await report('v1-two-ports', ['client.ndjson'])).summary.notes.filter((n) => n.includes('endpoints'))).toEqual([]);
    expect((await report('two-apps', ['--client', 'proxy.ndjson', '--server', 'server.ndjson'])).summary.notes.filter((n) => n.includes('endpoints'))).toEqual([]);
  });

  it("must not: two stateless servers' logs of one client's concurrent calls are not 'the same traffic given twice'", async () => {
    const r = await report('v1-two-ports', ['--client', 'client.ndjson', '--server', 'serverA.ndjson', '--server', 'serverB.ndjson']);
    expect(r.summary.notes.filter((n) => n.includes('the same traffic given twice'))).toEqual([]);
  });
});

describe('real-audit88 two-apps: two app processes, one stateless server, colliding ids', () => {
  const o = observed('two-apps');
  const steps = (app: string) => o.app.filter((s) => s.app === app && s.attempt !== undefined);

  it("recorded what the scenario says: app-1 failed, app-2's like call failed before app-1 retried, app-2 gave up", () => {
    expect(steps('app-1').map((s) => (s.error ? 'failed' : 'ok'))).toEqual(['failed', 'ok']);
    expect(steps('app-2').map((s) => (s.error ? 'failed' : 'ok'))).toEqual(['failed']);
    expect(Date.parse(steps('app-2')[0]!.at!)).toBeGreaterThan(Date.parse(steps('app-1')[0]!.at!));
    expect(Date.parse(steps('app-2')[0]!.at!)).toBeLessThan(Date.parse(steps('app-1')[1]!.at!));
    expect(o.ran).toHaveLength(1);
  });

  it("each app's own log: app-1's retry is linked to app-1's failure, app-2's call stands alone, each joined to its own server record", async () => {
    const r = await report('two-apps', ['--client', 'app1.ndjson', '--client', 'app2.ndjson', '--server', 'server.ndjson']);
    const calls = r.attempts.filter((a) => a.method === 'tools/call');
    const of = (file: string) => calls.filter((a) => base(a.sources[0]!.file) === file);
    expect(of('app1.ndjson').map((a) => a.attempt)).toEqual(steps('app-1').map((s) => s.attempt));
    expect(new Set(of('app1.ndjson').map((a) => a.call)).size).toBe(1);
    expect(of('app2.ndjson').map((a) => a.attempt)).toEqual(steps('app-2').map((s) => s.attempt));
    expect(of('app2.ndjson')[0]!.call).not.toBe(of('app1.ndjson')[0]!.call);
    // The server's records in the order the app calls reached it (the faults' times): app-1's 503 first.
    const serverTs = (a: JsonAttempt) => Date.parse(record('two-apps', a.sources.find((s) => base(s.file) === 'server.ndjson')!).ts!);
    expect(Math.abs(serverTs(of('app1.ndjson')[0]!) - Date.parse(o.faults[0]!.ts))).toBeLessThan(50);
    expect(Math.abs(serverTs(of('app2.ndjson')[0]!) - Date.parse(o.faults[1]!.ts))).toBeLessThan(50);
  });

  it.each([[['proxy.ndjson']], [['server.ndjson']], [['--client', 'proxy.ndjson', '--server', 'server.ndjson']]])(
    "one log of both apps (%s): two calls, one retry, no RETRY_POLICY for app-2's own request, and the retry says which call it repeats is not known",
    async (args) => {
      const r = await report('two-apps', [...args]);
      const calls = r.attempts.filter((a) => a.method === 'tools/call');
      const truth = [...truthCalls(o).values()].sort();
      const byCall = new Map<string, number>();
      for (const a of calls) byCall.set(a.call!, (byCall.get(a.call!) ?? 0) + 1);
      expect([...byCall.values()].sort()).toEqual(truth);
      expect(calls.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('RETRY_POLICY');
      const retry = calls.find((a) => (a.attempt ?? 1) > 1)!;
      expect(retry.retryOrigin!.how).toMatch(/several clients share these requests without a session id .* and call c\d+, alike, failed too: which of the two it repeats, this log cannot tell/);
    },
  );

  it("must not: each app's own log, or one app's two servers, says nothing of several clients", async () => {
    for (const [scenario, args] of [['two-apps', ['--client', 'app1.ndjson', '--client', 'app2.ndjson', '--server', 'server.ndjson']], ['v1-two-ports', ['client.ndjson']]] as const) {
      const r = await report(scenario, [...args]);
      expect(r.attempts.filter((a) => a.retryOrigin?.how.includes('several clients share'))).toEqual([]);
    }
  });
});

describe('real-audit88: the sessions and timeline views of one client\'s two stateless servers', () => {
  it('name both servers (each initialize or server/discover result names its own), not the last one only', async () => {
    const o = observed('v2-py-router');
    const names = ['A', 'B'].map((s) => `server-${s}/1.0.0`);
    expect(Object.keys(o.endpoints!)).toEqual(['A', 'B']);
    const sessions = await cli(['sessions', `${A88}v2-py-router/client.ndjson`, '--format', 'json']);
    const rows = JSON.parse(sessions.stdout) as { sessions: { server?: string }[] };
    expect(rows.sessions[0]!.server).toBe(names.join(', '));
    const timeline = await cli(['timeline', 'audit88-v2', `${A88}v2-py-router/client.ndjson`]);
    expect(timeline.stdout).toContain(`server ${names.join(', ')}`);
  });

  it("two apps of one stateless server: the timeline names both clients, as the sessions view does", async () => {
    const o = observed('two-apps');
    const apps = [...new Set(o.app.map((s) => s.app!))].map((a) => `${a}/1.0.0`);
    const timeline = await cli(['timeline', 'input#0', `${A88}two-apps/proxy.ndjson`]);
    expect(timeline.stdout).toContain(`client ${apps.join(', ')}, server server-B/1.0.0`);
  });

  it('must not: one server behind two apps is named once', async () => {
    const sessions = await cli(['sessions', `${A88}two-apps/proxy.ndjson`, '--format', 'json']);
    const rows = JSON.parse(sessions.stdout) as { sessions: { server?: string }[] };
    expect(rows.sessions.map((s) => s.server)).toEqual(['server-B/1.0.0']);
  });
});

describe('real-audit88: a request redirected to another URL, and the app\'s next request there', () => {
  // two-apps' app-1 log, its failed attempt rewritten: its answer a 307 to another port, the app's next request sent
  // there (as an HTTP client follows a redirect); and, must not, the same with the 503 it really had.
  const o = observed('two-apps');
  const rows = readFileSync(`${A88}two-apps/app1.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const calls = rows.filter((r) => r.kind === 'request' && (r.send as { method?: string } | undefined)?.method === 'tools/call');
  const [first, second] = [calls[0]!, calls[1]!];
  const moved = String(first.url).replace(/:(\d+)\//, (_m, p: string) => `:${Number(p) + 2}/`);
  const variant = async (status: number) => {
    const text = rows.map((r) => {
      if (r.xid === first.xid && r.kind === 'response') return JSON.stringify({ ...r, status, responseHeaders: { ...(r.responseHeaders as object), ...(status === 307 ? { location: moved } : {}) } });
      if (r.xid === second.xid && r.kind === 'request') return JSON.stringify({ ...r, url: moved });
      return JSON.stringify(r);
    });
    const dir = mkdtempSync(join(tmpdir(), 'ra88-'));
    writeFileSync(join(dir, 'app1.ndjson'), `${text.join('\n')}\n`);
    const r = JSON.parse((await cli([join(dir, 'app1.ndjson'), '--format', 'json'])).stdout) as Report;
    const [a, b] = [first, second].map((q) => r.attempts.find((x) => x.sources[0]!.line === rows.indexOf(q) + 1)!);
    return { a: a!, b: b! };
  };
  it('a 307 to another URL, then a new request (a new id, 300 ms later) there: not the HTTP client following it, a call of its own', async () => {
    // (Audit 95: the SDK clients follow a 307/308 of a POST themselves, at once, within its origin, re-sending the same
    // request with its id (test/fixtures/real-audit95/redirect-*, where that is attempt 2); the app's own request with a
    // new id to another URL is another server's call, as after the 503 below.)
    expect(o.app.filter((s) => s.app === 'app-1' && s.attempt !== undefined)).toHaveLength(2);
    const { a, b } = await variant(307);
    expect(b.call).not.toBe(a.call);
  });
  it('must not: after a 503, a like request to another URL (another server) is a call of its own', async () => {
    const { a, b } = await variant(503);
    expect(b.call).not.toBe(a.call);
  });
});
