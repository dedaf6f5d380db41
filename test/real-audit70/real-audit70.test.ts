// Audit 70's real captures (test/fixtures/real-audit70): the JSON HTTP loggers real servers use (pino-http, @elastic/ecs-pino-format, express-winston with ECS winston, ECS morgan, Fastify's own logger, an Elasticsearch export) around SDK 1.32.2 servers, judged against what the client app saw (observed.json) and the client's recordingFetch log.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit70/';
const RUNS = readdirSync(DIR).filter((d) => !d.includes('.'));
const EXPRESS = RUNS.filter((r) => !r.startsWith('fastify-'));
/** Fastify runs with the preHandler hook of Fastify's Logging docs that logs the body (fastify-tool-ok keeps the default logger). */
const FASTIFY_BODY = ['fastify-tool-error', 'fastify-slow-tool', 'fastify-session-lost'];
/** The loggers that log the request body: read as http-line. */
const WITH_BODY = ['pino-http-body.ndjson', 'express-winston-ecs.ndjson'];
/** The loggers as their READMEs set them up, with no body: nothing MCP-level in them. */
const BODILESS = ['pino-http.ndjson', 'ecs-pino.ndjson', 'ecs-morgan.ndjson'];

type Row = { session: string | null; id: unknown; method: string; tool: string | null; status: number | null; outcome: string; side: string; ts?: string; call?: string; attempt?: number; durationMs?: number; serverOutcome?: string; serverStatus?: number | null; findings: { code: string; message: string }[]; detail?: { why?: string } };
type Step = { label?: string; ok?: unknown; error?: { name: string; message: string; code?: number } };

const steps = (run: string): Step[] => (JSON.parse(readFileSync(`${DIR}${run}/observed.json`, 'utf8')) as Step[]).filter((s) => s.label !== undefined && !s.label.startsWith('terminate') && !s.label.startsWith('GET /health') && !s.label.startsWith('list tools'));

async function run(sides: { client?: string; server?: string }) {
  const inputs = [
    ...(sides.client ? [{ path: `${DIR}${sides.client}`, side: 'client' as const }] : []),
    ...(sides.server ? [{ path: `${DIR}${sides.server}`, side: 'server' as const }] : []),
  ];
  const r = await analyze({ inputs });
  const summary = r.summary as unknown as { notes: string[]; inputs: { name: string; formats: Record<string, number>; used: number; skipped: number; unusable: number }[] };
  const rows = r.attempts as unknown as Row[];
  return { rows, calls: rows.filter((x) => x.method !== 'initialize' && x.method !== 'tools/list'), inputs: summary.inputs, notes: summary.notes, findings: r.findings as unknown as { code: string; message: string }[], all: JSON.stringify(r) };
}

/** What the app saw, as the outcome of the attempt that carried it. */
function outcomeOf(s: Step): string {
  if (s.ok && typeof s.ok === 'object' && 'isError' in s.ok) return (s.ok as { isError: boolean }).isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
  if (s.ok && typeof s.ok === 'object' && 'status' in s.ok) return 'HTTP_ERROR'; // the app's own POST without a session: 400
  if (s.error?.name === 'StreamableHTTPError') return 'HTTP_ERROR';
  if (s.error?.name === 'McpError' && /timed out/.test(s.error.message)) return 'STREAM_INCOMPLETE';
  if (s.error?.name === 'McpError') return 'JSONRPC_ERROR';
  throw new Error(`unexpected step ${JSON.stringify(s)}`);
}
/** The HTTP status the server sent for the step's request. */
function statusOf(s: Step): number {
  if (s.ok && typeof s.ok === 'object' && 'status' in s.ok) return (s.ok as { status: number }).status;
  if (s.error?.name === 'StreamableHTTPError') return s.error.code!;
  if (/^Streamable HTTP error: Error POSTing to endpoint: <!DOCTYPE html>/.test(s.error?.message ?? '')) return 500;
  return 200;
}
const ms = (t: string | undefined) => Date.parse(t!);

describe('real-audit70: the client\'s recordingFetch log is the truth of the wire', () => {
  it.each(EXPRESS)('%s: each call reads as what the app got', async (name) => {
    const { calls } = await run({ client: `${name}/client.ndjson` });
    expect(calls.map((c) => c.outcome)).toEqual(steps(name).map(outcomeOf));
  });
});

