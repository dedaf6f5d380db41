// Tests for newest-first inputs: the order probe, the backward spool, ties at one time, and whole runs on reversed real recordings.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { OrderProbe, PROBE_BYTES, PROBE_LINES } from '../../src/read/order-probe.js';
import { BackwardSpool } from '../../src/read/backward-spool.js';

const BIN = fileURLToPath(new URL('../../dist/bin.cjs', import.meta.url));
const REAL = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcp-triage-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const probeOf = (times: (number | undefined)[]) => {
  const p = new OrderProbe();
  for (const t of times) p.note(t);
  return p;
};

describe('order probe', () => {
  it('settles early on 16 steps one way against at most a quarter as many the other way', () => {
    expect(probeOf(Array.from({ length: 17 }, (_, i) => i)).settled()).toBe('oldest-first');
    expect(probeOf(Array.from({ length: 17 }, (_, i) => -i)).settled()).toBe('newest-first');
    expect(probeOf(Array.from({ length: 10 }, (_, i) => -i)).settled()).toBeUndefined();
  });

  it('reads a short or mixed input as written unless its times mostly go back', () => {
    expect(probeOf([3, 2, 1]).verdict()).toBe('newest-first');
    expect(probeOf([1, 2, 3]).verdict()).toBe('oldest-first');
    expect(probeOf([5, 5, 5]).verdict()).toBe('oldest-first'); // ties teach nothing
    expect(probeOf([undefined, undefined]).verdict()).toBe('oldest-first');
    // Jitter in an oldest-first log: a step back now and then.
    expect(probeOf([1, 3, 2, 4, 6, 5, 7, 8]).verdict()).toBe('oldest-first');
    // Mostly back, with a few ties and untimed lines between.
    expect(probeOf([9, undefined, 8, 8, 7, 6, 7, 5, 4, 3, 2]).verdict()).toBe('newest-first');
  });

  it("whole exchanges written as each ended, exported newest first: their ends run back though their starts go both ways", () => {
    // Starts of concurrent calls in end order: 10, 4, 12, 6, ...; each ends 1 s after the one before it ends.
    const exchanges = Array.from({ length: 24 }, (_, i) => ({ start: 1000 * i - (i % 2 ? 5000 : 0), end: 1000 * i + 500 }));
    const probe = (list: typeof exchanges) => {
      const p = new OrderProbe();
      for (const e of list) p.note(e.start, 0, e.end);
      return p;
    };
    expect(probe([...exchanges].reverse()).settled()).toBe('newest-first');
    expect(probe([...exchanges].reverse().slice(0, 6)).verdict()).toBe('newest-first');
    // Must not: the file as written (end order) is oldest first, though its starts go back at every other line (held
    // to the end of the probe, as its starts settle nothing early).
    expect(probe(exchanges).settled()).toBeUndefined();
    expect(probe(exchanges).verdict()).toBe('oldest-first');
    expect(probe(exchanges.slice(0, 6)).verdict()).toBe('oldest-first');
    // Must not: starts that clearly run forward win over ends (a DevTools export: start order, long streams among them).
    const devtools = Array.from({ length: 20 }, (_, i) => ({ start: i * 100, end: i % 2 ? 100_000 - i : i * 100 + 50 }));
    expect(probe(devtools).verdict()).toBe('oldest-first');
  });

  it('gives its verdict after PROBE_LINES lines, or PROBE_BYTES of line text, at the latest (the lines are held meanwhile)', () => {
    const alternating = Array.from({ length: PROBE_LINES }, (_, i) => (i % 2 ? 1 : 2));
    expect(probeOf(alternating).settled()).toBe('oldest-first');
    const big = new OrderProbe();
    for (let i = 0; i < 8; i++) big.note(10 - i, PROBE_BYTES / 8);
    expect(big.settled()).toBe('newest-first');
    const almost = new OrderProbe();
    for (let i = 0; i < 7; i++) almost.note(10 - i, PROBE_BYTES / 8);
    expect(almost.settled()).toBeUndefined();
  });
});

describe('backward spool', () => {
  it('gives the lines back last first, with their line numbers, across segments, and removes its file', async () => {
    const spool = await BackwardSpool.create();
    const lines = Array.from({ length: 3000 }, (_, i) => ({ lineNo: i * 2 + 1, text: `{"n":${i},"pad":"${'é\t'.repeat(200)}"}` }));
    for (const l of lines) await spool.add(l);
    expect(spool.spooledBytes).toBeGreaterThan(1 << 20); // more than one segment
    const back: { lineNo: number; text: string }[] = [];
    let batches = 0;
    for await (const batch of spool.backward()) {
      batches++;
      back.push(...batch);
    }
    expect(batches).toBeGreaterThan(1);
    expect(back).toEqual([...lines].reverse());
    expect(existsSync(spool.dir)).toBe(true);
    await spool.dispose();
    expect(existsSync(spool.dir)).toBe(false);
  });
});

