// Runs the built CLI (dist/bin.cjs) on every file generate.mjs wrote, in every output format and view, under
// /usr/bin/time, and flags what breaks the contract: an exit code other than 0/1, an internal error or a stack trace,
// the planted secret in the output, invalid JSON or NDJSON, control characters on stdout or stderr, over 8 s, over 1.5 GB.
//   node test/hostile/stress/run.mjs OUTDIR [FILE-REGEX]      (VIEWS=table,json,... to choose; BIN=... another build)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const dir = process.argv[2]; const only = process.argv[3] ? new RegExp(process.argv[3]) : null;
const views = (process.env.VIEWS || 'table,json,ndjson,markdown,sessions,timeline').split(',');
const BIN = process.env.BIN || fileURLToPath(new URL('../../../dist/bin.cjs', import.meta.url));
const SECRET = 'STRESSSECRET0123456789';
const files = JSON.parse(fs.readFileSync(path.join(dir, 'files.json'), 'utf8')).filter((f) => !only || only.test(f));
const o = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-triage-stress-'));
for (const f of files) for (const v of views) {
  const args = v === 'sessions' ? ['sessions', '--format', 'json'] : v === 'timeline' ? ['timeline', 'stress-session-1', '--format', 'json'] : ['--format', v];
  const outF = path.join(o, 'stdout'), errF = path.join(o, 'stderr'), tF = path.join(o, 'time');
  const r = spawnSync('/usr/bin/time', ['-o', tF, '-f', '%e %M', 'node', BIN, ...args, path.join(dir, f)], { stdio: ['ignore', fs.openSync(outF, 'w'), fs.openSync(errF, 'w')], timeout: 300000 });
  const [sec, kb] = fs.readFileSync(tF, 'utf8').trim().split('\n').pop().split(' ');
  const out = fs.readFileSync(outF, 'utf8'); const err = fs.readFileSync(errF, 'utf8');
  const probs = [];
  const code = r.status;
  if (r.signal || (code !== 0 && code !== 1 && !(v === 'timeline' && code === 2 && /matches no session|no session starts with/.test(err)))) probs.push(`exit ${code} ${r.signal ?? ''}`);
  // (The diagnostic for a record nested too deeply to read names the stack it ran out of: a designed message, no crash.)
  const errText = err.replace(/^mcp-triage: .*nested too deeply to read \(Maximum call stack size exceeded\)$/gm, '');
  if (/internal error|RangeError|Maximum call stack|heap out of memory|    at /.test(errText)) probs.push('ERR:' + errText.match(/.*(internal error|RangeError|Maximum call stack|heap out of memory|    at ).*/)?.[0].slice(0, 200));
  if (out.includes(SECRET)) probs.push('SECRET in stdout');
  if (err.includes(SECRET)) probs.push('SECRET in stderr');
  if (v === 'json' || v === 'sessions' || (v === 'timeline' && code === 0)) { try { JSON.parse(out); } catch (e) { probs.push('bad JSON: ' + e.message.slice(0, 80)); } }
  if (v === 'ndjson') { const ls = out.split('\n'); ls.pop(); for (let i = 0; i < ls.length; i++) { try { JSON.parse(ls[i]); } catch { probs.push('bad ndjson line ' + i); break; } } }
  if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(out)) probs.push('control char in stdout');
  if (/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(err)) probs.push('control char in stderr');
  if (Number(sec) > 8) probs.push('SLOW');
  if (Number(kb) > 1500000) probs.push('MEM');
  const size = fs.statSync(path.join(dir, f)).size;
  console.log(`${f.padEnd(28)} ${v.padEnd(9)} ${(size / 1e6).toFixed(0).padStart(5)}MB ${sec.padStart(6)}s ${(Number(kb) / 1024).toFixed(0).padStart(6)}MB out=${(out.length / 1e6).toFixed(1)}MB exit=${code} ${probs.join(' | ')}`);
}
fs.rmSync(o, { recursive: true, force: true });
