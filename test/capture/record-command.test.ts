// The `record` command's yargs definition: required options, side choices, loopback guard flag, redaction switch.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { recordCommand } from '../../src/capture/index.js';
import { CanonicalRecordSchema } from '../../src/schema/record.js';
import { listen, readBody, waitFor } from './helpers.js';

const BIN = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');

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

describe.skipIf(!existsSync(BIN))('mcp-triage record (spawned)', () => {
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