describe.each(WITH_BODY)('real-audit70: the server\'s %s, read alone', (file) => {
  it.each(EXPRESS)('%s: every request is read (http-line), with the status the server sent, its session, and no unusable line', async (name) => {
    const { calls, inputs } = await run({ server: `${name}/${file}` });
    expect(inputs[0]!.formats).toHaveProperty('http-line');
    expect(inputs[0]!.unusable).toBe(0);
    const want = steps(name);
    expect(calls.map((c) => c.status)).toEqual(want.map(statusOf));
    for (const [i, c] of calls.entries()) {
      const status = statusOf(want[i]!);
      if (status >= 400) expect(c.outcome).toBe('HTTP_ERROR');
      else if (file === 'pino-http-body.ndjson' && name === 'sse-cut') expect([c.outcome, c.findings.map((f) => f.code)]).toEqual(['STREAM_INCOMPLETE', ['NO_FINAL_RESULT', 'CANCELLED']]);
      else expect(c.outcome).toBe('UNANSWERED');
      if (name !== 'bad-request') expect(c.session).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it.each(EXPRESS)('%s: each request starts when the client sent it (the line\'s time less the duration), not when the response finished', async (name) => {
    const server = (await run({ server: `${name}/${file}` })).calls;
    const client = (await run({ client: `${name}/client.ndjson` })).calls;
    for (const s of server) {
      const c = client.find((x) => x.id === s.id && x.session === s.session)!;
      expect(ms(s.ts) - ms(c.ts)).toBeGreaterThanOrEqual(0);
      expect(ms(s.ts) - ms(c.ts)).toBeLessThan(60);
    }
  });

  it.each(EXPRESS)('%s: given beside the client\'s log, each call keeps the client\'s outcome, joined with the server\'s status, no divergence', async (name) => {
    const { rows, calls, findings } = await run({ client: `${name}/client.ndjson`, server: `${name}/${file}` });
    expect(calls.map((c) => c.outcome)).toEqual(steps(name).map(outcomeOf));
    // every initialize joined, express-winston's too (its lines keep no response headers: the session is the client's)
    expect(rows.filter((r) => r.method === 'initialize').map((r) => [r.side, r.serverOutcome])).toEqual(rows.filter((r) => r.method === 'initialize').map(() => ['client', 'UNANSWERED']));
    expect(calls.map((c) => c.serverStatus)).toEqual(steps(name).map(statusOf));
    expect(findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
  });

  it.each(EXPRESS)('%s: the Authorization header every logger wrote is redacted', async (name) => {
    const { all } = await run({ client: `${name}/client.ndjson`, server: `${name}/${file}` });
    expect(all).not.toContain('sk-audit70-secret');
  });
});

describe('real-audit70: timing and order of lines logged when the response finished', () => {
  it('slow-tool: the 3 s call sent first starts first, though its line comes after the fast call\'s; nothing said out of order', async () => {
    for (const file of WITH_BODY) {
      const { calls, all } = await run({ server: `slow-tool/${file}` });
      expect(calls.map((c) => c.tool)).toEqual(['slow_report', 'lookup_order']);
      expect(calls[0]!.durationMs).toBeGreaterThan(2900);
      expect(ms(calls[0]!.ts)).toBeLessThan(ms(calls[1]!.ts));
      expect(all).not.toContain('not-time-ordered');
    }
  });

  it.each(['session-lost/pino-http-body.ndjson', 'session-lost/express-winston-ecs.ndjson', 'fastify-session-lost/fastify.ndjson'])('%s: the 404 of the forgotten session is SESSION_EXPIRED, and the client re-initialized (express-winston and Fastify keep no response headers: the initialize\'s session is not in the log)', async (path) => {
    const { findings } = await run({ server: path });
    expect(findings.filter((f) => f.code === 'SESSION_EXPIRED').map((f) => f.message)).toEqual([expect.stringMatching(/HTTP 404 to tools\/call lookup_order .*; the client re-initialized and retried the call/)]);
  });
});

describe('real-audit70: an Elasticsearch export of the ECS winston log (hits one a line, newest first)', () => {
  it('reads as the log it came from, from the last line back, with the same calls at the same start times', async () => {
    const exported = await run({ server: 'slow-tool/elastic-export.ndjson' });
    const log = await run({ server: 'slow-tool/express-winston-ecs.ndjson' });
    expect(exported.notes.join('\n')).toMatch(/its lines run newest first/);
    const pick = (rows: Row[]) => rows.map((r) => [r.method, r.tool, r.status, r.ts, r.outcome]);
    expect(pick(exported.rows)).toEqual(pick(log.rows));
    expect(exported.all).not.toContain('sk-audit70-secret');
  });
});

describe('real-audit70: loggers set up as their READMEs show, without the body', () => {
  it.each(EXPRESS.flatMap((r) => BODILESS.map((f) => `${r}/${f}`)).concat(['fastify-tool-ok/fastify.ndjson']))('%s: no call is made up; the note says to log the body', async (path) => {
    const { rows, notes } = await run({ server: path });
    expect(rows).toEqual([]);
    expect(notes.join('\n')).toMatch(/an HTTP logger's line of a POST without the request body/);
  });
});

describe('real-audit70: Fastify\'s own logger with the body its Logging docs log ("parsed body"), read alone', () => {
  it.each(FASTIFY_BODY)('%s: each request is one exchange of its reqId\'s lines: the status the server sent, started when the client sent it', async (name) => {
    const { calls, inputs } = await run({ server: `${name}/fastify.ndjson` });
    const client = (await run({ client: `${name}/client.ndjson` })).calls;
    expect(inputs[0]!.formats).toHaveProperty('http-line');
    expect(inputs[0]!.unusable).toBe(0);
    expect(calls.map((c) => c.status)).toEqual(steps(name).map(statusOf));
    expect(calls.map((c) => [c.method, c.tool])).toEqual(client.map((c) => [c.method, c.tool]));
    for (const [i, s] of calls.entries()) {
      expect(ms(s.ts) - ms(client[i]!.ts)).toBeGreaterThanOrEqual(0);
      expect(ms(s.ts) - ms(client[i]!.ts)).toBeLessThan(60);
    }
  });

  it('fastify-session-lost (the docs\' req serializer logs the headers, Authorization redacted by pino): beside the client\'s log, each call keeps the client\'s outcome with the server\'s status', async () => {
    const { rows, calls, findings, all } = await run({ client: 'fastify-session-lost/client.ndjson', server: 'fastify-session-lost/fastify.ndjson' });
    expect(calls.map((c) => c.outcome)).toEqual(steps('fastify-session-lost').map(outcomeOf));
    expect(rows.filter((r) => r.method === 'initialize').map((r) => [r.side, r.serverOutcome])).toEqual([['client', 'UNANSWERED'], ['client', 'UNANSWERED']]);
    expect(calls.map((c) => c.serverStatus)).toEqual(steps('fastify-session-lost').map(statusOf));
    expect(findings.map((f) => f.code)).not.toContain('SIDE_DIVERGENCE');
    expect(all).not.toContain('sk-audit70-secret');
  });
});

