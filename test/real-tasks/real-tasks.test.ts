// The analyzer on real task-augmented tool calls (MCP 2025-11-25 experimental tasks) of the TypeScript SDK 1.32.2,
// recorded by test/real-tasks/record.mjs into test/fixtures/real-tasks. A tools/call whose params carry `task`
// answers a CreateTaskResult ({task: {taskId, status, ...}}, no content): a valid, unfinished tool call. The client
// then polls tasks/get (a Task: status working / input_required / completed / failed / cancelled) and reads the real
// CallToolResult with tasks/result; tasks/cancel cancels the task.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnalysisResult, AttemptRow } from '../../src/index.js';
import { isFailure } from '../../src/outcomes.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { recordings, scenariosOf, type RecordingSide } from '../helpers/recordings.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real-tasks');
type Side = RecordingSide;
const { both, proxyOnly, file } = recordings(FIXTURES);

const SCENARIOS = scenariosOf(join(import.meta.dirname, 'record.mjs'));
/** The scenarios with at least one task-augmented tools/call. */
const TASK_SCENARIOS = SCENARIOS.filter((s) => s !== 'task-required-called-plain');
type Step = { step: string; ok?: boolean; summary?: unknown; error?: { code?: unknown; message?: string }; stream?: { type: string; status?: string; error?: { message: string } }[] };
const OBSERVED = JSON.parse(readFileSync(join(import.meta.dirname, 'observed.json'), 'utf8')) as Record<string, { steps: Step[]; elicitations: string[]; serverNotes: string[] }>;


const byId = (r: AnalysisResult, id: number, method: string): AttemptRow => {
  const a = r.attempts.find((x) => x.id === id && x.method === method);
  if (!a) throw new Error(`no ${method} attempt with id ${id}`);
  return a;
};
const codes = (a: AttemptRow | undefined) => (a?.findings ?? []).map((f) => f.code);
const allCodes = (r: AnalysisResult) => [...r.attempts.flatMap((a) => codes(a)), ...r.findings.map((f) => f.code)];

