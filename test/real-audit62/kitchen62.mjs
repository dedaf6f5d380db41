// The MCP test kitchen's written-but-unregistered transport-fault and timeout scenarios (cakewalk-mcp-test-kitchen @
// cf2f689: errors.connection_close, errors.malformed_payload, errors.non_compliant_envelope, errors.http_status_per_method,
// timeout.cooperative_deadline, timeout.init_hang, timeout.late_response, timeout.uncooperative_hang), emulated as
// ScenarioWireMiddleware applies them, in front of test/real-audit56/kitchen.mjs (its real SDK servers: v2 2.4.0 on
// 2026-07-28, 1.32.2 on 2025-11-25) reached over loopback HTTP. The server log (recordingHandler) wraps this layer, as
// the kitchen's observations wrap ScenarioWireMiddleware.
import { request as httpRequest } from 'node:http';
import { recordingHandler } from '../../dist/capture/index.js';
import { listen, readBody } from '../helpers/loopback.mjs';
import { kitchen, scenarioBook } from '../real-audit56/kitchen.mjs';

// ScenarioWireRequestReader: the id kept only if an int32 or a string; ScenarioWireJsonRpc: System.Text.Json, camelCase
const int32 = (v) => Number.isInteger(v) && v >= -2147483648 && v <= 2147483647;
const wireId = (body) => (body && (int32(body.id) || typeof body.id === 'string') ? body.id : null);
const result = (id, r) => JSON.stringify({ jsonrpc: '2.0', id, result: r });

/** Defaults from each scenario's *Params.cs. */
const DEFAULTS = {
  'errors.connection_close': { closeOn: 'tool_call', onInvocation: 1 },
  'errors.malformed_payload': { kind: 'invalid_json', target: 'tool_call', onInvocation: 1 },
  'errors.non_compliant_envelope': { httpStatus: 400, resultPayload: '{"content":[{"type":"text","text":"ok"}],"isError":false}', onInvocation: 1 },
  'errors.http_status_per_method': { rules: { 'tools/call': 401, initialize: 200 } },
  'timeout.cooperative_deadline': { delayMs: 1000, honorCancellation: true },
  'timeout.init_hang': { initDelayMs: 2000, honorCancellation: true },
  'timeout.late_response': { delayMs: 5000 },
  'timeout.uncooperative_hang': { hangOnInvocation: 1, hangDurationMs: 60_000 },
};

/**
 * One kitchen caller with `scenario` and `params` (merged over the scenario's defaults); counters kept for the whole
 * run. `serverLog`: server.ndjson; `port` this layer's, `innerPort` the SDK servers'. Returns { url, events, close }.
 */
