// The sixty-fifth audit's recording harness: each run puts a real Caddy (Debian's 2.6.2, its Caddyfile from CONFS) between a real SDK client and real SDK servers on 127.0.0.1 (ports 9100-9199), and leaves in test/fixtures/real-audit65/<run>/ the captures, Caddy's logs (access.json: the `log` directive's default JSON access log; error.log: the default logger, JSON, where http.log.error lines go) and observed.json (what the client app saw).
// Usage (as root, after npm run build, from the repo root): node test/real-audit65/record.mjs [RUN...]  (no RUN: all of them)
// The servers and client apps are audit 48's (test/fixtures/real-audit51/rec/): SDK 1.32.2 (ts1), 2.x (v2), Python mcp 2.3.0 (py).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, existsSync, appendFileSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const OUT = `${HERE}../fixtures/real-audit65/`;
const REC = `${HERE}../fixtures/real-audit51/rec/`;
const SCRATCH = '/work/audit65-scratch';
const PY = '/work/py-venv/bin/python';

// Caddy's reverse_proxy settings per config (the site block's other directives before REVERSE)
const CONFS = {
  default: { proxy: '' },
  // Caddy's own limit on the request body (its 413)
  bodylimit: { site: 'request_body {\n\t\tmax_size 1KB\n\t}', proxy: '' },
  // no response head within 3 s: Caddy's 504 (an error: retried only for a retryable request)
  headertimeout: { proxy: 'transport http {\n\t\t\tresponse_header_timeout 3s\n\t\t}' },
  // reads from the upstream's connection time out after 3 s of silence
  readtimeout: { proxy: 'transport http {\n\t\t\tread_timeout 3s\n\t\t}' },
  // two upstreams, the first where nothing listens: lb_policy first, retried for 2 s
  lbdown: { two: 'down-first', proxy: 'lb_policy first\n\t\tlb_try_duration 2s' },
  // the same two upstreams, round robin: each retry goes to the next one
  lbdownrr: { two: 'down-first', proxy: 'lb_policy round_robin\n\t\tlb_try_duration 2s' },
  // two live upstreams (round robin); a POST is retried after an error (lb_retry_match method POST: 2.6's name), once (lb_retries 1)
  lbresend: { two: 'both', proxy: 'lb_policy round_robin\n\t\tlb_retries 1\n\t\tlb_try_duration 10s\n\t\tlb_retry_match {\n\t\t\tmethod POST\n\t\t}\n\t\ttransport http {\n\t\t\tresponse_header_timeout 3s\n\t\t}' },
  // the same as default, with the access log in Caddy's console format (Caddyfile `format console`)
  console: { proxy: '', format: 'console' },
};
const caddyfile = (listen, upstream, conf) => `{
	admin off
	auto_https off
	log {
		output file ${SCRATCH}/error.log
		format json
	}
}
http://127.0.0.1:${listen} {
	bind 127.0.0.1
	log {
		output file ${SCRATCH}/access.json${conf.format ? `\n\t\tformat ${conf.format}` : ''}
	}
	${conf.site ?? ''}
	reverse_proxy ${conf.two === 'down-first' ? `127.0.0.1:${upstream + 3} 127.0.0.1:${upstream}` : conf.two === 'both' ? `127.0.0.1:${upstream} 127.0.0.1:${upstream + 3}` : `127.0.0.1:${upstream}`} {
		${conf.proxy}
	}
}
`;
// name: [client, server, caddy config, steps, env]; server 'down': nothing listens upstream
export const RUNS = {
  'ts1-healthy-sse': ['ts1', 'ts1', 'default', 'ok,prog,boom,soft,rpcerr,ok', {}],
  'ts1-healthy-json': ['ts1', 'ts1', 'default', 'ok,boom,soft,rpcerr', { STATELESS: '1', JSON: '1' }],
  'v2-stateless': ['v2', 'v2', 'default', 'ok,prog,soft,rpcerr', {}],
  'py-healthy': ['py', 'ts1', 'default', 'ok,prog,soft,rpcerr', {}],
  'ts1-down': ['ts1', 'down', 'default', 'ok', {}],
  'ts1-timeout-json': ['ts1', 'ts1', 'headertimeout', 'ok,slow5,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-timeout-sse': ['ts1', 'ts1', 'readtimeout', 'ok,slow5,ok', {}],
  'ts1-killed-sse': ['ts1', 'ts1', 'default', 'ok,pause,longprog', { KILL_AFTER: '4000' }],
  'ts1-bodylimit': ['ts1', 'ts1', 'bodylimit', 'ok,big,ok', {}],
  'ts1-lb-down-first': ['ts1', 'ts1', 'lbdown', 'ok,ok,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-lb-down-rr': ['ts1', 'ts1', 'lbdownrr', 'ok,ok,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-lb-resend': ['ts1', 'ts1', 'lbresend', 'ok,slow5,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-giveup': ['ts1', 'ts1', 'default', 'ok,timeout,ok', {}],
  'ts1-ctrlc': ['ts1', 'ts1', 'default', 'ok,slow5', { STATELESS: '1', JSON: '1', CTRLC_AFTER: '2500' }],
  'ts1-expired-404': ['ts1', 'ts1', 'default', 'ok,pause,pause,ok', { RESTART_AFTER: '2500' }],
  'ts1-console': ['ts1', 'ts1', 'console', 'ok,boom', {}],
  // the console format with an upstream down: its 502 and reason, in local time
  'ts1-console-down': ['ts1', 'down', 'console', 'ok', {}],
  // a server that wants a bearer token the client does not send (401 from the server, passed on); then the recorder's own
  // POST with a wrong token and a cookie, to see what Caddy's access log keeps of Authorization and Cookie
  'ts1-auth-401': ['ts1', 'auth', 'default', 'ok', { TOKEN: 'right-token-65' }],
};
const procs = [];
const start = (cmd, args, env, cwd, log) => { const p = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }); p.stdout.on('data', (d) => appendFileSync(`${cwd}/${log}`, d)); p.stderr.on('data', (d) => appendFileSync(`${cwd}/${log}`, d)); procs.push(p); return p; };
const done = (p) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.on('exit', (c) => r(c))));
const stop = async (p) => { if (p.exitCode === null && p.signalCode === null) { p.kill('SIGINT'); await Promise.race([done(p), sleep(3000)]); if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL'); } };
const LOGS = ['access.json', 'error.log'];

async function run(name, [c, s, conf, steps, env], base) {
  const dir = `${OUT}${name}`;
  rmSync(dir, { recursive: true, force: true }); mkdirSync(dir, { recursive: true });
  for (const f of LOGS) rmSync(`${SCRATCH}/${f}`, { force: true });
  const [srvPort, caddyPort] = [base, base + 1];
  const running = [];
  const srv = (port, cwd) => start('node', [s === 'auth' ? `${HERE}srv-auth.mjs` : `${REC}srv.mjs`], { ...env, PORT: String(port), SERVER: s }, cwd, 'server.log');
  if (s !== 'down') running.push(srv(srvPort, dir));
  // the second upstream (lbresend): its own folder, its captures renamed server-b.* after the run
  if (CONFS[conf].two === 'both') { mkdirSync(`${dir}/b`); running.push(srv(srvPort + 3, `${dir}/b`)); }
  writeFileSync(`${SCRATCH}/Caddyfile`, caddyfile(caddyPort, srvPort, CONFS[conf]));
  copyFileSync(`${SCRATCH}/Caddyfile`, `${dir}/Caddyfile`);
  const home = { HOME: `${SCRATCH}/home`, XDG_DATA_HOME: `${SCRATCH}/home`, XDG_CONFIG_HOME: `${SCRATCH}/home` };
  running.push(start('caddy', ['run', '--config', `${SCRATCH}/Caddyfile`, '--adapter', 'caddyfile'], home, dir, 'caddy.log'));
  await sleep(2000);
  const url = `http://127.0.0.1:${caddyPort}/mcp`;
  const t0 = Date.now();
  const cli = c === 'py' ? start(PY, [`${REC}cli.py`, url, steps], env, dir, 'client.log') : start('node', [`${REC}cli.mjs`, url, steps], { ...env, CLIENT: c }, dir, 'client.log');
  const events = [];
  const note = (what) => { events.push({ at: new Date().toISOString(), msAfterClientStart: Date.now() - t0, what }); };
  if (env.KILL_AFTER) sleep(Number(env.KILL_AFTER)).then(() => { running[0].kill('SIGKILL'); note('upstream server killed (SIGKILL)'); });
  if (env.CTRLC_AFTER) sleep(Number(env.CTRLC_AFTER)).then(() => { cli.kill('SIGINT'); note('client app interrupted (SIGINT)'); });
  // RESTART_AFTER: the server is stopped and a new one started on the same port: its sessions are gone (404)
  if (env.RESTART_AFTER) sleep(Number(env.RESTART_AFTER)).then(async () => { await stop(running[0]); note('upstream server stopped (SIGINT)'); running[0] = srv(srvPort, dir); await sleep(500); note('a new upstream server started (its sessions are new)'); });
  const code = await Promise.race([done(cli), sleep(90000).then(() => 'killed after 90 s')]);
  if (typeof code === 'string') await stop(cli);
  if (s === 'auth') {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer wrong-token-65', cookie: 'sid=cookie-secret-65' }, body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }) });
    note(`the recorder's own POST (tools/list id 99) with Authorization "Bearer wrong-token-65" and Cookie "sid=cookie-secret-65": HTTP ${r.status}`);
  }
  await sleep(1000);
  for (const p of [...running].reverse()) await stop(p);
  for (const f of LOGS) if (existsSync(`${SCRATCH}/${f}`)) copyFileSync(`${SCRATCH}/${f}`, `${dir}/${f}`);
  if (existsSync(`${dir}/b`)) {
    for (const f of ['server.ndjson', 'truth-server.ndjson']) if (existsSync(`${dir}/b/${f}`)) copyFileSync(`${dir}/b/${f}`, `${dir}/${f.replace('server', 'server-b')}`);
    rmSync(`${dir}/b`, { recursive: true });
  }
  const truthLines = (f) => (existsSync(`${dir}/${f}`) ? readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  const observed = {
    run: name, client: c, upstream: s, caddy: 'Debian caddy 2.6.2', config: conf, env, steps: steps.split(','), clientExit: code,
    events,
    // what the client app saw: each SDK call (returned, or the exception) and the POSTs under it, as its fetch saw them
    calls: truthLines('truth-client.ndjson'),
    // what each tool handler saw (start, return or throw) and each tools/call POST's close, per server
    server: truthLines('truth-server.ndjson'),
    ...(existsSync(`${dir}/truth-server-b.ndjson`) ? { serverB: truthLines('truth-server-b.ndjson') } : {}),
  };
  writeFileSync(`${dir}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  for (const f of ['truth-client.ndjson', 'truth-server.ndjson', 'truth-server-b.ndjson']) rmSync(`${dir}/${f}`, { force: true });
  for (const f of ['server.log', 'caddy.log', 'client.log']) if (existsSync(`${dir}/${f}`)) { appendFileSync(`${SCRATCH}/run-logs.txt`, `== ${name}/${f}\n${readFileSync(`${dir}/${f}`, 'utf8')}\n`); rmSync(`${dir}/${f}`); }
  console.log(name, 'client exit', code);
}

mkdirSync(`${SCRATCH}/home`, { recursive: true });
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(RUNS);
let base = Number(process.env.BASE ?? 9100); // the sixty-fifth audit's ports: 9100-9199, 5 per run
for (const n of names) { await run(n, RUNS[n], base); base += 5; }
process.on('exit', () => { for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL'); });