interface Row { type: string; sources?: unknown; [k: string]: unknown }
function run(args: string[], input?: Buffer): { rows: Row[]; summary: Row & { notes: string[] }; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, '--format', 'ndjson', ...args], { input, encoding: 'buffer', timeout: 30_000 });
  const rows = r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
  return { rows: rows.filter((x) => x.type !== 'summary'), summary: rows.find((x) => x.type === 'summary') as Row & { notes: string[] }, stderr: r.stderr.toString('utf8') };
}
/** The analysis without where it was read, in a fixed order. */
const verdictOf = (rows: Row[]) => rows.map(({ sources: _s, ...rest }) => JSON.stringify(rest)).sort();
const reversedCopy = (file: string, name: string) => {
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const out = join(dir, name);
  writeFileSync(out, `${lines.reverse().join('\n')}\n`);
  return out;
};

describe('a newest-first log is read from its last line back', () => {
  it('a HAR written as each exchange ended, exported newest first (a log platform sorts by when it took each line in): the same report as the file as written', async () => {
    const har = fileURLToPath(new URL('../fixtures/real-chaos/streams-seed-8/capture.har.ndjson.gz', import.meta.url));
    const lines = gunzipSync(readFileSync(har)).toString('utf8').trim().split('\n');
    const asWritten = join(dir, 'seed8.har.ndjson');
    const reversed = join(dir, 'seed8-newest-first.har.ndjson');
    writeFileSync(asWritten, lines.join('\n') + '\n');
    writeFileSync(reversed, [...lines].reverse().join('\n') + '\n');
    const want = run([asWritten]);
    const got = run([reversed]);
    expect(verdictOf(got.rows)).toEqual(verdictOf(want.rows));
    expect(got.summary.notes.filter((n) => n.includes('newest first'))).toHaveLength(1);
    expect(got.summary.diagnostics.total).toBe(0);
  });

  for (const scenario of ['sse-resumed-last-event-id', 'session-expired-404-reinit', 'http-503-app-retry', 'elicitation-roundtrip']) {
    it(`${scenario}, both sides reversed: the same attempts and findings as written, and a note`, () => {
      const client = REAL + `${scenario}.client.ndjson`;
      const server = REAL + `${scenario}.server.ndjson`;
      const want = run(['--client', client, '--server', server]);
      const got = run(['--client', reversedCopy(client, `${scenario}.c`), '--server', reversedCopy(server, `${scenario}.s`)]);
      expect(verdictOf(got.rows)).toEqual(verdictOf(want.rows));
      expect(got.summary.notes.filter((n) => n.includes('newest first'))).toHaveLength(2);
      expect(want.summary.notes.some((n) => n.includes('newest first'))).toBe(false);
    });
  }

  it('gzipped on stdin too (spooled, then read back), with line numbers of the input as given', () => {
    const client = REAL + 'http-503-app-retry.client.ndjson';
    const lines = readFileSync(client, 'utf8').split('\n').filter(Boolean).reverse();
    lines.splice(3, 0, '{"broken json');
    const got = run(['--client', '-'], gzipSync(`${lines.join('\n')}\n`));
    expect(verdictOf(got.rows)).toEqual(verdictOf(run(['--client', client]).rows));
    expect(got.stderr).toContain('<stdin>:4: invalid JSON');
    expect(got.summary.notes).toContain('<stdin>: its lines run newest first (as log platforms export them); it was read from the last line back');
  });

  it('a long newest-first log goes through the temporary file: same analysis as the log as written', () => {
    const client = REAL + 'baseline.client.ndjson';
    const lines = readFileSync(client, 'utf8').split('\n').filter(Boolean);
    // Forty copies of the baseline, an hour apart, with their own xids and sessions: thousands of lines, newest first.
    const copies: string[] = [];
    for (let k = 0; k < 40; k++) {
      for (const l of lines) {
        const r = JSON.parse(l) as Record<string, unknown>;
        r.ts = new Date(Date.parse(r.ts as string) + k * 3_600_000).toISOString();
        if (typeof r.xid === 'string') r.xid = `${k}-${r.xid}`;
        if (typeof r.session === 'string') r.session = `${k}-${r.session}`;
        copies.push(JSON.stringify(r));
      }
    }
    const forward = join(dir, 'long.forward.ndjson');
    writeFileSync(forward, `${copies.join('\n')}\n`);
    const backward = join(dir, 'long.backward.ndjson');
    writeFileSync(backward, `${[...copies].reverse().join('\n')}\n`);
    const want = run(['--client', forward]);
    const got = run(['--client', backward]);
    expect(want.rows.length).toBeGreaterThan(100);
    expect(verdictOf(got.rows)).toEqual(verdictOf(want.rows));
    expect(got.summary.notes.some((n) => n.includes('newest first'))).toBe(true);
  });

  it('when no temporary file can be made, says so and how to go on (exit 2)', () => {
    const client = REAL + 'http-503-app-retry.client.ndjson';
    const r = spawnSync(process.execPath, [BIN, '--input-order', 'newest-first', '--client', reversedCopy(client, 'no-tmp.c')], { encoding: 'utf8', env: { ...process.env, TMPDIR: join(dir, 'no', 'such', 'folder') } });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/its lines run newest first, and reading it backwards needs a temporary file, which could not be made in .*no\/such\/folder \(ENOENT\); set TMPDIR to a writable folder, or read it as written with --input-order oldest-first/);
  });

  it('--input-order oldest-first reads it as written (and the calls come out broken); newest-first forces the reversal', () => {
    const client = REAL + 'http-503-app-retry.client.ndjson';
    const reversed = reversedCopy(client, 'forced.c');
    const want = verdictOf(run(['--client', client]).rows);
    expect(verdictOf(run(['--client', reversed, '--input-order', 'oldest-first']).rows)).not.toEqual(want);
    expect(verdictOf(run(['--client', reversed, '--input-order', 'newest-first']).rows)).toEqual(want);
    expect(verdictOf(run(['--client', client, '--input-order', 'newest-first']).rows)).not.toEqual(want);
  });
});

