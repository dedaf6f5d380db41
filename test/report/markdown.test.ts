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
    expect(h2).toEqual(['Summary', 'Findings', 'Attempts that did not succeed', 'Sessions with errors or warnings', 'Inputs']);
    expect(doc.headings[0]).toEqual({ level: 1, text: 'MCP tool call postmortem' });
    for (const t of doc.tables) {
      expect(t[1]!.every((c) => /^-+$/.test(c))).toBe(true);
      for (const row of t) expect(row.length, row.join(' | ')).toBe(t[0]!.length);
    }
    const findings = doc.tables.find((t) => t[0]!.join() === 'severity,code,session,message,evidence')!;
    expect(findings.slice(2).map((row) => row[1])).toContain('`UNSAFE_RETRY`');
    expect(findings.slice(2).every((row) => /\.ndjson:\d+/.test(row[4]!))).toBe(true);
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
    expect(md).toContain(`_Showing the first 2 of ${findings.length}, errors first; ${findings.length - 2} more not shown: ${[errors > 2 ? `${errors - 2} error` : '', warnings ? `${warnings} warning` : '', infos ? `${infos} info` : ''].filter(Boolean).join(', ')}._`);
    // The sequence diagrams are not tables: they still draw every attempt of each troubled session.
    expect(doc.mermaid).toEqual(all.mermaid);
  });

  it('marks the attempt the server never saw in the why column of the failed attempts', async () => {
    const doc = parse((await cli([...BOTH, '--format', 'markdown'])).stdout);
    const failed = doc.tables.find((t) => t[0]!.join() === 'time,session,id,method / tool,HTTP,outcome,layer,claimed,why,evidence')!;
    const marked = failed.slice(2).filter((r) => r[8]!.includes('not seen by the server'));
    expect(marked.map((r) => [r[2], r[3], r[4], r[8]!.slice(0, 41)])).toEqual([['3', 'tools/call create\\_ticket', '503', '**not seen by the server**: the body says'], ['0', 'initialize', '503', '**not seen by the server**']]);
    expect(failed.slice(2).find((r) => r[2] === '5')![8]).toBe('-32602 Invalid params: query must be a string');
  });
});

