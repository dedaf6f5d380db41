// .NET application logs read by the app-log format: Microsoft.Extensions.Logging's JSON console lines and Serilog's
// JSON and compact JSON lines, with the C# SDK's Trace lines of its messages (fixtures from test/fixtures/dotnet-logs/make.mjs).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const DIR = fileURLToPath(new URL('../fixtures/dotnet-logs/', import.meta.url));
const STYLES = ['ms-json', 'serilog-compact', 'serilog-json'] as const;
const file = (style: string, side: 'client' | 'server') => `${DIR}${style}.${side}.ndjson`;
const linesOf = (style: string, side: 'client' | 'server') => readFileSync(file(style, side), 'utf8').trimEnd().split('\n');
/** The template of a fixture line, whichever logger wrote it. */
const templateOf = (line: string): string => {
  const v = JSON.parse(line) as Record<string, unknown>;
  const state = v.State as Record<string, unknown> | undefined;
  return String(state?.['{OriginalFormat}'] ?? v.MessageTemplate ?? v['@mt']);
};
const tmp = (name: string, lines: string[]) => {
  const path = join(mkdtempSync(join(tmpdir(), 'dotnet-log-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const OUTCOMES = [
  [1, 'initialize', 'SUCCESS'],
  [2, 'tools/list', 'SUCCESS'],
  [3, 'tools/call', 'TOOL_SUCCESS'],
  [4, 'tools/call', 'TOOL_ERROR'],
  [5, 'tools/call', 'JSONRPC_ERROR'],
  [6, 'tools/call', 'UNANSWERED'],
];

describe.each(STYLES)("the C# SDK client's Trace log (%s)", (style) => {
  it("reads each request once, with the line's time and the client's side from the SDK's endpoint name; every other line skipped, none unusable", async () => {
    // No --client: "Client (kitchen-cs-client 1.0.0)" says whose log it is.
    const r = await analyze({ inputs: [{ path: file(style, 'client') }] });
    const all = linesOf(style, 'client');
    const transportSends = all.filter((l) => templateOf(l).includes('transport sending message')).length;
    const sessionSends = all.filter((l) => /^\{EndpointName\} sending /.test(templateOf(l))).length;
    const received = all.filter((l) => templateOf(l).includes('transport received message')).length;
    expect([sessionSends, transportSends, received]).toEqual([7, 7, 5]);
    expect(r.summary.lines).toEqual({ read: all.length, used: sessionSends + received, blank: 0, skipped: all.length - sessionSends - received, unusable: 0 });
    expect(r.attempts.map((a) => [a.id, a.method, a.outcome])).toEqual(OUTCOMES);
    expect(r.attempts.every((a) => a.side === 'client')).toBe(true);
    // The transport's copy of each request is not taken for a second send: no duplicate, no retry.
    expect(r.findings.map((f) => f.code)).toEqual([]);
    expect(new Set(r.attempts.map((a) => a.call)).size).toBe(6);
    // Times: the logger's own (.NET "O" format, seven fraction digits).
    expect(r.attempts[0]!.ts).toBe('2026-12-04T09:30:00.040Z');
    expect(r.attempts[5]!.ts).toBe('2026-12-04T09:30:00.328Z');
    // Each request's line is the session's (the first of the two), its answer the transport's received line.
    const first = r.attempts[0]!.sources.map((s) => s.line);
    expect(first.map((n) => templateOf(all[n - 1]!))).toEqual([
      "{EndpointName} sending method '{Method}' request. Request: '{Request}'.",
      "{EndpointName} transport received message. Message: '{Message}'.",
    ]);
  });

  it('without the session\'s lines (only the transport at Trace), the transport\'s lines are the requests', async () => {
    const kept = linesOf(style, 'client').filter((l) => !/^\{EndpointName\} sending /.test(templateOf(l)));
    const r = await analyze({ inputs: [{ path: tmp('client.ndjson', kept), side: 'client' }] });
    expect(r.attempts.map((a) => [a.id, a.method, a.outcome])).toEqual(OUTCOMES);
    expect(r.summary.lines.unusable).toBe(0);
  });

  it('without the transport\'s lines, the session\'s lines alone are the requests', async () => {
    const kept = linesOf(style, 'client').filter((l) => !templateOf(l).includes('transport sending message'));
    const r = await analyze({ inputs: [{ path: tmp('client.ndjson', kept), side: 'client' }] });
    expect(r.attempts.map((a) => [a.id, a.method, a.outcome])).toEqual(OUTCOMES);
  });

  it('sends that interleave (two requests in flight) still drop only the copies', async () => {
    // Session line of id 3, session line of id 4, then the transport's copies of 3 and 4: four lines, two requests.
    const all = linesOf(style, 'client');
    const at = (id: number, what: RegExp) => all.findIndex((l) => what.test(templateOf(l)) && l.includes(`id\\":${id},`) || what.test(templateOf(l)) && l.includes(`id\\u0022:${id},`));
    const session = /^\{EndpointName\} sending method/;
    const transport = /transport sending message/;
    const s3 = at(3, session);
    const s4 = at(4, session);
    expect([s3, s4, at(3, transport), at(4, transport)].every((i) => i >= 0)).toBe(true);
    const reordered = [...all.slice(0, s3), all[s3]!, all[s4]!, all[at(3, transport)]!, all[at(4, transport)]!];
    const r = await analyze({ inputs: [{ path: tmp('client.ndjson', reordered), side: 'client' }] });
    expect(r.attempts.filter((a) => a.id === 3 || a.id === 4).map((a) => [a.id, a.outcome])).toEqual([[3, 'UNANSWERED'], [4, 'UNANSWERED']]);
    expect(r.summary.lines.used).toBe(r.summary.lines.read - (r.summary.lines.skipped));
    expect(r.findings.map((f) => f.code)).toEqual([]);
  });

  it('a transport line that repeats no session line is kept: a request the app sent again under the same id is two sends', async () => {
    // The session's line of id 3 and its transport copy, then the transport line again: the copy is dropped once.
    const all = linesOf(style, 'client');
    const idx = all.findIndex((l) => templateOf(l).includes('transport sending message') && /id(\\"|\\u0022):3,/.test(l));
    // Sent again 5 ms later (the same time would make it an export's duplicate row, counted once).
    const again = all[idx]!.replace(/09:30:00\.(\d{3})(\d{4})/, (_, ms: string, ticks: string) => `09:30:00.${Number(ms) + 5}${ticks}`);
    expect(again).not.toBe(all[idx]);
    const twice = [...all.slice(0, idx + 1), again, ...all.slice(idx + 1)];
    const r = await analyze({ inputs: [{ path: tmp('client.ndjson', twice), side: 'client' }] });
    expect(r.summary.lines.used).toBe(13);
    // Two sends of id 3 in one call: the second reuses the id of a request still open (what every C# client request
    // would look like if the transport's copy, logged a moment after the session's line, were read as a send).
    const sends = r.attempts.filter((a) => a.id === 3);
    expect(sends.map((a) => [a.call, a.attempt])).toEqual([[sends[0]!.call, 1], [sends[0]!.call, 2]]);
    expect(sends[1]!.findings.map((f) => f.code)).toContain('ID_REUSED');
  });
});

describe.each(STYLES)("the C# SDK server's Trace log (%s)", (style) => {
  it("skips the answers it sent to requests it never logged (over HTTP it logs none), says so once, and skips the handler and request-log lines", async () => {
    const r = await analyze({ inputs: [{ path: file(style, 'server') }] });
    const all = linesOf(style, 'server');
    const answers = all.filter((l) => /^\{EndpointName\} sending message/.test(templateOf(l))).length;
    expect(answers).toBe(4); // initialize, tools/list and two calls; the -32602 came from the kitchen's middleware, the 503 too
    // Each would pair with nothing: an ORPHAN_RESPONSE of the logger's making, not of the traffic's.
    expect(r.summary.lines).toEqual({ read: all.length, used: 0, blank: 0, skipped: all.length, unusable: 0 });
    expect(r.findings).toEqual([]);
    const notes = r.summary.inputs[0]!.cannotShow.filter((n) => n.includes('C# SDK'));
    expect(notes).toHaveLength(2);
    expect(notes).toEqual(expect.arrayContaining([
      expect.stringContaining('has the messages the server sent, not the requests it received over HTTP: its answers to requests this log does not show are skipped'),
      expect.stringContaining('its other lines (a request handler called or completed) name a method but no id or message, and are skipped'),
    ]));
  });

  it('must not: a server log that shows the requests it received (the stdio transport logs them) keeps its answers, and reads each once', async () => {
    const t = (ms: number) => `2026-12-04T09:30:00.${String(ms).padStart(3, '0')}0000+00:00`;
    const req = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'lookup', arguments: {} } });
    const res = JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'ok' }] } });
    const line = (ms: number, category: string, endpoint: string, template: string, message: string) => JSON.stringify({
      Timestamp: t(ms), EventId: 1, LogLevel: 'Trace', Category: category, Message: template.replace('{EndpointName}', endpoint).replace('{Message}', message),
      State: { EndpointName: endpoint, Message: message, '{OriginalFormat}': template },
    });
    const lines = [
      line(1, 'ModelContextProtocol.Server.StdioServerTransport', 'Server (notes 1.0)', "{EndpointName} transport received message. Message: '{Message}'.", req),
      line(5, 'ModelContextProtocol.Server.McpServer', 'Server (notes 1.0)', "{EndpointName} sending message. Message: '{Message}'.", res),
      line(5, 'ModelContextProtocol.Server.StdioServerTransport', 'Server (notes 1.0)', "{EndpointName} transport sending message. Message: '{Message}'.", res),
    ];
    const r = await analyze({ inputs: [{ path: tmp('server.ndjson', lines), side: 'server' }] });
    expect(r.summary.lines).toMatchObject({ read: 3, used: 2, skipped: 1, unusable: 0 });
    expect(r.attempts.map((a) => [a.id, a.outcome])).toEqual([[7, 'TOOL_SUCCESS']]);
    expect(r.findings).toEqual([]);
  });

  it('at Information level (no Trace lines): every line skipped, none unusable, and the input says how to get the messages', async () => {
    const info = linesOf(style, 'server').filter((l) => !/"(Trace|Verbose)"/.test(l));
    expect(info.length).toBeGreaterThan(5);
    const r = await analyze({ inputs: [{ path: tmp('server.ndjson', info), side: 'server' }] });
    expect(r.summary.lines).toEqual({ read: info.length, used: 0, blank: 0, skipped: info.length, unusable: 0 });
    expect(r.summary.inputs[0]!.cannotShow).toEqual([expect.stringContaining('only at Trace level (Logging:LogLevel:ModelContextProtocol set to Trace)')]);
  });
});

