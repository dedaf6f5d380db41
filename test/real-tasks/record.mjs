// Records real task-augmented tool calls (MCP 2025-11-25 experimental tasks) between the official TypeScript SDK
// 1.32.2 client and server on 127.0.0.1, through mcp-triage's own capture, as test/real/record.mjs does:
//   SDK Client --recordingFetch--> recording proxy --> recordingHandler --> SDK server (McpServer + InMemoryTaskStore)
//              <scenario>.client    <scenario>.proxy    <scenario>.server
// The server declares capabilities.tasks (list, cancel, requests.tools.call) and registers task tools with
// server.experimental.tasks.registerToolTask; the client drives them with client.experimental.tasks.callToolStream
// (tools/call with params.task -> CreateTaskResult, then tasks/get polling, then tasks/result) or by hand.
// The v2 SDK (@modelcontextprotocol/client, /server 2.4.0) has task wire schemas but no task runtime (no task store,
// no registerToolTask, no client task API, no resultType "task"), so there is nothing of v2 to record here.
// Output: test/fixtures/real-tasks/<scenario>.{client,server,proxy}.ndjson and test/real-tasks/observed.json (what
// the SDK caller saw). Run: npx tsc -p tsconfig.json && node test/real-tasks/record.mjs [scenario...]   (about 5 s)
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { recordingFetch, recordingHandler, startRecordingProxy } from '../../dist/capture/index.js';
import { describeError, listen, readBody, recordScenarios, sleep, stopAfter } from '../helpers/loopback.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(here, '..', 'fixtures', 'real-tasks');
const OBSERVED = join(here, 'observed.json');
const CLIENT_ID = 'triage-tasks-client@1.0.0';
/** Every task polls fast: the SDK client waits task.pollInterval between tasks/get calls. */
const POLL_MS = 100;
const TTL_MS = 60_000;
const TIMEOUT = { timeout: 5000 };

/** The whole run is bounded: a hung scenario must not keep the process alive. */
stopAfter(30_000);

// ---------------------------------------------------------------- the SDK server (fixed tool outputs)

const text = (t) => ({ content: [{ type: 'text', text: t }] });
const reasonSchema = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };

/** Background work of a task, bounded: `steps` ticks of `tickMs`, stopping early once the task is terminal. */
async function work(store, taskId, steps, tickMs = 50) {
  for (let i = 0; i < steps; i++) {
    await sleep(tickMs);
    const t = await store.getTask(taskId).catch(() => null);
    if (!t || ['completed', 'failed', 'cancelled'].includes(t.status)) return false;
  }
  return true;
}

/** Swallows the errors of a task's background work (a cancelled task cannot store a result) and notes them. */
function background(name, fn, notes) {
  fn().catch((err) => notes.push(`${name}: ${String(err?.message ?? err)}`));
}

/**
 * The high-level server. One McpServer per session (SDK example recipe); the task store and message queue are shared
 * by the whole scenario server, as in the SDK's simpleStreamableHttp example.
 */
