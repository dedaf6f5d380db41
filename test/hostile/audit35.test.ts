// The 35th audit's input and report gaps, end to end through the built CLI: HAR headers that are not text, UTF-16 and
// UTF-32 files (plain, gzipped, without a mark), sessions whose initialize is not in the logs, refused GET streams in
// Mermaid diagrams, long paths in the Inputs table.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoCrash, scratchCli, summaryOf } from '../helpers/scratch-cli.js';

const FIXTURES = join(resolve(import.meta.dirname, '../..'), 'test/fixtures');
const scratch = scratchCli('mcp-triage-audit35-');
const { cli, write } = scratch;

type HarHeader = { name: unknown; value: unknown } | unknown;
interface HarEntry {
  request: { method: string; headers: HarHeader[] };
  response: { headers: HarHeader[] };
}

describe('a HAR header whose name or value is not text', () => {
  it('is said with its entry and its place in the list, and the rest of the entry is read', () => {
    // Playwright's recording of a browser MCP client (baseline.har), as an exporter that builds HAR from header
    // dictionaries writes it: Content-Length as a number, a header with no value (null), a header kept as "name: value".
    const har = JSON.parse(readFileSync(join(FIXTURES, 'real-har/baseline.har'), 'utf8')) as { log: { entries: HarEntry[] } };
    const entry = har.log.entries[6]!; // the first tools/call
    const length = entry.request.headers.findIndex((h) => (h as { name: string }).name === 'Content-Length');
    (entry.request.headers[length] as { value: unknown }).value = 187;
    (entry.response.headers[0] as { value: unknown }).value = null;
    entry.request.headers.push('accept: application/json, text/event-stream');
    (har.log.entries[7]!.request.headers[1] as { name: unknown }).name = { text: 'Accept-Language' };
    const text = JSON.stringify(har, null, 2);
    write('exported.har', text);
    // The line each entry opens on in the pretty-printed document (2-space indent: an entry's "{" is indented by 6).
    const lines = text.split('\n');
    const from = lines.findIndex((l) => l === '    "entries": [');
    const opens = lines.map((l, i) => (i > from && l === '      {' ? i + 1 : 0)).filter((n) => n > 0);
    write('exported-entries.ndjson', har.log.entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const clean = summaryOf(cli([join(FIXTURES, 'real-har/baseline.har'), '--format', 'json']));

    for (const [file, at6, at7] of [['exported.har', opens[6], opens[7]], ['exported-entries.ndjson', 7, 8]] as const) {
      const r = cli([file, '--format', 'json']);
      expectNoCrash(r);
      expect(r.code).toBe(0);
      const s = summaryOf(r);
      // Nothing else was lost: the same attempts and lines as the recording.
      expect(s.attempts).toBe(clean.attempts);
      expect(s.lines).toEqual(clean.lines);
      expect(s.diagnostics.byCode).toEqual({ 'har-header': 4 });
      const said = s.diagnostics.first.map((d) => `${d.line}: ${d.message}`);
      expect(said).toEqual([
        `${at6}: HAR entry's request.headers[${length}] ("Content-Length") has a value that is a number, not text (HAR 1.2): that header is left out, the rest of the entry is read`,
        `${at6}: HAR entry's request.headers[${entry.request.headers.length - 1}] is text, not an object {name, value} (HAR 1.2): that header is left out, the rest of the entry is read`,
        `${at6}: HAR entry's response.headers[0] ("${(entry.response.headers[0] as { name: string }).name}") has a value that is null, not text (HAR 1.2): that header is left out, the rest of the entry is read`,
        `${at7}: HAR entry's request.headers[1] has a name that is an object, not text (HAR 1.2): that header is left out, the rest of the entry is read`,
      ]);
      expect(r.stderr).toContain(`mcp-triage: ${file}:${at6}: HAR entry's request.headers[${length}] ("Content-Length") has a value that is a number`);
      // The report counts them.
      expect(cli([file]).stdout).toContain(`Input problems: 4 (4 har-header); first at ${file}:${at6}`);
    }
  });
});

/** `text` as Windows PowerShell, .NET and iconv write it: UTF-16 or UTF-32, either byte order, with or without a mark. */
function encode(text: string, unit: 16 | 32, order: 'le' | 'be', bom: boolean): Buffer {
  const chars = [...(bom ? '\ufeff' : '') + text];
  if (unit === 16) {
    const le = Buffer.from(chars.join(''), 'utf16le');
    return order === 'le' ? le : le.swap16();
  }
  const out = Buffer.alloc(chars.length * 4);
  chars.forEach((c, i) => (order === 'le' ? out.writeUInt32LE(c.codePointAt(0)!, i * 4) : out.writeUInt32BE(c.codePointAt(0)!, i * 4)));
  return out;
}

describe('UTF-16 inside gzip, UTF-16 without a mark, and UTF-32', () => {
  // The Python SDK's DEBUG client log and the recorder's server log of one session (real-python-debug/sse), as a
  // Windows machine saves them (CRLF), then in each encoding.
  const sources = ['real-python-debug/sse/client.log', 'real-python-debug/sse/server.ndjson'];
  const attemptLines = (r: Run, file: string, as: string) => r.stdout.split('\n').filter((l) => l.startsWith('{"type":"attempt"')).map((l) => l.replaceAll(file, as));

  it('UTF-16 is read as the text it holds, gzipped (with its mark) or not, with a mark or without one', () => {
    for (const source of sources) {
      const text = readFileSync(join(FIXTURES, source), 'utf8').replaceAll('\n', '\r\n');
      const plain = write('plain.log', text);
      const want = cli([plain, '--format', 'ndjson']);
      const wantLines = summaryOf(cli([plain, '--format', 'json'])).lines;
      expect(attemptLines(want, plain, plain).length).toBeGreaterThan(0);
      const cases: [string, Buffer][] = [
        ['bom-le.log.gz', gzipSync(encode(text, 16, 'le', true))],
        ['bom-be.log.gz', gzipSync(encode(text, 16, 'be', true))],
        ['no-bom-le.log', encode(text, 16, 'le', false)],
        ['no-bom-be.log', encode(text, 16, 'be', false)],
        ['no-bom-le.log.gz', gzipSync(encode(text, 16, 'le', false))],
      ];
      for (const [name, bytes] of cases) {
        write(name, bytes);
        const r = cli([name, '--format', 'ndjson']);
        expectNoCrash(r);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(attemptLines(r, name, plain)).toEqual(attemptLines(want, plain, plain));
        expect(summaryOf(cli([name, '--format', 'json'])).lines).toEqual(wantLines);
      }
    }
  });

  it('UTF-32 is one diagnostic naming the encoding and the iconv command, not a diagnostic per line', () => {
    const text = readFileSync(join(FIXTURES, sources[1]!), 'utf8').replaceAll('\n', '\r\n');
    const cases: [string, Buffer, string, string][] = [
      ['out-file.ndjson', encode(text, 32, 'le', true), 'UTF-32LE', 'iconv -f UTF-32 -t UTF-8 out-file.ndjson > out-file.ndjson.utf8'],
      ['no-bom-be.ndjson', encode(text, 32, 'be', false), 'UTF-32BE (it has no byte order mark: told by its NUL bytes)', 'iconv -f UTF-32BE -t UTF-8 no-bom-be.ndjson > no-bom-be.ndjson.utf8'],
      ['zipped.ndjson.gz', gzipSync(encode(text, 32, 'le', true)), 'UTF-32LE', 'zcat zipped.ndjson.gz | iconv -f UTF-32 -t UTF-8 > zipped.ndjson.utf8'],
    ];
    for (const [name, bytes, encoding, command] of cases) {
      write(name, bytes);
      const said = `mcp-triage: ${name}:1: the text is in ${encoding}, which mcp-triage does not read: nothing of it was analyzed; convert it first: ${command}\n`;
      for (const format of ['table', 'json', 'markdown', 'ndjson']) {
        const r = cli([name, '--format', format]);
        expectNoCrash(r);
        expect(r.code).toBe(0);
        expect(r.stderr).toContain(said);
        expect(r.stderr).toContain(`mcp-triage: no lines were read: ${name} is in ${encoding.slice(0, 8)}, which is not read (convert it to UTF-8 with iconv)\n`);
      }
      const s = summaryOf(cli([name, '--format', 'json']));
      expect(s.diagnostics.byCode).toEqual({ 'unread-encoding': 1 });
      expect(s.lines.unusable).toBe(0);
      const strict = cli([name, '--strict']);
      expect(strict.code).toBe(2);
      expect(strict.stderr).toContain(`${name}:1: the text is in ${encoding}`);
    }
    // The converted file reads as the original did.
    const converted = spawnSync('iconv', ['-f', 'UTF-32', '-t', 'UTF-8', join(scratch.dir, 'out-file.ndjson')]);
    if (converted.status === 0) {
      write('out-file.ndjson.utf8', converted.stdout);
      expect(summaryOf(cli(['out-file.ndjson.utf8', '--format', 'json'])).lines.used).toBe(text.split('\r\n').filter((l) => l).length);
    }
  });
});

describe('a session whose initialize is not in the logs', () => {
  // The recorder's server log of a Python SDK session (real-python-debug/sse), as a rotated log holds it: the file
  // begins after the initialize exchange (xid a745-1), so no record names the client or the server.
  const rotated = () => write('rotated.ndjson', readFileSync(join(FIXTURES, 'real-python-debug/sse/server.ndjson'), 'utf8').split('\n').filter((l) => !l.includes('"xid":"a745-1"')).join('\n'));
  const whole = join(FIXTURES, 'real-python-debug/sse/server.ndjson');

  it('says "not in the logs" for its client and server in the sessions table and Markdown, and JSON leaves them out', () => {
    const file = rotated();
    for (const columns of ['160', '70']) {
      const r = cli(['sessions', file], { COLUMNS: columns });
      expect(r.code).toBe(0);
      // Wide: a column each, wrapped at the space; narrow: client over server in one cell.
      const cells = r.stdout.split('\n').filter((l) => l.includes('not in the') || l.includes(' logs ')).join('\n');
      expect(cells.match(/not in the/g)?.length).toBe(2);
      expect(r.stdout).not.toMatch(/│ +│ 2025-11-25/); // no blank cell where the names go
    }
    const md = cli(['sessions', file, '--format', 'markdown']).stdout;
    expect(md).toContain('| cdb1a6343c4548bfbdfe7872385f262c | *not in the logs* | *not in the logs* | 2025-11-25 | server |');
    const json = JSON.parse(cli(['sessions', file, '--format', 'json']).stdout) as { sessions: Record<string, unknown>[] };
    expect(json.sessions[0]).not.toHaveProperty('server');
    expect(json.sessions[0]).not.toHaveProperty('client');
    // With its initialize, the names are there as before.
    const named = cli(['sessions', whole, '--format', 'markdown']).stdout;
    expect(named).toContain('| mcp/0.1.0 | chaos-py-server/2.3.0 |');
    expect(named).not.toContain('not in the logs');
  });

  it('says it in the timeline header too, rather than leaving the server out of it', () => {
    const file = rotated();
    expect(cli(['timeline', 'cdb1', file]).stdout).toContain('Session cdb1a6343c4548bfbdfe7872385f262c: client not in the logs, server not in the logs, protocol 2025-11-25; 5 attempts');
    expect(cli(['timeline', 'cdb1', file, '--format', 'markdown']).stdout).toContain('\nclient not in the logs, server not in the logs, protocol 2025-11-25; 5 attempts');
    expect(cli(['timeline', 'cdb1', whole]).stdout).toContain('client mcp/0.1.0, server chaos-py-server/2.3.0, protocol 2025-11-25; 6 attempts');
  });
});

describe('a refused GET stream in the Mermaid diagrams', () => {
  // A real chaos run (real-chaos/streams-seed-5): the TypeScript SDK client's GET stream refused with 409 (the server
  // held one already) three times, then with 503 by the fault-injecting hop; each raises GET_STREAM_REFUSED.
  const dir5 = join(FIXTURES, 'real-chaos/streams-seed-5');
  const logs = ['--client', join(dir5, 'client.ndjson.gz'), '--server', join(dir5, 'server.ndjson.gz')];
  const session = '9d25bd33-11c2-4ad0-970d-04bceedc73f3';
  const diagramOf = (md: string, heading: string): string => {
    const from = md.indexOf(heading);
    expect(from).toBeGreaterThan(-1);
    const start = md.indexOf('```mermaid', from);
    return md.slice(start, md.indexOf('\n```\n', start));
  };

  it('is drawn, once per status with its count, before the first attempt that started after it', () => {
    const ndjson = cli([...logs, '--format', 'ndjson']).stdout.split('\n').filter((l) => l.includes('"GET_STREAM_REFUSED"') && l.includes(session));
    expect(ndjson.map((l) => /HTTP (\d+) to the client's GET stream(, \d+ times)?/.exec(l)?.slice(1))).toEqual([['409', ', 3 times'], ['503', undefined]]);
    const report = diagramOf(cli([...logs, '--format', 'markdown']).stdout, `### Session ${session}`);
    expect(report).toContain('  C->>S: GET stream\n  S-->>C: HTTP 409 refused (3 times)\n  C->>S: GET stream\n  S-->>C: HTTP 503 refused\n  Note over C: retry, origin unknown\n  C->>S: POST tools/call export_report id 5 (attempt 2)');
    // The timeline's diagram of the session draws them the same way.
    const timeline = diagramOf(cli(['timeline', session.slice(0, 8), ...logs, '--format', 'markdown']).stdout, '## Sequence');
    expect(timeline).toContain('  C->>S: GET stream\n  S-->>C: HTTP 409 refused (3 times)\n  C->>S: GET stream\n  S-->>C: HTTP 503 refused\n');
  });
});

describe('a long path in the Inputs table', () => {
  it('is wrapped whole within the width (after its folders first), not shortened from the left', () => {
    // A real server log (real-python-debug/sse), where an incident's files are kept: folders named for the customer,
    // the incident and the pod they came from.
    const folder = 'incidents/customer-acme-corp/incident-2026-12-04-tools-call-timeouts/gateway-eu-west-1/collected-from-pod-mcp-gateway-7f9c6d5b8-x2k4q';
    spawnSync('mkdir', ['-p', join(scratch.dir, folder)]);
    const path = `${folder}/server-2026-12-04T09-00-00Z.ndjson`;
    write(path, readFileSync(join(FIXTURES, 'real-python-debug/sse/server.ndjson')));
    for (const columns of [160, 120, 80, 60]) {
      const r = cli([path], { COLUMNS: String(columns) });
      expect(r.code).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines.filter((l) => [...l].length > columns)).toEqual([]);
      const table = lines.slice(lines.findIndex((l) => l.startsWith('Inputs (')));
      const body = table.slice(table.findIndex((l) => l.startsWith('├')) + 1, table.findIndex((l) => l.startsWith('└')));
      const cells = body.map((l) => l.split('│')[1]!.trim());
      expect(cells.join('')).toBe(path);
      expect(cells.join('')).not.toContain('…');
      if (columns < 160) expect(cells.length).toBeGreaterThan(1);
      // Where the path breaks within the folders, it breaks after a `/` when one is in the line's second half.
      expect(cells[0]!.endsWith('/') || cells.length === 1).toBe(true);
    }
  });
});