export async function kitchen62({ scenario, params = {}, serverLog, port, innerPort }) {
  const p = { ...DEFAULTS[scenario], ...params };
  // the SDK servers behind: the tool answers {scenarioId, invocation, message} (kitchen.mjs's fall-through, which is
  // ScenarioToolResults.Success without delayMs); its own counter counts the invocations that reached the SDK
  const inner = kitchen({ scenario, params: {}, serverLog: '/dev/null' });
  const innerHost = await listen(inner.handle, innerPort);
  const { counters, bump, events, note } = scenarioBook();

  // forward to the SDK; `detached`: the client's going away does not cancel it (the tool runs on, its answer is lost)
  const forward = (req, res, raw, detached = false) =>
    new Promise((resolve) => {
      const up = httpRequest(`${innerHost.url}${req.url}`, { method: req.method, headers: { ...req.headers, host: `127.0.0.1:${innerHost.port}` } }, (r) => {
        if (res.destroyed || res.socket?.destroyed) {
          r.resume();
          r.on('end', resolve);
          return;
        }
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
        r.on('end', resolve);
        r.on('error', resolve);
      });
      up.on('error', () => resolve());
      if (!detached) res.on('close', () => up.destroy());
      up.end(raw);
    });
  // Task.Delay(ms, RequestAborted) when `honor`: resolves false if the client went away first
  const wait = (req, res, ms, honor) =>
    new Promise((resolve) => {
      const t = setTimeout(() => resolve(true), ms);
      if (honor)
        res.on('close', () => {
          clearTimeout(t);
          resolve(false);
        });
    });
  // WireDecision.RespondWithStatus: a status line only; RespondWithBody: application/json, written (chunked) by WriteAsync
  const status = (res, code) => res.writeHead(code).end();
  const withBody = (res, code, body) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.write(body);
    res.end();
  };

  const wire = async (req, res) => {
    const raw = req.method === 'POST' ? await readBody(req) : undefined;
    let body;
    try {
      body = raw && raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {}
    const method = typeof body?.method === 'string' ? body.method : null;
    if (req.method === 'POST' && method !== null) {
      if (scenario === 'errors.connection_close') {
        const target = p.closeOn === 'initialize' ? method === 'initialize' : p.closeOn === 'tool_call' ? method === 'tools/call' : false;
        if (target) {
          const n = bump(p.closeOn === 'initialize' ? 'http_request' : 'tools_call');
          if (n === p.onInvocation) {
            // HttpContext.Abort(): the connection is dropped, nothing of the response is written
            note({ wire: 'close connection', method, id: body.id ?? null, invocation: n });
            req.socket.destroy();
            return;
          }
        }
      }
      if (scenario === 'errors.malformed_payload') {
        const target = p.target === 'http_request' ? true : p.target === 'initialize' ? method === 'initialize' : method === 'tools/call';
        if (target) {
          const key = p.target === 'tool_call' ? 'tools_call' : p.target === 'initialize' || p.target === 'http_request' ? 'http_request' : method === 'tools/call' ? 'tools_call' : 'http_request';
          const n = bump(key);
          if (n === p.onInvocation) {
            const id = wireId(body);
            const out =
              p.kind === 'wrong_id'
                ? JSON.stringify({ jsonrpc: '2.0', id: 99999, error: { code: -32602, message: 'Wrong id' } })
                : p.kind === 'missing_jsonrpc'
                  ? '{"id":1,"result":{}}'
                  : p.kind === 'duplicate_response'
                    ? `${result(id, { ok: true })}\n${result(id, { ok: true })}`
                    : '{ not valid json';
            note({ wire: `malformed ${p.kind}`, method, id: body.id ?? null, invocation: n });
            withBody(res, 200, out);
            return;
          }
        }
      }
      if (scenario === 'errors.http_status_per_method') {
        const code = p.rules?.[method];
        if (code !== undefined && !(code >= 200 && code < 300)) {
          note({ wire: `status ${code}`, method, id: body.id ?? null });
          status(res, code);
          return;
        }
      }
      if (scenario === 'timeout.init_hang' && method === 'initialize' && p.initDelayMs > 0) {
        note({ wire: 'initialize delayed', id: body.id ?? null, ms: p.initDelayMs });
        if (!(await wait(req, res, p.initDelayMs, p.honorCancellation))) {
          note({ wire: 'initialize delay cancelled (client gone)', id: body.id ?? null });
          return;
        }
      }
      const tool = method === 'tools/call' && body.params?.name === 'run_configured_test_scenario';
      if (tool && (scenario === 'timeout.cooperative_deadline' || scenario === 'timeout.late_response' || scenario === 'timeout.uncooperative_hang')) {
        const n = bump('run_configured_test_scenario');
        const ms =
          scenario === 'timeout.uncooperative_hang' ? (n === p.hangOnInvocation ? p.hangDurationMs : 0) : p.delayMs;
        const honor = scenario === 'timeout.cooperative_deadline' && p.honorCancellation;
        note({ tool: 'run_configured_test_scenario', invocation: n, phase: 'start', delayMs: ms, honorCancellation: honor, id: body.id ?? null });
        if (ms > 0 && !(await wait(req, res, ms, honor))) {
          note({ tool: 'run_configured_test_scenario', invocation: n, phase: 'cancelled' });
          return;
        }
        const gone = res.destroyed || res.socket?.destroyed || res.writableEnded;
        note({ tool: 'run_configured_test_scenario', invocation: n, phase: 'return', clientGone: Boolean(gone) });
        await forward(req, res, raw, true);
        return;
      }
    }
    // non_compliant_envelope counts every POST (whatever its body), GET and DELETE pass
    if (scenario === 'errors.non_compliant_envelope' && req.method === 'POST') {
      const n = bump('http_request');
      if (n === p.onInvocation) {
        note({ wire: `non-compliant ${p.httpStatus}`, method, id: body?.id ?? null, invocation: n });
        withBody(res, p.httpStatus, `{"jsonrpc":"2.0","id":${JSON.stringify(wireId(body))},"result":${p.resultPayload}}`);
        return;
      }
    }
    await forward(req, res, raw);
  };
  const host = await listen(recordingHandler(wire, { out: serverLog }), port);
  return {
    url: host.url,
    events,
    close: async () => {
      await host.close();
      await innerHost.close();
      await inner.close();
    },
  };
}