/** The records of one fixture file, parsed. */
function records(scenario: string, side: Side): Record<string, unknown>[] {
  return readFileSync(file(scenario, side), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

type Json = Record<string, unknown>;
/** One client request and its response, as the client's wire shows them. */
interface Exchange {
  id: number;
  method: string;
  params: Json;
  /** 1-based line of the request record in the client file. */
  line: number;
  result?: Json;
  error?: { code: number; message: string };
  /** Messages the server sent on this request's stream before the response (server->client requests). */
  serverRequests: Json[];
}

/** The client's requests with ids, in order, each with its response; taken from the recorded wire, not the analyzer. */
function exchanges(scenario: string): Exchange[] {
  const out: Exchange[] = [];
  const byXid = new Map<string, Exchange>();
  records(scenario, 'client').forEach((r, i) => {
    if (r.kind === 'request') {
      const send = r.send as { id?: number; method?: string; params?: Json } | undefined;
      if (send?.method === undefined || send.id === undefined) return;
      const x: Exchange = { id: send.id, method: send.method, params: send.params ?? {}, line: i + 1, serverRequests: [] };
      out.push(x);
      byXid.set(String(r.xid), x);
      return;
    }
    const body = r.kind === 'event' ? r.data : r.kind === 'end' ? r.recvText : undefined;
    const x = byXid.get(String(r.xid));
    if (typeof body !== 'string' || body === '' || !x) return;
    const m = JSON.parse(body) as Json;
    if (typeof m.method === 'string') x.serverRequests.push(m);
    else if (m.id === x.id) {
      if (m.result !== undefined) x.result = m.result as Json;
      if (m.error !== undefined) x.error = m.error as Exchange['error'];
    }
  });
  return out;
}

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** The task-augmented tools/call exchanges (params.task present) and the taskId each CreateTaskResult minted. */
function taskCalls(scenario: string): { call: Exchange; taskId: string }[] {
  return exchanges(scenario)
    .filter((x) => x.method === 'tools/call' && x.params.task !== undefined)
    .map((call) => ({ call, taskId: (call.result!.task as { taskId: string }).taskId }));
}
/** The one task-augmented tools/call of a scenario that makes exactly one. */
function onlyTask(scenario: string): { call: Exchange; taskId: string } {
  const all = taskCalls(scenario);
  if (all.length !== 1) throw new Error(`${scenario}: ${all.length} task-augmented tools/call, expected 1`);
  return all[0]!;
}
/** The tasks/* exchanges about one task. */
const aboutTask = (scenario: string, taskId: string, method?: string) =>
  exchanges(scenario).filter((x) => x.method.startsWith('tasks/') && x.params.taskId === taskId && (method === undefined || x.method === method));

// ---------------------------------------------------------------- the recordings themselves

describe('real-tasks fixtures: the recordings', () => {
  it('has the three files of every scenario of record.mjs, and what the caller observed', () => {
    expect(SCENARIOS).toHaveLength(7);
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) expect(existsSync(file(s, side)), `${s}.${side}`).toBe(true);
      expect(OBSERVED[s], `observed.json has ${s}`).toBeDefined();
      expect(OBSERVED[s]!.serverNotes, `${s}: the tasks' background work raised nothing`).toEqual([]);
    }
  });

  it('holds only valid canonical split records with the side the writer was given', () => {
    for (const s of SCENARIOS) {
      for (const side of ['client', 'server', 'proxy'] as const) {
        for (const rec of records(s, side)) expect(CanonicalRecordSchema.parse(rec).side).toBe(side === 'proxy' ? undefined : side);
      }
    }
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: the proxy and the client wrapper recorded the same wire', (scenario) => {
    const digest = (side: Side) =>
      records(scenario, side)
        .map((r) => {
          if (r.kind === 'request') return `request ${String(r.method)} ${JSON.stringify(r.send ?? null)}`;
          if (r.kind === 'response') return `response ${String(r.status)}`;
          if (r.kind === 'event') return `event ${String(r.data)}`;
          return `end ${String(r.end)} ${String(r.recvText ?? '')}`;
        })
        .sort();
    expect(digest('proxy')).toEqual(digest('client'));
  });

  it('2025-11-25 with a session; the server announces capabilities.tasks {list, cancel, requests.tools.call}; tools/list gives execution.taskSupport', () => {
    for (const s of SCENARIOS) {
      const xs = exchanges(s);
      const init = xs.find((x) => x.method === 'initialize')!;
      expect(init.result!.protocolVersion).toBe('2025-11-25');
      expect((init.result!.capabilities as Json).tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const tools = (xs.find((x) => x.method === 'tools/list')!.result!.tools as { name: string; execution?: { taskSupport?: string } }[]).map((t) => [t.name, t.execution?.taskSupport]);
      expect(tools).toEqual([
        ['lookup_order', 'forbidden'],
        ['build_report', 'optional'],
        ['import_orders', 'required'],
        ['export_archive', 'required'],
        ['approve_refund', 'required'],
      ]);
    }
  });

  it('a task-augmented tools/call is answered at once with a CreateTaskResult: {task: {taskId, status "working", ttl, createdAt, lastUpdatedAt, pollInterval}}, no content', () => {
    for (const s of TASK_SCENARIOS) {
      const tcs = taskCalls(s);
      expect(tcs.length, s).toBeGreaterThan(0);
      for (const { call } of tcs) {
        expect(call.params.task).toEqual({ ttl: 60000 });
        expect(Object.keys(call.result!)).toEqual(['task']);
        const task = call.result!.task as Json;
        expect(Object.keys(task).sort()).toEqual(['createdAt', 'lastUpdatedAt', 'pollInterval', 'status', 'taskId', 'ttl']);
        expect([task.status, task.ttl, task.pollInterval]).toEqual(['working', 60000, 100]);
        expect(task.taskId).toMatch(/^[0-9a-f]{32}$/);
      }
    }
  });

  it('tasks/get answers the Task itself (taskId, status, ...), and tasks/result the CallToolResult with _meta[related-task].taskId', () => {
    for (const s of TASK_SCENARIOS) {
      for (const { taskId } of taskCalls(s)) {
        for (const g of aboutTask(s, taskId, 'tasks/get')) {
          expect(g.result!.taskId).toBe(taskId);
          expect(['working', 'input_required', 'completed', 'failed', 'cancelled']).toContain(g.result!.status);
          expect(g.result!.content).toBeUndefined();
        }
        for (const res of aboutTask(s, taskId, 'tasks/result').filter((x) => x.result)) {
          expect(Array.isArray(res.result!.content)).toBe(true);
          expect((res.result!._meta as Json)[RELATED_TASK]).toEqual({ taskId });
        }
      }
    }
  });

  // An SDK 1.32.2 quirk worth knowing when reading these logs: callToolStream passes its `task` option on to the
  // tasks/get and tasks/result requests it makes, so their params carry `task` too.
  it('task-completed: the SDK client repeats params.task on the tasks/get and tasks/result of callToolStream', () => {
    const { taskId } = onlyTask('task-completed');
    for (const x of aboutTask('task-completed', taskId)) expect(x.params).toEqual({ taskId, task: { ttl: 60000 } });
  });

  it('status changes also go out as notifications/tasks/status on the standalone GET stream', () => {
    const statuses = records('task-failed', 'client')
      .filter((r) => r.kind === 'event' && String(r.data).includes('notifications/tasks/status'))
      .map((r) => (JSON.parse(String(r.data)) as { params: { status: string } }).params.status);
    expect(statuses).toEqual(['failed']);
  });
});

// ---------------------------------------------------------------- every scenario

describe('real-tasks: every scenario', () => {
  it.each(SCENARIOS.map((s) => [s]))('%s: every line used, no diagnostics, every attempt joined with its server view', async (scenario) => {
    const r = await both(scenario);
    expect(r.summary.lines.unusable).toBe(0);
    expect(r.summary.lines.used).toBe(r.summary.lines.read);
    expect(r.summary.diagnostics.total).toBe(0);
    for (const a of r.attempts) expect(a.serverOutcome, `${a.method} ${JSON.stringify(a.id)}`).toBe(a.outcome);
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: the proxy file alone gives the same outcomes as the client view', async (scenario) => {
    const [b, p] = await Promise.all([both(scenario), proxyOnly(scenario)]);
    const line = (a: AttemptRow) => `${a.method} ${JSON.stringify(a.id)} ${a.tool ?? ''} ${a.status} ${a.outcome}`;
    expect(p.attempts.map(line).sort()).toEqual(b.attempts.map(line).sort());
  });

  it.each(SCENARIOS.map((s) => [s]))('%s: one attempt per JSON-RPC request the client sent', async (scenario) => {
    const r = await both(scenario);
    expect(r.attempts.map((a) => `${a.method} ${JSON.stringify(a.id)}`)).toEqual(exchanges(scenario).map((x) => `${x.method} ${x.id}`));
  });
});

// ---------------------------------------------------------------- plain calls and tasks/* requests

describe('real-tasks: plain calls and tasks/* requests', () => {
  it('task-completed: the plain call and the optional task tool called without params.task are TOOL_SUCCESS', async () => {
    const r = await both('task-completed');
    const plain = r.attempts.filter((a) => a.method === 'tools/call' && !taskCalls('task-completed').some((t) => t.call.id === a.id));
    expect(plain.map((a) => [a.tool, a.outcome, a.layer])).toEqual([
      ['lookup_order', 'TOOL_SUCCESS', 'application'],
      ['build_report', 'TOOL_SUCCESS', 'application'],
    ]);
  });

  // tasks/get, tasks/list and tasks/cancel answer valid results about the task: SUCCESS at the attempt level, whatever
  // status they report (input_required, failed and cancelled are facts about the task, not failed requests).
  it.each(TASK_SCENARIOS.map((s) => [s]))('%s: tasks/get, tasks/list and tasks/cancel are SUCCESS', async (scenario) => {
    const r = await both(scenario);
    for (const a of r.attempts.filter((x) => ['tasks/get', 'tasks/list', 'tasks/cancel'].includes(x.method))) {
      expect([a.method, a.status, a.outcome, a.layer]).toEqual([a.method, 200, 'SUCCESS', 'application']);
    }
  });

  it('task-cancelled: tasks/cancel answers the Task with status cancelled; tasks/result afterwards is a real JSON-RPC error -32603', async () => {
    const r = await both('task-cancelled');
    const { taskId } = onlyTask('task-cancelled');
    const cancel = aboutTask('task-cancelled', taskId, 'tasks/cancel')[0]!;
    expect([cancel.result!.status, cancel.result!.statusMessage]).toEqual(['cancelled', 'Client cancelled task execution.']);
    expect(aboutTask('task-cancelled', taskId, 'tasks/get').map((g) => g.result!.status)).toEqual(['working', 'cancelled']);
    const after = aboutTask('task-cancelled', taskId, 'tasks/result')[0]!;
    expect(after.error).toEqual({ code: -32603, message: `Task ${taskId} has no result stored` });
    const a = byId(r, after.id, 'tasks/result');
    expect([a.outcome, a.layer, a.detail?.errorCode]).toEqual(['JSONRPC_ERROR', 'protocol', -32603]);
    expect(OBSERVED['task-cancelled']!.steps.find((s) => s.step === 'tasks/result (after cancel)')!.error?.code).toBe(-32603);
  });

  it('task-input-required: elicitation/create (related-task _meta) rides on the tasks/result stream; the client answer is no attempt and no orphan', async () => {
    const r = await both('task-input-required');
    const { taskId } = onlyTask('task-input-required');
    const polled = aboutTask('task-input-required', taskId, 'tasks/get').map((g) => g.result!.status);
    expect(polled.at(-1)).toBe('input_required');
    expect(new Set(polled.slice(0, -1))).toEqual(new Set(['working']));
    const res = aboutTask('task-input-required', taskId, 'tasks/result')[0]!;
    expect(res.serverRequests.map((m) => [m.method, (m.params as { _meta: Json })._meta[RELATED_TASK]])).toEqual([['elicitation/create', { taskId }]]);
    expect(byId(r, res.id, 'tasks/result').sse).toMatchObject({ events: 2, serverRequests: 1, end: 'complete' });
    expect(OBSERVED['task-input-required']!.elicitations).toEqual(['Refund order 1001?']);
    expect(allCodes(r)).not.toContain('ORPHAN_RESPONSE');
  });

  // McpServer 1.32.2 turns its own McpError(-32601, "requires task augmentation") into a CallToolResult with
  // isError: true (the spec asks a JSON-RPC error, -32601 or -32600). The wire says tool error, and so does mcp-triage.
  it('task-required-called-plain: a required task tool called without params.task: the SDK answers isError, TOOL_ERROR', async () => {
    const r = await both('task-required-called-plain');
    const a = r.attempts.find((x) => x.method === 'tools/call')!;
    expect([a.tool, a.outcome, a.layer]).toEqual(['import_orders', 'TOOL_ERROR', 'application']);
    expect(a.detail?.errorMessage).toBe("MCP error -32601: Tool import_orders requires task augmentation (taskSupport: 'required')");
    // Client.callTool refused it locally first: nothing went on the wire for that step.
    expect(OBSERVED['task-required-called-plain']!.steps[1]!.error?.code).toBe(-32600);
    expect(r.attempts.filter((x) => x.method === 'tools/call')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- tasks: outcomes, linking, how a task ended

describe('real-tasks: a CreateTaskResult is a valid, unfinished tool call', () => {
  // A CreateTaskResult {task: {...}} answers a tools/call that asked for a task (params.task): TASK_CREATED, an
  // unfinished call (layer interaction), never INVALID_TOOL_RESULT.
  it.each(TASK_SCENARIOS.map((s) => [s]))('%s: the CreateTaskResult is not INVALID_TOOL_RESULT, not a failure, not a protocol error', async (scenario) => {
    const r = await both(scenario);
    for (const { call } of taskCalls(scenario)) {
      const a = byId(r, call.id, 'tools/call');
      expect(a.outcome).not.toBe('INVALID_TOOL_RESULT');
      expect(isFailure(a.outcome)).toBe(false);
      expect(a.layer).not.toBe('protocol');
      expect(a.serverOutcome).toBe(a.outcome);
    }
    expect(r.summary.byOutcome.INVALID_TOOL_RESULT ?? 0).toBe(0);
  });

});

describe('real-tasks: tasks/result carries the tool outcome', () => {
  // tasks/result of a tools/call task hands back the real CallToolResult: isError: true there is TOOL_ERROR.
  it('task-failed: tasks/result with isError: true is TOOL_ERROR (application) with the tool message', async () => {
    const r = await both('task-failed');
    const { taskId } = onlyTask('task-failed');
    const res = aboutTask('task-failed', taskId, 'tasks/result')[0]!;
    expect(res.result!.isError).toBe(true);
    const a = byId(r, res.id, 'tasks/result');
    expect([a.outcome, a.layer]).toEqual(['TOOL_ERROR', 'application']);
    expect(a.detail?.errorMessage).toBe('import of orders-2026-01.csv failed: line 7 has no order id');
    // The polls before it say how the task stood: working, then failed.
    const polls = r.attempts.filter((x) => x.method === 'tasks/get').map((x) => x.detail?.why);
    expect(polls[polls.length - 1]).toMatch(/^task failed/);
    expect(polls[0]).toBe('task working');
  });

  // ...and a CallToolResult without isError is TOOL_SUCCESS.
  it.each([['task-completed'], ['task-input-required'], ['task-result-blocks'], ['task-twice-same-args']])('%s: tasks/result with a CallToolResult is TOOL_SUCCESS', async (scenario) => {
    const r = await both(scenario);
    for (const { taskId } of taskCalls(scenario)) {
      for (const res of aboutTask(scenario, taskId, 'tasks/result')) expect(byId(r, res.id, 'tasks/result').outcome).toBe('TOOL_SUCCESS');
    }
  });

});

describe('real-tasks: tasks/* requests belong to the tool call that created the task', () => {
  // tasks/get, tasks/result and tasks/cancel join the call whose CreateTaskResult minted their taskId, as
  // continuations (not retries).
  it.each(TASK_SCENARIOS.map((s) => [s]))('%s: every tasks/get, tasks/result and tasks/cancel joins the call of its tools/call', async (scenario) => {
    const r = await both(scenario);
    for (const { call, taskId } of taskCalls(scenario)) {
      const origin = byId(r, call.id, 'tools/call');
      for (const x of aboutTask(scenario, taskId)) {
        const a = byId(r, x.id, x.method);
        expect(a.call, `${x.method} id ${x.id} belongs to tools/call id ${call.id}`).toBe(origin.call);
        expect(a.retryOrigin?.origin ?? 'none').toBe('none');
      }
    }
    expect(r.summary.retries).toBe(0);
  });

});

describe('real-tasks: the same task call made twice is two calls, not a retry', () => {
  // A completed task is no failure: the next tools/call with the same arguments is a call of its own.
  it('task-twice-same-args: two tools/call, each attempt 1 of its own call; no retries, no RETRY_ORIGIN_AMBIGUOUS', async () => {
    const r = await both('task-twice-same-args');
    const [first, second] = taskCalls('task-twice-same-args').map((t) => byId(r, t.call.id, 'tools/call'));
    expect(first!.call).not.toBe(second!.call);
    expect([first!.attempt, second!.attempt]).toEqual([1, 1]);
    expect(r.summary.retries).toBe(0);
    expect(allCodes(r)).not.toContain('RETRY_ORIGIN_AMBIGUOUS');
  });

});

describe('real-tasks: how a task ended is reported', () => {
  // On 2025-11-25 a task is cancelled with tasks/cancel: CANCELLED, on the call's tasks/cancel attempt.
  it('task-cancelled: tasks/cancel of the task is a CANCELLED finding on its tool call', async () => {
    const r = await both('task-cancelled');
    const { call } = onlyTask('task-cancelled');
    const origin = byId(r, call.id, 'tools/call');
    const onCall = r.attempts.filter((a) => a.call === origin.call).flatMap((a) => codes(a));
    expect(onCall).toContain('CANCELLED');
  });

  // The task's failure (tasks/result isError: true) is a TOOL_ERROR in the call of the tools/call that created it.
  it('task-failed: the tool call whose task failed is reported as a tool failure', async () => {
    const r = await both('task-failed');
    const { call } = onlyTask('task-failed');
    const origin = byId(r, call.id, 'tools/call');
    expect(r.attempts.filter((a) => a.call === origin.call).map((a) => a.outcome)).toContain('TOOL_ERROR');
  });

});
