// The 29th audit's hostile corpus (test/fixtures/redaction-audit, made by its gen.mjs): every output and view, run
// over canonical records, HAR entries, a whole HAR and a pino app log that carry secrets everywhere a capture puts
// them, must print none of the planted values that redaction can recognise, and must keep what the report needs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, cli } from './helpers.js';

const DIR = `${ROOT}test/fixtures/redaction-audit/`;
const FILES = ['canonical.ndjson', 'entries.har.ndjson', 'whole.har', 'app.jsonl'].map((f) => DIR + f);
const SECRETS = JSON.parse(readFileSync(`${DIR}secrets.json`, 'utf8')) as Record<string, string>;
/**
 * Planted on purpose where no redactor can know them, and not redacted by design (see the audit's report):
 * a word of prose after "token"/"key" (L24, L42, L58, L67), a logger name (L68), a value under a secret key that is an
 * object in JSON text (L63: a schema looks the same), and identifiers the report needs whole: session ids (L34, L53)
 * and a JSON-RPC id (L54).
 */
const NOT_REDACTABLE = new Set(['L24', 'L34', 'L42', 'L53', 'L54', 'L58', 'L63', 'L67', 'L68']);
const RUNS: string[][] = [
  [], ['--format', 'markdown'], ['--format', 'json'], ['--format', 'ndjson'],
  ['sessions'], ['sessions', '--format', 'markdown'], ['sessions', '--format', 'json'],
  ...['sess-audit-0001', 'har-sess-1', 'app-sess-1'].flatMap((s) => [['timeline', s], ['timeline', s, '--format', 'markdown'], ['timeline', s, '--format', 'json']]),
];

function argv(run: string[]): string[] {
  const view = run[0] === 'sessions' ? 1 : run[0] === 'timeline' ? 2 : 0;
  return [...run.slice(0, view), ...FILES, ...run.slice(view)];
}

describe('redaction audit corpus: no recognisable planted secret reaches any output', () => {
  it.each(RUNS.map((r) => [r.join(' ') || '(table)', r] as const))('%s', async (_name, run) => {
    const r = await cli(argv(run), { env: { COLUMNS: '400' } });
    const all = r.stdout + r.stderr;
    expect(r.stdout.length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(SECRETS)) {
      if (NOT_REDACTABLE.has(name)) continue;
      expect(all.includes(value), `${name} ${value}`).toBe(false);
      // Nor a recognisable piece of it (a secret cut in two and printed by halves).
      expect(all.includes(value.match(/LEAK\d\d/)![0]), `${name} piece`).toBe(false);
    }
  });

  it('keeps what the report needs: sessions, tool names, ids and outcome words', async () => {
    const r = await cli([...FILES, '--format', 'json']);
    const summary = JSON.parse(r.stdout) as { attempts: { session: string | null; tool: string | null; id: unknown; outcome: string }[] };
    const rows = JSON.stringify(summary);
    for (const word of ['sess-audit-0001', 'har-sess-1', 'app-sess-1', '"deploy"', '"TOOL_ERROR"', '"JSONRPC_ERROR"', '"HTTP_ERROR"', '"echo"'])
      expect(rows, word).toContain(word);
  });

  it('--no-redact shows the planted values (the corpus does carry them)', async () => {
    const r = await cli([...FILES, '--format', 'json', '--no-redact']);
    for (const name of ['L17', 'L21', 'L31', 'L35', 'L50', 'L64', 'L65', 'L75']) expect(r.stdout + r.stderr, name).toContain(SECRETS[name]!.match(/LEAK\d\d/)![0]);
  });
});
