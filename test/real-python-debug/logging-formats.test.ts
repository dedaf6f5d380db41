// The Python SDK's real DEBUG logs re-rendered in the logging format strings apps commonly configure: the same calls, outcomes and times as the log as recorded.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/index.js';

const FIX = fileURLToPath(new URL('../fixtures/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mcpt-pyfmt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A record of the recorded logs (`%(asctime)s %(levelname)s %(name)s: %(message)s`); a traceback's lines match not. */
const RECORD = /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) (DEBUG|INFO|WARNING|ERROR|CRITICAL) ([\w.]+):? (.*)$/s;

/** Each: a format string and how Python renders one record in it (time, milliseconds, level, logger name, message). */
const FORMATS: Record<string, (t: string, ms: string, level: string, name: string, msg: string) => string> = {
  "'%(asctime)s - %(name)s - %(levelname)s - %(message)s' (the logging cookbook's)": (t, ms, l, n, m) => `${t},${ms} - ${n} - ${l} - ${m}`,
  "Flask's '[%(asctime)s] %(levelname)s in %(module)s: %(message)s'": (t, ms, l, n, m) => `[${t},${ms}] ${l} in ${n.split('.').pop()}: ${m}`,
  "'%(asctime)s.%(msecs)03d %(levelname)-8s %(name)s %(message)s' with datefmt '%Y-%m-%d %H:%M:%S'": (t, ms, l, n, m) => `${t}.${ms} ${l.padEnd(8)} ${n} ${m}`,
  "'%(asctime)s [%(levelname)s] %(name)s: %(message)s' with an ISO datefmt": (t, ms, l, n, m) => `${t.replace(' ', 'T')}.${ms} [${l}] ${n}: ${m}`,
  "'%(asctime)s | %(levelname)s | %(name)s | %(message)s'": (t, ms, l, n, m) => `${t},${ms} | ${l} | ${n} | ${m}`,
};

const LOGS = ['real-python-debug/http-errors/client.log', 'real-python-debug/sse/client.log', 'real-audit16/py-two-servers/client.log', 'real-audit19/s2-python/client-legacy-asctime.log'];

type Result = Awaited<ReturnType<typeof analyze>>;
const rows = (r: Result) => r.attempts.map((a) => `${a.ts ?? '-'} ${a.method} ${a.tool ?? ''} #${String(a.id)} ${a.outcome} ${a.status ?? '-'} [${a.findings.map((f) => f.code).sort().join(',')}]`);

describe("the Python SDK's DEBUG log in other logging formats", () => {
  for (const file of LOGS) {
    describe(file, async () => {
      const recorded = await analyze({ inputs: [{ path: `${FIX}${file}` }] });

      it('as recorded: timed calls, no line unusable (reference)', () => {
        expect(recorded.attempts.length).toBeGreaterThan(4);
        expect(recorded.attempts.every((a) => a.ts !== undefined)).toBe(true);
        expect(recorded.summary.lines.unusable).toBe(0);
      });

      Object.entries(FORMATS).forEach(([name, render], i) => {
        it(`${name}: the same calls, outcomes and times`, async () => {
          const lines = readFileSync(`${FIX}${file}`, 'utf8').split('\n').map((l) => {
            const m = RECORD.exec(l);
            return m ? render(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!) : l;
          });
          const path = join(dir, `${i}-${file.replace(/\//g, '_')}`);
          writeFileSync(path, lines.join('\n'));
          const r = await analyze({ inputs: [{ path }] });
          expect(r.summary.lines.unusable).toBe(0);
          expect(rows(r)).toEqual(rows(recorded));
        });
      });
    });
  }

  // The same records from a JSON formatter on the root logger: python-json-logger ('%(asctime)s %(levelname)s
  // %(name)s %(message)s'), structlog's JSONRenderer (event, level, logger, an ISO timestamp). A traceback's lines are
  // the record's exc_info there; the recorded text logs have them as lines of their own, kept here as records with no
  // name of their own, as a handler that writes each line it gets would.
  const JSON_FORMATTERS: Record<string, (t: string, ms: string, level: string, name: string, msg: string) => object> = {
    'python-json-logger': (t, ms, l, n, m) => ({ asctime: `${t},${ms}`, levelname: l, name: n, message: m }),
    "structlog's JSONRenderer": (t, ms, l, n, m) => ({ event: m, level: l.toLowerCase(), logger: n, timestamp: `${t.replace(' ', 'T')}.${ms}Z` }),
  };
  for (const file of LOGS) {
    Object.entries(JSON_FORMATTERS).forEach(([name, render], i) => {
      it(`${file} through ${name}: the same calls, outcomes and times`, async () => {
        const recorded = await analyze({ inputs: [{ path: `${FIX}${file}` }] });
        let last: RegExpExecArray | undefined;
        const lines = readFileSync(`${FIX}${file}`, 'utf8').split('\n').filter((l) => l !== '').map((l) => {
          const m = RECORD.exec(l);
          if (m) last = m;
          return JSON.stringify(m ? render(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!) : render(last![1]!, last![2]!, last![3]!, 'traceback', l));
        });
        const path = join(dir, `json-${i}-${file.replace(/\//g, '_')}`);
        writeFileSync(path, lines.join('\n') + '\n');
        const r = await analyze({ inputs: [{ path }] });
        expect(r.summary.lines.unusable).toBe(0);
        expect(r.summary.inputs[0]!.formats['python-sdk']).toBeGreaterThan(0);
        expect(rows(r)).toEqual(rows(recorded));
      });
    });
  }

  it("must not: an app's own python-json-logger lines with a message in a field stay the application-log reader's", async () => {
    const r = await analyze({ inputs: [{ path: `${FIX}real-app-log/py-pjl/server.ndjson` }] });
    expect(r.summary.inputs[0]!.formats).toEqual({ 'app-log': expect.any(Number) });
    expect(r.attempts.length).toBeGreaterThan(4);
  });

  it('must not: a JSON-RPC batch line that opens with "[" is still read as JSON, not as a text log', async () => {
    const path = join(dir, 'batch.ndjson');
    writeFileSync(path, '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]\n');
    const r = await analyze({ inputs: [{ path, side: 'client' }] });
    expect(r.attempts.map((a) => a.method).sort()).toEqual(['ping', 'tools/list']);
  });

  it('must not: a line that opens with "[" and is neither JSON nor a known text log is unusable as invalid JSON', async () => {
    const path = join(dir, 'bracket.log');
    writeFileSync(path, '[12:00:01] server started on port 3000\n');
    const r = await analyze({ inputs: [{ path }] });
    expect(r.summary.lines.unusable).toBe(1);
    expect(r.summary.diagnostics.first[0]!.message).toMatch(/^invalid JSON/);
  });
});