describe('.NET log lines that are not the C# SDK\'s', () => {
  it('an app\'s own .NET lines (another category) are skipped without the C# SDK note; a message it logs itself is read', async () => {
    const t = '2026-12-04T09:30:00.0400000\\u002B00:00';
    const plain = `{"Timestamp":"${t}","EventId":0,"LogLevel":"Information","Category":"Shop.Api.Startup","Message":"ready","State":{"Message":"ready","{OriginalFormat}":"ready"}}`;
    const msg = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'charge', arguments: {} } });
    const own = JSON.stringify({ Timestamp: '2026-12-04T09:30:01.0000000+00:00', EventId: 0, LogLevel: 'Information', Category: 'Shop.Api.Mcp', Message: `received ${msg}`, State: { Message: `received ${msg}`, Rpc: msg, '{OriginalFormat}': 'received {Rpc}' } });
    const r = await analyze({ inputs: [{ path: tmp('server.ndjson', [plain, own]), side: 'server' }] });
    expect(r.summary.lines).toMatchObject({ read: 2, used: 1, skipped: 1, unusable: 0 });
    expect(r.attempts.map((a) => [a.id, a.method, a.outcome, a.ts])).toEqual([[7, 'tools/call', 'UNANSWERED', '2026-12-04T09:30:01.000Z']]);
    expect(r.summary.inputs[0]!.cannotShow.some((n) => n.includes('C# SDK'))).toBe(false);
  });

  it('a JSON line with neither a level nor a message text is still no logger line (unusable, as before)', async () => {
    const r = await analyze({ inputs: [{ path: tmp('x.ndjson', ['{"Category":"A","EventId":3}']) }] });
    expect(r.summary.lines).toMatchObject({ read: 1, unusable: 1 });
  });
});

