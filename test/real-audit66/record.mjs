// The sixty-sixth audit's recording harness: each run puts a real Apache httpd (Debian's 2.4.71, mod_proxy_http; its httpd.conf from CONFS) between a real SDK client and real SDK servers on 127.0.0.1 (ports 9200-9299), and leaves in test/fixtures/real-audit66/<run>/ the captures, Apache's logs (access.log: the default `combined` LogFormat; timed.log: combined with %D and the Mcp-Session-Id sent and handed out; error.log: the default ErrorLogFormat at LogLevel warn, or proxy:debug where the run says so) and observed.json (what the client app saw).
// Usage (as root, after npm run build, from the repo root): node test/real-audit66/record.mjs [RUN...]  (no RUN: all of them)
// The servers and client apps are audit 48's (test/fixtures/real-audit51/rec/): SDK 1.32.2 (ts1), 2.x (v2), Python mcp 2.3.0 (py); the 401 server is audit 65's.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, existsSync, appendFileSync, readFileSync, writeFileSync, copyFileSync, chmodSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const OUT = `${HERE}../fixtures/real-audit66/`;
const REC = `${HERE}../fixtures/real-audit51/rec/`;
const SCRATCH = '/work/audit66-scratch';
const PY = '/work/py-venv/bin/python';
const MODS = '/usr/lib/apache2/modules';

