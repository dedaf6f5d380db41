// The Markdown postmortem, parsed back: headings in order, well-formed tables, one Mermaid sequenceDiagram per troubled session.
import { describe, expect, it } from 'vitest';
import { cli, BOTH, SAMPLES } from '../cli/helpers.js';
import { streamAnalysis } from '../../src/index.js';
import { callHorizonMs } from '../../src/analyze.js';
import { SummaryBuilder } from '../../src/report/summary.js';
import { renderMarkdown } from '../../src/report/markdown.js';

/** The Markdown report of the samples with a table builder that keeps maxRows rows per table (the CLI's --max-rows). */
async function postmortem(maxRows: number): Promise<string> {
  const inputs = [{ path: `${SAMPLES}client.ndjson`, side: 'client' as const }, { path: `${SAMPLES}server.ndjson`, side: 'server' as const }, { path: `${SAMPLES}capture.har.ndjson` }];
  const builder = new SummaryBuilder({ redact: true, keepAll: true, maxRows, toolName: 'mcp-triage test', filters: {}, callHorizonMs: callHorizonMs({}) });
  const summary = await streamAnalysis({ inputs }, { attempt: (r) => builder.attempt(r), finding: (f) => builder.finding(f) });
  return renderMarkdown(summary, builder, 20);
}

interface Doc {
  headings: { level: number; text: string }[];
  tables: string[][][];
  mermaid: string[];
}

/** A small Markdown reader: ATX headings, pipe tables (rows split on unescaped pipes), fenced mermaid blocks. */
function parse(md: string): Doc {
  const doc: Doc = { headings: [], tables: [], mermaid: [] };
  const lines = md.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```mermaid')) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
      expect(lines[i], 'unterminated mermaid fence').toBe('```');
      doc.mermaid.push(body.join('\n'));
      continue;
    }
    const h = /^(#{1,6}) (.+)$/.exec(line);
    if (h) doc.headings.push({ level: h[1]!.length, text: h[2]! });
    if (line.startsWith('| ') && lines[i + 1]?.startsWith('| ---')) {
      const table: string[][] = [];
      for (; i < lines.length && lines[i]!.startsWith('|'); i++) table.push(cells(lines[i]!));
      doc.tables.push(table);
    }
  }
  return doc;
}

function cells(row: string): string[] {
  const inner = row.slice(2, -2);
  return inner.split(/(?<!\\) \| /).map((c) => c.trim());
}

