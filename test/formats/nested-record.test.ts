// A record of a known format inside an envelope no reader knows: found up to two fields down and read as --unwrap would, or left alone when it cannot be told.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mcpt-nested-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof analyze>>;
const rows = (r: Result) => r.attempts.map((a) => `${a.ts} ${a.session} #${String(a.id)} ${a.method} ${a.tool ?? ''} ${a.outcome} [${a.findings.map((f) => f.code).sort().join(',')}]`);
const SAMPLE = 'samples/client.ndjson';
const records = readFileSync(SAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const write = (name: string, wrap: (r: Record<string, unknown>, i: number) => unknown) => {
  const path = join(dir, name);
  writeFileSync(path, records.map((r, i) => JSON.stringify(wrap(r, i))).join('\n') + '\n');
  return path;
};
const run = (path: string, unwrap?: string) => analyze({ inputs: [{ path }], onDiagnostic: () => {}, ...(unwrap ? { unwrap } : {}) });

describe('a known record inside an unknown envelope', async () => {
  const bare = await run(SAMPLE);

  for (const [what, wrap, path] of [
    ['one field down', (r: Record<string, unknown>) => ({ shipper: 'acme', record: r }), 'record'],
    ['two fields down, beside other objects', (r: Record<string, unknown>, i: number) => ({ meta: { host: 'web-1', seq: i }, payload: { rec: r } }), 'payload.rec'],
  ] as const) {
    it(`${what}: the same report as the bare log and as --unwrap ${path}, and the input says where it read them`, async () => {
      const file = write(`${path}.ndjson`, wrap);
      const auto = await run(file);
      expect(rows(auto)).toEqual(rows(bare));
      expect(rows(await run(file, path))).toEqual(rows(bare));
      expect(auto.summary.lines.unusable).toBe(0);
      expect(auto.summary.inputs[0]!.cannotShow).toContain(`records read from the field "${path}" of an envelope mcp-triage does not know, as --unwrap ${path} reads them`);
    });
  }

  it('must not: two records side by side are not guessed between (no canonical record read, no note)', async () => {
    const r = await run(write('two.ndjson', (rec) => ({ a: { x: rec }, b: { y: rec } })));
    expect(r.summary.inputs[0]!.formats.canonical).toBeUndefined();
    expect(r.summary.inputs[0]!.cannotShow.join(' ')).not.toMatch(/as --unwrap/);
  });

  it('must not: three fields down is not looked for', async () => {
    const r = await run(write('deep.ndjson', (rec) => ({ a: { b: { c: rec } } })));
    expect(r.summary.inputs[0]!.formats.canonical).toBeUndefined();
  });

  it("must not: a bare JSON-RPC message in an application's log line stays the app log's (its session id read from the line)", async () => {
    const path = join(dir, 'app.ndjson');
    writeFileSync(path, [
      JSON.stringify({ level: 30, time: 1796523000000, sessionId: 'sess-1', msg: 'mcp message received', rpc: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: {} } } }),
      JSON.stringify({ level: 30, time: 1796523000100, sessionId: 'sess-1', msg: 'mcp message sent', rpc: { jsonrpc: '2.0', id: 1, result: { content: [] } } }),
    ].join('\n') + '\n');
    const r = await run(path);
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': 2 });
    expect(r.attempts.map((a) => `${a.session} ${a.outcome}`)).toEqual(['sess-1 TOOL_SUCCESS']);
  });
});