function buildMcpServer(taskStore, taskMessageQueue, notes) {
  const server = new McpServer(
    { name: 'triage-tasks-server', version: '1.0.0' },
    { capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore, taskMessageQueue },
  );
  // A plain tool (taskSupport "forbidden" by default): a normal CallToolResult, for contrast.
  server.registerTool(
    'lookup_order',
    { description: 'Look up an order by id', inputSchema: { orderId: z.string() }, annotations: { readOnlyHint: true } },
    async ({ orderId }) => text(`order ${orderId}: shipped`),
  );
  // taskSupport "optional": with params.task it answers a CreateTaskResult; without, McpServer polls its own task.
  server.experimental.tasks.registerToolTask(
    'build_report',
    { description: 'Build a report (a few hundred ms)', inputSchema: { month: z.string() }, annotations: { readOnlyHint: true }, execution: { taskSupport: 'optional' } },
    {
      async createTask({ month }, { taskStore: store, taskRequestedTtl }) {
        const task = await store.createTask({ ttl: taskRequestedTtl, pollInterval: POLL_MS });
        background('build_report', async () => {
          if (await work(store, task.taskId, 5)) await store.storeTaskResult(task.taskId, 'completed', text(`report ${month} ready: 42 orders`));
        }, notes);
        return { task };
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId),
    },
  );
  // taskSupport "required": the tool fails; the task ends "failed" with an isError CallToolResult (SDK example recipe).
  server.experimental.tasks.registerToolTask(
    'import_orders',
    { description: 'Import an order file', inputSchema: { file: z.string() }, execution: { taskSupport: 'required' } },
    {
      async createTask({ file }, { taskStore: store, taskRequestedTtl }) {
        const task = await store.createTask({ ttl: taskRequestedTtl, pollInterval: POLL_MS });
        background('import_orders', async () => {
          if (await work(store, task.taskId, 3)) {
            await store.storeTaskResult(task.taskId, 'failed', { ...text(`import of ${file} failed: line 7 has no order id`), isError: true });
          }
        }, notes);
        return { task };
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId),
    },
  );
  // A long task (up to 3 s) that stops as soon as it sees its task cancelled.
  server.experimental.tasks.registerToolTask(
    'export_archive',
    { description: 'Export all orders (slow)', inputSchema: { format: z.string() }, annotations: { readOnlyHint: true }, execution: { taskSupport: 'required' } },
    {
      async createTask({ format }, { taskStore: store, taskRequestedTtl }) {
        const task = await store.createTask({ ttl: taskRequestedTtl, pollInterval: POLL_MS });
        background('export_archive', async () => {
          if (await work(store, task.taskId, 60)) await store.storeTaskResult(task.taskId, 'completed', text(`archive exported as ${format}`));
        }, notes);
        return { task };
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId),
    },
  );
  // The task asks the user: status input_required, elicitation/create queued for the task (related-task _meta) and
  // delivered on the client's tasks/result stream; the answer comes back as a POST; the task then completes.
  server.experimental.tasks.registerToolTask(
    'approve_refund',
    { description: 'Refund an order after asking the user', inputSchema: { orderId: z.string() }, execution: { taskSupport: 'required' } },
    {
      async createTask({ orderId }, { taskStore: store, taskRequestedTtl }) {
        const task = await store.createTask({ ttl: taskRequestedTtl, pollInterval: POLL_MS });
        background('approve_refund', async () => {
          await sleep(50);
          await store.updateTaskStatus(task.taskId, 'input_required', `waiting for a refund reason for order ${orderId}`);
          const answer = await server.server.elicitInput(
            { mode: 'form', message: `Refund order ${orderId}?`, requestedSchema: reasonSchema },
            { relatedTask: { taskId: task.taskId }, timeout: 5000 },
          );
          await store.updateTaskStatus(task.taskId, 'working');
          await sleep(50);
          const result = answer.action === 'accept' ? text(`refund of order ${orderId} approved: ${answer.content?.reason}`) : { ...text(`refund ${answer.action}`), isError: true };
          await store.storeTaskResult(task.taskId, result.isError ? 'failed' : 'completed', result);
        }, notes);
        return { task };
      },
      getTask: async (_args, { taskId, taskStore: store }) => store.getTask(taskId),
      getTaskResult: async (_args, { taskId, taskStore: store }) => store.getTaskResult(taskId),
    },
  );
  return server;
}

/** A stateful SDK server (one transport per session, SSE responses) behind recordingHandler. */
async function startMcpServer({ out, notes }) {
  const taskStore = new InMemoryTaskStore();
  const taskMessageQueue = new InMemoryTaskMessageQueue();
  const transports = new Map();
  const handler = async (req, res) => {
    try {
      if (!req.url?.startsWith('/mcp')) {
        res.writeHead(404).end();
        return;
      }
      const body = req.method === 'POST' ? JSON.parse((await readBody(req)).toString('utf8')) : undefined;
      const sid = req.headers['mcp-session-id'];
      if (typeof sid === 'string') {
        const transport = transports.get(sid);
        if (!transport) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        await transport.handleRequest(req, res, body);
        return;
      }
      if (req.method === 'POST' && isInitializeRequest(body)) {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => transports.set(id, transport) });
        await buildMcpServer(taskStore, taskMessageQueue, notes).connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null }));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  };
  const s = await listen(recordingHandler(handler, { out }));
  return {
    ...s,
    async close() {
      for (const t of transports.values()) await t.close().catch(() => {});
      taskStore.cleanup();
      await s.close();
    },
  };
}

// ---------------------------------------------------------------- scenario harness

/** What a result looked like to the caller, without per-run values (task ids, timestamps). */
function summarize(result) {
  if (result?.tools) return { tools: result.tools.map((t) => `${t.name}: taskSupport ${t.execution?.taskSupport ?? 'absent'}`) };
  if (result?.tasks) return { tasks: result.tasks.map((t) => t.status) };
  if (result?.task) return { task: { status: result.task.status, keys: Object.keys(result.task).sort() } };
  if (result?.content) return { text: result.content.map((c) => c.text).join(' '), ...(result.isError ? { isError: true } : {}) };
  if (typeof result?.status === 'string') return { status: result.status, ...(result.statusMessage ? { statusMessage: result.statusMessage } : {}) };
  return result ?? null;
}