describe('markdown postmortem', () => {
  it('has the sections in order, rectangular tables and a sequence diagram per troubled session', async () => {
    const r = await cli([...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, '--format', 'markdown']);
    expect(r.code).toBe(0);
    const doc = parse(r.stdout);
    const h2 = doc.headings.filter((h) => h.level === 2).map((h) => h.text);
    expect(h2).toEqual(['Summary', 'Findings', 'Attempts that did not succeed', 'Calls with more than one attempt', 'Sessions with errors or warnings', 'Inputs']);
    // The retry chains, as the table report gives them: each attempt's outcome and status, the delay before the next, who sent it.
    const chains = doc.tables.find((t) => t[0]!.join() === 'call,method / tool,attempts: outcome (HTTP) and delay,origin')!;
    const c4 = chains.slice(2).find((row) => row[1] === 'tools/call create\\_ticket')!;
    expect(c4[2]).toBe('#1 `HTTP_ERROR` (503) +250 ms → #2 `TOOL_SUCCESS` (200)');
    expect(c4[3]).toBe('app: claimed by the client log');
    expect(doc.headings[0]).toEqual({ level: 1, text: 'MCP tool call postmortem' });
    for (const t of doc.tables) {
      expect(t[1]!.every((c) => /^-+$/.test(c))).toBe(true);
      for (const row of t) expect(row.length, row.join(' | ')).toBe(t[0]!.length);
    }
    // (a call column beside the session since audit 87, as the terminal's findings table names it under the code)
    const findings = doc.tables.find((t) => t[0]!.join() === 'severity,code,session,call,message,evidence')!;
    expect(findings.slice(2).map((row) => row[1])).toContain('`UNSAFE_RETRY`');
    expect(findings.slice(2).every((row) => /\.ndjson:\d+/.test(row[5]!))).toBe(true);
    const sessions = doc.headings.filter((h) => h.level === 3 && h.text.startsWith('Session '));
    expect(doc.mermaid).toHaveLength(sessions.length);
    expect(doc.mermaid.length).toBeGreaterThanOrEqual(2);
    for (const m of doc.mermaid) {
      const [first, ...rest] = m.split('\n');
      expect(first).toBe('sequenceDiagram');
      for (const line of rest) expect(line).toMatch(/^ {2}(participant [CGS] as .+|[CGS]-(>>|->>|-x|-->>|-{2}x)[CGS]: .+|Note over [CGS]: .+)$/);
    }
    const exportSession = doc.mermaid.find((m) => m.includes('export_report id 6'))!;
    expect(exportSession).toMatch(/S-->>C: HTTP 200 STREAM_INCOMPLETE \(server sent TOOL_SUCCESS\)/);
    expect(exportSession).toMatch(/C->>S: notifications\/cancelled id 6/);
  });

  it('escapes hostile log strings so they cannot break a table, inject HTML or end a Mermaid line', async () => {
    const evil = 'x|y<script>alert(1)</script>\n%%{init: {"theme":"dark"}}%%';
    const rec = { v: 1, kind: 'exchange', ts: '2026-10-17T10:00:00Z', method: 'POST', requestHeaders: { 'mcp-session-id': 's|1' }, send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: evil, arguments: {} } }, status: 503, responseHeaders: {}, recvText: '' };
    const retry = { ...rec, ts: '2026-10-17T10:00:00.100Z', send: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: evil, arguments: {} } } };
    const r = await cli(['-', '--format', 'markdown'], { stdin: [JSON.stringify(rec), JSON.stringify(retry)] });
    expect(r.stdout).not.toContain('<script>');
    const doc = parse(r.stdout);
    expect(doc.mermaid.length).toBeGreaterThan(0);
    for (const m of doc.mermaid) expect(m).not.toMatch(/%%|<script|[{}]/);
    for (const t of doc.tables) for (const row of t) expect(row.length).toBe(t[0]!.length);
    for (const m of doc.mermaid) for (const line of m.split('\n').slice(1)) expect(line).toMatch(/^ {2}\S/);
  });

  it('holds at most --max-rows rows in each table, errors first, and says how many more there are', async () => {
    const all = parse(await postmortem(5000));
    const md = await postmortem(2);
    const doc = parse(md);
    const table = (d: Doc, head: string) => d.tables.find((t) => t[0]!.join().startsWith(head))!;
    const outcomes = table(all, 'method,tool,total').length - 2;
    const failed = table(all, 'time,session,id').length - 2;
    const findings = table(all, 'severity,code').slice(2);
    expect(outcomes).toBeGreaterThan(2);
    expect(failed).toBeGreaterThan(2);
    expect(table(doc, 'method,tool,total')).toHaveLength(2 + 2);
    expect(table(doc, 'time,session,id')).toHaveLength(2 + 2);
    expect(table(doc, 'severity,code').slice(2).map((r) => r[0])).toEqual(['error', 'error']);
    const errors = findings.filter((r) => r[0] === 'error').length;
    const warnings = findings.filter((r) => r[0] === 'warning').length;
    const infos = findings.length - errors - warnings;
    expect(md).toContain(`_Showing the first 2 of ${outcomes}, most attempts first; ${outcomes - 2} more not shown._`);
    expect(md).toContain(`_Showing the first 2 of ${failed} in time order; ${failed - 2} more not shown (see \`--format ndjson\`)._`);
    expect(md).toContain(`_Showing the first 2 of ${findings.length}, errors first; ${findings.length - 2} more not shown: ${[errors > 2 ? `${errors - 2} error${errors - 2 === 1 ? '' : 's'}` : '', warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '', infos ? `${infos} info` : ''].filter(Boolean).join(', ')}._`);
    // The sequence diagrams are not tables: they still draw every attempt of each troubled session.
    expect(doc.mermaid).toEqual(all.mermaid);
  });

  it('marks the attempt the server never saw in the why column of the failed attempts', async () => {
    const doc = parse((await cli([...BOTH, '--format', 'markdown'])).stdout);
    // (a call column after the id since audit 87)
    const failed = doc.tables.find((t) => t[0]!.join() === 'time,session,id,call,method / tool,HTTP,outcome,layer,why,evidence')!;
    const marked = failed.slice(2).filter((r) => r[8]!.includes('not seen by the server'));
    expect(marked.map((r) => [r[2], r[4], r[5], r[8]!.slice(0, 41)])).toEqual([['3', 'tools/call create\\_ticket', '503', '**not seen by the server**: the body says'], ['0', 'initialize', '503', '**not seen by the server**: HTTP 503 Serv']]);
    expect(failed.slice(2).find((r) => r[2] === '5')![8]).toBe('-32602 Invalid params: query must be a string');
  });

  it('draws each session-less scope apart, named and ordered as the sessions view lists them', async () => {
    const inputs = [...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
    const md = (await cli([...inputs, '--format', 'markdown'])).stdout;
    const headings = parse(md).headings.filter((h) => h.level === 3 && h.text.startsWith('Session ')).map((h) => h.text.slice(8));
    const view = JSON.parse((await cli(['sessions', ...inputs, '--format', 'json'])).stdout) as { sessions: { session: string | null; scope?: string; attempts: number; findings: { error: number; warning: number } }[] };
    const names = (await cli(['sessions', ...inputs, '--format', 'markdown'])).stdout.split('\n').filter((l) => /^\| (?!session |---)/.test(l)).map((l) => l.split(' | ')[0]!.slice(2));
    const troubled = view.sessions.map((s, i) => ({ s, name: names[i]! })).filter(({ s }) => s.findings.error + s.findings.warning > 0);
    expect(headings).toEqual(troubled.map((t) => t.name));
    const harAt = headings.findIndex((h) => /^input#\d+ \(no session id; .*capture\.har\.ndjson\)$/.test(h));
    expect(harAt).toBeGreaterThan(-1);
    expect(headings.filter((h) => h.includes('no session'))).toHaveLength(2); // the HAR capture and the probe client, apart
    // Each diagram draws the attempts of its own session, as many as the sessions view counts (and the notifications and
    // refused GET streams, which are no attempts).
    const diagrams = parse(md).mermaid;
    troubled.forEach(({ s }, i) => expect(diagrams[i]!.split('\n').filter((l) => /^ {2}C->>[GS]: (?!(POST )?notifications\/|GET )/.test(l)), headings[i]).toHaveLength(s.attempts));
    const har = diagrams[harAt]!;
    expect(har).toContain('approve_refund');
    expect(har).not.toMatch(/initialize|read_file/);
  });

  it('draws a message log (no HTTP layer) without POST or HTTP status, with the responses it has', async () => {
    const line = (ts: string, direction: string, message: object) => JSON.stringify({ ts: `2026-10-17T09:30:${ts}Z`, direction, message: { jsonrpc: '2.0', ...message } });
    const stdio = [
      line('00.000', 'c2s', { id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'desktop', version: '1' } } }),
      line('00.010', 's2c', { id: 0, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'files', version: '1' } } }),
      line('00.100', 'c2s', { id: 1, method: 'tools/call', params: { name: 'a', arguments: {} } }),
      line('00.120', 's2c', { id: 1, error: { code: -32602, message: 'Invalid params' } }),
      line('00.200', 'c2s', { id: 2, method: 'tools/call', params: { name: 'b', arguments: {} } }),
      line('00.230', 's2c', { id: 2, result: { content: [{ type: 'text', text: 'ok' }] } }),
      line('00.300', 'c2s', { id: 3, method: 'tools/call', params: { name: 'c', arguments: {} } }),
      line('00.900', 's2c', { id: 99, result: {} }),
    ];
    const r = await cli(['timeline', 'input#0', '-', '--format', 'markdown', '-q'], { stdin: stdio });
    expect(r.code, r.stderr).toBe(0);
    const [diagram] = parse(r.stdout).mermaid;
    expect(diagram!.split('\n').slice(3)).toEqual([
      '  C->>S: initialize id 0', '  S-->>C: response SUCCESS',
      '  C->>S: tools/call a id 1', '  S-->>C: response JSONRPC_ERROR',
      '  C->>S: tools/call b id 2', '  S-->>C: response TOOL_SUCCESS',
      '  C->>S: tools/call c id 3', '  S--xC: no response in the log UNANSWERED',
    ]);
    // Over HTTP the POST and its status stay, and a request no response came to is a lost message.
    const http = parse((await cli([...BOTH, '--format', 'markdown'])).stdout).mermaid.join('\n');
    expect(http).toContain('C->>S: POST tools/call search_tickets id 5');
    expect(http).toContain('S-->>C: HTTP 200 JSONRPC_ERROR');
    expect(http).not.toMatch(/response (SUCCESS|TOOL_SUCCESS|JSONRPC_ERROR)/);
  });
});


