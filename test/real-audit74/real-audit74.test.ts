// Audit 74's real captures (test/fixtures/real-audit74): body-less server loggers behind a hop that answers 502/503/504 and its own 500/502, Fastify's default logger's error statuses, express-winston on a stream the server dropped, judged against observed.json and the client's recordingFetch log.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit74/';
/** The body-less loggers as their READMEs set them up, and the name the why gives each. */
const BODILESS: [string, string][] = [['pino-http.ndjson', 'pino-http'], ['ecs-morgan.ndjson', 'ECS morgan']];

type Row = { method: string; tool: string | null; status: number | null; outcome: string; side: string; durationMs?: number; serverOutcome?: string; serverStatus?: number | null; findings: { code: string }[]; detail?: { why?: string } };
type Entry = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number }; hop?: { request: string; hop: string }[] };

const observed = (run: string): Entry[] => JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Entry[];

async function run(inputs: { path: string; side: 'client' | 'server' }[]) {
  const r = await analyze({ inputs: inputs.map((i) => ({ ...i, path: `${DIR}${i.path}` })) });
  const summary = r.summary as unknown as { notes: string[] };
  return { rows: r.attempts as unknown as Row[], notes: summary.notes };
}
const pair = (name: string, server: string) => run([{ path: `${name}/client.ndjson`, side: 'client' }, { path: `${name}/${server}`, side: 'server' }]);
const why = (r: Row): string => r.detail?.why ?? '';

/**
 * Each tools/call the app made that got an HTTP error status, by observed.json: its status, the body the app saw, and
 * whether the hop answered it itself (its own log: "POST tools/call <order>" with the status) or passed the server's on.
 */
function httpErrors(name: string): { order: string; status: number; body: string; hop: boolean }[] {
  const all = observed(name);
  const hopLog = all.find((e) => e.hop !== undefined && Array.isArray(e.hop))?.hop ?? [];
  return all.flatMap((e) => {
    const order = /lookup_order (\S+)/.exec(e.label ?? '')?.[1];
    if (order === undefined || e.error?.name !== 'StreamableHTTPError' || typeof e.error.code !== 'number') return [];
    const byHop = hopLog.find((h) => h.request === `POST tools/call ${order}`);
    if (byHop) expect(byHop.hop.startsWith(String(e.error.code))).toBe(true);
    return [{ order, status: e.error.code, body: e.error.message.replace(/^.*Error POSTing to endpoint: /s, ''), hop: byHop !== undefined }];
  });
}

/** The client attempt of one of them: its status, and the body the why quotes (two of one status: the hop's page or the server's). */
function attemptOf(rows: Row[], e: { status: number; body: string; hop: boolean }): Row {
  const same = rows.filter((r) => r.method === 'tools/call' && r.status === e.status);
  if (same.length === 1) return same[0]!;
  const words = e.hop ? /<\/h1>([^<]+)/.exec(e.body)![1]! : 'database connection refused';
  const it = same.filter((r) => why(r).includes(words));
  expect(it).toHaveLength(1);
  return it[0]!;
}

