// The MCP test kitchen's wire behaviour (cakewalk-mcp-test-kitchen @ cf2f689), emulated in front of real SDK servers for
// test/real-audit56/record.mjs: the per-IP fixed-window rate limiter (bare 429), the PAT check (bare 401, no
// WWW-Authenticate), the observation middleware's 400 ParseError for a body over 64 KiB, ScenarioWireMiddleware's
// errors.jsonrpc_error envelope (HTTP 200 application/json, no data, the id echoed only if int32 or string), and the
// scenarios' tool results (baseline's delay, errors.tool_error, elicitation.approval, compat.sdk_v2's ticket tool).
// 2026-07-28 requests (server/discover, MCP-Protocol-Version 2026-07-28) go to a v2 2.4.0 stateless handler, the rest to
// an SDK 1.32.2 stateless server (2025-11-25). The server log (recordingHandler) wraps what the kitchen's observations
// wrap: the scenario layer and the SDK, not the rate limiter nor the PAT check.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as v2 from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { recordingHandler } from '../../dist/capture/index.js';
import { readBody } from '../helpers/loopback.mjs';

const BODY_LIMIT = 65536;
const text = (payload, isError) => ({ content: [{ type: 'text', text: JSON.stringify(payload) }], ...(isError ? { isError: true } : {}) });
const int32 = (v) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;

/** A kitchen caller's counters (bumped per key, kept for the run, as the kitchen's) and its events, timed as they happen. */
export function scenarioBook() {
  const counters = new Map();
  const bump = (key) => {
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return n;
  };
  const events = [];
  const note = (e) => events.push({ ts: new Date().toISOString(), ...e });
  return { counters, bump, events, note };
}

/**
 * One kitchen "caller": `scenario` and `params` as a saved selection, counters kept for the whole run (reconnecting
 * does not reset them). Options: `pat` (the accepted token; unset = Development with no PAT: anonymous allowed),
 * `rateLimit` {limit, windowMs}, `serverLog` (server.ndjson), and two wrappers for the kitchen's own records
 * (test/real-audit58/kitchen.mjs): `observe` around the scenario layer and the SDK (as McpProtocolObservationMiddleware
 * wraps them), `outermost` around everything (as RequestLoggingMiddleware does). Returns the Node handler and `events`
 * (what happened).
 */
