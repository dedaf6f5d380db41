// The eighty-second audit (test/real-audit82/record.mjs): the eighty-first's out-of-order reconnects against the v2 server (event store), checked against observed.json.
// The v2 server 2.4.0 and the Python SDK 2.3.0 server, each with an event store; the checks: test/helpers/stream-reconnects.ts.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeReconnects } from '../helpers/stream-reconnects.js';

const ROOT = fileURLToPath(new URL('../fixtures/real-audit82/', import.meta.url));
const SCENARIOS = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describeReconnects('real-audit82', ROOT, SCENARIOS, 'x-audit82-stream');
