// Report wording and layout found in a review of the table and Markdown reports on recorded traffic (audit 27).
import { describe, expect, it } from 'vitest';
import { cli, BOTH, SAMPLES } from '../cli/helpers.js';
import { evidenceOf, originsText } from '../../src/report/notes.js';
import { ROOT } from '../cli/helpers.js';

const ALL = [...BOTH, `${SAMPLES}claims.ndjson`, `${SAMPLES}capture.har.ndjson`, `${SAMPLES}stdio.ndjson`];
const UNKNOWN = 'unknown: a new request with the same tool and arguments; nothing in the logs says who sent it';

describe('the origin of the retries of a call', () => {
  it('says an origin once, naming the attempts it is of', () => {
    const o = { origin: 'unknown', how: 'a new request with the same tool and arguments; nothing in the logs says who sent it' };
    expect(originsText([{ attempt: 1 }, { attempt: 2, retryOrigin: o }])).toBe(UNKNOWN);
    expect(originsText([{ attempt: 1 }, { attempt: 2, retryOrigin: o }, { attempt: 3, retryOrigin: o }, { attempt: 4, retryOrigin: o }])).toBe(`#2–#4 ${UNKNOWN}`);
    const app = { origin: 'app', how: 'claimed by the client log' };
    expect(originsText([{ attempt: 1 }, { attempt: 2, retryOrigin: app }, { attempt: 3, retryOrigin: o }, { attempt: 4, retryOrigin: app }]))
      .toBe(`#2, #4 app: claimed by the client log; #3 ${UNKNOWN}`);
  });

  it('the samples get_status storm (three retries of unknown origin) says it once, in the table and the Markdown', async () => {
    const table = (await cli([...ALL], { env: { COLUMNS: '400' } })).stdout;
    const row = table.split('\n').find((l) => l.includes('│ c25 '))!;
    expect(row).toContain(`#2–#4 ${UNKNOWN}`);
    expect(row.split(UNKNOWN)).toHaveLength(2);
    const md = (await cli([...ALL, '--format', 'markdown'])).stdout;
    const mdRow = md.split('\n').find((l) => l.startsWith('| c25 |'))!;
    expect(mdRow.split('nothing in the logs says who sent it')).toHaveLength(2);
    expect(mdRow).toContain('#2–#4 unknown:');
  });
});

describe('evidence lines of a finding', () => {
  it('keeps a line of every file among the first ones, in their order', () => {
    const s = (file: string, line: number) => ({ file, line });
    const all = [s('c', 100), s('c', 163), s('c', 164), s('s', 111), s('s', 112)];
    expect(evidenceOf(all, 3)).toEqual([s('c', 100), s('c', 163), s('s', 111)]);
    expect(evidenceOf(all, 5)).toEqual(all);
    expect(evidenceOf([s('c', 1), s('c', 2), s('c', 3), s('c', 4)], 3)).toEqual([s('c', 1), s('c', 2), s('c', 3)]);
  });

  it("a SIDE_DIVERGENCE in a chaos run shows the server's line, not only three of the client's", async () => {
    const dir = `${ROOT}test/fixtures/real-chaos/seed-1/`;
    const args = ['--client', `${dir}client.ndjson.gz`, '--server', `${dir}server.ndjson.gz`];
    const table = (await cli(args, { env: { COLUMNS: '400' } })).stdout.split('\n');
    const at = table.findIndex((l) => l.includes('SIDE_DIVERGENCE') && l.includes('tools/call lookup id 2:'));
    expect(at).toBeGreaterThan(-1);
    const evidence = table.slice(at, at + 3).join('\n');
    expect(evidence).toMatch(/server\.ndjson\.gz:\d+/);
    const md = (await cli([...args, '--format', 'markdown'])).stdout.split('\n');
    const row = md.find((l) => l.includes('`SIDE_DIVERGENCE`') && l.includes('tools/call lookup id 2:'))!;
    // (the evidence cell ends with the server's line, then how many more lines the JSON lists: audit 87)
    expect(row).toMatch(/server\.ndjson\.gz:\d+(, \+\d+ more)? \|$/);
  });
});

