// The seventieth audit's body-less server HTTP-logger lines (pino-http, @elastic/ecs-pino-format, ECS morgan, Fastify's default) beside the client's log: an error status tied to the client's attempt of it, a healthy pair and a log alone unchanged but for the note.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit70/';
const BODILESS: [string, string][] = [['pino-http.ndjson', 'pino-http'], ['ecs-pino.ndjson', '@elastic/ecs-pino-format'], ['ecs-morgan.ndjson', 'ECS morgan']];
/** Runs where the server itself answered a call's POST with an error, the status, and the line of it in every body-less log. */
const FAILED: [string, number, number][] = [['server-500', 500, 3], ['session-lost', 404, 5], ['bad-request', 400, 1]];
const HEALTHY = ['tool-ok', 'tool-error', 'jsonrpc-error', 'slow-tool', 'sse-cut'];

type Row = { method: string; status: number | null; outcome: string; detail?: { why?: string } };

async function triage(client: string | undefined, server: string) {
  const inputs = [...(client ? [{ path: `${DIR}${client}`, side: 'client' as const }] : []), { path: `${DIR}${server}`, side: 'server' as const }];
  const r = await analyze({ inputs });
  const summary = r.summary as unknown as { notes: string[]; inputs: { used: number; skipped: number; unusable: number }[] };
  return { rows: r.attempts as unknown as Row[], notes: summary.notes, inputs: summary.inputs };
}

describe('real-audit70: a body-less server logger\'s error line beside the client\'s log', () => {
  for (const [name, status, line] of FAILED) {
    it.each(BODILESS)(`${name}/%s: the client's ${status} attempt names the server's line (the server itself answered it)`, async (file, logger) => {
      const { rows, notes } = await run_(name, file);
      const failed = rows.filter((r) => r.status === status);
      expect(failed).toHaveLength(1);
      const why = failed[0]!.detail?.why ?? '';
      expect(why).toContain(`the server's ${logger} line shows it answered this POST ${status}`);
      expect(why).toContain(`(${DIR}${name}/${file}:${line})`);
      expect(why).not.toContain("nginx's access log");
      if (logger === 'pino-http') expect(why).toMatch(/after \d+(\.\d+)? ms/);
      // no attempt of another status is given the line
      expect(rows.filter((r) => r.status !== status && /server's .* line shows/.test(r.detail?.why ?? ''))).toEqual([]);
      expect(notes.join('\n')).toContain('1 joined to the client\'s attempt it tells of');
    });
  }
  it("near miss: another run's error line (another status, another session, minutes away) is taken by no attempt, and counted in the note", async () => {
    const { rows, notes } = await run_('server-500', 'pino-http.ndjson', 'session-lost/pino-http.ndjson');
    expect(rows.some((r) => /server's pino-http line/.test(r.detail?.why ?? ''))).toBe(false);
    expect(notes.join('\n')).toMatch(/1 POST the server answered with an error \(HTTP 404 x1; the first at .*session-lost\/pino-http\.ndjson:5\) that no client attempt/);
  });
  it.each(HEALTHY.flatMap((r) => BODILESS.map(([f]) => `${r}/${f}`)).concat(['fastify-tool-ok/fastify.ndjson']))('%s (healthy): no attempt changes, no note of error lines', async (path) => {
    const name = path.split('/')[0]!;
    const beside = await run_(name, path.split('/')[1]!);
    const alone = await analyze({ inputs: [{ path: `${DIR}${name}/client.ndjson`, side: 'client' }] });
    const strip = (rows: Row[]) => rows.map((r) => ({ method: r.method, status: r.status, outcome: r.outcome, why: r.detail?.why }));
    expect(strip(beside.rows)).toEqual(strip(alone.attempts as unknown as Row[]));
    expect(beside.notes.join('\n')).not.toContain("the server's HTTP logger's body-less POST lines");
  });
});

describe('real-audit70: a body-less server logger alone', () => {
  for (const [name, status, line] of FAILED) {
    it.each(BODILESS)(`${name}/%s: still no call; the note names its ${status} line`, async (file) => {
      const { rows, notes, inputs } = await triage(undefined, `${name}/${file}`);
      expect(rows).toEqual([]);
      expect(inputs[0]!.used).toBe(0);
      expect(inputs[0]!.unusable).toBe(0);
      const all = notes.join('\n');
      expect(all).toContain('a call is read from its JSON-RPC body, so log it');
      expect(all).toContain(`HTTP ${status} x1; the first at ${DIR}${name}/${file}:${line}`);
    });
  }
});

/** The pair of a run: its client's log and the server logger's (or another run's, for a near miss). */
function run_(name: string, file: string, server = `${name}/${file}`) {
  return triage(`${name}/client.ndjson`, server);
}
