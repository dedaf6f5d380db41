// The test kitchen's unregistered catalog, auth and elicitation scenarios (cakewalk-mcp-test-kitchen @ cf2f689), emulated
// for test/real-audit63/record.mjs by composing test/real-audit56/kitchen.mjs through its `observe` hook: its rate
// limiter and PAT check stay outside; inside, where the kitchen's observations sit, this module's server log
// (recordingHandler), then ScenarioWireMiddleware's decisions for catalog.pagination, catalog.facet_unavailable and
// auth.token_lifecycle (in front of kitchen.mjs's SDK servers), or, for catalog.mutation, elicitation.decline and
// elicitation.url_mode, real SDK servers of their own (SDK 1.32.2 on 2025-11-25, the v2 2.4.0 handler on 2026-07-28).
import { Writable } from 'node:stream';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as v2 from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { recordingHandler } from '../../dist/capture/index.js';
import { readBody } from '../helpers/loopback.mjs';
import { kitchen, scenarioBook } from '../real-audit56/kitchen.mjs';

const text = (payload, isError) => ({ content: [{ type: 'text', text: JSON.stringify(payload) }], ...(isError ? { isError: true } : {}) });
// ScenarioWireRequestReader: the id kept only if an int32 or a string
const wireId = (v) => ((Number.isInteger(v) && v >= -2147483648 && v <= 2147483647) || typeof v === 'string' ? v : null);
// ScenarioWireJsonRpc (System.Text.Json, camelCase, nulls written): HTTP 200 application/json
const sendJson = (res, obj) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(obj));
const RUN_DESCRIPTION = 'MCP Test Kitchen fixture. Runs the active test scenario configured for your user in the admin UI. Behavior depends on the saved scenario and params (for example delays, hangs, or HTTP error sequences).';
const DEFAULTS = {
  'catalog.pagination': { totalItems: 10, pageSize: 3, facet: 'resources', fault: 'none', faultAtPage: 2 },
  'catalog.facet_unavailable': { unavailableFacets: ['resources'] },
  'catalog.mutation': { mutations: [] },
  'auth.token_lifecycle': { rejectUntilInvocation: 1, rejectForever: false },
  'elicitation.decline': { expectedOutcome: 'decline', promptMessage: 'Decline or cancel this elicitation to exercise upstream elicitation failure paths.', elicitationTimeoutMs: 5000 },
  'elicitation.url_mode': { url: 'https://example.com/approve', promptMessage: 'Open the URL to approve this MCP test scenario.', elicitationTimeoutMs: 300000 },
};
const MUTATION_DEFAULT = { action: 'add', toolName: 'extra_tool', afterMs: 0, newName: null, listChangedNotifications: 1 };

/**
 * One kitchen caller with `scenario` and `params` selected; `pat`, `rateLimit` as kitchen.mjs's; `serverLog` the server's
 * record; `sdkUnknownTool` lets SDK 1.32.2 answer a catalog.mutation call of an unknown tool its own way (not the kitchen's).
 */
