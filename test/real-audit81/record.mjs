// Records test/fixtures/real-audit81/ (the eighty-first audit: SSE streams of one session cut in one order and reconnected in another) with SDK 1.32.2 on 127.0.0.1.
// Needs nothing beyond the repository's devDependencies; NOT run by `npm test`. Usage: npm run build && node test/real-audit81/record.mjs [scenario...]
// The recorder is the eighty-second audit's (test/real-audit82/record.mjs, which read its chain and how each GET is
// known by its stream), run with `--audit 81`: this audit's folders and `x-audit81-stream` tags, the SDK 1.32.2 server
// with an event store, two calls at once in one session. A scenario named `v2-<name>` runs <name> with the v2 client
// (@modelcontextprotocol/client 2.4.0, 2025-11-25) in place of 1.32.2's, against the same server.
const SCENARIOS = ['resume-reversed', 'plain-reversed', 'plain-in-order', 'standalone-refused', 'standalone-in-order', 'v2-resume-reversed', 'v2-plain-reversed'];
const picked = process.argv.slice(2);
process.argv.splice(2, picked.length, '--audit', '81', ...(picked.length > 0 ? picked : SCENARIOS));
await import('../real-audit82/record.mjs');