describe('real-audit74 hop-statuses: a body-less server logger behind a hop that answers for the server', () => {
  const errors = httpErrors('hop-statuses');
  it('the recording has the server\'s own 500 and 404 and the hop\'s 503, 504 and 502', () => {
    expect(errors.map((e) => `${e.status}${e.hop ? ' hop' : ''}`)).toEqual(['500', '503 hop', '504 hop', '502 hop', '404']);
  });
  it.each(BODILESS)('%s: the server\'s statuses are tied to its lines; no hop status is said to be the server\'s', async (file, logger) => {
    const { rows, notes } = await pair('hop-statuses', file);
    for (const e of errors) {
      const a = attemptOf(rows, e);
      expect(a.outcome).toBe('HTTP_ERROR');
      if (!e.hop) expect(why(a)).toContain(`the server's ${logger} line shows it answered this POST ${e.status}`);
      else {
        expect(why(a)).not.toContain('the server itself sent this status');
        expect(why(a)).not.toMatch(/line shows it answered/);
      }
    }
    expect(notes.join('\n')).not.toMatch(/POSTs? the server answered with an error/);
  });
  it.each(BODILESS)("%s: the hop's 503 and 502 (no line of the server's near them, lines before and after) say the server never saw them", async (file) => {
    const { rows } = await pair('hop-statuses', file);
    for (const status of [503, 502]) {
      expect(why(attemptOf(rows, errors.find((e) => e.status === status)!))).toContain(`the server's HTTP logger's log test/fixtures/real-audit74/hop-statuses/${file}, which has POSTs that ended before this one started and POSTs that started after it ended, has no line of it: the server never saw it, so its HTTP ${status} came from something between them`);
    }
    // the 504's request reached the server (pino-http: "request aborted"; ECS morgan: its 200 line of it): not unseen
    expect(why(attemptOf(rows, errors.find((e) => e.status === 504)!))).not.toContain('never saw it');
    for (const r of rows.filter((x) => x.status === 200 || x.status === 500 || x.status === 404)) expect(why(r)).not.toContain('never saw it');
  });
  it('pino-http: the hop\'s 504 is tied to the server\'s "request aborted" line (the request reached the server, which was still at it); the 502 and 503 to nothing', async () => {
    const { rows, notes } = await pair('hop-statuses', 'pino-http.ndjson');
    const gaveUp = attemptOf(rows, errors.find((e) => e.status === 504)!);
    expect(why(gaveUp)).toContain("the server's pino-http line shows this POST reached the server and its connection closed after");
    expect(why(gaveUp)).toContain('"request aborted", test/fixtures/real-audit74/hop-statuses/pino-http.ndjson:5');
    expect(why(gaveUp)).toContain("the status the client got is not the server's but a hop's in between");
    // the tool body did run after the hop had given up (observed: serverRan)
    expect(JSON.stringify(observed('hop-statuses'))).toContain('lookup_order B-slow');
    for (const status of [502, 503]) expect(why(attemptOf(rows, errors.find((e) => e.status === status)!))).not.toContain("the server's pino-http line");
    expect(notes.join('\n')).toContain("3 joined to the client's attempt they tell of (its why says whether the server itself answered it or a hop did)");
  });
  it('pino-http alone: still no call; the aborted line is counted apart from the error statuses', async () => {
    const { rows, notes } = await run([{ path: 'hop-statuses/pino-http.ndjson', side: 'server' }]);
    expect(rows).toEqual([]);
    const all = notes.join('\n');
    expect(all).toContain('1 POST whose connection closed before the server sent any response ("request aborted"; the first at test/fixtures/real-audit74/hop-statuses/pino-http.ndjson:5)');
    expect(all).toMatch(/2 POSTs the server answered with an error \(HTTP 500 x1, HTTP 404 x1|2 POSTs the server answered with an error \(HTTP 404 x1, HTTP 500 x1/);
  });
});

describe('real-audit74 hop-same-status: the hop\'s own 500 sent 60 ms before a call the server answers 500 (near miss)', () => {
  const errors = httpErrors('hop-same-status');
  it('the recording has the hop\'s 500 and 502 and the server\'s 500', () => {
    expect(errors.map((e) => `${e.order} ${e.status}${e.hop ? ' hop' : ''}`).sort()).toEqual(['B-500 500', 'H-500 500 hop', 'H-502 502 hop']);
  });
  it("pino-http: the server's 500 line (122 ms) goes to the server's 500, not to the hop's answered in a few ms", async () => {
    const { rows } = await pair('hop-same-status', 'pino-http.ndjson');
    for (const e of errors) {
      const a = attemptOf(rows, e);
      if (e.hop) expect(why(a)).not.toContain("the server's pino-http line");
      else expect(why(a)).toMatch(/the server's pino-http line shows it answered this POST 500 after \d+ ms \(test\/fixtures\/real-audit74\/hop-same-status\/pino-http\.ndjson:3\)/);
    }
  });
  it('ECS morgan (no duration): its one 500 line goes to one attempt only (which one, no duration tells: a known gap)', async () => {
    const { rows } = await pair('hop-same-status', 'ecs-morgan.ndjson');
    expect(rows.filter((r) => /the server's ECS morgan line/.test(why(r)))).toHaveLength(1);
    expect(rows.filter((r) => r.status === 502 && /ECS morgan/.test(why(r)))).toEqual([]);
  });
});

describe("real-audit74 fastify-errors: Fastify's default logger (no body, no headers) with a 400, a 500 and a 404", () => {
  const errors = observed('fastify-errors').filter((e) => !e.label?.startsWith('terminate') && ((typeof e.error?.code === 'number' && e.error.name === 'StreamableHTTPError') || (e.ok as { status?: number } | undefined)?.status !== undefined));
  const statuses = errors.map((e) => e.error?.code ?? (e.ok as { status: number }).status);
  it('beside the client\'s log: each error status is tied to its "request completed" line', async () => {
    expect(statuses).toEqual([400, 500, 404]);
    const { rows, notes } = await pair('fastify-errors', 'fastify.ndjson');
    for (const status of statuses) {
      const a = rows.filter((r) => r.method === 'tools/call' && r.status === status);
      expect(a).toHaveLength(1);
      expect(why(a[0]!)).toMatch(new RegExp(`the server's Fastify line shows it answered this POST ${status} after [\\d.]+ ms \\(test/fixtures/real-audit74/fastify-errors/fastify\\.ndjson:\\d+\\)`));
    }
    expect(notes.join('\n')).toContain("3 joined to the client's attempt they tell of");
    expect(notes.join('\n')).not.toContain('that no client attempt');
  });
  it("alone: its error handler's line (reqId, req, res, err) is not a second 500", async () => {
    const { rows, notes } = await run([{ path: 'fastify-errors/fastify.ndjson', side: 'server' }]);
    expect(rows).toEqual([]);
    expect(notes.join('\n')).toMatch(/3 POSTs the server answered with an error \(HTTP (400|500|404) x1, HTTP (400|500|404) x1, HTTP (400|500|404) x1; the first at test\/fixtures\/real-audit74\/fastify-errors\/fastify\.ndjson:10\)/);
  });
});

describe('real-audit74 sse-cut: express-winston logs the stream the server dropped as its 200', () => {
  const steps = observed('sse-cut');
  const lines = readFileSync(`${DIR}sse-cut/express-winston.ndjson`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { ms: string; meta: { req: { body?: { method?: string; params?: { name?: string } } }; res: { statusCode: number }; responseTime: number } });
  const cutLine = lines.find((l) => l.meta.req.body?.params?.name === 'cut_stream')!;
  it('the recording: the app timed out after its progress; the server logged 200 with its responseTime, nothing of the cut', () => {
    expect(steps.find((s) => s.label === 'call cut_stream')?.error?.message).toContain('Request timed out');
    expect(cutLine.meta.res.statusCode).toBe(200);
    expect(Object.keys(cutLine.meta.res)).toEqual(['statusCode']);
  });
  it("beside the client's log: the attempt is the client's cut, and its why says the server's 200 tells nothing of it; the healthy call is unchanged", async () => {
    const { rows } = await pair('sse-cut', 'express-winston.ndjson');
    const cut = rows.find((r) => r.tool === 'cut_stream')!;
    expect(cut.outcome).toBe('STREAM_INCOMPLETE');
    expect(cut.serverStatus).toBe(200);
    expect(cut.serverOutcome).toBe('UNANSWERED');
    expect(why(cut)).toContain(`the server's log has this POST as HTTP 200 ended after ${cutLine.meta.responseTime} ms with no body kept, which says nothing of a cut`);
    const ok = rows.find((r) => r.tool === 'lookup_order')!;
    expect(ok.outcome).toBe('TOOL_SUCCESS');
    expect(why(ok)).not.toContain('says nothing of a cut');
  });
  it("alone: the 200 is not read as an answer (UNANSWERED); winston's `ms` (\"+217ms\", the time since its previous line) is not taken for the request's duration", async () => {
    const { rows } = await run([{ path: 'sse-cut/express-winston.ndjson', side: 'server' }]);
    const cut = rows.find((r) => r.tool === 'cut_stream')!;
    expect(cut.outcome).toBe('UNANSWERED');
    expect(cut.durationMs).toBe(cutLine.meta.responseTime);
    expect(cutLine.ms).toMatch(/^\+\d+m?s$/);
    for (const r of rows) expect(['UNANSWERED']).toContain(r.outcome);
  });
});