describe('RETRY_ORIGIN_AMBIGUOUS in a log without an HTTP layer', () => {
  it('counts requests, not POSTs, in an app log; an HTTP log still says POST', async () => {
    const dir = `${ROOT}test/fixtures/real-app-log/pino-client/`;
    const md = (await cli(['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`, '--format', 'markdown'])).stdout;
    const row = md.split('\n').find((l) => l.includes('`RETRY_ORIGIN_AMBIGUOUS`'))!;
    expect(row).toContain('tools/call charge\\_card: request 2 of the call after UNANSWERED');
    expect(row).not.toContain('POST');
    const samples = (await cli([...ALL, '--format', 'markdown'])).stdout;
    expect(samples).toContain('tools/call get\\_status: POST 2 of the call after HTTP\\_ERROR');
  });
});

describe('the Markdown sequence diagrams', () => {
  it('note a retry or a continuation above its request, not under its answer', async () => {
    const md = (await cli([...ALL, '--format', 'markdown'])).stdout.split('\n');
    const retry = md.findIndex((l) => l.includes('C->>S: POST tools/call get_status id 8 (attempt 2)'));
    expect(md[retry - 1]).toBe('  Note over C: retry, origin unknown');
    const last = md.findIndex((l) => l.includes('C->>S: POST tools/call get_status id 10 (attempt 4)'));
    expect(md[last - 1]).toBe('  Note over C: retry, origin unknown');
    expect(md[last + 2]).not.toContain('Note over C');
    const cont = md.findIndex((l) => l.includes('C->>S: POST tools/call approve_refund id 2 (attempt 2)'));
    expect(md[cont - 1]).toBe('  Note over C: continuation (tools/call)');
  });
});

describe('the claimed column of the attempts that did not succeed', () => {
  it('is left out when no row shown has a claim, in the table and the Markdown; kept when one has', async () => {
    const dir = `${ROOT}test/fixtures/real-codex/http-503/`;
    const args = ['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`];
    for (const columns of ['80', '200']) {
      const out = (await cli(args, { env: { COLUMNS: columns } })).stdout;
      const head = out.split('\n').slice(out.split('\n').findIndex((l) => l.startsWith('Attempts that did not succeed')) + 1).slice(0, 3).join('\n');
      expect(head).toContain('method / tool');
      expect(head).not.toContain('claimed');
    }
    const md = (await cli([...args, '--format', 'markdown'])).stdout;
    expect(md).toContain('| time | session | id | call | method / tool | HTTP | outcome | layer | why | evidence |');
    const samples = (await cli([...ALL, '--format', 'markdown'])).stdout;
    expect(samples).toContain('| time | session | id | call | method / tool | HTTP | outcome | layer | claimed | why | evidence |');
    expect((await cli(ALL, { env: { COLUMNS: '400' } })).stdout).toMatch(/│ layer +│ claimed +│ why +│/);
  });
});

describe('SIDE_DIVERGENCE when the server sent no answer and the client view has one', () => {
  it('does not say a body was changed, nor "no HTTP status TOOL_SUCCESS" for a span', async () => {
    const dir = `${ROOT}test/fixtures/real-otlp/py-client-auto/`;
    const md = (await cli(['--client', `${dir}traces.jsonl`, '--server', `${dir}server.ndjson`, '--format', 'markdown'])).stdout;
    const row = md.split('\n').find((l) => l.includes('`SIDE_DIVERGENCE`'))!;
    expect(row).toContain('tools/call slow\\_report id 14: client saw TOOL\\_SUCCESS, server sent no response NO\\_RESPONSE: the server sent no answer');
    expect(row).not.toContain('changed the body');
    expect(row).not.toContain('no HTTP status');
  });
});

describe("a long claim (a client's quoted error text) in the wide layout", () => {
  it('goes under its row across the table, not down a column a word wide', async () => {
    const dir = `${ROOT}test/fixtures/real-gemini/otlp-http/`;
    const out = (await cli(['--client', `${dir}gemini-otlp.ndjson.gz`, '--server', `${dir}server.ndjson`], { env: { COLUMNS: '120' } })).stdout;
    const lines = out.split('\n');
    const at = lines.findIndex((l) => l.startsWith('Attempts that did not succeed'));
    expect(lines[at + 2]).toMatch(/│ time +│ session +│ id +│ call +│ method \/ tool +│ HTTP +│ outcome +│ layer +│$/);
    expect(out).toContain(`│ claimed: TOOL_ERROR "MCP tool 'validate_quantity' reported tool error for function call:`);
    const end = lines.findIndex((l, i) => i > at && l.startsWith('└'));
    expect(end - at).toBeLessThan(60); // it took 150 lines, one word of the claim a line
  });
});

describe('what an input cannot show', () => {
  it('is said once for two inputs of one format in a row, in the table and the Markdown', async () => {
    const dir = `${ROOT}test/fixtures/real-app-log/pino-client/`;
    const args = ['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`];
    const out = (await cli(args, { env: { COLUMNS: '120' } })).stdout;
    expect(out.match(/an application's own log: a message without an HTTP status/g)).toHaveLength(1);
    expect(out).toContain('│ cannot show: the same as the input above');
    const md = (await cli([...args, '--format', 'markdown'])).stdout;
    expect(md.match(/an application's own log: a message without an HTTP status/g)).toHaveLength(1);
    expect(md).toMatch(/real-app-log\/pino-client\/server\.ndjson \| server \| app-log \| 27 \| 13 \| 0 \| 14 \| 0 \| the same as the input above \|/);
    // Inputs of different formats each say theirs.
    const samples = (await cli([...ALL, '--format', 'markdown'])).stdout;
    expect(samples).not.toContain('the same as the input above');
  });
});

describe('Markdown findings of a session', () => {
  it('do not repeat the session id of the session column at the start of the message', async () => {
    const md = (await cli([...BOTH, '--format', 'markdown'])).stdout;
    const row = md.split('\n').find((l) => l.includes('`SESSION_EXPIRED`'))!;
    // (then the call column, empty for a session finding: audit 87)
    expect(row).toContain('| a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601 |  | HTTP 404 to tools/call search\\_tickets id 15 that carried the session id');
    expect(row.split('a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601')).toHaveLength(2);
    // The table report has no session column: its message keeps the id.
    expect((await cli(BOTH, { env: { COLUMNS: '400' } })).stdout).toContain('session a3f1c2d4-5b6e-4f70-8a91-b2c3d4e5f601: HTTP 404 to tools/call search_tickets id 15');
  });
});

describe('the narrow Inputs table', () => {
  it('says "1 item" (a JSON array document\'s), not "1 items" or "1 lines"', async () => {
    const out = (await cli([`${ROOT}test/fixtures/real-inspector/inspector-network-down-503.json`], { env: { COLUMNS: '80' } })).stdout;
    expect(out).toContain('│ 1 item: 1 used,');
    expect(out).not.toMatch(/1 (items|lines)/);
    expect((await cli(ALL, { env: { COLUMNS: '80' } })).stdout).toContain('47 lines: 47 used,');
  });
});

describe('the Inputs table of canonical records only', () => {
  it('has no cannot-show column (empty on every row), in the table and the Markdown; kept when one input has a text', async () => {
    const dir = `${ROOT}test/fixtures/real-codex/http-503/`;
    const args = ['--client', `${dir}client.ndjson`, '--server', `${dir}server.ndjson`];
    for (const columns of ['80', '120', '200']) {
      const out = (await cli(args, { env: { COLUMNS: columns } })).stdout;
      expect(out).not.toContain('cannot show');
    }
    expect((await cli([...args, '--format', 'markdown'])).stdout).toContain('| input | side | format | lines | used | blank | skipped | unusable |\n');
    expect((await cli([...ALL, '--format', 'markdown'])).stdout).toContain('| input | side | format | lines | used | blank | skipped | unusable | cannot show |');
  });
});

describe('the delay before a retry', () => {
  it('is cut as RETRY_POLICY cuts it, never rounded up to the policy minimum', async () => {
    const { retryDelay } = await import('../../src/report/notes.js');
    const sent = '2026-01-01T00:00:00.000Z';
    expect(retryDelay({ ts: sent, durationMs: 0.4 }, { ts: '2026-01-01T00:00:00.200Z' })).toBe('199.6 ms');
    expect(retryDelay({ ts: sent, durationMs: 10 }, { ts: '2026-01-01T00:00:00.260Z' })).toBe('250 ms');
    const out = (await cli([`${ROOT}test/fixtures/real-tshark/hop-503/capture.ek.ndjson`], { env: { COLUMNS: '200' } })).stdout;
    const said = /retry 1 came ([\d.]+ ms) after the failure/.exec(out)![1]!;
    expect(out).toContain(`#1 HTTP_ERROR (503) +${said} → #2 TOOL_SUCCESS (200)`);
  });
});
