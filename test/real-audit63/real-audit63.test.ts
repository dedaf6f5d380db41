// The test kitchen's unregistered catalog, auth and elicitation scenarios (test/fixtures/real-audit63, emulated by
// test/real-audit63/kitchen63.mjs in front of real SDK servers, recorded with real clients behind a judge's app): what
// mcp-triage says of each list page, call and connect, in each view, against what the app saw (observed.json). Two
// fixes: a follow-up that answered the server's elicitation decline or cancel says its isError is that answer, and a
// call refused as an unknown tool that the client's last tools/list listed says the server's catalog changed.
// AUDIT63_BIN runs another build (the base's, to see the fixes' tests fail). node test/real-audit63/record.mjs re-records.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, type ReportAttempt, type ReportFinding } from '../helpers/triage-cli.js';

const DIR = fileURLToPath(new URL('../fixtures/real-audit63/', import.meta.url));
const bin = process.env.AUDIT63_BIN ?? BIN;
interface Step { step: string; tool?: string; ok?: boolean; isError?: boolean; action?: string; items?: string[]; error?: { code?: number | string; name?: string; message?: string } }
interface Observed { client: string; scenario: string; steps: Step[]; kitchen: Record<string, unknown>[] }
type Attempt = ReportAttempt & { detail?: { why?: string; errorCode?: number; errorMessage?: string } };
interface Run { attempts: Attempt[]; findings: ReportFinding[] }

const observed = (c: string) => JSON.parse(readFileSync(`${DIR}${c}/observed.json`, 'utf8')) as Observed;
type View = 'client' | 'proxy' | 'both';
const cache = new Map<string, Run>();
function run(c: string, view: View = 'both'): Run {
  const key = `${c}|${view}`;
  let r = cache.get(key);
  if (!r) {
    const f = (n: string) => `${DIR}${c}/${n}.ndjson`;
    const args = { client: ['--client', f('client')], proxy: ['--client', f('proxy')], both: ['--client', f('client'), '--server', f('server')] }[view];
    const p = spawnSync(process.execPath, [bin, '--format', 'ndjson', ...args], { encoding: 'utf8', timeout: 30_000 });
    const lines = p.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string } & Record<string, unknown>);
    r = { attempts: lines.filter((l) => l.type === 'attempt') as unknown as Attempt[], findings: lines.filter((l) => l.type === 'finding') as unknown as ReportFinding[] };
    cache.set(key, r);
  }
  return r;
}
const views = (c: string): View[] => (c.startsWith('py-') ? ['client', 'both'] : ['client', 'proxy', 'both']);
const codes = (r: Run) => [...r.findings, ...r.attempts.flatMap((a) => a.findings)].map((f) => f.code);
const LISTED = ['resources/list', 'prompts/list', 'tools/call'];
/** The app's list pages (but tools/list: the Python SDK lists tools itself too) and calls, as their attempts should read. */
function expected(o: Observed): string[] {
  return o.steps.flatMap((s) => {
    const m = /^list (resources|prompts) page/.exec(s.step);
    if (m) return [`${m[1]}/list ${s.ok ? 'SUCCESS' : typeof s.error?.code === 'number' ? 'JSONRPC_ERROR' : 'INVALID_RESULT'}`];
    if (!s.step.startsWith('call ')) return [];
    return [`tools/call ${s.ok ? (s.isError ? 'TOOL_ERROR' : 'TOOL_SUCCESS') : 'JSONRPC_ERROR'}`];
  });
}
// the input_required legs are no step of the app: the SDK answered them itself
const shape = (r: Run) => r.attempts.filter((a) => LISTED.includes(a.method) && a.outcome !== 'INPUT_REQUIRED').map((a) => `${a.method} ${a.outcome}`);

