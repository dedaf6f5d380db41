// The `mcp-triage record` command: run the recording proxy until Ctrl-C, then flush and close the output.
import type { Argv, Options } from 'yargs';
import { repeatedOptionError } from '../cli-args.js';
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
  listen: { type: 'string', demandOption: true, requiresArg: true, describe: 'Address to listen on, HOST:PORT (loopback only unless --allow-remote)' },
  target: { type: 'string', demandOption: true, requiresArg: true, describe: 'MCP server base URL to forward to, e.g. http://127.0.0.1:3000' },
  out: { type: 'string', demandOption: true, requiresArg: true, describe: 'NDJSON file to append records to' },
  side: { choices: SideSchema.options, requiresArg: true, describe: 'Write this side on every record (default: none)' },
  'allow-remote': { type: 'boolean', default: false, describe: 'Allow a non-loopback --listen address' },
  redact: { type: 'boolean', default: true, describe: 'Replace secrets in recorded headers, URLs and bodies (--no-redact to keep them)' },
};

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
      .example('$0 record --listen 127.0.0.1:8808 --target http://127.0.0.1:3000 --out mcp.ndjson', 'then point the client at http://127.0.0.1:8808/mcp');
  },
  handler: async (argv: RecordArgs): Promise<number> => runRecord(argv),
};

/** Start the proxy, wait for the stop signal, close it. Returns the exit code (0 ok, 2 could not start). */
export async function runRecord(args: RecordArgs, io: RecordIo = { stderr: process.stderr }): Promise<number> {
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
    io.stderr.write(`mcp-triage record: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  io.stderr.write(`mcp-triage record: ${proxy.url} -> ${args.target}, appending to ${args.out} (Ctrl-C to stop)\n`);
  await (io.stopped ?? untilSignal(proxy));
  proxy.endOpenExchanges('recording stopped');
  await proxy.close();
  io.stderr.write(`mcp-triage record: stopped, ${args.out} closed\n`);
  return 0;
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
