// The sixty-seventh audit's TypeScript client app (CLIENT=v1: SDK 1.32.2, v2: @modelcontextprotocol/client 2.x): runs the tool calls of env STEPS and, where a step says so, catches a failed call and makes it again, as a real app does after McpError RequestTimeout.
// argv: URL. env STEPS: JSON list of { tool, args, timeout? (ms; absent: the SDK's default, 60 s), retry? (call again once
// after an error), waitMs? (before the call) }; AUTH: a static Authorization header (requestInit). Captures: client.ndjson
// (recordingFetch, appended: a second run of the app adds to it); EXIT_AT_ONCE: exit 1 as soon as a call throws. truth-client.ndjson: each SDK call as the app saw it
// (returned or threw, its code, how long it took) and who made it (the app's first call, or its retry after an error).
// Exit 1 when the last call threw (a one-shot command's failure), 2 when connect failed.
import { appendFileSync } from 'node:fs';
import { recordingFetch } from '../../dist/capture/index.js';

const v2 = process.env.CLIENT === 'v2';
const { Client, StreamableHTTPClientTransport } = v2
  ? await import('@modelcontextprotocol/client')
  : { ...(await import('@modelcontextprotocol/sdk/client/index.js')), ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')) };
const NAME = `audit67-${process.env.CLIENT}`;
const RUN = process.env.RUN ?? '1';
const truth = (o) => appendFileSync('truth-client.ndjson', JSON.stringify({ ts: new Date().toISOString(), run: Number(RUN), ...o }) + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rf = recordingFetch({ out: 'client.ndjson', client: `${NAME}@1.0.0` });
const client = new Client({ name: NAME, version: '1.0.0' }, v2 ? { versionNegotiation: { mode: 'legacy' } } : {});
const transport = new StreamableHTTPClientTransport(new URL(process.argv[2]), { fetch: rf, ...(process.env.AUTH ? { requestInit: { headers: { authorization: process.env.AUTH } } } : {}) });
try { await client.connect(transport); } catch (e) {
  truth({ step: 'connect', ok: false, error: String(e?.message ?? e).slice(0, 200), code: e?.code ?? null, name: e?.constructor?.name });
  await rf.close(); process.exit(2);
}
truth({ step: 'connect', ok: true });

const one = async (s, by, n) => {
  const t0 = Date.now();
  const opts = s.timeout ? { timeout: s.timeout } : undefined;
  try {
    const r = v2 ? await client.callTool({ name: s.tool, arguments: s.args }, opts) : await client.callTool({ name: s.tool, arguments: s.args }, undefined, opts);
    truth({ step: n, tool: s.tool, args: s.args, by, ok: true, isError: !!r.isError, text: r.content?.[0]?.text ?? null, started: new Date(t0).toISOString(), ms: Date.now() - t0 });
    return true;
  } catch (e) {
    truth({ step: n, tool: s.tool, args: s.args, by, ok: false, error: String(e?.message ?? e).slice(0, 200), code: e?.code ?? null, name: e?.constructor?.name, started: new Date(t0).toISOString(), ms: Date.now() - t0 });
    return false;
  }
};
let ok = true;
for (const [i, s] of JSON.parse(process.env.STEPS).entries()) {
  if (s.waitMs) await sleep(s.waitMs);
  ok = await one(s, 'app', i);
  // EXIT_AT_ONCE: a one-shot command that exits on the error at once (process.exit in its catch), as CLIs do
  if (!ok && process.env.EXIT_AT_ONCE) process.exit(1);
  // the app's catch: it calls again, the same tool and arguments, at once
  if (!ok && s.retry) ok = await one(s, 'app-retry', i);
}
await sleep(300);
try { await client.close(); } catch { /* closed */ }
await rf.close();
process.exit(ok ? 0 : 1);
