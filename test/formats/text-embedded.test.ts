// Plain text log lines that carry a JSON-RPC message (an app's console.log of what it sent, winston's printf, a stdio server's stderr): read as application log records, with their leading time and their words' direction.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const FIX = fileURLToPath(new URL('../fixtures/real-audit19/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpt-text-embedded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Result = Awaited<ReturnType<typeof analyze>>;
const rows = (r: Result, timed = true) => r.attempts.map((a) => `${timed ? (a.ts ?? '-') : ''} ${a.method} ${a.tool ?? ''} #${String(a.id)} ${a.outcome} [${a.findings.map((f) => f.code).sort().join(',')}]`);

// The nineteenth audit's SDK 1.32.2 client logged each message as `<ISO time> --> <json>` / `<-- <json>`; the same
// lines in the shapes other loggers give them.
const RECORDED = `${FIX}s1-ts-http/client-text.log`;
const LINE = /^(\S+) (-->|<--) (.*)$/;
const sent = (d: string) => d === '-->';
const SHAPES: Record<string, (t: string, d: string, json: string) => string> = {
  '[<time>] --> <json>': (t, d, j) => `[${t}] ${d} ${j}`,
  "winston's printf: <time> info: sending <json>": (t, d, j) => `${t} info: ${sent(d) ? 'sending' : 'received'} ${j}`,
  '<time> [info] send: <json>': (t, d, j) => `${t} [info] ${sent(d) ? 'send' : 'recv'}: ${j}`,
  '<local time, no zone> --> <json>': (t, d, j) => `${t.replace('T', ' ').replace('Z', '')} ${d} ${j}`,
  '<time> mcp outgoing <json>': (t, d, j) => `${t} mcp ${sent(d) ? 'outgoing' : 'incoming'} ${j}`,
  '<time> DEBUG >> <json>': (t, d, j) => `${t} DEBUG ${sent(d) ? '>>' : '<<'} ${j}`,
};

describe('text lines with a JSON-RPC message in them', async () => {
  const recorded = await analyze({ inputs: [{ path: RECORDED, side: 'client' }] });

  it('the recorded log: timed calls (reference)', () => {
    expect(recorded.attempts.length).toBe(10);
    expect(recorded.attempts.every((a) => a.ts !== undefined)).toBe(true);
  });

  Object.entries(SHAPES).forEach(([name, shape], i) => {
    it(`${name}: the same calls, outcomes, findings and times`, async () => {
      const path = join(dir, `shape-${i}.log`);
      writeFileSync(path, readFileSync(RECORDED, 'utf8').split('\n').map((l) => {
        const m = LINE.exec(l);
        return m ? shape(m[1]!, m[2]!, m[3]!) : l;
      }).join('\n'));
      const r = await analyze({ inputs: [{ path, side: 'client' }] });
      expect(r.summary.lines.unusable).toBe(0);
      expect(rows(r)).toEqual(rows(recorded));
    });
  });

  it("console.log('sent', JSON.stringify(m)) without times: the same report as the same run's bare JSON lines (s1-ts-http/client-bare.log: untimed too)", async () => {
    const path = join(dir, 'console.log');
    writeFileSync(path, readFileSync(RECORDED, 'utf8').split('\n').map((l) => {
      const m = LINE.exec(l);
      return m ? `${sent(m[2]!) ? 'sent' : 'received'} ${m[3]}` : l;
    }).join('\n'));
    const r = await analyze({ inputs: [{ path, side: 'client' }] });
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.attempts.every((a) => a.ts === undefined)).toBe(true);
    const bare = await analyze({ inputs: [{ path: `${FIX}s1-ts-http/client-bare.log`, side: 'client' }] });
    expect(rows(r, false)).toEqual(rows(bare, false));
  });

  it("a stdio server's console.error('[server] received ' + JSON.stringify(m)) (the nineteenth audit's s3-stdio): each call with the outcome its client got", async () => {
    const r = await analyze({ inputs: [{ path: `${FIX}s3-stdio/server-stderr.log`, side: 'server' }] });
    expect(r.attempts.map((a) => `${a.method} ${a.tool ?? ''} ${a.outcome}`)).toEqual([
      'initialize  SUCCESS', 'tools/list  SUCCESS', 'tools/call add TOOL_SUCCESS', 'tools/call fail_tool TOOL_ERROR', 'tools/call throw_tool TOOL_ERROR',
      'tools/call no_such_tool TOOL_ERROR', 'tools/call slow UNANSWERED', 'tools/call crash UNANSWERED',
    ]);
    expect(r.attempts.find((a) => a.tool === 'slow')!.findings.map((f) => f.code)).toContain('CANCELLED');
    // Its other lines (the banner, the simulated crash) stay unusable, each said.
    expect(r.summary.lines.unusable).toBe(2);
  });

  it("the arrows say which way: the client's answer to the server's elicitation request (`--> {result}`) is sent, not received", async () => {
    const path = join(dir, 'arrows.log');
    const t = (ms: number) => new Date(Date.parse('2026-12-05T10:00:00Z') + ms).toISOString();
    writeFileSync(path, [
      `${t(0)} --> {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"book","arguments":{}}}`,
      `${t(10)} <-- {"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"message":"Which day?","requestedSchema":{"type":"object","properties":{}}}}`,
      `${t(20)} --> {"jsonrpc":"2.0","id":0,"result":{"action":"accept","content":{}}}`,
      `${t(30)} <-- {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"booked"}]}}`,
    ].join('\n') + '\n');
    const r = await analyze({ inputs: [{ path, side: 'client' }] });
    const call = r.attempts.find((a) => a.method === 'tools/call')!;
    expect(call.outcome).toBe('TOOL_SUCCESS');
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': 4 });
    // Read without its direction (as a bare message), the client's answer was one received for a request never sent.
    expect(r.findings.map((f) => f.code)).not.toContain('ORPHAN_RESPONSE');
  });

  it('must not: a text line that names jsonrpc but holds no message, or a message in no form the reader knows, stays unusable as text', async () => {
    const path = join(dir, 'no-message.log');
    writeFileSync(path, [
      '2026-12-05T03:32:31.029Z info: jsonrpc server listening on :3000',
      "      Client (x 1.0) sending message. Message: '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}'.",
    ].join('\n') + '\n');
    const r = await analyze({ inputs: [{ path }] });
    expect(r.summary.lines).toMatchObject({ read: 2, used: 0, unusable: 2 });
    expect(r.summary.diagnostics.first.map((d) => d.message)).toEqual(Array(2).fill('line is not JSON and matches no text log format'));
  });
});
