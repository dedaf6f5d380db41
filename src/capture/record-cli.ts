// The `record` command's yargs definition (options, usage, exit text). Kept apart from record-command.ts, which the
// package exports (mcp-triage/capture): the published .d.ts files must not import yargs' types, which a consumer does
// not install (@types/yargs is a devDependency here).
import type { Argv, Options } from 'yargs';
import { repeatedOptionError } from '../cli-args.js';
import { SideSchema } from '../schema/record.js';
import { runRecord, type RecordArgs } from './record-command.js';

/** The options of `record`; each that takes a value takes one (given twice is a usage error). */
const RECORD_OPTIONS: Record<string, Options> = {
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

