// opencode recorder: a scripted stand-in for the OpenAI chat completions API (streaming SSE) on 127.0.0.1 (tool_calls turns naming MCP tools, then a text answer).
import { listen, readJsonBody } from '../helpers/loopback.mjs';

const chunk = (model, choice, extra = {}) => `data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
const usage = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };

/**
 * Starts the fake API. `plan` is the list of turns of the "model": one tool call ({ name, args, before }: `name` is the
 * MCP tool's name; the function name is whichever offered tool ends with `_<name>`), or several in one response
 * ({ parallel: [{ name, args }, ...] }). Once every tool message of the plan has come back it answers with text.
 * Requests that offer none of the plan's tools (opencode's title generation) get a short text. Every request is kept
 * in `requests` ({ url, model, tools, messages }).
 */
export async function startFakeOpenAI(plan) {
  const requests = [];
  let turn = 0;
  const api = await listen(async (req, res) => {
    const { body } = await readJsonBody(req);
    const tools = (body?.tools ?? []).map((t) => t.function?.name ?? t.name).filter(Boolean);
    requests.push({ method: req.method, url: req.url, model: body?.model, stream: body?.stream, tools, messages: body?.messages });
    if (req.method !== 'POST' || !req.url.startsWith('/v1/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not here', type: 'not_found' } }));
      return;
    }
    const fnName = (suffix) => tools.find((d) => d === suffix || d.endsWith(`_${suffix}`));
    const names = plan.flatMap((t) => (t.parallel ? t.parallel.map((c) => c.name) : [t.name]));
    const planned = names.some((n) => fnName(n));
    const answered = new Set((body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.tool_call_id));
    let step = -1;
    if (planned) {
      // the first turn whose calls have not all come back
      step = plan.findIndex((t, i) => (t.parallel ?? [t]).some((_, k) => !answered.has(callId(i, k))));
    }
    const model = body?.model ?? 'fake';
    const stream = body?.stream !== false;
    let toolCalls = null;
    let text = planned ? 'Done: every planned tool call came back.' : 'ok';
    if (step >= 0) {
      const t = plan[step];
      if (t.before && !t.ran) {
        t.ran = true;
        await t.before();
      }
      toolCalls = (t.parallel ?? [t]).map((c, k) => ({ index: k, id: callId(step, k), type: 'function', function: { name: fnName(c.name) ?? c.name, arguments: JSON.stringify(c.args ?? {}) } }));
      turn++;
    }
    if (!stream) {
      const message = toolCalls ? { role: 'assistant', content: null, tool_calls: toolCalls.map(({ index, ...c }) => c) } : { role: 'assistant', content: text };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message, finish_reason: toolCalls ? 'tool_calls' : 'stop' }], usage }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(chunk(model, { delta: { role: 'assistant', content: '' }, finish_reason: null }));
    if (toolCalls) res.write(chunk(model, { delta: { tool_calls: toolCalls }, finish_reason: null }));
    else res.write(chunk(model, { delta: { content: text }, finish_reason: null }));
    res.write(chunk(model, { delta: {}, finish_reason: toolCalls ? 'tool_calls' : 'stop' }));
    res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  return { ...api, requests, turns: () => turn };
}

/** The id of the k-th tool call of the i-th turn of the plan. */
export const callId = (i, k = 0) => `call_plan_${i + 1}${k ? `_${k + 1}` : ''}`;

/** The tool messages the agent sent back to the model (in the last request that has any), in order, with the tool call they answer. */
export function toolMessages(requests) {
  const last = [...requests].reverse().find((r) => (r.messages ?? []).some((m) => m.role === 'tool'));
  const calls = new Map();
  for (const m of last?.messages ?? []) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => ({ toolCallId: m.tool_call_id, name: calls.get(m.tool_call_id)?.name ?? null, args: calls.get(m.tool_call_id)?.arguments ?? null, content: m.content }));
}
