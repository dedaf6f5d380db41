// Records test/fixtures/real-audit14/<scenario>/: the fourteenth audit, SSE resumption on the SDK 1.32.2 server's event store not recorded before, five views each (test/helpers/audit-rig.mjs).
// The v2 client 2.4.0 (without version negotiation, so on the 2025 line) against the SDK 1.32.2 server with the SDK's
// InMemoryEventStore (v2-ts-*), and the SDK 1.32.2 and v2 clients against that server with an event store that loses
// events while the session lives (ts-* and v2-*): a bounded store that evicted the client's Last-Event-ID (and one that
// also says so through getStreamIdForEventId), a store whose replay throws, a store that drops a stream once it is
// answered; and both clients against the SDK's own InMemoryEventStore where the order of one millisecond's events
// decides (*-memory-same-ms, *-memory-reordered). The fault hop in front of the client cuts the call's stream
// (test/helpers/audit-rig.mjs resumePlan).
//   npm run build && node test/real-audit14/record.mjs [scenario ...]
import { auditRig, clean, McpServer, resumePlan, StreamableHTTPServerTransport, text, z } from '../helpers/audit-rig.mjs';
import { recordEach, stopAfter } from '../helpers/loopback.mjs';
import { stores } from '../helpers/lossy-stores.mjs';

stopAfter(240_000);

/**
 * A server with one tool, quick_report: 3 steps of 300 ms, a progress notification each, the last one not awaited, so
 * the answer is stored in the same millisecond as the last progress event (the SDK's InMemoryEventStore orders two such
 * by the random part of their ids).
 */
const quickServer = (ran) => () => {
  const s = new McpServer({ name: 'reports', version: '1.0.0' });
  s.registerTool('quick_report', { description: 'A report with progress', inputSchema: { steps: z.number(), stepMs: z.number() } }, async ({ steps, stepMs }, extra) => {
    ran.push(`quick_report ${steps}x${stepMs}`);
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, stepMs));
      const sent = extra.sendNotification({ method: 'notifications/progress', params: { progressToken: extra._meta.progressToken, progress: i, total: steps } });
      if (i < steps) await sent;
    }
    ran.push('quick_report done');
    return text(`report of ${steps} steps`);
  });
  return s;
};

/**
 * One call of slow_report (3 steps of 300 ms, a progress notification each, 5 s timeout) by the SDK 1.32.2 client or the
 * v2 client 2.4.0 (both the rig's: maxRetries 1, 100 ms), on the SDK 1.32.2 server with `store` per session and
 * `retryMs` in its priming events, the hop doing `faults`.
 */
async function scenario(name, { v2 = false, store = 'memory', retryMs = 300, faults, quick = false, note }) {
  const Transport = class extends StreamableHTTPServerTransport {
    constructor(o) { super({ ...o, eventStore: stores[store](), retryInterval: retryMs }); }
  };
  let rig;
  rig = await auditRig('real-audit14', name, { Transport, ...(quick ? { buildServer: quickServer } : {}), settleMs: 300, fault: resumePlan(faults, () => rig.server), okOf: (r) => (r?.content ? { isError: !!r.isError, text: clean(r.content.map((b) => b.text).join(' ')), progress: r.progress } : r) });
  const c = await rig.sdkClient({ v2, negotiate: false });
  await rig.step(`call ${quick ? 'quick_report' : 'slow_report'}`, async () => {
    const progress = [];
    const params = { name: quick ? 'quick_report' : 'slow_report', arguments: { steps: 3, stepMs: 300 } };
    const opts = { timeout: 5000, onprogress: (p) => progress.push(p.progress) };
    const r = await (v2 ? c.callTool(params, opts) : c.callTool(params, undefined, opts)); // v2: (params, options)
    return { ...r, progress };
  });
  if (note) rig.note(note);
  await rig.done([() => c.close()]);
  return rig.observed;
}

/**
 * The SDK's InMemoryEventStore replays a stream's events in the order of their ids, and two stored in one millisecond
 * (the last progress event and the answer: at once with quick_report, often with slow_report in a warm process) in the
 * order of a random part. The scenarios it decides are recorded again (a new rig each time) until what the app got is
 * `want`, at most 40 times.
 */
async function until(name, opts, want) {
  for (let i = 1; i <= 40; i++) {
    const step = (await scenario(name, { ...opts, note: { try: i } })).find((x) => x.label);
    if (want(step)) return process.stderr.write(`${name}: at try ${i}\n`);
  }
  throw new Error(`${name}: not what it records in 40 tries`);
}
const answered = (x) => x.ok?.progress?.length === 3;

// The resumption arrives after the server's retry; with 1500 ms the tool (900 ms) has finished and the bounded store
// (3 events) has evicted the client's last id (the first progress event) by then.
const lossy = (client, store, faults = { call: 2 }) => () => scenario(`${client}-${store}`, { v2: client === 'v2', store, faults, ...(store.startsWith('evicted') ? { retryMs: 1500 } : {}) });
const scenarios = {
  'v2-ts-cut-resumed': () => until('v2-ts-cut-resumed', { v2: true, faults: { call: 2 } }, answered),
  'v2-ts-cut-twice': () => until('v2-ts-cut-twice', { v2: true, faults: { call: 2, resumes: [{ cut: 1 }] } }, answered),
  'v2-ts-result-replayed': () => until('v2-ts-result-replayed', { v2: true, faults: { call: Infinity } }, answered),
  'v2-ts-resume-503': () => scenario('v2-ts-resume-503', { v2: true, faults: { call: 2, resumes: [503, 503, 503] } }),
  'v2-ts-restart': () => scenario('v2-ts-restart', { v2: true, faults: { call: 2, resumes: ['restart'] } }),
  'ts-evicted': lossy('ts', 'evicted'),
  'v2-evicted': lossy('v2', 'evicted'),
  'ts-evicted-400': lossy('ts', 'evicted-400'),
  'v2-evicted-400': lossy('v2', 'evicted-400'),
  'ts-replay-throws': lossy('ts', 'replay-throws'),
  'v2-replay-throws': lossy('v2', 'replay-throws'),
  'ts-answer-dropped': lossy('ts', 'answer-dropped', { call: Infinity }),
  'v2-answer-dropped': lossy('v2', 'answer-dropped', { call: Infinity }),
  // quick_report: the answer stored in the last progress event's millisecond. Cut just before the answer, the
  // resumption from that progress event misses an answer whose id sorts first.
  'ts-memory-same-ms': () => until('ts-memory-same-ms', { quick: true, faults: { call: Infinity } }, (x) => !!x.error),
  'v2-memory-same-ms': () => until('v2-memory-same-ms', { v2: true, quick: true, faults: { call: Infinity } }, (x) => !!x.error),
  // Cut after the second progress event, resumed after the tool finished (retry 1500 ms): the replay sends the answer
  // before the last progress event when the answer's id sorts first.
  'ts-memory-reordered': () => until('ts-memory-reordered', { quick: true, retryMs: 1500, faults: { call: 3 } }, (x) => !!x.ok && !answered(x)),
  'v2-memory-reordered': () => until('v2-memory-reordered', { v2: true, quick: true, retryMs: 1500, faults: { call: 3 } }, (x) => !!x.ok && !answered(x)),
};
await recordEach(scenarios);
process.exit(0);
