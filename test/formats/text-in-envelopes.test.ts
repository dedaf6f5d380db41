// Text logs and logger lines shipped through log platforms (Loki, Datadog, Elasticsearch, Cloud Logging, `aws logs tail`), one envelope per physical line as the shippers send them: the same calls, at the logger's own times, as the files themselves.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpt-text-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The platform's time for line i: a day after the logs were written, one millisecond apart (when it took them in). */
const intake = (i: number) => new Date(Date.parse('2026-12-06T00:00:00Z') + i).toISOString();

const ENVELOPES: Record<string, (line: string, i: number) => string> = {
  loki: (l, i) => JSON.stringify({ labels: { app: 'mcp', level: 'debug' }, line: l, timestamp: intake(i) }),
  datadog: (l, i) => JSON.stringify({ id: `AQ${i}`, type: 'log', attributes: { service: 'mcp', status: 'info', timestamp: intake(i), message: l, tags: ['env:prod'] } }),
  elasticsearch: (l, i) => JSON.stringify({ _index: 'logs-mcp', _id: `d${i}`, _source: { '@timestamp': intake(i), message: l, host: { name: 'web-1' }, agent: { type: 'filebeat' } } }),
  'cloud-logging': (l, i) => {
    const j = l.trimStart().startsWith('{') ? (JSON.parse(l) as object) : undefined;
    return JSON.stringify({ insertId: `i${i}`, logName: 'projects/p/logs/mcp', resource: { type: 'k8s_container' }, timestamp: intake(i), severity: 'DEBUG', ...(j ? { jsonPayload: j } : { textPayload: l }) });
  },
  'aws logs tail': (l, i) => `${intake(i)} mcp/web-1/8f2c ${l}`,
};

const wrap = (file: string, name: string): string => {
  const lines = readFileSync(`${FIX}${file}`, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const path = join(dir, `${name}-${file.replace(/\//g, '_')}`);
  writeFileSync(path, lines.map((l, i) => ENVELOPES[name]!(l, i)).join('\n') + '\n');
  return path;
};

type Result = Awaited<ReturnType<typeof analyze>>;
const rows = (r: Result) => r.attempts.map((a) => `${a.ts ?? '-'} ${a.method} ${a.tool ?? ''} #${String(a.id)} ${a.outcome} [${a.findings.map((f) => f.code).sort().join(',')}]`);

// Text logs whose lines depend on the lines before them (a traceback under its Python line, a .NET message under its
// header), and logger lines that carry their own time in a field no canonical record uses.
const LOGS = [
  { file: 'real-python-debug/streamable-server/client.log', what: 'the Python SDK client DEBUG log with %(asctime)s (tracebacks under some lines)' },
  { file: 'real-python-debug/sse-default-format/client.log', what: "the Python SDK client DEBUG log in BASIC_FORMAT (no times)" },
  { file: 'real-audit19/s2-python/client-legacy-asctime.log', what: 'a Python client DEBUG log across a server restart, with tracebacks' },
  { file: 'dotnet-logs/console.client.log', what: ".NET's console logger: each message on the line under its header, indented six spaces" },
  { file: 'real-app-log/py-pjl/server.ndjson', what: "python-json-logger lines, timed by their asctime" },
  { file: 'dotnet-logs/serilog-compact.client.ndjson', what: "Serilog's compact JSON, timed by @t" },
];

describe('text logs and logger lines inside log-platform envelopes', () => {
  for (const { file, what } of LOGS) {
    describe(what, async () => {
      const bare = await analyze({ inputs: [{ path: `${FIX}${file}` }] });

      it('the bare file has calls to compare (reference)', () => {
        expect(bare.attempts.length).toBeGreaterThan(2);
        expect(bare.summary.lines.unusable).toBe(0);
      });

      for (const name of Object.keys(ENVELOPES)) {
        it(`${name}: the same calls, outcomes, findings and times; no line unusable`, async () => {
          const r = await analyze({ inputs: [{ path: wrap(file, name) }] });
          expect(r.summary.lines.unusable).toBe(0);
          expect(rows(r)).toEqual(rows(bare));
        });
      }
    });
  }

  it("must not: a line with no time of its own takes the envelope's (bare JSON-RPC messages, as a console logger writes them)", async () => {
    const file = 'real-audit19/s1-ts-http/client-bare.log';
    const bare = await analyze({ inputs: [{ path: `${FIX}${file}` }] });
    expect(bare.attempts.every((a) => a.ts === undefined)).toBe(true);
    for (const name of ['loki', 'datadog', 'aws logs tail']) {
      const r = await analyze({ inputs: [{ path: wrap(file, name) }] });
      expect(r.attempts.length).toBe(bare.attempts.length);
      expect(r.attempts.every((a) => a.ts !== undefined && a.ts.startsWith('2026-12-06'))).toBe(true);
    }
  });

  it('must not: an `aws logs tail` line whose text is in no known format stays unusable, and says so', async () => {
    const path = join(dir, 'cw-unknown.log');
    writeFileSync(path, `${intake(0)} app/web-1 GET /health 200 1ms\n${intake(1)} app/web-1 listening on :8080\n`);
    const r = await analyze({ inputs: [{ path }] });
    expect(r.summary.lines.unusable).toBe(2);
    expect(r.summary.diagnostics.first[0]!.message).toBe('line is not JSON and matches no text log format');
  });
});
