#!/usr/bin/env node
// The executable: hands the arguments and the process's streams to main() and sets the exit code. Nothing else touches process.
import { main } from './cli.js';

process.on('SIGINT', () => process.exit(130));
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
});

main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`mcp-triage: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