describe(".NET's text console logger (the simple formatter)", () => {
  const consoleFile = (style: string, side: 'client' | 'server') => `${DIR}${style}.${side}.log`;
  const textLines = (style: string, side: 'client' | 'server') => readFileSync(consoleFile(style, side), 'utf8').trimEnd().split('\n');

  it.each(['console', 'console-single'])("the C# SDK client's Trace lines (%s): each request once, its answer, every other line skipped", async (style) => {
    const r = await analyze({ inputs: [{ path: consoleFile(style, 'client') }] });
    const all = textLines(style, 'client');
    expect(r.summary.lines).toEqual({ read: all.length, used: 12, blank: 0, skipped: all.length - 12, unusable: 0 });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'dotnet-console': 12 });
    expect(r.attempts.map((a) => [a.id, a.method, a.outcome])).toEqual(OUTCOMES);
    expect(r.attempts.every((a) => a.side === 'client')).toBe(true);
    expect(r.findings).toEqual([]);
  });

  it('SingleLine with a TimestampFormat: the times are read (no zone: --timezone, UTC by default); the multi-line default has none', async () => {
    const single = await analyze({ inputs: [{ path: consoleFile('console-single', 'client') }] });
    expect(single.attempts.map((a) => a.ts)).toEqual(['2026-12-04T09:30:00.040Z', '2026-12-04T09:30:00.133Z', '2026-12-04T09:30:00.183Z', '2026-12-04T09:30:00.233Z', '2026-12-04T09:30:00.283Z', '2026-12-04T09:30:00.328Z']);
    const shifted = await analyze({ inputs: [{ path: consoleFile('console-single', 'client') }], timezone: '+02:00' });
    expect(shifted.attempts[0]!.ts).toBe('2026-12-04T07:30:00.040Z');
    const multi = await analyze({ inputs: [{ path: consoleFile('console', 'client') }] });
    expect(multi.attempts.map((a) => a.ts)).toEqual(Array(6).fill(undefined));
  });

  it("the multi-line form: an exception's indented lines after a message are skipped with it", async () => {
    const all = textLines('console', 'client');
    const at = all.findIndex((l) => l.startsWith('fail: KitchenClient.Program[0]'));
    expect(all.slice(at + 1, at + 4).map((l) => l.match(/^ */)![0].length)).toEqual([6, 6, 9]);
    const r = await analyze({ inputs: [{ path: tmp('client.log', all.slice(0, at + 4)), side: 'client' }] });
    expect(r.summary.lines).toMatchObject({ read: at + 4, unusable: 0 });
  });

  it.each(['console', 'console-single'])("the C# SDK server's lines (%s): its requestless answers skipped, and what cannot show", async (style) => {
    const r = await analyze({ inputs: [{ path: consoleFile(style, 'server'), side: 'server' }] });
    expect(r.summary.lines).toMatchObject({ used: 0, unusable: 0 });
    expect(r.findings).toEqual([]);
    expect(r.summary.inputs[0]!.cannotShow).toEqual(expect.arrayContaining([
      expect.stringContaining('has the messages the server sent, not the requests it received over HTTP'),
      expect.stringContaining('writes the JSON-RPC messages to its log only at Trace level'),
    ]));
  });

  it('must not: indented lines with no console header before them, and a level word after other text, stay unusable as before', async () => {
    const lines = [
      '      Client (x 1.0) sending message. Message: \'{"jsonrpc":"2.0","method":"notifications/initialized"}\'.',
      'app info: Shop.Api[1] started',
      'note: trce: Shop.Api[1] started',
    ];
    const r = await analyze({ inputs: [{ path: tmp('other.log', lines) }] });
    expect(r.summary.lines).toMatchObject({ read: 3, used: 0, unusable: 3 });
    expect(r.summary.diagnostics.first.map((d) => d.message)).toEqual(Array(3).fill('line is not JSON and matches no text log format'));
  });
});
