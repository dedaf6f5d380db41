// The thirteenth audit's rig (published MCP servers in processes of their own): start and restart such a server, keep results as observed.json shows them, and record one scenario five ways (test/helpers/audit-rig.mjs).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { freePort, sleep } from './loopback.mjs';
import { auditRig, clean } from './audit-rig.mjs';

/** A tool result as observed.json keeps it: isError and the start of its text. */
export const short = (x) => (x && typeof x === 'object' && 'content' in x ? { isError: !!x.isError, text: clean(x.content?.map((b) => b.text ?? `[${b.type}]`).join(' ') ?? '').slice(0, 240) } : x);

/**
 * A server in a process of its own, on a free port of 127.0.0.1: `argv(port)` is its command line after node, `env` added
 * to the recorder's. Ready when its port answers HTTP. `log` keeps the lines it printed that match `keep`.
 * restart() kills it (SIGKILL) and starts it again on the same port; close() kills it.
 */
export async function spawnServer({ argv, env = {}, cwd, keep = /error|fail/i, path = '/mcp' }) {
  const port = await freePort();
  const log = [];
  let child;
  const start = async () => {
    child = spawn(process.execPath, argv(port), { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const on = (l) => keep.test(l) && !/^\s+at /.test(l) && log.length < 40 && log.push(clean(l).slice(0, 200));
    createInterface({ input: child.stdout }).on('line', on);
    createInterface({ input: child.stderr }).on('line', on);
    for (let i = 0; i < 300; i++) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before it listened`);
      try {
        await fetch(`http://127.0.0.1:${port}${path}`, { method: 'GET', signal: AbortSignal.timeout(500) }).then((r) => r.body?.cancel());
        return;
      } catch (e) {
        if (e?.name === 'TimeoutError') return; // it answered with a stream that stays open
        await sleep(50);
      }
    }
    throw new Error('server did not listen within 15 s');
  };
  const kill = () => new Promise((r) => { if (child.exitCode !== null || child.signalCode !== null) return r(); child.once('exit', r); process.kill(child.pid, 'SIGKILL'); });
  await start();
  return { url: `http://127.0.0.1:${port}`, port, log, async restart() { await kill(); await start(); }, close: kill };
}

/** One scenario's rig (audit-rig.mjs), in test/fixtures/real-audit13/: results kept as `short` keeps them. */
export const rig = (name, opts) => auditRig('real-audit13', name, { ...opts, okOf: short, settleMs: 300 });