const ALL = readFileSync(`${DIR}../../real-audit63/record.mjs`, 'utf8').match(/^ {2}'([a-z0-9-]+)': \{ client/gm)!.map((l) => l.trim().split("'")[1]!);

describe('the kitchen\'s catalog, auth and elicitation scenarios: every list page and call as the app saw it', () => {
  it.each(ALL.filter((c) => !/token/.test(c)))('%s: each view shows the app\'s list pages and calls, in order', (c) => {
    const want = expected(observed(c));
    for (const v of views(c)) expect(shape(run(c, v)), v).toEqual(want);
  });

  it('the kitchen\'s last page ("nextCursor": null) is an INVALID_RESULT for the SDK 1.32.2 client, the 2026-07-28 page (no resultType) for the v2 and Python clients; the Python client on 2025-11-25 took every page', () => {
    const bad = (c: string) => run(c).attempts.filter((a) => a.outcome === 'INVALID_RESULT').map((a) => a.detail?.why ?? '');
    expect(bad('ts-pagination')).toHaveLength(1);
    expect(bad('ts-pagination')[0]).toMatch(/nextCursor is null/);
    for (const c of ['v2-pagination', 'py-pagination-modern']) expect(bad(c), c).toEqual([expect.stringMatching(/no resultType, on protocol 2026-07-28/)]);
    expect(bad('py-pagination')).toEqual([]);
    expect(run('py-pagination').attempts.filter((a) => a.method === 'resources/list')).toHaveLength(4);
  });

  it('auth.token_lifecycle: the scenario\'s bare 401 is the first connect\'s HTTP error, in the server\'s log too; the reconnect worked; rejected to the end, the call was never sent', () => {
    for (const c of ['ts-token-lifecycle', 'v2-token-lifecycle', 'v2-token-lifecycle-retry', 'py-token-lifecycle']) {
      for (const v of views(c)) {
        const r = run(c, v);
        const opening = r.attempts.filter((a) => a.method === 'initialize' || a.method === 'server/discover');
        expect(opening.map((a) => `${a.status} ${a.outcome}`), `${c} ${v}`).toEqual(['401 HTTP_ERROR', '200 SUCCESS']);
        expect(r.attempts.filter((a) => a.method === 'tools/call').map((a) => a.outcome), `${c} ${v}`).toEqual(['TOOL_SUCCESS']);
        expect(codes(r), `${c} ${v}`).not.toContain('CALL_NEVER_SENT');
      }
    }
    // the 401 is the kitchen's scenario layer, inside its observations: the server's log holds it
    const server = spawnSync(process.execPath, [bin, '--format', 'ndjson', '--server', `${DIR}ts-token-lifecycle/server.ndjson`], { encoding: 'utf8' }).stdout;
    expect(server).toMatch(/"status":401,"outcome":"HTTP_ERROR"/);
    for (const c of ['ts-token-lifecycle-3', 'py-token-forever']) {
      const r = run(c);
      expect(r.attempts.map((a) => `${a.status} ${a.outcome}`), c).toEqual(['401 HTTP_ERROR', '401 HTTP_ERROR', '401 HTTP_ERROR']);
      expect(codes(r), c).toContain('CALL_NEVER_SENT');
    }
  });

  it('no call here ran twice where it should not: no UNSAFE_RETRY, no NO_FINAL_RESULT (the -32602 and -32601 refusals ran nothing)', () => {
    for (const c of ALL) for (const v of views(c)) expect(codes(run(c, v)), `${c} ${v}`).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(UNSAFE_RETRY|NO_FINAL_RESULT)$/)]));
  });
});

describe('fix: a follow-up that declined or cancelled the server\'s elicitation says its isError is that answer', () => {
  const why = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call' && a.outcome === 'TOOL_ERROR').map((a) => a.detail?.why ?? '');
  it.each([
    ['v2-decline', ['decline', 'cancel']],
    ['py-decline-modern', ['decline', 'cancel']],
    ['v2-url-mode', ['decline']],
    ['py-url-mode-modern', ['cancel']],
  ] as const)('%s: each TOOL_ERROR names the answer its request carried', (c, actions) => {
    for (const v of views(c)) {
      expect(why(run(c, v)), `${c} ${v}`).toEqual(actions.map((a) => expect.stringContaining(`answered the server's input request "elicitation" with "${a}" (its inputResponses)`)));
    }
  });
  it('near misses: the accepted follow-up, an "unsupported" isError on 2025-11-25 and errors.tool_error\'s isError say nothing of it', () => {
    const accepted = run('v2-decline').attempts.filter((a) => a.method === 'tools/call' && a.outcome === 'TOOL_SUCCESS');
    expect(accepted).toHaveLength(1);
    expect(accepted[0]!.detail?.why ?? '').not.toMatch(/inputResponses/);
    for (const c of ['ts-decline-legacy', 'py-url-mode-legacy']) expect(why(run(c)), c).toEqual(['']);
    const toolError = spawnSync(process.execPath, [bin, '--format', 'ndjson', '--client', `${DIR}../real-audit56/ts-tool-error/client.ndjson`], { encoding: 'utf8' }).stdout;
    expect(toolError).toMatch(/"outcome":"TOOL_ERROR"/);
    expect(toolError).not.toMatch(/inputResponses/);
  });
});

