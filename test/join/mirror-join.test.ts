// The loose join's mirror: a server log that names no session id beside a client log that names one (a server's message log that leaves it out, mcpsnoop's HTTP trace), on a real recording (real-audit67 v1-hang-retry) with the server's session ids taken out, and its near misses.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = 'test/fixtures/real-audit67/v1-hang-retry/';
const lines = (f: string) => readFileSync(`${DIR}${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
/** The records without any session id (the record's and the headers'), and with `edit` applied. */
function sessionless(records: Record<string, unknown>[], edit: (r: Record<string, unknown>) => void = () => undefined): string {
  const dir = mkdtempSync(join(tmpdir(), 'mirror-'));
  const out = records.map((r) => {
    const c = structuredClone(r);
    c.session = null;
    for (const k of ['requestHeaders', 'responseHeaders']) {
      const h = c[k] as Record<string, string> | undefined;
      if (h) for (const name of Object.keys(h)) if (name.toLowerCase() === 'mcp-session-id') delete h[name];
    }
    edit(c);
    return JSON.stringify(c);
  });
  const f = join(dir, 'server.ndjson');
  writeFileSync(f, `${out.join('\n')}\n`);
  return f;
}
async function run(client: string | undefined, server: string) {
  const r = await analyze({ inputs: [...(client ? [{ path: client, side: 'client' as const }] : []), { path: server, side: 'server' as const }] });
  const rows = r.attempts as unknown as { method: string; id: unknown; outcome: string; serverOutcome?: string; call: string; attempt: number; session: string | null }[];
  return { rows, notes: (r.summary as unknown as { notes: string[] }).notes };
}
const shape = (rows: { method: string; id: unknown; outcome: string; serverOutcome?: string; call: string; attempt: number }[]) => rows.map((a) => `${a.method} ${String(a.id)} ${a.outcome}/${a.serverOutcome ?? '-'} attempt ${a.attempt}`).sort();
const MIRROR = /of a server log that names no session id .* joined to the client's view/;

describe("the loose join's mirror: a server log without session ids beside a client log with them", () => {
  it("joins each request to the client's view as the session ids would have (the same report but the note), and says how", async () => {
    const withIds = await run(`${DIR}client.ndjson`, `${DIR}server.ndjson`);
    const mirrored = await run(`${DIR}client.ndjson`, sessionless(lines('server.ndjson')));
    expect(shape(mirrored.rows)).toEqual(shape(withIds.rows));
    expect(mirrored.rows.every((a) => a.session !== null)).toBe(true); // the client's session is kept
    expect(mirrored.notes.some((n) => MIRROR.test(n))).toBe(true);
    expect(withIds.notes.some((n) => MIRROR.test(n))).toBe(false);
  });

  it('near miss: a server view with other arguments is not the client\'s request: both stand apart', async () => {
    const changed = sessionless(lines('server.ndjson'), (r) => {
      const send = r.send as { method?: string; params?: { arguments?: Record<string, unknown> } } | undefined;
      if (send?.method === 'tools/call' && send.params?.arguments) send.params.arguments.order = 'Z';
    });
    const { rows } = await run(`${DIR}client.ndjson`, changed);
    const calls = rows.filter((a) => a.method === 'tools/call');
    expect(calls.some((a) => a.serverOutcome !== undefined)).toBe(false);
    expect(calls.length).toBe(2 * (await run(`${DIR}client.ndjson`, `${DIR}server.ndjson`)).rows.filter((a) => a.method === 'tools/call').length);
  });

  it('near miss: the sessionless server log alone reads as before, no note; both logs sessionless are joined as before, no mirror note', async () => {
    const server = sessionless(lines('server.ndjson'));
    const alone = await run(undefined, server);
    expect(alone.notes.some((n) => MIRROR.test(n))).toBe(false);
    expect(alone.rows.length).toBe((await run(undefined, `${DIR}server.ndjson`)).rows.length);
    const both = await run(sessionless(lines('client.ndjson')), server);
    expect(both.notes.some((n) => MIRROR.test(n))).toBe(false);
    expect(shape(both.rows)).toEqual(shape((await run(`${DIR}client.ndjson`, `${DIR}server.ndjson`)).rows));
  });

  it("a JSON-RPC message log given as the server's (real-audit24/ts jsonrpc.jsonl) beside the client's capture: each call once, and its missing answer to an HTTP error is no divergence", async () => {
    const d = 'test/fixtures/real-audit24/ts/';
    const alone = await analyze({ inputs: [{ path: `${d}client.ndjson`, side: 'client' }] });
    const r = await analyze({ inputs: [{ path: `${d}client.ndjson`, side: 'client' }, { path: `${d}jsonrpc.jsonl`, side: 'server' }] });
    expect(r.attempts.length).toBe(alone.attempts.length);
    expect((r.summary as unknown as { notes: string[] }).notes.some((n) => MIRROR.test(n))).toBe(true);
    const errors = (r.attempts as unknown as { outcome: string; status: number | null }[]).filter((a) => a.outcome === 'HTTP_ERROR');
    expect(errors.map((a) => a.status).sort()).toEqual([404, 500, 503]);
    const all = [...r.findings, ...r.attempts.flatMap((a) => a.findings)] as { code: string; message: string }[];
    expect(all.filter((f) => f.code === 'SIDE_DIVERGENCE' && /HTTP_ERROR/.test(f.message))).toEqual([]);
  });

  it.each(['fastify-slow-tool', 'fastify-tool-error'])("real-audit70/%s: Fastify's logger with bodies and no headers (no session id) joins the client's calls, each once with both views", async (name) => {
    const d = `test/fixtures/real-audit70/${name}/`;
    const alone = await analyze({ inputs: [{ path: `${d}client.ndjson`, side: 'client' }] });
    const r = await analyze({ inputs: [{ path: `${d}client.ndjson`, side: 'client' }, { path: `${d}fastify.ndjson`, side: 'server' }] });
    expect(r.attempts.length).toBe(alone.attempts.length);
    const calls = (r.attempts as unknown as { method: string; serverOutcome?: string }[]).filter((a) => a.method === 'tools/call');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((a) => a.serverOutcome !== undefined)).toBe(true);
  });
});

