// Running the CLI in-process (main with fake streams) and as a real process (dist/bin.cjs), capturing stdout, stderr and the exit code.
import { PassThrough, Readable } from 'node:stream';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main, type CliIo } from '../../src/cli.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = `${ROOT}dist/bin.cjs`;
export const SAMPLES = `${ROOT}samples/`;
export const BOTH = ['--client', `${SAMPLES}client.ndjson`, '--server', `${SAMPLES}server.ndjson`];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Lines (or text) fed as standard input; default: a terminal with nothing on it. */
  stdin?: string | string[] | NodeJS.ReadableStream;
  stdoutTTY?: boolean;
  stderrTTY?: boolean;
  env?: Record<string, string | undefined>;
  /** CliIo.largeInput: called when the inputs turn out large. */
  largeInput?: () => void;
}

function capture(tty: boolean): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number };
  if (tty) {
    stream.isTTY = true;
    stream.columns = 120;
  }
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** main(argv) with captured streams. */
export async function cli(argv: string[], opts: RunOptions = {}): Promise<Run> {
  const out = capture(opts.stdoutTTY ?? false);
  const err = capture(opts.stderrTTY ?? false);
  let stdin: NodeJS.ReadableStream;
  if (opts.stdin === undefined) {
    const tty = new PassThrough() as PassThrough & { isTTY?: boolean };
    tty.isTTY = true;
    stdin = tty;
  } else if (typeof opts.stdin === 'string') stdin = Readable.from([Buffer.from(opts.stdin)]);
  else if (Array.isArray(opts.stdin)) stdin = Readable.from([Buffer.from(opts.stdin.map((l) => `${l}\n`).join(''))]);
  else stdin = opts.stdin;
  const io: CliIo = { stdin, stdout: out.stream, stderr: err.stream, env: opts.env ?? {} };
  if (opts.largeInput) io.largeInput = opts.largeInput;
  const code = await main(argv, io);
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out.text(), stderr: err.text() };
}

/** node dist/bin.cjs argv, as a separate process (pipes for all three streams). */
export function spawnCli(argv: string[], opts: { stdin?: string; cwd?: string; timeoutMs?: number } = {}): Promise<Run & { signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: opts.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${argv.join(' ')}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, signal, stdout, stderr });
    });
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

/** A canonical v1 exchange line: one POST carrying a tools/call (or another method) and its JSON response. */
export function exchange(o: { args?: Record<string, unknown>; ts: string; session?: string; id: number | string; method?: string; tool?: string; status?: number; result?: unknown; error?: unknown; side?: 'client' | 'server'; client?: string }): string {
  const method = o.method ?? 'tools/call';
  const params = method === 'tools/call' ? { name: o.tool ?? 'search', arguments: o.args ?? { ref: 'A-1001' } } : {};
  const status = o.status ?? 200;
  const recv = status >= 200 && status < 300
    ? { jsonrpc: '2.0', id: o.id, ...(o.error ? { error: o.error } : { result: o.result ?? (method === 'tools/call' ? { content: [{ type: 'text', text: 'ok' }] } : {}) }) }
    : { jsonrpc: '2.0', id: null, error: { code: -32000, message: `HTTP ${status}` } };
  return JSON.stringify({
    v: 1, kind: 'exchange', method: 'POST', url: 'https://mcp.example.test/mcp', ts: o.ts,
    ...(o.side ? { side: o.side } : {}), ...(o.client ? { client: o.client } : {}), ...(o.session ? { session: o.session } : {}),
    requestHeaders: { 'content-type': 'application/json', ...(o.session ? { 'mcp-session-id': o.session } : {}) },
    send: { jsonrpc: '2.0', id: o.id, method, params },
    status, responseHeaders: { 'content-type': 'application/json' }, recv, durationMs: 20,
  });
}
