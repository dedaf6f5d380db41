// Gemini CLI recorder: a scripted stand-in for the Gemini API (generateContent / streamGenerateContent) on 127.0.0.1.
import { listen, readJsonBody } from '../helpers/loopback.mjs';

const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 8, totalTokenCount: 20 };

/**
 * Starts the fake API. `plan` is the list of tool calls the "model" makes, one per turn ({ name, args }), named by
 * their suffix (the MCP tool name): the full function name is taken from the `tools` the request offers. Once every
 * functionResponse of the plan has come back it answers with text. Requests that offer none of the plan's tools (the
 * CLI's side calls: routing, next-speaker checks) get a short text answer. Each request is kept in `requests`, and
 * each functionResponse the CLI sent back in `responses`.
 */
export async function startFakeGemini(plan) {
  const requests = [];
  const api = await listen(async (req, res) => {
    const { body } = await readJsonBody(req);
    const decls = (body?.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
    requests.push({ method: req.method, url: req.url, functions: decls, contents: body?.contents });
    const m = /\/models\/([^:/?]+):(streamGenerateContent|generateContent|countTokens)/.exec(req.url);
    if (req.method !== 'POST' || !m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'not here', status: 'NOT_FOUND' } }));
      return;
    }
    const [, model, op] = m;
    if (op === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 10 }));
      return;
    }
    const fnName = (suffix) => decls.find((d) => d === suffix || d.endsWith(`__${suffix}`) || d.endsWith(`_${suffix}`));
    const planned = plan.some((c) => fnName(c.name));
    const parts = (body?.contents ?? []).flatMap((c) => c.parts ?? []);
    const done = parts.filter((p) => p.functionResponse && String(p.functionResponse.id ?? '').startsWith('plan-')).length;
    let out;
    if (planned && done < plan.length) {
      const call = plan[done];
      if (call.before && !call.ran) {
        call.ran = true;
        await call.before();
      }
      out = [{ functionCall: { id: `plan-${done + 1}`, name: fnName(call.name) ?? call.name, args: call.args ?? {} } }];
    } else {
      out = [{ text: planned ? 'Done: every planned tool call came back.' : 'ok' }];
    }
    const response = { candidates: [{ content: { role: 'model', parts: out }, finishReason: 'STOP', index: 0 }], usageMetadata, modelVersion: model, responseId: `fake-${requests.length}` };
    if (op === 'generateContent') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(response));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(response)}\r\n\r\n`);
  });
  return { ...api, requests };
}
