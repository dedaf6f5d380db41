// A gateway that rewrites Mcp-Session-Id both ways (gw-N-… to the client, the server's UUID upstream), recorded with the SDK 1.32.2 client and server (test/fixtures/real-gateway-sessions, recorded by record.mjs here): the two views joined by the sessions' initialize exchanges, or kept apart when that is ambiguous.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze, type AttemptRow } from '../../src/index.js';
import { BIN, triageCli } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-gateway-sessions/', import.meta.url));
const at = (c: string, f: string) => `${DIR}${c}/${f}`;
type Rec = { kind: string; xid: string; session: string | null; send?: { method?: string; id?: unknown; params?: { clientInfo?: { name?: string } } } };
const records = (path: string): Rec[] => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
/** The JSON-RPC requests a log shows (POSTs whose body has a method and an id). */
const requests = (path: string) => records(path).filter((r) => r.kind === 'request' && r.send?.method !== undefined && r.send.id !== undefined);
/** Each session id a log's initialize responses set, by the client name its initialize gave (in the order they came). */
const sessionsByClient = (path: string): [string, string][] => {
  const recs = records(path);
  return recs.filter((r) => r.kind === 'request' && r.send?.method === 'initialize').map((r) => [r.send!.params!.clientInfo!.name!, recs.find((x) => x.kind === 'response' && x.xid === r.xid)!.session!]);
};
type Observed = { label?: string; isError?: boolean; error?: string };
const observed = (c: string) => JSON.parse(readFileSync(at(c, 'observed.json'), 'utf8')) as Observed[];
const both = (c: string, extra: Record<string, unknown> = {}) => analyze({ inputs: [{ path: at(c, 'client.ndjson'), side: 'client' }, { path: at(c, 'server.ndjson'), side: 'server' }], ...extra });
const pairedNote = (notes: string[]) => notes.find((n) => /(were|was) paired with the server's session by their initialize exchanges/.test(n));
const apartNote = (notes: string[]) => notes.find((n) => /(were|was) not paired with a server session/.test(n));
const calls = (rows: AttemptRow[]) => rows.filter((a) => a.method === 'tools/call');

describe("one app's session through the rewriting gateway", () => {
  it('the logs really carry other session ids on each side', () => {
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    const [[, server]] = sessionsByClient(at('session-rewrite', 'server.ndjson'));
    expect(client).toMatch(/^gw-1-/);
    expect(server).not.toBe(client);
  });

  it("joins every request to the server's view of it: counted once, with both views, none 'not seen by the server'", async () => {
    const r = await both('session-rewrite');
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    const [[, server]] = sessionsByClient(at('session-rewrite', 'server.ndjson'));
    expect(r.attempts).toHaveLength(requests(at('session-rewrite', 'client.ndjson')).length);
    expect(r.summary.attempts).toBe(requests(at('session-rewrite', 'server.ndjson')).length);
    for (const a of r.attempts) {
      expect(a.session).toBe(client);
      expect(a.serverSession).toBe(server);
      expect(a.serverOutcome).toBe(a.outcome);
      expect(a.notSeenByServer).toBeUndefined();
    }
    // The outcomes the app saw, in its order.
    const seen = observed('session-rewrite').filter((o) => o.label !== undefined).map((o) => (o.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS'));
    expect(calls(r.attempts).map((a) => a.outcome)).toEqual(seen);
    expect(r.attempts.filter((a) => a.outcome === 'TOOL_ERROR').map((a) => a.layer)).toEqual(['application']);
  });

  it('says once, in a note and in the why of the initialize, that the client session id was paired with the server session id', async () => {
    const r = await both('session-rewrite');
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    const [[, server]] = sessionsByClient(at('session-rewrite', 'server.ndjson'));
    const note = pairedNote(r.summary.notes);
    expect(note).toContain(`${JSON.stringify(client)} with ${JSON.stringify(server)}`);
    expect(note).toMatch(/^1 client session id/);
    expect(r.summary.notes.filter((n) => n.includes(client))).toHaveLength(1);
    const init = r.attempts.find((a) => a.method === 'initialize')!;
    expect(init.detail?.why).toContain(`the server's ${JSON.stringify(server)}`);
    expect(r.attempts.filter((a) => a.detail?.why?.includes('gives the client session ids of its own'))).toHaveLength(1);
  });

  it("each view alone is as it was: no pairing, every request once", async () => {
    for (const [file, side] of [['client.ndjson', 'client'], ['server.ndjson', 'server']] as const) {
      const r = await analyze({ inputs: [{ path: at('session-rewrite', file), side }] });
      expect(r.attempts).toHaveLength(requests(at('session-rewrite', file)).length);
      expect(pairedNote(r.summary.notes)).toBeUndefined();
      expect(r.attempts.every((a) => a.serverSession === undefined)).toBe(true);
    }
  });

  it("the HAR written in front of the gateway joins the server's log the same way", async () => {
    const r = await analyze({ inputs: [{ path: at('session-rewrite', 'capture.har.ndjson'), side: 'client' }, { path: at('session-rewrite', 'server.ndjson'), side: 'server' }] });
    expect(r.attempts).toHaveLength(requests(at('session-rewrite', 'client.ndjson')).length);
    expect(r.attempts.every((a) => a.serverOutcome !== undefined && !a.notSeenByServer)).toBe(true);
    expect(pairedNote(r.summary.notes)).toBeDefined();
  });

  it('the sessions view lists one session seen by both sides, and --session finds it by the server id too', () => {
    const [[, server]] = sessionsByClient(at('session-rewrite', 'server.ndjson'));
    const args = ['--client', at('session-rewrite', 'client.ndjson'), '--server', at('session-rewrite', 'server.ndjson')];
    const byServerId = triageCli<AttemptRow>([...args, '--session', server.slice(0, 8)]);
    expect(byServerId.attempts).toHaveLength(requests(at('session-rewrite', 'client.ndjson')).length);
    const p = spawnSync(process.execPath, [BIN, 'sessions', ...args, '--format', 'json'], { encoding: 'utf8', timeout: 30_000 });
    const view = JSON.parse(p.stdout) as { sessions: { session: string; sides: string[]; attempts: number }[] };
    expect(view.sessions.map((x) => `${x.session} ${x.sides.join('+')} ${x.attempts}`)).toEqual([`${sessionsByClient(at('session-rewrite', 'client.ndjson'))[0]![1]} client+server ${byServerId.attempts.length}`]);
  });

  it('must not pair a client session that the server log also shows under its own id (a gateway that let one request through unrewritten)', async () => {
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    const [[, server]] = sessionsByClient(at('session-rewrite', 'server.ndjson'));
    // The server's record of the standalone GET carries the client's id instead of its own.
    const lines = readFileSync(at('session-rewrite', 'server.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec & { method?: string });
    const get = lines.find((l) => l.kind === 'request' && l.method === 'GET')!;
    const out = lines.map((l) => (l.xid === get.xid ? JSON.stringify({ ...l, session: client }).split(JSON.stringify(server)).join(JSON.stringify(client)) : JSON.stringify(l)));
    const path = join(mkdtempSync(join(tmpdir(), 'mcpt-gw-')), 'server.ndjson');
    writeFileSync(path, out.join('\n') + '\n');
    const r = await analyze({ inputs: [{ path: at('session-rewrite', 'client.ndjson'), side: 'client' }, { path, side: 'server' }] });
    expect(pairedNote(r.summary.notes)).toBeUndefined();
    expect(r.attempts.some((a) => a.serverSession !== undefined)).toBe(false);
    expect(r.attempts).toHaveLength(requests(at('session-rewrite', 'client.ndjson')).length + requests(path).length);
  });
});

describe('a rewritten session id with control characters in it (strings from logs are untrusted)', () => {
  it('is quoted with every control character escaped in the note and the why', async () => {
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    const hostile = 'gw-1-\\u001b[31mred\\u202e\\u0085';
    const text = readFileSync(at('session-rewrite', 'client.ndjson'), 'utf8').split(client).join(hostile);
    const path = join(mkdtempSync(join(tmpdir(), 'mcpt-gw-')), 'client.ndjson');
    writeFileSync(path, text);
    const r = await analyze({ inputs: [{ path, side: 'client' }, { path: at('session-rewrite', 'server.ndjson'), side: 'server' }] });
    const note = pairedNote(r.summary.notes)!;
    const why = r.attempts.find((a) => a.method === 'initialize')!.detail!.why!;
    for (const t of [note, why]) {
      expect(t).toContain('"gw-1-\\u001b[31mred\\u202e\\u0085"');
      expect(t).not.toMatch(/[\u001b\u202e\u0085]/);
    }
  });
});

describe('logs that share session ids besides a session each has under its own id', () => {
  it('must not pair: a gateway that rewrites ids rewrites them all, so the lone sessions are ones the other log does not cover', async () => {
    const a8 = (f: string) => fileURLToPath(new URL(`../fixtures/real-audit8/har-end-order/${f}`, import.meta.url));
    const r = await analyze({ inputs: [
      { path: a8('capture.har.ndjson'), side: 'client' }, { path: at('session-rewrite', 'client.ndjson'), side: 'client' },
      { path: a8('server.ndjson'), side: 'server' }, { path: at('session-rewrite', 'server.ndjson'), side: 'server' },
    ] });
    const [[, client]] = sessionsByClient(at('session-rewrite', 'client.ndjson'));
    expect(r.attempts.some((a) => a.session !== client && a.serverOutcome !== undefined)).toBe(true);
    expect(r.attempts.some((a) => a.serverSession !== undefined)).toBe(false);
    expect(r.attempts.filter((a) => a.session === client && a.notSeenByServer)).toHaveLength(requests(at('session-rewrite', 'client.ndjson')).length);
    expect(pairedNote(r.summary.notes)).toBeUndefined();
  });
});

describe('two apps with their own names through the rewriting gateway at once', () => {
  it("pairs each client session with the server session whose initialize named the same client", async () => {
    const r = await both('two-clients');
    const client = new Map(sessionsByClient(at('two-clients', 'client.ndjson')));
    const server = new Map(sessionsByClient(at('two-clients', 'server.ndjson')));
    expect(client.size).toBe(2);
    expect(r.attempts).toHaveLength(requests(at('two-clients', 'client.ndjson')).length);
    for (const [name, id] of client) {
      const rows = r.attempts.filter((a) => a.session === id);
      expect(rows.length).toBeGreaterThan(0);
      for (const a of rows) {
        expect(a.serverSession).toBe(server.get(name));
        expect(a.notSeenByServer).toBeUndefined();
      }
    }
    expect(pairedNote(r.summary.notes)).toMatch(/^2 client session ids/);
    const seen = observed('two-clients').filter((o) => o.label !== undefined);
    expect(calls(r.attempts).filter((a) => a.outcome === 'TOOL_ERROR')).toHaveLength(seen.filter((o) => o.isError).length);
    expect(calls(r.attempts).filter((a) => a.outcome === 'TOOL_SUCCESS')).toHaveLength(seen.filter((o) => o.isError === false).length);
  });
});

describe('two workers of one app (the same clientInfo) through the rewriting gateway at once', () => {
  /** Each session's tools/call arguments as one log shows them (its requests after initialize), by session id. */
  const argsBySession = (path: string) => {
    const out = new Map<string, string[]>();
    for (const r of requests(path)) if (r.send!.method === 'tools/call' && r.session !== null) out.set(r.session, [...(out.get(r.session) ?? []), JSON.stringify((r.send as { params?: { arguments?: unknown } }).params?.arguments)]);
    return out;
  };

  it('the initialize exchanges alone fit either way, but the calls after them (other arguments under the same ids) tell which client session is which server session', async () => {
    const r = await both('two-same-clients');
    const client = argsBySession(at('two-same-clients', 'client.ndjson'));
    const server = argsBySession(at('two-same-clients', 'server.ndjson'));
    // The ground truth: the server session that got a worker's arguments is that worker's.
    const truth = new Map([...client].map(([c, args]) => [c, [...server].find(([, a]) => JSON.stringify(a) === JSON.stringify(args))![0]]));
    expect(truth.size).toBe(2);
    expect(new Set(truth.values()).size).toBe(2);
    expect(r.attempts).toHaveLength(requests(at('two-same-clients', 'client.ndjson')).length);
    for (const a of r.attempts) {
      expect(a.serverSession).toBe(truth.get(a.session!));
      expect(a.serverOutcome).toBe(a.outcome);
    }
    expect(apartNote(r.summary.notes)).toBeUndefined();
    expect(pairedNote(r.summary.notes)).toMatch(/; where more than one fitted, the only session whose requests after it were the same calls under the same JSON-RPC ids\)/);
    const init = r.attempts.find((a) => a.method === 'initialize')!;
    expect(init.detail?.why).toMatch(/paired by this initialize exchange and the requests after it/);
  });

  it('must not pair: the same logs with both workers sending the same arguments (nothing tells them apart); both logs are counted apart, as before, and a note says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpt-gw-'));
    for (const f of ['client.ndjson', 'server.ndjson']) {
      const text = readFileSync(at('two-same-clients', f), 'utf8');
      const same = text.replaceAll('w1', 'w0');
      expect(same).not.toBe(text);
      writeFileSync(join(dir, f), same);
    }
    const r = await analyze({ inputs: [{ path: join(dir, 'client.ndjson'), side: 'client' }, { path: join(dir, 'server.ndjson'), side: 'server' }] });
    const client = sessionsByClient(at('two-same-clients', 'client.ndjson')).map(([, id]) => id);
    expect(r.attempts).toHaveLength(requests(at('two-same-clients', 'client.ndjson')).length + requests(at('two-same-clients', 'server.ndjson')).length);
    expect(r.attempts.some((a) => a.serverSession !== undefined || a.serverOutcome !== undefined)).toBe(false);
    expect(pairedNote(r.summary.notes)).toBeUndefined();
    const note = apartNote(r.summary.notes)!;
    for (const id of client) expect(note).toContain(JSON.stringify(id));
  });
});

describe('the rewriting gateway answers 502 without forwarding, the app retries', () => {
  it("the 502 is not seen by the server, the retry is the server's one run of the call: no UNSAFE_RETRY", async () => {
    const r = await both('gateway-502');
    expect(r.attempts).toHaveLength(requests(at('gateway-502', 'client.ndjson')).length);
    const [first, retry] = calls(r.attempts);
    expect(first!.status).toBe(502);
    expect(first!.notSeenByServer).toBe(true);
    expect(first!.serverOutcome).toBeUndefined();
    // Still named by the server's id of its session, so that id finds it (--session, timeline).
    const [[, server]] = sessionsByClient(at('gateway-502', 'server.ndjson'));
    expect(first!.serverSession).toBe(server);
    expect(retry!.call).toBe(first!.call);
    expect(retry!.attempt).toBe(2);
    expect(retry!.serverOutcome).toBe('TOOL_SUCCESS');
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('UNSAFE_RETRY');
    // The timeline asked for by the server's id has every attempt of the session, the 502 too.
    const p = spawnSync(process.execPath, [BIN, 'timeline', server.slice(0, 8), '--client', at('gateway-502', 'client.ndjson'), '--server', at('gateway-502', 'server.ndjson'), '--format', 'json'], { encoding: 'utf8', timeout: 30_000 });
    const t = JSON.parse(p.stdout) as { session: string; attempts: AttemptRow[] };
    expect(t.attempts.map((a) => `${a.method} ${a.status}`)).toEqual(r.attempts.map((a) => `${a.method} ${a.status}`));
    // The client's view alone cannot tell: a possible unsafe retry.
    const alone = await analyze({ inputs: [{ path: at('gateway-502', 'client.ndjson'), side: 'client' }] });
    expect(alone.attempts.flatMap((a) => a.findings.filter((f) => f.code === 'UNSAFE_RETRY').map((f) => f.severity))).toEqual(['warning']);
  });
});

describe('the server restarts behind the rewriting gateway; the app reconnects 1.5 s later', () => {
  it.each([['the default --skew (the two initialize exchanges alike: told apart by the calls after them)', {}], ['a --skew under the reconnect delay (clocks that agree)', { skewMs: 1000 }]])('with %s, each session is paired: the 404 joined, one SESSION_EXPIRED, the retry linked', async (_, extra) => {
    const r = await both('restart-reconnect', extra);
    const client = sessionsByClient(at('restart-reconnect', 'client.ndjson')).map(([, id]) => id);
    const server = sessionsByClient(at('restart-reconnect', 'server.ndjson')).map(([, id]) => id);
    expect(r.attempts).toHaveLength(requests(at('restart-reconnect', 'client.ndjson')).length);
    expect(pairedNote(r.summary.notes)).toContain(`${JSON.stringify(client[1])} with ${JSON.stringify(server[1])}`);
    const expired = r.attempts.find((a) => a.status === 404)!;
    expect(expired.serverStatus).toBe(404);
    expect(expired.session).toBe(client[0]);
    const retry = calls(r.attempts).find((a) => a.call === expired.call && a.attempt === 2)!;
    expect(retry.session).toBe(client[1]);
    expect(retry.serverSession).toBe(server[1]);
    expect(r.findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.session)).toEqual([client[0]]);
  });
});

describe('logs whose session ids match (no gateway rewrote them)', () => {
  const cases = [
    ['real-audit8/har-end-order/capture.har.ndjson', 'real-audit8/har-end-order/server.ndjson'],
    ['real-servers2/ev-two-clients/client.ndjson', 'real-servers2/ev-two-clients/server.ndjson'],
    ['real-servers2/mf-restart/client.ndjson', 'real-servers2/mf-restart/server.ndjson'],
  ];
  it.each(cases)('%s: no pairing, no note, no serverSession', async (c, s) => {
    const f = (p: string) => fileURLToPath(new URL(`../fixtures/${p}`, import.meta.url));
    const r = await analyze({ inputs: [{ path: f(c), side: 'client' }, { path: f(s), side: 'server' }] });
    expect(r.attempts.some((a) => a.serverOutcome !== undefined)).toBe(true);
    expect(r.attempts.some((a) => a.serverSession !== undefined)).toBe(false);
    expect(pairedNote(r.summary.notes)).toBeUndefined();
    expect(apartNote(r.summary.notes)).toBeUndefined();
  });
});
