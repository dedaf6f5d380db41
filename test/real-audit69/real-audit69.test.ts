// Audit 69's real captures (test/fixtures/real-audit69): the console a server prints by default (uvicorn + the Python SDK, Express + morgan, Hono + hono/logger), read alone and beside the SDK 1.32.2 client's recordingFetch log, judged against what the app saw (observed.json) and what reached the server (server.ndjson, the recording proxy in front of it).
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit69/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));
/** The console files: each run's server.log, and morgan's other formats written beside it. */
const CONSOLES = RUNS.flatMap((r) => ['server.log', 'morgan-tiny.log', 'morgan-short.log'].filter((f) => readdirSync(`${DIR}${r}`).includes(f)).map((f) => `${r}/${f}`));

type Step = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number } };
type Input = { name: string; formats: Record<string, number>; lines: number; used: number; skipped: number; unusable: number; blank: number };
type Row = { method: string; tool: string | null; outcome: string; status: number | null };

const steps = (run: string): Step[] => (JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Step[]).filter((s) => s.label !== undefined);

async function run(inputs: { path: string; side?: 'client' | 'server' }[]) {
  const r = await analyze({ inputs: inputs.map((i) => ({ ...i, path: `${DIR}${i.path}` })) });
  const summary = r.summary as unknown as { notes: string[]; inputs: Input[] };
  return { rows: r.attempts as unknown as Row[], findings: r.findings as unknown as { code: string }[], notes: summary.notes, inputs: summary.inputs };
}