// What each config adds to the site (UP: the upstream's URL, or the balancer's)
const CONFS = {
  // the tutorials' bare reverse proxy
  default: { proxy: 'ProxyPass /mcp UP/mcp\nProxyPassReverse /mcp UP/mcp' },
  // the same at LogLevel proxy:debug (what mod_proxy says of each request)
  debug: { proxy: 'ProxyPass /mcp UP/mcp\nProxyPassReverse /mcp UP/mcp', level: 'warn proxy:debug proxy_http:debug' },
  // no byte from the upstream for 3 s: ProxyTimeout
  timeout: { proxy: 'ProxyTimeout 3\nProxyPass /mcp UP/mcp\nProxyPassReverse /mcp UP/mcp' },
  // the worker is not put in error state (retry=0): the next request tries the upstream again
  retry0: { proxy: 'ProxyPass /mcp UP/mcp retry=0\nProxyPassReverse /mcp UP/mcp' },
  // Apache's own limit on the request body: 413
  bodylimit: { proxy: 'LimitRequestBody 1024\nProxyPass /mcp UP/mcp\nProxyPassReverse /mcp UP/mcp' },
  // the same limit inside the proxied <Location>
  bodylimitloc: { proxy: '<Location "/mcp">\n  LimitRequestBody 1024\n</Location>\nProxyPass /mcp UP/mcp\nProxyPassReverse /mcp UP/mcp' },
  // two members, the first where nothing listens (byrequests)
  lbdown: { two: 'down-first', proxy: 'ProxyPass /mcp balancer://mcp/mcp\nProxyPassReverse /mcp balancer://mcp/mcp' },
  // two live members, ProxyTimeout 3: a slow tool's POST times out on one; failonstatus for 502/503/504
  lbresend: { two: 'both', proxy: 'ProxyTimeout 3\nProxyPass /mcp balancer://mcp/mcp failonstatus=502,503,504\nProxyPassReverse /mcp balancer://mcp/mcp' },
};
const httpdConf = (listen, upstream, conf) => {
  const up = `http://127.0.0.1:${upstream}`;
  const members = conf.two === 'down-first' ? [upstream + 3, upstream] : conf.two === 'both' ? [upstream, upstream + 3] : [];
  const balancer = members.length ? `<Proxy balancer://mcp>\n${members.map((p) => `  BalancerMember http://127.0.0.1:${p}`).join('\n')}\n</Proxy>\n` : '';
  return `ServerRoot ${SCRATCH}
ServerName 127.0.0.1
Listen 127.0.0.1:${listen}
PidFile ${SCRATCH}/run/httpd.pid
DefaultRuntimeDir ${SCRATCH}/run
Mutex file:${SCRATCH}/run default
User www-data
Group www-data
LoadModule mpm_event_module ${MODS}/mod_mpm_event.so
LoadModule authz_core_module ${MODS}/mod_authz_core.so
LoadModule proxy_module ${MODS}/mod_proxy.so
LoadModule proxy_http_module ${MODS}/mod_proxy_http.so
LoadModule proxy_balancer_module ${MODS}/mod_proxy_balancer.so
LoadModule slotmem_shm_module ${MODS}/mod_slotmem_shm.so
LoadModule lbmethod_byrequests_module ${MODS}/mod_lbmethod_byrequests.so
ErrorLog ${SCRATCH}/error.log
LogLevel ${conf.level ?? 'warn'}
LogFormat "%h %l %u %t \\"%r\\" %>s %O \\"%{Referer}i\\" \\"%{User-Agent}i\\"" combined
LogFormat "%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\" %D \\"%{Mcp-Session-Id}i\\" \\"%{Mcp-Session-Id}o\\"" mcp
CustomLog ${SCRATCH}/access.log combined
CustomLog ${SCRATCH}/timed.log mcp
${balancer}${conf.proxy.replaceAll('UP', up)}
`;
};
// name: [client, server, apache config, steps, env]; server 'down': nothing listens upstream
export const RUNS = {
  'ts1-healthy-sse': ['ts1', 'ts1', 'default', 'ok,prog,boom,soft,rpcerr,ok', {}],
  'ts1-healthy-json': ['ts1', 'ts1', 'default', 'ok,boom,soft,rpcerr', { STATELESS: '1', JSON: '1' }],
  'v2-stateless': ['v2', 'v2', 'default', 'ok,prog,soft,rpcerr', {}],
  'py-healthy': ['py', 'ts1', 'default', 'ok,prog,soft,rpcerr', {}],
  'ts1-down': ['ts1', 'down', 'default', 'ok', {}],
  'ts1-down-debug': ['ts1', 'down', 'debug', 'ok', {}],
  // the upstream dies between calls and comes back 0.5 s later: does Apache try it again before retry=60 has passed?
  'ts1-restart-retry': ['ts1', 'ts1', 'default', 'ok,pause,ok,pause,pause,ok,pause,ok', { STATELESS: '1', JSON: '1', BOUNCE_AFTER: '1000' }],
  'ts1-restart-retry0': ['ts1', 'ts1', 'retry0', 'ok,pause,ok,pause,pause,ok,pause,ok', { STATELESS: '1', JSON: '1', BOUNCE_AFTER: '1000' }],
  'ts1-timeout-json': ['ts1', 'ts1', 'timeout', 'ok,slow5,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-timeout-sse': ['ts1', 'ts1', 'timeout', 'ok,slow5,ok', {}],
  'ts1-killed-sse': ['ts1', 'ts1', 'default', 'ok,pause,longprog', { KILL_AFTER: '4000' }],
  'ts1-bodylimit': ['ts1', 'ts1', 'bodylimit', 'ok,big,ok', {}],
  'ts1-bodylimit-loc': ['ts1', 'ts1', 'bodylimitloc', 'ok,big,ok', {}],
  'ts1-lb-down': ['ts1', 'ts1', 'lbdown', 'ok,ok,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-lb-resend': ['ts1', 'ts1', 'lbresend', 'ok,slow5,ok', { STATELESS: '1', JSON: '1' }],
  'ts1-giveup': ['ts1', 'ts1', 'default', 'ok,timeout,ok', {}],
  'ts1-ctrlc': ['ts1', 'ts1', 'default', 'ok,slow5', { STATELESS: '1', JSON: '1', CTRLC_AFTER: '2500' }],
  'ts1-expired-404': ['ts1', 'ts1', 'default', 'ok,pause,pause,ok', { RESTART_AFTER: '2500' }],
  'ts1-auth-401': ['ts1', 'auth', 'default', 'ok', { TOKEN: 'right-token-66' }],
};
const procs = [];
const start = (cmd, args, env, cwd, log) => { const p = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }); p.stdout.on('data', (d) => appendFileSync(`${cwd}/${log}`, d)); p.stderr.on('data', (d) => appendFileSync(`${cwd}/${log}`, d)); procs.push(p); return p; };
const done = (p) => new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r(p.exitCode) : p.on('exit', (c) => r(c))));
const stop = async (p, sig = 'SIGINT') => { if (p.exitCode === null && p.signalCode === null) { p.kill(sig); await Promise.race([done(p), sleep(4000)]); if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL'); } };
const LOGS = ['access.log', 'timed.log', 'error.log'];

async function run(name, [c, s, conf, steps, env], base) {
  const dir = `${OUT}${name}`;
  rmSync(dir, { recursive: true, force: true }); mkdirSync(dir, { recursive: true });
  for (const f of LOGS) rmSync(`${SCRATCH}/${f}`, { force: true });
  const [srvPort, apachePort] = [base, base + 1];
  const running = [];
  const srv = (port, cwd) => start('node', [s === 'auth' ? `${HERE}../real-audit65/srv-auth.mjs` : `${REC}srv.mjs`], { ...env, PORT: String(port), SERVER: s }, cwd, 'server.log');
  if (s !== 'down') running.push(srv(srvPort, dir));
  if (CONFS[conf].two === 'both') { mkdirSync(`${dir}/b`); running.push(srv(srvPort + 3, `${dir}/b`)); }
  writeFileSync(`${SCRATCH}/httpd.conf`, httpdConf(apachePort, srvPort, CONFS[conf]));
  copyFileSync(`${SCRATCH}/httpd.conf`, `${dir}/httpd.conf`);
  const apache = start('apache2', ['-f', `${SCRATCH}/httpd.conf`, '-DFOREGROUND'], {}, dir, 'apache.log');
  await sleep(2000);
  const url = `http://127.0.0.1:${apachePort}/mcp`;
  const t0 = Date.now();
  const cli = c === 'py' ? start(PY, [`${REC}cli.py`, url, steps], env, dir, 'client.log') : start('node', [`${REC}cli.mjs`, url, steps], { ...env, CLIENT: c }, dir, 'client.log');
  const events = [];
  const note = (what) => { events.push({ at: new Date().toISOString(), msAfterClientStart: Date.now() - t0, what }); };
  if (env.KILL_AFTER) sleep(Number(env.KILL_AFTER)).then(() => { running[0].kill('SIGKILL'); note('upstream server killed (SIGKILL)'); });
  if (env.CTRLC_AFTER) sleep(Number(env.CTRLC_AFTER)).then(() => { cli.kill('SIGINT'); note('client app interrupted (SIGINT)'); });
  // BOUNCE_AFTER: the server is killed; a new one starts on the same port 2 s later (one call falls in between, the next ones after it is back)
  if (env.BOUNCE_AFTER) sleep(Number(env.BOUNCE_AFTER)).then(async () => { running[0].kill('SIGKILL'); note('upstream server killed (SIGKILL)'); await sleep(2000); running[0] = srv(srvPort, dir); await sleep(500); note('a new upstream server started on the same port'); });
  if (env.RESTART_AFTER) sleep(Number(env.RESTART_AFTER)).then(async () => { await stop(running[0]); note('upstream server stopped (SIGINT)'); running[0] = srv(srvPort, dir); await sleep(500); note('a new upstream server started (its sessions are new)'); });
  const code = await Promise.race([done(cli), sleep(90000).then(() => 'killed after 90 s')]);
  if (typeof code === 'string') await stop(cli);
  if (s === 'auth') {
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer wrong-token-66', cookie: 'sid=cookie-secret-66' }, body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' }) });
    note(`the recorder's own POST (tools/list id 99) with Authorization "Bearer wrong-token-66" and Cookie "sid=cookie-secret-66": HTTP ${r.status}`);
  }
  await sleep(1000);
  await stop(apache, 'SIGTERM');
  for (const p of [...running].reverse()) await stop(p);
  for (const f of LOGS) if (existsSync(`${SCRATCH}/${f}`)) copyFileSync(`${SCRATCH}/${f}`, `${dir}/${f}`);
  if (existsSync(`${dir}/b`)) {
    for (const f of ['server.ndjson', 'truth-server.ndjson']) if (existsSync(`${dir}/b/${f}`)) copyFileSync(`${dir}/b/${f}`, `${dir}/${f.replace('server', 'server-b')}`);
    rmSync(`${dir}/b`, { recursive: true });
  }
  const truthLines = (f) => (existsSync(`${dir}/${f}`) ? readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  const observed = {
    run: name, client: c, upstream: s, apache: 'Debian apache2 2.4.71 (mpm_event, mod_proxy_http)', config: conf, env, steps: steps.split(','), clientExit: code,
    events,
    calls: truthLines('truth-client.ndjson'),
    server: truthLines('truth-server.ndjson'),
    ...(existsSync(`${dir}/truth-server-b.ndjson`) ? { serverB: truthLines('truth-server-b.ndjson') } : {}),
  };
  writeFileSync(`${dir}/observed.json`, JSON.stringify(observed, null, 1) + '\n');
  for (const f of ['truth-client.ndjson', 'truth-server.ndjson', 'truth-server-b.ndjson']) rmSync(`${dir}/${f}`, { force: true });
  for (const f of ['server.log', 'apache.log', 'client.log']) if (existsSync(`${dir}/${f}`)) { appendFileSync(`${SCRATCH}/run-logs.txt`, `== ${name}/${f}\n${readFileSync(`${dir}/${f}`, 'utf8')}\n`); rmSync(`${dir}/${f}`); }
  console.log(name, 'client exit', code);
}

mkdirSync(`${SCRATCH}/run`, { recursive: true });
chmodSync(`${SCRATCH}/run`, 0o777);
const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(RUNS);
let base = Number(process.env.BASE ?? 9200); // the sixty-sixth audit's ports: 9200-9299, 5 per run
for (const n of names) { await run(n, RUNS[n], base); base += 5; }
process.on('exit', () => { for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL'); });
