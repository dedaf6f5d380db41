// One app process of test/real-audit88/record.mjs (scenario two-apps): the TypeScript SDK 1.32.2 Client, its fetch
// recordingFetch (OUT; no conn, no client name), against URL: tools/list, then at AT (epoch ms) `sync` inv-1; when it
// fails, the app retries it 300 ms later if RETRY is 1, else gives up. Prints what it saw as one JSON line.
//   node test/real-audit88/app.mjs NAME URL OUT AT RETRY
const R = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const { Client, StreamableHTTPClientTransport, errOf, short } = await import(`${R}/test/helpers/audit-rig.mjs`);
const { recordingFetch } = await import(`${R}/dist/capture/index.js`);
const [name, url, out, at, retry] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const seen = [];
const rf = recordingFetch({ out });
const c = new Client({ name, version: '1.0.0' }, { capabilities: {} });
await c.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: rf }));
seen.push({ app: name, label: 'connect', ok: true });
seen.push({ app: name, label: 'tools/list', ok: (await c.listTools()).tools.map((t) => t.name) });
await sleep(Math.max(0, Number(at) - Date.now()));
for (let attempt = 1; attempt <= (retry === '1' ? 2 : 1); attempt++) {
  const t0 = Date.now();
  try {
    const r = await c.callTool({ name: 'sync', arguments: { item: 'inv-1' } });
    seen.push({ app: name, label: `sync inv-1 #${attempt}`, attempt, ok: short(r), ms: Date.now() - t0, at: new Date(t0).toISOString() });
    break;
  } catch (e) {
    seen.push({ app: name, label: `sync inv-1 #${attempt}`, attempt, error: errOf(e), ms: Date.now() - t0, at: new Date(t0).toISOString() });
    if (retry === '1') await sleep(300);
  }
}
await c.close();
await rf.close();
console.log(JSON.stringify({ seen }));
