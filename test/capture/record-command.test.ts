// The `record` command's yargs definition: required options, side choices, loopback guard flag, redaction switch.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { recordCommand } from '../../src/capture/record-cli.js';
import { runRecord } from '../../src/capture/record-command.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { listen, readBody, waitFor } from './helpers.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin.cjs');

const parse = (args: string[]) =>
  recordCommand
    .builder(yargs(args))
    .exitProcess(false)
    .fail((msg: string) => {
      throw new Error(msg);
    })
    .parseSync();

describe('recordCommand', () => {
  it('parses the documented invocation with safe defaults', () => {
    const argv = parse(['--listen', '127.0.0.1:8808', '--target', 'http://127.0.0.1:3000', '--out', 'mcp.ndjson']);
    expect(argv).toMatchObject({ listen: '127.0.0.1:8808', target: 'http://127.0.0.1:3000', out: 'mcp.ndjson', allowRemote: false, redact: true });
    expect(argv.side).toBeUndefined();
    expect(recordCommand.command).toBe('record');
  });

  it('accepts --side, --allow-remote and --no-redact, and rejects an unknown side or a missing --out', () => {
    const argv = parse(['--listen', '0.0.0.0:8808', '--target', 'http://10.0.0.2:3000', '--out', 'x', '--side', 'gateway', '--allow-remote', '--no-redact']);
    expect(argv).toMatchObject({ side: 'gateway', allowRemote: true, redact: false });
    expect(() => parse(['--listen', ':1', '--target', 'http://h', '--out', 'x', '--side', 'proxy'])).toThrow(/side/i);
    expect(() => parse(['--listen', ':1', '--target', 'http://h'])).toThrow(/out/);
  });

  it('refuses an option given twice or without a value, naming it (the proxy would get an array, or an empty path)', () => {
    const base = ['--listen', ':1', '--target', 'http://h', '--out', 'x'];
    expect(() => parse([...base, '--out', 'y'])).toThrow('--out given twice; give it once');
    expect(() => parse([...base, '--target', 'http://h'])).toThrow('--target given twice; give it once');
    expect(() => parse([...base, '--side', 'client', '--side', 'server'])).toThrow('--side given twice; give it once');
    expect(() => parse(['--listen', ':1', '--target', 'http://h', '--out'])).toThrow(/Not enough arguments following: out/);
  });
});

describe('runRecord checks what it can before it listens', () => {
  /** runRecord with a stop signal that never comes: it must return on its own, having never said it listens. */
  async function start(args: { listen?: string; target?: string; out: string }): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    const stop = { now: () => undefined as void };
    const stopped = new Promise<void>((r) => (stop.now = r));
    const run = runRecord({ listen: '127.0.0.1:0', target: 'http://127.0.0.1:9', ...args }, { stderr: { write: (t: string) => (stderr += t) }, stopped });
    const timer = setTimeout(() => stop.now(), 5_000); // it listened: stop it, so that the test fails instead of hanging
    const code = await run;
    clearTimeout(timer);
    expect(stderr).not.toContain('appending to');
    return { code, stderr };
  }
  const dir = mkdtempSync(join(tmpdir(), 'record-checks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an --out file in a folder that does not exist: exit 2 at once, naming --out (it proxied and recorded nothing)', async () => {
    const r = await start({ out: join(dir, 'missing', 'r.ndjson') });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`mcp-triage record: --out ${join(dir, 'missing', 'r.ndjson')}: cannot open it for appending: its folder ${join(dir, 'missing')} does not exist\n`);
  });

  it('an empty --out (an unset variable): exit 2, saying it is empty, not that the folder "." is missing', async () => {
    for (const out of ['', '  ']) {
      const r = await start({ out });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('mcp-triage record: --out is empty: give the file to append the records to, like --out traffic.ndjson\n');
    }
  });

  it('an --out that is a directory: exit 2 at once', async () => {
    mkdirSync(join(dir, 'folder'));
    const r = await start({ out: join(dir, 'folder') });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-triage record: --out \S+folder: cannot open it for appending: it is a directory\n$/);
  });

  it('a --target that is not an http(s) URL: exit 2, naming --target', async () => {
    for (const target of ['notaurl', 'ftp://example.test/', '127.0.0.1:3000']) {
      const r = await start({ target, out: join(dir, 'never.ndjson') });
      expect(r.code, target).toBe(2);
      expect(r.stderr).toBe(`mcp-triage record: --target must be an http(s) URL like http://127.0.0.1:3000, got "${target}"\n`);
    }
    expect(existsSync(join(dir, 'never.ndjson'))).toBe(false);
  });

  it('a --listen address in use: exit 2, naming --listen, and no empty --out file left behind', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    try {
      const port = (busy.address() as { port: number }).port;
      const r = await start({ listen: `127.0.0.1:${port}`, out: join(dir, 'busy.ndjson') });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^mcp-triage record: --listen 127\\.0\\.0\\.1:${port}: listen EADDRINUSE`));
      expect(existsSync(join(dir, 'busy.ndjson'))).toBe(false);
    } finally {
      busy.close();
    }
  });
});

describe('runRecord at start-up: what it says, and the file it creates', () => {
  const dir = mkdtempSync(join(tmpdir(), 'record-startup-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Start runRecord, collect what it says once it listens, stop it. */
  async function startup(args: { listen?: string; target: string; out: string }): Promise<{ code: number; stderr: string }> {
    let stderr = '';
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    const run = runRecord({ listen: '127.0.0.1:0', ...args }, { stderr: { write: (t: string) => (stderr += t) }, stopped });
    await waitFor(() => stderr.includes('appending to'), 5_000).catch(() => undefined);
    stop();
    const code = await run;
    return { code, stderr };
  }

  it('a bare port for --listen is 127.0.0.1:PORT (it said "refusing to listen on :")', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    busy.close();
    await new Promise((r) => setTimeout(r, 50));
    const r = await startup({ listen: String(port), target: 'http://127.0.0.1:9', out: join(dir, 'port.ndjson') });
    expect(r.stderr).not.toMatch(/refusing/);
    expect(r.stderr).toContain(`mcp-triage record: http://127.0.0.1:${port} -> http://127.0.0.1:9, appending to`);
    expect(r.code).toBe(0);
  });

  it('the start-up line does not print credentials in --target (user:password@, a token in the query)', async () => {
    const r = await startup({ target: 'http://user:hunter2@127.0.0.1:9/?access_token=s3cr3t', out: join(dir, 'creds.ndjson') });
    expect(r.stderr).toMatch(/-> http:\/\/\[redacted:[0-9a-f]+\]@127\.0\.0\.1:9\/\?access_token=\[redacted:[0-9a-f]+\], appending to/);
    expect(r.stderr).not.toContain('hunter2');
    expect(r.stderr).not.toContain('s3cr3t');
  });

  it('a --target with a path gets one warning that the client\'s path is appended to it; none without a path', async () => {
    const r = await startup({ target: 'http://127.0.0.1:9/mcp', out: join(dir, 'path.ndjson') });
    const lines = r.stderr.trim().split('\n');
    const warnings = lines.filter((l) => l.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^mcp-triage record: warning: --target has the path \/mcp; the client's request path is appended to it \(http:\/\/127\.0\.0\.1:\d+\/mcp goes to http:\/\/127\.0\.0\.1:9\/mcp\/mcp\); give the target without a path to forward paths unchanged$/);
    for (const target of ['http://127.0.0.1:9', 'http://127.0.0.1:9/']) {
      expect((await startup({ target, out: join(dir, 'nopath.ndjson') })).stderr, target).not.toContain('warning');
    }
  });

  it.skipIf(process.platform === 'win32')('creates a new --out file 0600 (it holds bodies); an existing file keeps its mode', async () => {
    const fresh = join(dir, 'fresh.ndjson');
    await startup({ target: 'http://127.0.0.1:9', out: fresh });
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const kept = join(dir, 'kept.ndjson');
    writeFileSync(kept, '');
    chmodSync(kept, 0o644);
    await startup({ target: 'http://127.0.0.1:9', out: kept });
    expect(statSync(kept).mode & 0o777).toBe(0o644);
  });
});