describe('the postmortem gives messages, whys and evidence whole', () => {
  it('cuts no finding message or why: no cell of the samples ends in "…"', async () => {
    const r = await cli([...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`, '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).toContain('its effect happened before this retry');
  });

  it('reads a long message to its cause (the session id the client did not have)', async () => {
    const dir = 'test/fixtures/real-audit5/session-header-stripped';
    const r = await cli(['--client', `${dir}/client.ndjson`, '--server', `${dir}/server.ndjson`, '--format', 'markdown']);
    const rows = r.stdout.split('\n').filter((l) => l.includes('NOTIFICATION_REFUSED'));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toContain('the client did not have the session id the server asks for (its initialize response reached it without the header');
  });

  it('cuts a hostile multi-megabyte error only past 2000 characters, at a word, saying how much it left out', async () => {
    const error = `${'word '.repeat(1000)}${'x'.repeat(5000)}`;
    const log = [exchangeWith(error)];
    const r = await cli(['-', '--format', 'markdown', '-q'], { stdin: log });
    const why = r.stdout.split('\n').find((l) => l.includes('word word'))!;
    expect(why).toMatch(/word… \\\[\d+ more characters\\\]/); // its brackets escaped for Markdown
    expect(why.length).toBeLessThan(4000);
  });
});

/** A canonical exchange whose tool call failed with this JSON-RPC error message. */
function exchangeWith(message: string): string {
  return JSON.stringify({
    v: 1, kind: 'exchange', method: 'POST', url: 'https://mcp.example.test/mcp', ts: '2026-10-17T09:12:00.000Z', side: 'client',
    requestHeaders: { 'content-type': 'application/json' }, send: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'dump', arguments: {} } },
    status: 200, responseHeaders: { 'content-type': 'application/json' }, recv: { jsonrpc: '2.0', id: 1, error: { code: -32000, message } }, durationMs: 20,
  });
}
