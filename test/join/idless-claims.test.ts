// Claims without a JSON-RPC id (Claude Code's log): joined to the wire by tool and time, else calls of their own, never held without bound.
import { describe, expect, it } from 'vitest';
import { Matcher, type Attempt } from '../../src/join/match.js';
import type { ClaimIn } from '../../src/normalize.js';
import { analyzeInputs, at, ok, post, toolText } from '../helpers/analyze.js';

/** A canonical claim record as the claude-code adapter writes it: tool, end time, duration, no id. */
const claim = (t: number, tool: string, fields: Record<string, unknown>) => ({ v: 1, kind: 'claim', ts: at(t), side: 'client', conn: 'web', claim: { client: 'claude-code', method: 'tools/call', tool, ...fields } });

describe('id-less claims', () => {
  it('join the call of their tool that started nearest the start they state, and before their end', async () => {
    const wire = [
      post({ t: 0, id: 1, session: 'S', status: 200, tool: 'get_status', body: ok(1, toolText('up')), durationMs: 40 }),
      post({ t: 1_000, id: 2, session: 'S', status: 503, tool: 'get_status', body: 'busy', durationMs: 10 }),
    ];
    const log = [claim(45, 'get_status', { outcome: 'TOOL_SUCCESS', durationMs: 50 }), claim(1_020, 'get_status', { outcome: 'HTTP_ERROR', durationMs: 25 })];
    const r = await analyzeInputs([{ lines: wire }, { lines: log }]);
    const byId = new Map(r.attempts.map((a) => [a.id, a]));
    expect(byId.get(1)!.claim?.outcome).toBe('TOOL_SUCCESS');
    expect(byId.get(2)!.claim?.outcome).toBe('HTTP_ERROR');
    expect(r.attempts.flatMap((a) => a.findings.map((f) => f.code))).not.toContain('OUTCOME_MISMATCH');
    expect(r.summary.claims).toMatchObject({ total: 2, matched: 2, alone: 0, unmatched: [] });
  });

  it('do not join a request that started after the client logged the end, nor HTTP traffic when the call went over stdio', async () => {
    const wire = [post({ t: 1_000, id: 2, session: 'S', status: 200, tool: 'get_status', body: ok(2, toolText('up')), durationMs: 10 })];
    const log = [claim(900, 'get_status', { outcome: 'TOOL_SUCCESS', durationMs: 50 }), claim(1_030, 'get_status', { outcome: 'TOOL_SUCCESS', durationMs: 40, transport: 'stdio' })];
    const r = await analyzeInputs([{ lines: wire }, { lines: log }]);
    expect(r.attempts.find((a) => a.id === 2)!.claim).toBeUndefined();
    expect(r.summary.claims).toMatchObject({ total: 2, matched: 0, alone: 2 });
    expect(r.attempts.filter((a) => a.claim?.only).map((a) => a.outcome)).toEqual(['TOOL_SUCCESS', 'TOOL_SUCCESS']);
  });

  it('with no wire: each is a call of its own with the outcome it states, else UNANSWERED and the client\'s words', async () => {
    const r = await analyzeInputs([{ lines: [claim(100, 'a', { outcome: 'TOOL_ERROR', message: 'nope' }), claim(200, 'b', { message: 'MCP server "web" tool "b" timed out after 3s' })] }]);
    expect(r.attempts.map((a) => `${a.tool} ${a.outcome} ${a.id}`)).toEqual(['a TOOL_ERROR log line 1', 'b UNANSWERED log line 2']);
    expect(r.attempts[1]!.detail?.why).toMatch(/^claude-code logged: MCP server "web" tool "b" timed out after 3s/);
  });

  it('that no attempt takes are released as calls once the window and skew have passed twice, not held to the end', () => {
    const out: Attempt[] = [];
    const m = new Matcher({ windowMs: 60_000, skewMs: 120_000, bothSides: false, onAttempt: (a) => out.push(a) });
    let most = 0;
    for (let i = 0; i < 2_000; i++) {
      const ts = i * 5_000;
      const c: ClaimIn = { input: 0, ts, session: null, conn: 'web', src: { file: 'mcp-logs-web.jsonl', line: i + 1 }, claim: { client: 'claude-code', method: 'tools/call', tool: `t${i}`, outcome: 'TOOL_SUCCESS' } };
      m.claim(c);
      m.advance(ts);
      most = Math.max(most, m.pendingClaimCount);
    }
    expect(most).toBeLessThan(100);
    m.flush();
    expect(out).toHaveLength(2_000);
    expect(m.unmatchedClaims).toEqual([]);
  });
});
