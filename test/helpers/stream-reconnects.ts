// The checks of the out-of-order reconnect audits (test/real-audit81, test/real-audit82): each call against observed.json, with each GET known by the stream the SDK reconnected.
// Every request the SDK sent carries the stream it opened or reconnected (a header: `<call>#post`, `<call>#get<n>`,
// `std#get<n>` for the standalone stream), known from inside the SDK, in both logs. So each GET of a log is known by
// the call whose stream it reconnected, and the checks need no reading of times:
//   - each call's outcome is what its app got: a result -> TOOL_SUCCESS; the SDK's timeout -> STREAM_INCOMPLETE with
//     NO_FINAL_RESULT (only there);
//   - every record of a GET an attempt names among its sources is a GET of that call's stream, and every GET with
//     Last-Event-ID of that call is among them;
//   - the plain GETs (no Last-Event-ID) that NO_FINAL_RESULT says the client reconnected that call's stream with are
//     that call's, with their statuses, in order (none when it had none): in the client's view and the joined view.
//     (The server's log alone cannot tell: a resumption's replayed events the hop dropped read there as delivered.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

type Wire = { at: number; what: string; tag: string; stream?: string; lastEventId?: string | null; status?: number };
type Call = { key: string; id: number; ok: boolean; text?: string; error?: { code?: number | string } };
type Obs = { calls: Call[]; wire: Wire[] };

const VIEWS: [string, string[]][] = [['client', ['client.ndjson']], ['joined', ['client.ndjson', 'server.ndjson']]];

/** client.ndjson's lines by number: the stream tag (request header `header`) of the exchange each line belongs to (GETs only). */
function getTags(dir: string, header: string): Map<number, string> {
  const tagOf = new Map<string, string>();
  const out = new Map<number, string>();
  readFileSync(`${dir}/client.ndjson`, 'utf8').split('\n').forEach((l, i) => {
    if (!l) return;
    const r = JSON.parse(l) as { kind: string; xid: string; method?: string; requestHeaders?: Record<string, string> };
    if (r.kind === 'request' && r.method === 'GET') tagOf.set(r.xid, r.requestHeaders?.[header] ?? '?');
    const tag = tagOf.get(r.xid);
    if (tag) out.set(i + 1, tag);
  });
  return out;
}

/** The statuses NO_FINAL_RESULT gives the plain GETs it says reconnected the call's stream ([] when it names none). */
function plainStatuses(message: string): number[] {
  const m = /reconnected without Last-Event-ID[^;]*?(?:a plain GET|\d+ plain GETs) for the session's standalone stream, answered (.*?), which could not deliver it/.exec(message);
  return m ? [...m[1]!.matchAll(/HTTP (\d+)/g)].map((x) => Number(x[1])) : [];
}

/** The checks, per scenario folder of `root` (each with client.ndjson, server.ndjson, observed.json), as `name`'s tests. */
export function describeReconnects(name: string, root: string, scenarios: readonly string[], header: string): void {
  describe.each(scenarios)(`${name} %s`, (scenario) => {
    const dir = `${root}${scenario}`;
    const o = JSON.parse(readFileSync(`${dir}/observed.json`, 'utf8')) as Obs;
    const tags = getTags(dir, header);
    const gets = (key: string) => o.wire.filter((w) => w.what === 'get' && w.tag.startsWith(`${key}#get`));

    it.each(VIEWS)('%s view: each call as its app saw it, its GETs and only its own joined to it', async (_view, files) => {
      const r = await analyze({ inputs: files.map((f) => ({ path: `${dir}/${f}` })) });
      for (const call of o.calls) {
        const rows = r.attempts.filter((a) => a.method === 'tools/call' && a.id === call.id);
        expect(rows, `${call.key}: one attempt`).toHaveLength(1);
        const a = rows[0]!;
        const nfr = a.findings.filter((f) => f.code === 'NO_FINAL_RESULT');
        if (call.ok) {
          expect(a.outcome, call.key).toBe('TOOL_SUCCESS');
          expect(nfr, call.key).toHaveLength(0);
        } else {
          expect([-32001, 'REQUEST_TIMEOUT']).toContain(call.error?.code);
          expect(a.outcome, call.key).toBe('STREAM_INCOMPLETE');
          expect(nfr, call.key).toHaveLength(1);
        }
        const named = new Set(a.sources.filter((s) => s.file.endsWith('client.ndjson')).map((s) => tags.get(s.line)).filter((t): t is string => t !== undefined));
        for (const t of named) expect(t.startsWith(`${call.key}#get`), `${call.key} names ${t}`).toBe(true);
        for (const g of gets(call.key).filter((g) => g.lastEventId)) expect(named.has(g.tag), `${call.key}: ${g.tag} joined`).toBe(true);
        const plain = gets(call.key).filter((g) => !g.lastEventId).map((g) => g.status);
        expect(nfr.length ? plainStatuses(nfr[0]!.message) : [], `${call.key}: its plain GETs`).toEqual(plain);
      }
      // GET_STREAM_REFUSED per status: says the refusals came right after a broken resumption (each of them) when every
      // GET so refused was a call's plain reconnect, and says nothing of it when none was (the standalone stream's own).
      for (const f of r.findings.filter((x) => x.code === 'GET_STREAM_REFUSED')) {
        const status = Number(/HTTP (\d+) to the client's GET stream/.exec(f.message)?.[1]);
        const refused = o.wire.filter((w) => w.what === 'get' && !w.lastEventId && w.status === status);
        const calls = refused.filter((w) => !w.tag.startsWith('std#'));
        if (refused.length > 0 && calls.length === refused.length) expect(f.message).toMatch(/(each|it) came right after a GET resuming a call's stream/);
        if (calls.length === 0) expect(f.message).not.toMatch(/came right after a GET resuming/);
      }
      expect(r.findings.filter((x) => x.code === 'UNSAFE_RETRY')).toHaveLength(0);
    });
  });
}