export function kitchen63({ scenario, params: given = {}, pat, rateLimit, serverLog, sdkUnknownTool = false }) {
  const params = { ...DEFAULTS[scenario], ...given };
  const { bump, events, note } = scenarioBook();

  // catalog.mutation: CatalogMutationState's tool collection, kept for the caller; the timers start at its first request
  const tools = new Map([['run_configured_test_scenario', RUN_DESCRIPTION]]);
  let timers;
  const scheduleMutations = () => {
    if (timers || scenario !== 'catalog.mutation') return;
    timers = (params.mutations ?? []).map((m0) => {
      const m = { ...MUTATION_DEFAULT, ...m0 };
      return setTimeout(() => {
        const before = [...tools.keys()];
        if (m.action === 'add' && !tools.has(m.toolName)) tools.set(m.toolName, `Catalog mutation tool ${m.toolName}`);
        else if (m.action === 'remove') tools.delete(m.toolName);
        else if (m.action === 'rename' && tools.has(m.toolName) && m.newName) {
          tools.delete(m.toolName);
          tools.set(m.newName, `Renamed from ${m.toolName}`);
        }
        // stateless: no session, no GET stream; the collection's Changed events reach no client (see REPORT.md)
        note({ mutation: m.action, toolName: m.toolName, newName: m.newName ?? undefined, before, after: [...tools.keys()] });
      }, Math.max(0, m.afterMs));
    });
  };

  // run_configured_test_scenario for the elicitation scenarios (ElicitationDeclineScenario, ElicitationUrlModeScenario,
  // ElicitationApprovalScenario.BuildOutcome); the counter counts every leg
  const runElicitation = (message, { mrtr, responses }) => {
    const invocation = bump('run_configured_test_scenario');
    const base = { scenarioId: scenario, invocation };
    const msg = message && message.trim() ? { message } : {};
    const elicit = responses?.elicitation;
    if (elicit) {
      const reason = typeof elicit.content?.reason === 'string' && elicit.content.reason.trim() ? { approvalReason: elicit.content.reason } : {};
      const outcome = elicit.action === 'accept' ? 'accepted' : elicit.action;
      note({ tool: 'run_configured_test_scenario', invocation, outcome });
      return text({ ...base, elicitationOutcome: outcome, ...reason, ...msg }, elicit.action !== 'accept');
    }
    if (!mrtr) {
      note({ tool: 'run_configured_test_scenario', invocation, outcome: 'unsupported' });
      return text({ ...base, elicitationOutcome: 'unsupported', ...msg }, true);
    }
    note({ tool: 'run_configured_test_scenario', invocation, outcome: 'input_required' });
    // InputRequest.ForElicitation: the URL form carries mode, message and url (the kitchen sets no elicitationId)
    const request =
      scenario === 'elicitation.url_mode'
        ? v2.inputRequired.elicitUrl({ message: params.promptMessage, url: params.url })
        : v2.inputRequired.elicit({ mode: 'form', message: params.promptMessage, requestedSchema: { type: 'object', properties: { confirm: { type: 'string', title: 'Type confirm to proceed', maxLength: 32 } } } });
    return v2.inputRequired({ inputRequests: { elicitation: request }, requestState: 'awaiting-elicitation' });
  };
  const runMutation = (name, message) => {
    if (name !== 'run_configured_test_scenario') {
      note({ tool: name, stub: true });
      return text({ tool: name, message: 'Stub tool executed.' });
    }
    const invocation = bump('run_configured_test_scenario');
    note({ tool: name, invocation });
    return text({ scenarioId: scenario, invocation, ...(message && message.trim() ? { message } : {}) });
  };
  const runBaseline = (message) => {
    const invocation = bump('run_configured_test_scenario');
    note({ tool: 'run_configured_test_scenario', invocation });
    return text({ scenarioId: scenario, invocation, ...(message && message.trim() ? { message } : {}) });
  };
  // ScenarioSessionSetup.ApplyBaselineCatalog: every session also lists two resources and two prompts
  // (BaselineCatalogPrimitives; their invalid reads, intercepted at the wire, are the fifty-sixth audit's, not here)
  const baselineCatalog = (s, legacyEra) => {
    s.registerResource('valid_resource', 'test://resources/valid', { mimeType: 'text/plain', description: 'Always returns valid text resource content for MCP client testing.' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Valid resource content from MCP test server.' }] }));
    s.registerResource('invalid_resource', 'test://resources/invalid', { mimeType: 'text/plain', description: 'Advertised for testing invalid resource payloads.' }, async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));
    const topic = legacyEra ? { topic: z.string().optional() } : z.object({ topic: z.string().optional() });
    s.registerPrompt('valid_prompt', { description: 'Always returns a valid user text prompt message for MCP client testing.', argsSchema: topic }, ({ topic: t }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `You are testing the MCP test server. Topic: ${t || 'general testing'}` } }] }));
    s.registerPrompt('invalid_prompt', { description: 'Advertised for testing invalid prompt payloads.' }, () => ({ messages: [] }));
  };
  const runTool = (message, era) => (scenario.startsWith('elicitation.') ? runElicitation(message, era) : runBaseline(message));
  const unknownTool = (name) => {
    note({ tool: name, unknown: true, listed: [...tools.keys()] });
  };

  // the scenarios with servers of their own: SDK 1.32.2 (2025-11-25, no MRTR) and v2 2.4.0 (2026-07-28)
  const legacyServer = () => {
    const s = new McpServer({ name: 'McpTestServer.API', version: '1.0.0' }, { capabilities: scenario === 'catalog.mutation' ? { tools: { listChanged: true } } : {} });
    if (scenario === 'catalog.mutation') {
      for (const [name, description] of tools) s.registerTool(name, { description, inputSchema: name === 'run_configured_test_scenario' ? { message: z.string().optional() } : {} }, (args) => runMutation(name, args?.message));
      // the C# SDK answers a tool not in the collection with JSON-RPC -32602 "Unknown tool: '<name>'" (1.32.2 makes it
      // an isError result); keep the SDK's transport, answer as the kitchen's SDK does
      // (`sdkUnknownTool`: not the kitchen's answer, SDK 1.32.2's own: an isError result "MCP error -32602: Tool x not found")
      if (sdkUnknownTool) return s;
      const handlers = s.server._requestHandlers;
      const call = handlers.get('tools/call');
      handlers.set('tools/call', async (request, extra) => {
        const name = request.params?.name;
        if (!tools.has(name)) {
          unknownTool(name);
          // McpError would prefix its text ("MCP error -32602: ..."); the SDK sends an error's own code and message
          throw Object.assign(new Error(`Unknown tool: '${name}'`), { code: -32602 });
        }
        return call(request, extra);
      });
    } else {
      s.registerTool('run_configured_test_scenario', { description: RUN_DESCRIPTION, inputSchema: { message: z.string().optional() } }, (args) => runTool(args.message, { mrtr: false }));
    }
    baselineCatalog(s, true);
    return s;
  };
  const legacy = async (req, res, body) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const s = legacyServer();
    const t = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void t.close().then(() => s.close()));
    await s.connect(t);
    await t.handleRequest(req, res, body);
  };
  const modernHandler = v2.createMcpHandler(() => {
    const s = new v2.McpServer({ name: 'McpTestServer.API', version: '1.0.0' }, { capabilities: scenario === 'catalog.mutation' ? { tools: { listChanged: true } } : {} });
    if (scenario === 'catalog.mutation') {
      // v2's McpServer answers an unknown tool with JSON-RPC -32602 itself ("Tool <name> not found")
      for (const [name, description] of tools) s.registerTool(name, { description, inputSchema: z.object(name === 'run_configured_test_scenario' ? { message: z.string().optional() } : {}) }, (args) => runMutation(name, args?.message));
    } else {
      s.registerTool('run_configured_test_scenario', { description: RUN_DESCRIPTION, inputSchema: z.object({ message: z.string().optional() }) }, (args, ctx) => runTool(args.message, { mrtr: true, responses: ctx.mcpReq.inputResponses }));
    }
    baselineCatalog(s, false);
    return s;
  }, { responseMode: 'auto', keepAliveMs: 0 });
  const modernNode = toNodeHandler(modernHandler);
  // auth.token_lifecycle runs in front of kitchen.mjs's servers (its tool is the baseline's); the others have their own
  const ownServers = scenario !== 'auth.token_lifecycle';

  // ScenarioWireMiddleware for this scenario, then the SDK (kitchen.mjs's servers, or this module's own)
  const wire = (inner) => async (req, res) => {
    if (req.method !== 'POST') return ownServers ? legacy(req, res) : inner(req, res);
    const raw = await readBody(req);
    let body;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {}
    const method = typeof body?.method === 'string' ? body.method : null;
    scheduleMutations();
    if (scenario === 'auth.token_lifecycle') {
      // every POST counts (http_request); a bare 401 (status line only) while n <= rejectUntilInvocation, or forever
      const n = bump('http_request');
      if (params.rejectForever || n <= params.rejectUntilInvocation) {
        note({ wire: '401', httpRequest: n, method, id: body?.id ?? null });
        res.writeHead(401).end();
        return;
      }
    }
    if (scenario === 'catalog.facet_unavailable' && method) {
      const facet = { 'resources/list': 'resources', 'prompts/list': 'prompts' }[method];
      if (facet && params.unavailableFacets.includes(facet)) {
        note({ wire: '-32601', method, id: body.id });
        sendJson(res, { jsonrpc: '2.0', id: wireId(body.id), error: { code: -32601, message: 'Method not found' } });
        return;
      }
    }
    if (scenario === 'catalog.pagination' && method === (params.facet === 'prompts' ? 'prompts/list' : 'resources/list')) {
      // the page is the count of such requests so far (whatever cursor the client sent)
      const pageIndex = bump(params.facet === 'prompts' ? 'prompts_list' : 'resources_list') - 1;
      const pageSize = Math.max(1, params.pageSize);
      const total = Math.max(0, params.totalItems);
      const cursor = typeof body.params?.cursor === 'string' ? body.params.cursor : null;
      const key = params.facet === 'prompts' ? 'prompts' : 'resources';
      const item = (i) => (params.facet === 'prompts' ? { name: `prompt_${i}`, description: `Test prompt ${i}` } : { uri: `test://resource/${i}`, name: `resource_${i}`, mimeType: 'text/plain' });
      if (params.fault === 'error_after_page_n' && pageIndex + 1 >= Math.max(1, params.faultAtPage)) {
        note({ wire: '-32603', method, pageIndex, cursor, id: body.id });
        sendJson(res, { jsonrpc: '2.0', id: wireId(body.id), error: { code: -32603, message: 'Internal error after page' } });
        return;
      }
      let start = pageIndex * pageSize;
      let items = [];
      let nextCursor = null;
      if (start < total) {
        let end = Math.min(start + pageSize, total);
        if (params.fault === 'cursor_loop') nextCursor = 'loop';
        else if (params.fault === 'duplicate_page') {
          nextCursor = pageIndex === 0 ? 'page-1' : null;
          if (pageIndex > 0) [start, end] = [0, Math.min(pageSize, total)];
        } else nextCursor = end < total ? `page-${pageIndex + 1}` : null;
        items = Array.from({ length: end - start }, (_, k) => item(start + k));
      }
      note({ wire: 'page', method, pageIndex, cursor, items: items.length, nextCursor, id: body.id });
      sendJson(res, { jsonrpc: '2.0', id: wireId(body.id), result: { [key]: items, nextCursor } });
      return;
    }
    if (!ownServers) {
      // kitchen.mjs's wire reads the body again: hand it the bytes already read
      const again = Object.create(req);
      again[Symbol.asyncIterator] = async function* () {
        yield raw;
      };
      return inner(again, res);
    }
    const modern = method === 'server/discover' || req.headers['mcp-protocol-version'] === '2026-07-28';
    return modern ? modernNode(req, res, body) : legacy(req, res, body);
  };

  // kitchen.mjs's own server log is dropped: this module's sits where the kitchen's observations do, around the wire
  const discard = new Writable({ write: (_c, _e, cb) => cb() });
  const k = kitchen({
    scenario: ownServers ? 'baseline' : scenario,
    params: {},
    pat,
    ...(rateLimit ? { rateLimit } : {}),
    serverLog: discard,
    observe: (inner) => recordingHandler(wire(inner), { out: serverLog }),
  });
  return {
    handle: k.handle,
    events: () => [...k.events, ...events].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0)),
    close: async () => {
      for (const t of timers ?? []) clearTimeout(t);
      await k.close();
      await modernHandler.close().catch(() => {});
    },
  };
}