/** What reached the server (the recording proxy in front of it): each request's method and the status it got. */
function reached(name: string): { method: string; status: number }[] {
  const recs = readFileSync(`${DIR}${name}/server.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; xid?: string; method?: string; status?: number });
  const method = new Map(recs.filter((r) => r.kind === 'request').map((r) => [r.xid, r.method!]));
  return recs.filter((r) => r.kind === 'response').map((r) => ({ method: method.get(r.xid)!, status: r.status! }));
}

/** The statuses of the POSTs the app saw refused (an SDK call's StreamableHTTPError, a raw POST's status), by status. */
function refusedByApp(name: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const s of steps(name)) {
    const status = s.error?.name === 'StreamableHTTPError' ? s.error.code : typeof s.ok === 'object' && s.ok !== null && 'status' in s.ok && s.label?.startsWith('POST') ? (s.ok as { status: number }).status : undefined;
    if (status !== undefined && status >= 400) out.set(status, (out.get(status) ?? 0) + 1);
  }
  return out;
}

/** The note's "N got S" per status, and its POST count per status. */
function noteCounts(note: string): { failed: Map<number, number>; posts: Map<number, number> } {
  const failed = new Map([...note.matchAll(/(\d+) got (\d{3}) \(POST/g)].map((m) => [Number(m[2]), Number(m[1])]));
  const postPart = /\d+ POSTs?: ([^;]*)/.exec(note)?.[1] ?? '';
  const posts = new Map<number, number>();
  for (const m of postPart.matchAll(/\/mcp (\d{3}) x(\d+)/g)) posts.set(Number(m[1]), (posts.get(Number(m[1])) ?? 0) + Number(m[2]));
  return { failed, posts };
}

describe('real-audit69: a server console read alone', () => {
  it.each(CONSOLES)('%s: every line used or skipped (tracebacks, stack traces, startup lines), none unusable; read as server-console', async (file) => {
    const { inputs, rows } = await run([{ path: file, side: 'server' }]);
    expect(inputs[0]!.unusable).toBe(0);
    expect(Object.keys(inputs[0]!.formats)).toEqual(['server-console']);
    expect(inputs[0]!.used).toBeGreaterThan(0);
    expect(rows).toEqual([]);
  });

  it.each(CONSOLES)('%s: the note counts the POSTs by status as they reached the server, and names the refusals the app saw (4xx, 5xx), none joined', async (file) => {
    const name = file.split('/')[0]!;
    const { notes } = await run([{ path: file, side: 'server' }]);
    const note = notes.find((n) => n.includes("the server's console"))!;
    expect(note).toMatch(/no time on any/);
    const { failed, posts } = noteCounts(note);
    // what reached the server: each POST's status (morgan and hono/logger write a line for each; so does uvicorn)
    const truth = new Map<number, number>();
    for (const r of reached(name).filter((x) => x.method === 'POST')) truth.set(r.status, (truth.get(r.status) ?? 0) + 1);
    expect(posts).toEqual(truth);
    // each 4xx and 5xx POST that reached the server is named by its status; so is each the app saw refused, but the hop's 502 (py-hop-502), which never reached it
    expect(failed).toEqual(new Map([...truth].filter(([s]) => s >= 400)));
    const app = refusedByApp(name);
    if (name === 'py-hop-502') app.delete(502);
    expect(failed).toEqual(app);
    expect(note).toMatch(/no request line is an attempt, and none is joined to a client's attempt/);
  });

  it('the Python SDK\'s own lines are counted: the session it refused after the restart, the tool that raised, the restart itself', async () => {
    for (const name of ['py-restart', 'py-run-tty']) {
      const { notes } = await run([{ path: `${name}/server.log`, side: 'server' }]);
      const note = notes.find((n) => n.includes("the server's console"))!;
      expect(note).toMatch(/requests refused for an unknown or expired session .*: 1 /);
      expect(note).toMatch(/tool calls whose tool raised an exception .*: 1 /);
      expect(note).toMatch(/the server was started 2 times in this console/);
      // what the app saw: the call after the restart refused with 404, the refund an isError result
      const s = steps(name);
      expect(s.find((x) => x.label === 'lookup_order B2')?.error?.code).toBe(404);
      expect(s.find((x) => x.label === 'refund_order B2')?.ok).toMatchObject({ isError: true });
    }
  });

  it("a terminal's capture (py-run-tty: uvicorn's colors, CRLFs, `script`'s header and footer) reads as the plain console does", async () => {
    const { inputs, notes } = await run([{ path: 'py-run-tty/server.log', side: 'server' }]);
    expect(inputs[0]!.unusable).toBe(0);
    expect(notes.join('\n')).toMatch(/1 got 404 \(POST \/mcp/);
    expect(notes.join('\n')).not.toMatch(/\u001b/);
  });

  it("near miss: a console with no failed POST names none (express-restart's first run, up to the restart)", async () => {
    const lines = readFileSync(`${DIR}express-restart/server.log`, 'utf8').split('\n');
    const firstRun = lines.slice(0, lines.findIndex((l, i) => i > 0 && l.startsWith('MCP server listening')));
    const path = join(mkdtempSync(join(tmpdir(), 'audit69-')), 'server.log');
    writeFileSync(path, `${firstRun.join('\n')}\n`);
    const r = await analyze({ inputs: [{ path, side: 'server' }] });
    const note = (r.summary as unknown as { notes: string[] }).notes.find((n) => n.includes("the server's console"))!;
    expect(note).toMatch(/has 3 request lines/);
    expect(note).not.toMatch(/answered with an error|got \d{3}|started \d+ times/);
  });
});

describe('real-audit69: a server console beside the client\'s log', () => {
  it.each(RUNS)('%s: the client\'s attempts, outcomes and findings are what its log alone gives (the console adds a note, no attempt, no finding)', async (name) => {
    const alone = await run([{ path: `${name}/client.ndjson`, side: 'client' }]);
    const both = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
    expect(both.rows.map((r) => [r.method, r.tool, r.outcome, r.status])).toEqual(alone.rows.map((r) => [r.method, r.tool, r.outcome, r.status]));
    expect(both.findings.map((f) => f.code)).toEqual(alone.findings.map((f) => f.code));
    expect(both.inputs[1]!.unusable).toBe(0);
    expect(both.notes.some((n) => n.includes("the server's console"))).toBe(true);
  });

  it('the client\'s log gives what the app saw: the 500 of the throwing handler, the 404 after the restart, the cut stream', async () => {
    for (const name of ['py-calls', 'express-calls', 'hono-calls']) {
      const { rows } = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
      expect(rows.find((r) => r.tool === 'crash')).toMatchObject({ outcome: 'HTTP_ERROR', status: 500 });
      expect(rows.find((r) => r.tool === 'slow_report')).toMatchObject({ outcome: 'STREAM_INCOMPLETE', status: 200 });
      expect(rows.find((r) => r.tool === 'refund_order')).toMatchObject({ outcome: 'TOOL_ERROR' });
    }
    for (const name of ['py-restart', 'express-restart', 'hono-restart']) {
      const { rows } = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
      expect(rows.filter((r) => r.tool === 'lookup_order').map((r) => [r.outcome, r.status])).toEqual([['TOOL_SUCCESS', 200], ['HTTP_ERROR', 404], ['TOOL_SUCCESS', 200]]);
    }
  });
});

describe("real-audit69: a server console beside the client's log, compared by count", () => {
  it.each(['py-calls', 'express-calls', 'hono-calls'])('%s: the 500 of the throwing handler and the 404 of the unknown session are in both (the server answered them itself)', async (name) => {
    const { notes } = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
    const note = notes.find((n) => n.includes("the server's console"))!;
    expect(note).toMatch(/500: 1 in both \(as far as counts tell, the server itself answered it so\)/);
    expect(note).toMatch(/404: 1 in both/);
    // the POST whose body is no JSON is no attempt in the client's view: one 400 more in the console
    expect(note).toMatch(/400: 2 here, 1 in the client's log/);
  });
  it("py-hop-502: the hop's 502 is in the client's log and not in the console: something between them answered it", async () => {
    const { notes, rows } = await run([{ path: 'py-hop-502/client.ndjson', side: 'client' }, { path: 'py-hop-502/server.log', side: 'server' }]);
    expect(steps('py-hop-502').find((s) => s.label === 'lookup_order C2 (the hop answers 502)')?.error?.code).toBe(502);
    expect(rows.filter((r) => r.tool === 'lookup_order').map((r) => [r.outcome, r.status])).toEqual([['TOOL_SUCCESS', 200], ['HTTP_ERROR', 502], ['TOOL_SUCCESS', 200]]);
    expect(notes.find((n) => n.includes("the server's console"))).toMatch(/502: 1 in the client's log, 0 here \(if this console covers the client's time, the server never sent one of them: something between them did\)/);
  });
  it('near misses: alone, or with two consoles (which server answered which is unknown), no comparison', async () => {
    const alone = await run([{ path: 'py-hop-502/server.log', side: 'server' }]);
    expect(alone.notes.join('\n')).not.toMatch(/beside the client's log/);
    const two = await run([{ path: 'py-calls/client.ndjson', side: 'client' }, { path: 'py-calls/server.log', side: 'server' }, { path: 'py-hop-502/server.log', side: 'server' }]);
    expect(two.notes.join('\n')).not.toMatch(/beside the client's log/);
  });
});

describe("real-audit69: the Python SDK's refusal of a session, joined by the session id", () => {
  type Why = Row & { session: string | null; detail?: { why?: string } };
  it.each(['py-restart', 'py-run-tty', 'py-calls'])("%s: the client's 404 of that session takes the console's \"Rejected request with unknown or expired session ID\" line (no time needed: the id names it)", async (name) => {
    const { rows } = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
    const refused = (rows as Why[]).filter((r) => r.status === 404);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.detail?.why).toMatch(/the server's console \(.*server\.log:\d+\) has the Python SDK's "Rejected request with unknown or expired session ID" for this session: the server itself refused it/);
    const line = Number(/server\.log:(\d+)\)/.exec(refused[0]!.detail!.why!)![1]);
    expect(readFileSync(`${DIR}${name}/server.log`, 'utf8').split('\n')[line - 1]).toContain(`Rejected request with unknown or expired session ID: ${refused[0]!.session}`);
  });
  it.each(['express-restart', 'hono-restart'])('near miss: %s (no such line in the console): the 404 says nothing of the console', async (name) => {
    const { rows } = await run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/server.log`, side: 'server' }]);
    expect((rows as Why[]).find((r) => r.status === 404)?.detail?.why ?? '').not.toMatch(/server's console/);
  });
  it("near miss: another session's refusal is not this 404's", async () => {
    const lines = readFileSync(`${DIR}py-restart/server.log`, 'utf8').replace(/(Rejected request with unknown or expired session ID: )\S+/, '$1ffffffffffffffffffffffffffffffff');
    const path = join(mkdtempSync(join(tmpdir(), 'audit69-')), 'server.log');
    writeFileSync(path, lines);
    const r = await analyze({ inputs: [{ path: `${DIR}py-restart/client.ndjson`, side: 'client' }, { path, side: 'server' }] });
    const a = (r.attempts as unknown as Why[]).find((x) => x.status === 404)!;
    expect(a.detail?.why ?? '').not.toMatch(/server's console/);
  });
});