describe('records logged at the same millisecond', () => {
  const t = '2026-10-17T10:00:00.000Z';
  const req = { v: 1, kind: 'request', ts: t, side: 'client', xid: 'x1', method: 'POST', send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find' } } };
  const res = { v: 1, kind: 'response', ts: t, side: 'client', xid: 'x1', status: 200, responseHeaders: { 'content-type': 'application/json' } };
  const end = { v: 1, kind: 'end', ts: t, side: 'client', xid: 'x1', end: 'complete', recvText: '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}' };
  const outcomes = (records: object[]) => {
    const file = join(dir, `ties-${Math.random().toString(36).slice(2)}.ndjson`);
    writeFileSync(file, records.map((r) => JSON.stringify(r)).join('\n'));
    return run([file]).rows.map((r) => `${String(r.id)} ${String(r.outcome)}`);
  };

  it('are put back in the order they happened: request, response head, body end', () => {
    expect(outcomes([req, res, end])).toEqual(['1 TOOL_SUCCESS']);
    expect(outcomes([end, res, req])).toEqual(['1 TOOL_SUCCESS']);
    expect(outcomes([res, end, req])).toEqual(['1 TOOL_SUCCESS']);
  });

  it('with other calls logged at the same millisecond between them, and without moving those calls', () => {
    const other = (xid: string, id: number) => [
      { ...req, xid, send: { ...req.send, id } }, { ...res, xid }, { ...end, xid, recvText: `{"jsonrpc":"2.0","id":${id},"result":{"content":[]}}` },
    ];
    const [r2, s2, e2] = other('x2', 2);
    expect(outcomes([end, r2, res, s2, req, e2]).sort()).toEqual(['1 TOOL_SUCCESS', '2 TOOL_SUCCESS']);
  });

  it('a request logged at the same millisecond as the end of an earlier request with the same id is not moved before that end', () => {
    // Two calls one after the other, the second reusing the id the instant the first ended: no overlap, no ID_REUSED.
    const second = { ...req, xid: 'x2' };
    const file = join(dir, 'same-ms-reuse.ndjson');
    writeFileSync(file, [req, res, end, second, { ...res, xid: 'x2' }, { ...end, xid: 'x2' }].map((r) => JSON.stringify(r)).join('\n'));
    const rows = run([file]).rows;
    expect(rows.map((r) => String(r.outcome))).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
    expect(JSON.stringify(rows)).not.toContain('ID_REUSED');
  });

  it('but a response a millisecond before its request stays where the log put it', () => {
    expect(outcomes([{ ...res, ts: '2026-10-17T09:59:59.999Z' }, req, end])).not.toEqual(['1 TOOL_SUCCESS']);
  });
});
