// Usage errors the review found mishandled: an option that takes one value given twice or given no value, with exit 2
// and a message naming the option, for every command, in-process and as the executable.
import { describe, expect, it } from 'vitest';
import { COMMAND_OPTIONS } from '../../src/cli.js';
import { SAMPLES, cli, spawnCli } from './helpers.js';

const CLIENT = `${SAMPLES}client.ndjson`;
const COMMANDS: [string, string[]][] = [['analyze', []], ['sessions', ['sessions']], ['timeline', ['timeline', 'a3f1']]];

/** A valid value for an option: its first choice, a number, or a word. */
const valueOf = (o: { choices?: unknown; type?: string }) => (o.choices ? String((o.choices as unknown[])[0]) : o.type === 'number' ? '1' : 'x');

function expectUsage(r: { code: number; stdout: string; stderr: string }, message: string, what: string): void {
  expect(r.code, `${what}\n${r.stderr}`).toBe(2);
  expect(r.stdout, what).toBe('');
  expect(r.stderr.split('\n')[0], what).toMatch(new RegExp(`^mcp-triage: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  expect(r.stderr, what).not.toMatch(/internal error/);
}

describe('an option that takes one value', () => {
  for (const [command, prefix] of COMMANDS) {
    it(`given twice is a usage error naming it (${command}, every such option)`, async () => {
      for (const [name, o] of Object.entries(COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS])) {
        if (o.array || o.type === 'boolean') continue;
        const v = valueOf(o);
        expectUsage(await cli([...prefix, CLIENT, `--${name}`, v, `--${name}`, v]), `--${name} given twice; give it once`, `${command} --${name}`);
      }
    });

    it(`given without a value is a usage error naming it (${command}, every such option)`, async () => {
      for (const [name, o] of Object.entries(COMMAND_OPTIONS[command as keyof typeof COMMAND_OPTIONS])) {
        if (o.type === 'boolean') continue;
        const r = await cli([...prefix, CLIENT, `--${name}`]);
        expectUsage(r, `--${name} needs a value`, `${command} --${name}`);
        if (o.choices) expect(r.stderr).toContain(`needs a value: one of ${(o.choices as unknown[]).join(', ')}`);
      }
    });
  }

  it('the review\'s command lines, as the executable runs them', async () => {
    const cases: [string[], string][] = [
      [['-f', 'json', '-f', 'json'], '--format given twice; give it once'],
      [['--format', 'markdown', '--format', 'json'], '--format given twice; give it once'],
      [['--color', 'always', '--color', 'always'], '--color given twice; give it once'],
      [['--since', '2026-10-17T09:00:00Z', '--since', '2026-10-17T10:00:00Z'], '--since given twice; give it once'],
      [['--input-format', 'har', '--input-format', 'har'], '--input-format given twice; give it once'],
      [['--unwrap', 'a', '--unwrap', 'b'], '--unwrap given twice; give it once'],
      [['--max-line-bytes', '100000', '--max-line-bytes', '100000'], '--max-line-bytes given twice; give it once'],
      [['--window', '5', '--window', '1'], '--window given twice; give it once'],
      [['--format'], '--format needs a value: one of table, json, ndjson, markdown'],
      [['-f'], '-f needs a value: one of table, json, ndjson, markdown'],
    ];
    for (const [args, message] of cases) {
      const r = await spawnCli(['samples/client.ndjson', ...args]);
      expectUsage(r, message, args.join(' '));
      expect(r.stderr).toContain("Run 'mcp-triage --help' for usage.");
    }
  });

  it('record: each of its options once, and each with a value', async () => {
    const base = ['record', '--listen', '127.0.0.1:0', '--target', 'http://127.0.0.1:9', '--out', 'never-written.ndjson'];
    expectUsage(await cli([...base, '--out', 'other.ndjson']), '--out given twice; give it once', 'record --out twice');
    expectUsage(await cli([...base, '--listen', '127.0.0.1:1']), '--listen given twice; give it once', 'record --listen twice');
    expectUsage(await cli([...base, '--side', 'client', '--side', 'client']), '--side given twice; give it once', 'record --side twice');
    expectUsage(await cli([...base.slice(0, -1)]), '--out needs a value', 'record --out without a value');
    expectUsage(await cli([...base, '--side']), '--side needs a value', 'record --side without a value');
  });

  it('a flag given twice is no error: the last one wins', async () => {
    const r = await cli([CLIENT, '--format', 'json', '--quiet', '-q', '--no-redact', '--redact']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{"version":1/);
  });
});
