// Claude Code recorder: a scripted stand-in for the Anthropic Messages API on 127.0.0.1 (tool_use turns, then a text answer).
import { listen, readJsonBody } from '../helpers/loopback.mjs';

const sse = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * Starts the fake API. `plan` is the list of tool calls the "model" makes, one per turn ({ name, input }); once every
 * tool_result of the plan has come back it answers with text. Requests that offer no tools of the plan (title
 * generation, quota probes) get a short text answer. Every request body is kept in `requests` for the observed notes.
 */
export async function startFakeAnthropic(plan) {
  const requests = [];
  let n = 0;
  const api = await listen(async (req, res) => {
    const { body } = await readJsonBody(req);
    requests.push({ method: req.method, url: req.url, model: body?.model, stream: body?.stream, tools: body?.tools?.map((t) => t.name) });
    if (req.method !== 'POST' || !req.url.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not here' } }));
      return;
    }
    if (req.url.startsWith('/v1/messages/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
      return;
    }
    const offered = new Set((body?.tools ?? []).map((t) => t.name));
    const planned = plan.some((c) => offered.has(c.name));
    // how many tool results of ours came back so far = how far along the plan we are
    const done = (body?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result' && String(b.tool_use_id).startsWith('toolu_plan_')).length;
    const id = `msg_fake_${++n}`;
    let blocks;
    let stop = 'end_turn';
    if (planned && done < plan.length) {
      const call = plan[done];
      if (call.before && !call.ran) {
        call.ran = true;
        await call.before();
      }
      blocks = [{ type: 'tool_use', id: `toolu_plan_${done + 1}`, name: call.name, input: call.input ?? {} }];
      stop = 'tool_use';
    } else {
      blocks = [{ type: 'text', text: planned ? 'Done: every planned tool call came back.' : 'ok' }];
    }
    const usage = { input_tokens: 12, output_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = { id, type: 'message', role: 'assistant', model: body?.model ?? 'claude-fake', stop_reason: stop, stop_sequence: null, usage };
    if (!body?.stream) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}` }).end(JSON.stringify({ ...message, content: blocks }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${id}` });
    let out = sse('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        out += sse('content_block_start', { index, content_block: { type: 'text', text: '' } });
        out += sse('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
      } else {
        out += sse('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        out += sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
      }
      out += sse('content_block_stop', { index });
    });
    out += sse('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 8 } });
    out += sse('message_stop', {});
    res.end(out);
  });
  return { ...api, requests };
}