export function kitchen({ scenario, params = {}, pat, rateLimit = { limit: 120, windowMs: 60_000 }, serverLog, observe = (h) => h, outermost = (h) => h }) {
  const { counters, bump, events, note } = scenarioBook();
  const delay = (ms, signal) =>
    new Promise((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal?.addEventListener('abort', () => {
        clearTimeout(t);
        reject(new Error('The operation was canceled.'));
      });
    });

  // The tool results, the same for both SDKs; `mrtr` says whether the era supports input_required.
  const runScenario = async ({ message }, { mrtr, responses, signal }) => {
    const invocation = bump('run_configured_test_scenario');
    const base = { scenarioId: scenario, invocation };
    const msg = message && message.trim() ? { message } : {};
    if (scenario === 'baseline') {
      const ms = params.slowReportDelayMs ?? 0;
      note({ tool: 'run_configured_test_scenario', invocation, phase: 'start', delayMs: ms });
      if (ms > 0) {
        try {
          await delay(ms, signal);
        } catch (e) {
          note({ tool: 'run_configured_test_scenario', invocation, phase: 'cancelled' });
          throw e;
        }
      }
      note({ tool: 'run_configured_test_scenario', invocation, phase: 'return' });
      return text({ ...base, delayMs: ms, ...msg });
    }
    if (scenario === 'errors.tool_error') {
      const on = params.onInvocation ?? 1;
      note({ tool: 'run_configured_test_scenario', invocation, isError: invocation === on });
      if (invocation === on) return text({ ...base, errorMessage: params.errorMessage ?? 'Tool-side failure', ...msg }, true);
      return text({ ...base, ...msg });
    }
    if (scenario === 'elicitation.approval') {
      const elicit = responses?.elicitation;
      if (elicit) {
        const action = elicit.action;
        const reason = typeof elicit.content?.reason === 'string' && elicit.content.reason.trim() ? { approvalReason: elicit.content.reason } : {};
        note({ tool: 'run_configured_test_scenario', invocation, outcome: action === 'accept' ? 'accepted' : action });
        return text({ ...base, elicitationOutcome: action === 'accept' ? 'accepted' : action, ...reason, ...msg }, action !== 'accept');
      }
      if (!mrtr) {
        note({ tool: 'run_configured_test_scenario', invocation, outcome: 'unsupported' });
        return text({ ...base, elicitationOutcome: 'unsupported', ...msg }, true);
      }
      note({ tool: 'run_configured_test_scenario', invocation, outcome: 'input_required' });
      return v2.inputRequired({
        inputRequests: {
          elicitation: v2.inputRequired.elicit({
            mode: 'form',
            message: params.promptMessage ?? 'Approve running this MCP test scenario? Provide a short reason for the audit log.',
            requestedSchema: { type: 'object', properties: { reason: { type: 'string', title: 'Reason (recorded for audit)', maxLength: 200 } }, required: ['reason'] },
          }),
        },
        requestState: 'awaiting-elicitation',
      });
    }
    if (scenario === 'compat.sdk_v2') {
      note({ tool: 'run_configured_test_scenario', invocation });
      return text({ ...base, compatMatrix: 'see cakewalk SdkV2CompatScenario', ...msg });
    }
    return text({ ...base, ...msg });
  };
  const closeTicket = async ({ ticketId, closeReason }, { mrtr, responses, protocol }) => {
    bump('simulate_ticket_close_mrtr');
    const cell = `${protocol}/stateless/${mrtr ? 'native' : 'unsupported'}`;
    const common = { scenarioId: scenario, tool: 'simulate_ticket_close_mrtr', ticketId, isMrtrSupported: mrtr, negotiatedProtocolVersion: protocol, transportMode: 'stateless' };
    const closed = (reason, path) => {
      note({ tool: 'simulate_ticket_close_mrtr', ticketId, path });
      return text({ ...common, path, closeReason: reason, compatCell: cell, message: `Closed ticket ${ticketId}: ${reason}` });
    };
    const def = params.defaultCloseReason ?? 'completed';
    const answer = responses?.closeReason;
    if (!(closeReason && closeReason.trim()) && answer) {
      if (answer.action !== 'accept') {
        note({ tool: 'simulate_ticket_close_mrtr', ticketId, path: 'cancelled' });
        return text({ ...common, path: 'cancelled', message: 'Ticket close cancelled' });
      }
      const r = typeof answer.content?.closeReason === 'string' && answer.content.closeReason.trim() ? answer.content.closeReason : def;
      return closed(r, 'mrtr');
    }
    if (closeReason && closeReason.trim()) return closed(closeReason, 'upfront');
    if (mrtr) {
      note({ tool: 'simulate_ticket_close_mrtr', ticketId, path: 'input_required' });
      return v2.inputRequired({
        inputRequests: {
          closeReason: v2.inputRequired.elicit({
            mode: 'form',
            message: (params.promptMessage ?? "Close ticket '{ticketId}'? Confirm or edit the close reason.").replace('{ticketId}', String(ticketId)),
            requestedSchema: { type: 'object', properties: { closeReason: { type: 'string', title: 'Close reason', description: 'The reason for closing the ticket', default: def } } },
          }),
        },
        requestState: String(ticketId),
      });
    }
    note({ tool: 'simulate_ticket_close_mrtr', ticketId, path: 'guidance' });
    return text({ ...common, path: 'guidance', compatCell: cell, message: 'Closing a ticket requires a reason. Resend with `closeReason`.' });
  };

  // SDK 1.32.2, stateless, 2025-11-25: no MRTR.
  const legacyServer = () => {
    const s = new McpServer({ name: 'McpTestServer.API', version: '1.0.0' });
    s.registerTool('run_configured_test_scenario', { description: 'Runs the configured test scenario.', inputSchema: { message: z.string().optional() } }, (args, extra) => runScenario(args, { mrtr: false, signal: extra.signal }));
    if (scenario === 'compat.sdk_v2') {
      s.registerTool('simulate_ticket_close_mrtr', { description: 'Simulates closing a support ticket.', inputSchema: { ticketId: z.number().int(), closeReason: z.string().optional() } }, (args) => closeTicket(args, { mrtr: false, protocol: '2025-11-25' }));
    }
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
  // v2 2.4.0, stateless, 2026-07-28: MRTR native.
  const modernHandler = v2.createMcpHandler(() => {
    const s = new v2.McpServer({ name: 'McpTestServer.API', version: '1.0.0' });
    s.registerTool('run_configured_test_scenario', { description: 'Runs the configured test scenario.', inputSchema: z.object({ message: z.string().optional() }) }, (args, ctx) =>
      runScenario(args, { mrtr: true, responses: ctx.mcpReq.inputResponses, signal: ctx.mcpReq.signal }),
    );
    if (scenario === 'compat.sdk_v2') {
      s.registerTool('simulate_ticket_close_mrtr', { description: 'Simulates closing a support ticket.', inputSchema: z.object({ ticketId: z.number().int(), closeReason: z.string().optional() }) }, (args, ctx) =>
        closeTicket(args, { mrtr: true, responses: ctx.mcpReq.inputResponses, protocol: '2026-07-28' }),
      );
    }
    return s;
  }, { responseMode: 'auto', keepAliveMs: 0 });
  const modernNode = toNodeHandler(modernHandler);

  // ScenarioWireMiddleware + the observation middleware's body limit, then the SDK: what the server log sees.
  const wire = async (req, res) => {
    if (req.method !== 'POST') return legacy(req, res);
    const raw = await readBody(req);
    if (raw.length > BODY_LIMIT) {
      note({ wire: '400 body too large', bytes: raw.length });
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    let body;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {}
    // errors.http_status_sequence (added by the fifty-ninth audit): every POST takes statusCodes[min(n-1, len-1)]; a
    // non-2xx is a bare status line (no body, no Content-Type)
    if (scenario === 'errors.http_status_sequence' && Array.isArray(params.statusCodes) && params.statusCodes.length > 0) {
      const n = bump('http_request');
      const code = params.statusCodes[Math.min(n - 1, params.statusCodes.length - 1)];
      if (code < 200 || code > 299) {
        note({ wire: `status ${code}`, httpRequest: n, method: body?.method ?? null, id: body?.id ?? null });
        res.writeHead(code).end();
        return;
      }
    }
    if (scenario === 'errors.jsonrpc_error' && body?.method === 'tools/call') {
      const n = bump('tools_call');
      if (n === (params.onInvocation ?? 1)) {
        const id = int32(body.id) || typeof body.id === 'string' ? body.id : null;
        note({ wire: 'jsonrpc_error', toolsCall: n, id: body.id });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: params.code ?? -32602, message: params.message ?? 'Invalid params' } }));
        return;
      }
    }
    const modern = body?.method === 'server/discover' || req.headers['mcp-protocol-version'] === '2026-07-28';
    return modern ? modernNode(req, res, body) : legacy(req, res, body);
  };
  const observed = observe(recordingHandler(wire, { out: serverLog }));

  // Outside the observations: the rate limiter (per IP, fixed window, bare 429), then the PAT check (bare 401).
  let windowStart = Date.now();
  let used = 0;
  const handle = outermost(async (req, res) => {
    if (!req.url.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const now = Date.now();
    if (now - windowStart >= rateLimit.windowMs) {
      windowStart = now;
      used = 0;
    }
    if (++used > rateLimit.limit) {
      note({ outer: '429', method: req.method });
      for await (const c of req) void c;
      res.writeHead(429).end();
      return;
    }
    const auth = String(req.headers.authorization ?? '');
    const bearer = /^bearer /i.test(auth);
    if ((pat === undefined && bearer) || (pat !== undefined && (!bearer || auth.slice(7) !== pat))) {
      // a bearer with no PAT configured is checked too (and no token is valid then)
      if (pat !== undefined || bearer) {
        note({ outer: '401', method: req.method, bearer });
        for await (const c of req) void c;
        res.writeHead(401).end();
        return;
      }
    }
    return observed(req, res);
  });
  return { handle, events, close: () => modernHandler.close().catch(() => {}) };
}