describe('fix: a call refused as an unknown tool that the last tools/list listed says the server\'s catalog changed', () => {
  const refused = (r: Run) => r.attempts.filter((a) => a.method === 'tools/call' && (a.outcome === 'JSONRPC_ERROR' || a.outcome === 'TOOL_ERROR'));
  it.each(['ts-mutation-remove', 'v2-mutation-remove', 'py-mutation-rename', 'ts-mutation-sdk1-server'])('%s: the refused calls of extra_tool (after it vanished) say it was listed', (c) => {
    for (const v of views(c)) {
      const r = refused(run(c, v));
      expect(r.length, `${c} ${v}`).toBeGreaterThan(0);
      for (const a of r) {
        expect(a.tool).toBe('extra_tool');
        expect(a.detail?.why ?? '', `${c} ${v}`).toMatch(/^extra_tool was in the last tools\/list this client got before the call, and the server now refuses it as unknown: its catalog changed/);
      }
    }
  });
  it('the thirty-second audit\'s tools-evolve (stateful: the client got list_changed and still called the removed tool) says it too', () => {
    const out = spawnSync(process.execPath, [bin, '--format', 'ndjson', '--client', `${DIR}../real-audit32/tools-evolve/client.ndjson`], { encoding: 'utf8' }).stdout;
    const beta = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Attempt).filter((a) => a.tool === 'beta' && a.outcome === 'TOOL_ERROR');
    expect(beta).toHaveLength(1);
    expect(beta[0]!.detail?.why ?? '').toMatch(/^beta was in the last tools\/list this client got before the call/);
  });
  it('near miss: a tool called before any listing showed it is refused with no such why', () => {
    for (const v of views('ts-mutation-unlisted')) {
      const r = refused(run('ts-mutation-unlisted', v));
      expect(r.map((a) => `${a.outcome} ${a.detail?.errorCode}`), v).toEqual(['JSONRPC_ERROR -32602']);
      expect(r[0]!.detail?.why ?? '', v).not.toMatch(/last tools\/list/);
    }
  });
});

describe('stop 47: a list page whose nextCursor is the cursor its request sent (catalog.pagination cursor_loop)', () => {
  it('py-pagination-loop: every page after the first says its nextCursor hands back the cursor it was asked with; the first, and the app\'s tool call, say nothing of it', () => {
    const steps = observed('py-pagination-loop').steps.filter((s) => s.step.startsWith('list resources'));
    expect(steps.length).toBe(6);
    for (const view of ['client', 'both'] as const) {
      const pages = run('py-pagination-loop', view).attempts.filter((a) => a.method === 'resources/list');
      expect(pages.map((a) => a.outcome)).toEqual(Array(6).fill('SUCCESS'));
      expect(pages.map((a) => /^its nextCursor "loop" is the cursor this request sent/.test(a.detail?.why ?? ''))).toEqual([false, true, true, true, true, true]);
    }
  });

  it('near miss: pages that advance (page-1, page-2, ...) say nothing of it', () => {
    const pages = run('py-pagination').attempts.filter((a) => a.method === 'resources/list');
    expect(pages.length).toBeGreaterThan(2);
    expect(pages.some((a) => /is the cursor this request sent/.test(a.detail?.why ?? ''))).toBe(false);
  });
});

describe('stop 48: a list page that repeats the page before it (catalog.pagination duplicate_page)', () => {
  it('py-pagination-duplicate: the page asked with page 1\'s nextCursor holds page 1\'s items again and says so, and that the list ends there; page 1 says nothing of it', () => {
    const listed = observed('py-pagination-duplicate').steps.filter((s) => s.step.startsWith('list resources'));
    expect(listed.map((s) => s.items)).toEqual([listed[0]!.items, listed[0]!.items]);
    for (const view of ['client', 'both'] as const) {
      const pages = run('py-pagination-duplicate', view).attempts.filter((a) => a.method === 'resources/list');
      expect(pages.map((a) => a.outcome)).toEqual(['SUCCESS', 'SUCCESS']);
      expect(pages[0]!.detail?.why ?? '').not.toMatch(/page before it/);
      expect(pages[1]!.detail?.why).toMatch(/its 3 items are those of the page before it, whose nextCursor "page-1" this request sent: .*the list ends there/);
    }
  });

  it('near misses: pages that advance, and a cursor that loops over new items, say nothing of it', () => {
    for (const c of ['py-pagination', 'py-pagination-loop', 'py-pagination-prompts']) {
      const pages = run(c).attempts.filter((a) => a.method === 'resources/list' || a.method === 'prompts/list');
      expect(pages.length).toBeGreaterThan(1);
      expect(pages.some((a) => /page before it/.test(a.detail?.why ?? ''))).toBe(false);
    }
  });
});
