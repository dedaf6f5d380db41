// The `mcp-triage record` command: run the recording proxy until Ctrl-C, then flush and close the output.
import { open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Argv, Options } from 'yargs';
import { repeatedOptionError } from '../cli-args.js';
import { redactUrl } from '../redact.js';
import { SideSchema, type Side } from '../schema/record.js';
import { startRecordingProxy, type RecordingProxy } from './proxy.js';

export interface RecordArgs {
  listen: string;
  target: string;
  out: string;
  side?: Side | undefined;
  allowRemote?: boolean | undefined;
  redact?: boolean | undefined;
}

/** Streams for messages; the proxy's traffic never goes to stdout. */
export interface RecordIo {
  stderr: { write(text: string): unknown };
  /** Resolves when the proxy should stop (default: the first SIGINT or SIGTERM). */
  stopped?: Promise<unknown> | undefined;
}

/** The options of `record`; each that takes a value takes one (given twice is a usage error). */
export const RECORD_OPTIONS: Record<string, Options> = {
  listen: { type: 'string', demandOption: true, requiresArg: true, describe: 'Address to listen on, HOST:PORT or PORT (127.0.0.1:PORT); loopback only unless --allow-remote' },
  target: { type: 'string', demandOption: true, requiresArg: true, describe: "MCP server base URL to forward to, e.g. http://127.0.0.1:3000 (the client's path is appended to its path)" },
  out: { type: 'string', demandOption: true, requiresArg: true, describe: 'NDJSON file to append records to' },
  side: { choices: SideSchema.options, requiresArg: true, describe: 'Write this side on every record (default: none)' },
  'allow-remote': { type: 'boolean', default: false, describe: 'Allow a non-loopback --listen address' },
  redact: { type: 'boolean', default: true, describe: 'Replace secrets in recorded headers, URLs and bodies (--no-redact to keep them)' },
};

const RECORD_USAGE = `Usage: $0 record --listen [HOST:]PORT --target URL --out FILE [options]

A transparent recording proxy for traffic you cannot instrument: it forwards HTTP to --target as it arrives and appends both directions to --out as canonical records (read them with mcp-triage --client or --server, or give --side). Point the client at the --listen address.`;

const RECORD_EXIT_TEXT = 'Exit status: 0 stopped by SIGTERM, 130 by Ctrl-C (every record is on disk either way); 2 usage error, a --target that is not an http(s) URL, an --out file that cannot be opened for appending, or a --listen address that cannot be used.';

export const recordCommand = {
  command: 'record',
  describe: 'Run a transparent recording proxy: forward HTTP to --target and append both directions to --out as canonical records',
  builder: (yargs: Argv) => {
    for (const [name, o] of Object.entries(RECORD_OPTIONS)) yargs.option(name, o);
    return yargs
      .check((argv) => {
        // Given twice, an option would reach the proxy as an array (all of record's values are strings, which yargs
        // always collects into one).
        for (const name of ['listen', 'target', 'out', 'side']) {
          const v = argv[name];
          if (Array.isArray(v)) throw new Error(repeatedOptionError(name, v.length));
        }
        return true;
      })
      .usage(RECORD_USAGE)
      .epilogue(RECORD_EXIT_TEXT);
  },
  handler: async (argv: RecordArgs): Promise<number> => runRecord(argv),
};

/**
 * Start the proxy, wait for the stop signal, close it. Returns the exit code (0 ok, 2 could not start). Everything that
 * can be checked is checked before it listens: the target is a URL, and the output file can be opened for appending
 * (a client would otherwise be proxied while nothing is recorded, the error showing only at its first request).
 */
export async function runRecord(args: RecordArgs, io: RecordIo = { stderr: process.stderr }): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`mcp-triage record: ${message}\n`);
    return 2;
  };
  if (!isHttpUrl(args.target)) return fail(`--target must be an http(s) URL like http://127.0.0.1:3000, got "${redactUrl(args.target)}"`);
  const opened = await openForAppending(args.out);
  if (typeof opened === 'string') return fail(opened);
  let proxy: RecordingProxy;
  try {
    proxy = await startRecordingProxy({
      listen: args.listen,
      target: args.target,
      out: args.out,
      side: args.side,
      allowRemote: args.allowRemote ?? false,
      redact: args.redact ?? true,
    });
  } catch (err) {
    await opened.undo();
    const e = err as NodeJS.ErrnoException;
    const message = err instanceof Error ? err.message : String(err);
    // listen EADDRINUSE, EACCES, EADDRNOTAVAIL: say which option it was.
    return fail(e.syscall === 'listen' ? `--listen ${args.listen}: ${message}` : message);
  }
  // The target may carry credentials (http://user:password@host): they are forwarded, never printed.
  const target = new URL(args.target);
  io.stderr.write(`mcp-triage record: ${proxy.url} -> ${redactUrl(args.target)}, appending to ${args.out} (Ctrl-C to stop)\n`);
  if (target.pathname !== '/') {
    // A target given as the MCP endpoint (http://host:3000/mcp) while the client is pointed at the proxy's /mcp
    // forwards to /mcp/mcp: say so once, with the example, rather than let every request 404.
    const base = redactUrl(`${target.origin}${target.pathname.replace(/\/$/, '')}`);
    io.stderr.write(`mcp-triage record: warning: --target has the path ${target.pathname}; the client's request path is appended to it (${proxy.url}/mcp goes to ${base}/mcp); give the target without a path to forward paths unchanged\n`);
  }
  await (io.stopped ?? untilSignal(proxy));
  proxy.endOpenExchanges('recording stopped');
  await proxy.close();
  io.stderr.write(`mcp-triage record: stopped, ${args.out} closed\n`);
  return 0;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Open the output file for appending and close it again: a string says why it cannot be (naming --out). `undo` removes
 * the file again when this created it and it is still empty (the proxy did not start after all).
 */
async function openForAppending(out: string): Promise<{ undo(): Promise<void> } | string> {
  const existed = await stat(out).then(() => true, () => false);
  try {
    // Created private (0600, as the sink creates it): the records hold request and response bodies. An existing file
    // keeps its mode.
    await (await open(out, 'a', 0o600)).close();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOENT' ? `its folder ${dirname(out)} does not exist`
      : e.code === 'EISDIR' ? 'it is a directory'
      : e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied'
      : e.message;
    return `--out ${out}: cannot open it for appending: ${why}`;
  }
  return {
    async undo() {
      if (existed) return;
      const info = await stat(out).catch(() => undefined);
      if (info?.size === 0) await unlink(out).catch(() => undefined);
    },
  };
}

/**
 * Resolves on the first SIGINT or SIGTERM. The listener runs before any other (a CLI may exit at once on Ctrl-C)
 * and ends the records of open exchanges synchronously, so the file is complete whatever happens next.
 */
function untilSignal(proxy: RecordingProxy): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      proxy.endOpenExchanges('recording stopped by a signal');
      resolve();
    };
    process.prependListener('SIGINT', stop);
    process.prependListener('SIGTERM', stop);
  });
}
