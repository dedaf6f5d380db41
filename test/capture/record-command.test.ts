// The `record` command's yargs definition: required options, side choices, loopback guard flag, redaction switch.
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { recordCommand } from '../../src/capture/index.js';

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
});