describe.skipIf(!existsSync(BIN))('mcp-triage record (spawned)', () => {
  it('exits 2 before listening when --out cannot be opened', async () => {
    const child = spawn(process.execPath, [BIN, 'record', '--listen', '127.0.0.1:0', '--target', 'http://127.0.0.1:9', '--out', '/nonexistent/dir/r.ndjson']);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill(), 10_000); // before the fix it listened until stopped
    const code = await new Promise<number | null>((r) => child.once('close', r));
    clearTimeout(timer);
    expect(code).toBe(2);
    expect(stderr).toBe('mcp-triage record: --out /nonexistent/dir/r.ndjson: cannot open it for appending: its folder /nonexistent/dir does not exist\n');
  });

  it('proxies until SIGINT and leaves a complete file, with an end record for the stream still open', async () => {
    const upstream = await listen(async (req, res) => {
      if (req.method === 'GET') {
        // A standalone SSE stream that stays open: it is in flight when Ctrl-C comes.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
        return;
      }
      const msg = JSON.parse((await readBody(req)).toString('utf8')) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'pong' }] } }));
    });
    const dir = mkdtempSync(join(tmpdir(), 'record-'));
    const out = join(dir, 'proxy.ndjson');
    const child = spawn(process.execPath, [BIN, 'record', '--listen', '127.0.0.1:0', '--target', upstream.url, '--out', out, '--side', 'gateway']);
    try {
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      await waitFor(() => /http:\/\/127\.0\.0\.1:\d+ -> /.test(stderr), 10_000);
      const proxyUrl = /(http:\/\/127\.0\.0\.1:\d+) -> /.exec(stderr)![1];
      const res = await fetch(`${proxyUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ping"}}' });
      expect(await res.text()).toContain('pong');
      const stream = await fetch(`${proxyUrl}/mcp`, { headers: { accept: 'text/event-stream' } });
      expect(stream.status).toBe(200);
      await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').trim().split('\n').length === 5);
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGINT');
      // 0 when the command closes itself; 130 when the CLI's own Ctrl-C handler exits first. The file is complete either way.
      expect([0, 130]).toContain(await exited);
      await stream.body?.cancel().catch(() => undefined);
      const records = readFileSync(out, 'utf8').trim().split('\n').map((l) => CanonicalRecordSchema.parse(JSON.parse(l)));
      expect(records.map((r) => [r.kind, r.side])).toEqual([
        ['request', 'gateway'],
        ['response', 'gateway'],
        ['end', 'gateway'],
        ['request', 'gateway'],
        ['response', 'gateway'],
        ['end', 'gateway'],
      ]);
      expect(records[2]).toMatchObject({ end: 'complete' });
      expect(records[5]).toMatchObject({ end: 'aborted', error: 'recording stopped by a signal' });
    } finally {
      child.kill();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