describe("real-audit69: morgan's common and combined lines (they have the time) stay nginx-combined's", () => {
  it.each(RUNS.filter((r) => r.startsWith('express')))('%s: read by nginx-combined, none unusable (see the README\'s known gap: a `-` content length reads as Apache\'s "no body byte")', async (name) => {
    for (const f of ['morgan-common.log', 'morgan-combined.log']) {
      const { inputs } = await run([{ path: `${name}/${f}`, side: 'server' }]);
      expect(Object.keys(inputs[0]!.formats)).toEqual(['nginx-combined']);
      expect(inputs[0]!.unusable).toBe(0);
    }
  });

  it('the note on the combined log\'s 200s with "-" says that in morgan\'s log "-" is a length never set (every SSE body), not a stream with no body byte', async () => {
    const { notes } = await run([{ path: 'express-calls/morgan-combined.log', side: 'server' }]);
    const note = notes.find((n) => n.includes('HTTP 200 with no body byte'));
    expect(note).toMatch(/morgan `combined` log, the same layout, its "-" is a length never set: every SSE response, healthy ones too/);
  });

  it('near miss: Apache\'s own access log with only an error status (a lost session\'s 404) names no morgan', async () => {
    const { notes } = await run([{ path: '../real-audit66/ts1-expired-404/timed.log', side: 'server' }]);
    const note = notes.find((n) => n.includes("Apache's access log has 1 POST"));
    expect(note).toMatch(/HTTP 404 x1/);
    expect(note).not.toMatch(/morgan/);
  });
});
