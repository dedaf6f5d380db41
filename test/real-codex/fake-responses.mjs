// Codex recorder: a scripted stand-in for the OpenAI Responses API on 127.0.0.1 (function_call turns for MCP tools, then a text answer).
import { listen, readJsonBody } from '../helpers/loopback.mjs';

const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** Every name a tool in a Responses `tools` array can be called by (plain functions, and namespaced ones as `ns` + name). */
function toolNames(tools) {
  const out = [];
  for (const t of tools ?? []) {
    if (t.name) out.push(t.name);
    if (Array.isArray(t.tools)) for (const s of t.tools) if (s.name) out.push(`${t.name}__${s.name}`);
  }
  return out;
}

/**
 * Starts the fake API. `plan` is the list of turns of the "model": one tool call ({ tool, args, before }: `tool` is the
 * MCP tool's name; the function name is whatever offered name ends with `__<tool>`) or several in one response
 * ({ parallel: [{ tool, args }, ...] }); once every function_call_output of the plan has come back it answers with text. Every request is kept in `requests`; each function_call_output Codex
 * sent back in `outputs` (what Codex made of the MCP call, as the model sees it).
 */
export async function startFakeResponses(plan, { server = 'web' } = {}) {
  const requests = [];
  const outputs = new Map();
  let n = 0;
  const api = await listen(async (req, res) => {
    const { body } = await readJsonBody(req);
    const offered = toolNames(body?.tools);
    requests.push({ method: req.method, url: req.url, model: body?.model, stream: body?.stream, tools: offered });
    if (req.method !== 'POST' || !/\/responses$/.test(req.url.split('?')[0])) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here', type: 'invalid_request_error' } }));
      return;
    }
    for (const item of body?.input ?? []) {
      if (item.type === 'function_call_output' && String(item.call_id).startsWith('call_plan_')) outputs.set(item.call_id, item.output);
    }
    const done = (body?.input ?? []).filter((i) => i.type === 'function_call_output' && String(i.call_id).startsWith('call_plan_')).length;
    const id = `resp_fake_${++n}`;
    // the next turn of the plan: the first whose calls are not all answered yet (a turn of `parallel` calls is one response)
    let turn = 0;
    for (let seen = 0; turn < plan.length; turn++) {
      seen += plan[turn].parallel?.length ?? 1;
      if (seen > done) break;
    }
    let items;
    if (turn < plan.length) {
      const step = plan[turn];
      if (step.before && !step.ran) {
        step.ran = true;
        await step.before();
      }
      const first = plan.slice(0, turn).reduce((k, t) => k + (t.parallel?.length ?? 1), 0);
      items = (step.parallel ?? [step]).map((call, k) => {
        const name = offered.find((t) => t.endsWith(`__${call.tool}`)) ?? `mcp__${server}__${call.tool}`;
        // Codex 0.171 offers MCP tools in a `namespace` tool (mcp__<server>) and takes the call as name + namespace
        const i = name.lastIndexOf('__');
        const c = first + k + 1;
        return { type: 'function_call', id: `fc_plan_${c}`, call_id: `call_plan_${c}`, namespace: name.slice(0, i), name: name.slice(i + 2), arguments: JSON.stringify(call.args ?? {}), status: 'completed' };
      });
    } else {
      items = [{ type: 'message', id: `msg_fake_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done: every planned tool call came back.', annotations: [] }] }];
    }
    const usage = { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 8, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 };
    const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'in_progress', model: body?.model ?? 'gpt-fake', output: [] };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let out = sse('response.created', { response });
    items.forEach((item, output_index) => {
      out += sse('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
      out += sse('response.output_item.done', { output_index, item });
    });
    out += sse('response.completed', { response: { ...response, status: 'completed', output: items, usage } });
    res.end(out);
  });
  return { ...api, requests, outputs };
}
