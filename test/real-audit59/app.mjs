// A judge's small TypeScript application against the MCP test kitchen (SDK 1.32.2 "ts1" or v2 2.4.0 "v2"), for
// test/real-audit59/record.mjs: connects with the PAT bearer (three tries, backoff), lists tools, calls tools with a
// retry policy a real app has (HTTP 5xx/429, timeouts and -32603 retried with backoff; a timeout reconnects first;
// -32602 and isError results are not retried), captured with recordingFetch as the README advises.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { recordingFetch } from '../../dist/capture/index.js';
import { describeError, sleep } from '../helpers/loopback.mjs';

const statusOf = (err) => err?.status ?? err?.data?.status ?? (typeof err?.code === 'number' && err.code >= 400 && err.code < 600 ? err.code : undefined);
const isTimeout = (err) => err?.code === -32001 || err?.code === 'REQUEST_TIMEOUT' || /timed? ?out/i.test(String(err?.message));
/** What the app's policy does with an error: 'retry', 'reconnect' or 'give-up'. */
export function policy(err) {
  const st = statusOf(err);
  if (st === 429 || (st >= 500 && st <= 599)) return 'retry';
  if (isTimeout(err)) return 'reconnect';
  if (err?.code === -32603 || err?.code === -32000) return 'retry';
  return 'give-up';
}

export async function runTsApp({ client, url, pat, out, calls, elicit = [], modern = false, backoff = 150, tries = 3 }) {
  const f = recordingFetch({ out, client: `judge-app-${client}@0.1.0` });
  const steps = [];
  const answers = [...elicit];
  const headers = { authorization: `Bearer ${pat}` };
  const make = () => {
    if (client === 'v2') {
      // modern: versionNegotiation auto (2026-07-28); without it the v2 client initializes on 2025-11-25
      const cl = new ClientV2({ name: 'judge-app', version: '0.1.0' }, { capabilities: { elicitation: { form: {} } }, ...(modern ? { versionNegotiation: { mode: 'auto' } } : {}) });
      cl.setRequestHandler('elicitation/create', async () => {
        const action = answers.shift() ?? 'cancel';
        steps.push({ step: 'elicitation', action });
        return action === 'accept' ? { action, content: { reason: 'judge approves', closeReason: 'fixed' } } : { action };
      });
      return { cl, t: new TransportV2(new URL('/mcp', url), { fetch: f, requestInit: { headers } }) };
    }
    return { cl: new Client({ name: 'judge-app', version: '0.1.0' }), t: new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: f, requestInit: { headers } }) };
  };
  const connect = async () => {
    for (let i = 1; i <= tries; i++) {
      const { cl, t } = make();
      try {
        await cl.connect(t);
        steps.push({ step: `connect ${i}`, ok: true });
        return cl;
      } catch (err) {
        steps.push({ step: `connect ${i}`, ok: false, error: describeError(err) });
        await cl.close().catch(() => {});
        await sleep(backoff * 2 ** (i - 1));
      }
    }
    steps.push({ step: 'connect', gaveUp: true });
    return undefined;
  };
  let cl = await connect();
  if (!cl) return steps;
  try {
    const l = await cl.listTools();
    steps.push({ step: 'list tools', ok: true, tools: l.tools.map((t) => t.name) });
  } catch (err) {
    steps.push({ step: 'list tools', ok: false, error: describeError(err) });
  }
  for (const [n, call] of calls.entries()) {
    for (let k = 1; k <= tries; k++) {
      const timeout = call.timeout && k === 1 ? call.timeout : call.timeout ? call.timeout * 5 : undefined;
      try {
        const opts = timeout ? { timeout } : undefined;
        const r = client === 'v2' ? await cl.callTool({ name: call.tool, arguments: call.args }, opts) : await cl.callTool({ name: call.tool, arguments: call.args }, undefined, opts);
        steps.push({ step: `call ${n + 1} try ${k}`, ok: true, isError: r.isError === true, text: String(r.content?.[0]?.text ?? '').slice(0, 300) });
        break;
      } catch (err) {
        const what = policy(err);
        steps.push({ step: `call ${n + 1} try ${k}`, ok: false, error: describeError(err), policy: k === tries ? 'give-up (tries exhausted)' : what });
        if (what === 'give-up' || k === tries) break;
        await sleep(backoff * 2 ** (k - 1));
        if (what === 'reconnect') {
          await cl.close().catch(() => {});
          cl = await connect();
          if (!cl) return steps;
        }
      }
    }
  }
  await cl.close();
  f.close?.();
  return steps;
}
