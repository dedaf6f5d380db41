// The eighty-first audit (test/real-audit81/record.mjs): two calls of one session whose SSE streams are cut in one order and reconnected in another, checked against observed.json.
// The SDK 1.32.2 server with an event store, the 1.32.2 and v2 clients; the checks: test/helpers/stream-reconnects.ts.
import { fileURLToPath } from 'node:url';
import { describeReconnects } from '../helpers/stream-reconnects.js';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit81/', import.meta.url));
const SCENARIOS = ['resume-reversed', 'plain-reversed', 'plain-in-order', 'standalone-refused', 'standalone-in-order', 'v2-resume-reversed', 'v2-plain-reversed'];

describeReconnects('real-audit81', ROOT, SCENARIOS, 'x-audit81-stream');