async function runScenario(name, spec) {
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((side) => [side, join(FIXTURES, `${name}.${side}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  const notes = [];
  const mcp = await startMcpServer({ out: files.server, notes });
  const proxy = await startRecordingProxy({ listen: '127.0.0.1:0', target: mcp.url, out: files.proxy });
  const observed = { steps: [], onerror: [], elicitations: [], serverNotes: notes };
  const fetches = [];
  const clients = [];
  const ctx = {
    observed,
    /** A connected SDK 1.32.2 client; `onElicit` declares the elicitation capability and answers with it. */
    async client({ onElicit } = {}) {
      const fetch = recordingFetch({ out: files.client, client: CLIENT_ID });
      fetches.push(fetch);
      const client = new Client({ name: 'triage-tasks-client', version: '1.0.0' }, onElicit ? { capabilities: { elicitation: { form: {} } } } : {});
      if (onElicit) {
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          observed.elicitations.push(request.params.message);
          return onElicit(request);
        });
      }
      client.onerror = (e) => observed.onerror.push(describeError(e));
      const transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.url), {
        fetch,
        reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
      });
      await client.connect(transport, TIMEOUT);
      clients.push(client);
      return client;
    },
    /** Run one call, note what came back or what was thrown. */
    async step(label, fn) {
      const started = Date.now();
      try {
        const result = await fn();
        observed.steps.push({ step: label, ok: true, summary: summarize(result), ms: Date.now() - started });
        return { ok: true, result };
      } catch (err) {
        observed.steps.push({ step: label, ok: false, error: describeError(err), ms: Date.now() - started });
        return { ok: false, error: err };
      }
    },
    /**
     * client.experimental.tasks.callToolStream: tools/call with params.task, tasks/get every pollInterval, then
     * tasks/result (on completed, or at once on input_required). Notes every message the stream yields; `onMessage`
     * may act on them (cancel the task). Returns the task id.
     */
    async stream(label, c, params, onMessage) {
      const started = Date.now();
      const messages = [];
      let taskId;
      for await (const m of c.experimental.tasks.callToolStream(params, CallToolResultSchema, { ...TIMEOUT, task: { ttl: TTL_MS } })) {
        if (m.type === 'taskCreated') taskId = m.task.taskId;
        messages.push(
          m.type === 'taskCreated' || m.type === 'taskStatus'
            ? { type: m.type, status: m.task.status }
            : m.type === 'result'
              ? { type: m.type, summary: summarize(m.result) }
              : { type: m.type, error: describeError(m.error) },
        );
        await onMessage?.(m, taskId);
      }
      // Consecutive identical taskStatus messages (polls while working) collapse into one with a count.
      const collapsed = [];
      for (const m of messages) {
        const last = collapsed[collapsed.length - 1];
        if (last && m.type === 'taskStatus' && last.type === 'taskStatus' && last.status === m.status) last.polls = (last.polls ?? 1) + 1;
        else collapsed.push({ ...m });
      }
      observed.steps.push({ step: label, stream: collapsed, ms: Date.now() - started });
      return taskId;
    },
  };
  try {
    await spec.run(ctx);
  } finally {
    await sleep(150);
    for (const c of clients) await c.close().catch(() => {});
    await sleep(100);
    await proxy.close();
    await mcp.close();
    for (const f of fetches) await f.close();
  }
  for (const e of observed.onerror) e.message = e.message.replace(/[0-9a-f]{32}/g, '<taskId>');
  for (const s of observed.steps) if (s.error) s.error.message = s.error.message.replace(/[0-9a-f]{32}/g, '<taskId>');
  for (const s of observed.steps) for (const m of s.stream ?? []) if (m.error) m.error.message = m.error.message.replace(/[0-9a-f]{32}/g, '<taskId>');
  return observed;
}

const accept = (content) => async () => ({ action: 'accept', content });

// ---------------------------------------------------------------- scenarios

const scenarios = {
  /**
   * tools/list (execution.taskSupport per tool), a plain call, a task-augmented call that completes (tools/call ->
   * CreateTaskResult, tasks/get working.. completed, tasks/result -> CallToolResult), and the same optional task tool
   * called without params.task (McpServer polls its own task and answers a plain CallToolResult).
   */
  'task-completed': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('call lookup_order (plain)', () => c.callTool({ name: 'lookup_order', arguments: { orderId: '1001' } }, undefined, TIMEOUT));
      await t.stream('callToolStream build_report (task)', c, { name: 'build_report', arguments: { month: '2026-01' } });
      await t.step('call build_report (plain, taskSupport optional)', () => c.callTool({ name: 'build_report', arguments: { month: '2026-02' } }, undefined, TIMEOUT));
    },
  },

  /**
   * The tool fails: the task ends "failed". The SDK stream stops at tasks/get (status failed) and reports
   * "Task <id> failed" without fetching the result; the application then asks tasks/result, which returns the
   * CallToolResult with isError: true (and the related-task _meta).
   */
  'task-failed': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      const taskId = await t.stream('callToolStream import_orders (task)', c, { name: 'import_orders', arguments: { file: 'orders-2026-01.csv' } });
      await t.step('tasks/result (after failed)', () => c.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT));
    },
  },

  /**
   * A long task cancelled with tasks/cancel after the first tasks/get (working). The stream's next tasks/get sees
   * "cancelled" and reports "Task <id> was cancelled". Then tasks/list shows it, and tasks/result is refused (the
   * SDK's store has no result for a cancelled task: a JSON-RPC error).
   */
  'task-cancelled': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      let cancelled = false;
      const taskId = await t.stream('callToolStream export_archive (task), cancelled', c, { name: 'export_archive', arguments: { format: 'csv' } }, async (m, id) => {
        if (m.type === 'taskStatus' && m.task.status === 'working' && !cancelled) {
          cancelled = true;
          await t.step('tasks/cancel', () => c.experimental.tasks.cancelTask(id, TIMEOUT));
        }
      });
      await t.step('tasks/list', () => c.experimental.tasks.listTasks(undefined, TIMEOUT));
      await t.step('tasks/result (after cancel)', () => c.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT));
    },
  },

  /**
   * The task needs input: tasks/get says input_required; the SDK client calls tasks/result at once; the server sends
   * the queued elicitation/create (with related-task _meta) on the tasks/result SSE stream; the client answers with a
   * POST (202); the task completes and the same tasks/result stream carries the final CallToolResult.
   */
  'task-input-required': {
    async run(t) {
      const c = await t.client({ onElicit: accept({ reason: 'damaged in transit' }) });
      await t.step('tools/list', () => c.listTools());
      await t.stream('callToolStream approve_refund (task)', c, { name: 'approve_refund', arguments: { orderId: '1001' } });
    },
  },

  /**
   * "Call now, fetch later" without polling: tools/call with params.task (raw request, CreateTaskResultSchema), then
   * tasks/result at once, which blocks until the task completes and returns the CallToolResult; tasks/get after it
   * says completed.
   */
  'task-result-blocks': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      const created = await t.step('tools/call build_report with params.task', () =>
        c.request({ method: 'tools/call', params: { name: 'build_report', arguments: { month: '2026-03' }, task: { ttl: TTL_MS } } }, CreateTaskResultSchema, TIMEOUT),
      );
      const taskId = created.result?.task?.taskId;
      await t.step('tasks/result (blocks until completed)', () => c.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT));
      await t.step('tasks/get (after result)', () => c.experimental.tasks.getTask(taskId, TIMEOUT));
    },
  },

  /**
   * The same task-augmented call made twice in a row (same tool, arguments and task params), each run to completion:
   * two logical calls, not a retry.
   */
  'task-twice-same-args': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.stream('callToolStream build_report (task, first)', c, { name: 'build_report', arguments: { month: '2026-04' } });
      await t.stream('callToolStream build_report (task, second)', c, { name: 'build_report', arguments: { month: '2026-04' } });
    },
  },

  /**
   * A taskSupport "required" tool called without params.task (raw request: Client.callTool refuses it locally once
   * tools/list is known). The spec asks a JSON-RPC error (-32601, or -32600 in its error list); McpServer 1.32.2
   * answers a CallToolResult with isError: true instead (its catch turns the McpError into a tool error).
   */
  'task-required-called-plain': {
    async run(t) {
      const c = await t.client();
      await t.step('tools/list', () => c.listTools());
      await t.step('Client.callTool import_orders (refused locally)', () => c.callTool({ name: 'import_orders', arguments: { file: 'a.csv' } }, undefined, TIMEOUT));
      await t.step('raw tools/call import_orders without params.task', () =>
        c.request({ method: 'tools/call', params: { name: 'import_orders', arguments: { file: 'a.csv' } } }, CallToolResultSchema, TIMEOUT),
      );
    },
  },
};

// ---------------------------------------------------------------- main

const { ms } = await recordScenarios(scenarios, runScenario, { fixtures: FIXTURES, observed: OBSERVED });
process.stderr.write(`all scenarios recorded in ${ms} ms\n`);
process.exit(0);
