// The `mcp-triage record` command: run the recording proxy until Ctrl-C, then flush and close the output. Its yargs
// definition is in record-cli.ts: this module is reachable from the published types, which must not need yargs'.
import { open, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { redactUrl } from '../redact.js';
import type { Side } from '../schema/record.js';
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
  if (args.out.trim() === '') return fail('--out is empty: give the file to append the records to, like --out traffic.ndjson');
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
  // (Listening for the stop before saying it runs: a signal sent as soon as that line is read finds the handler.)
  const stopped = io.stopped ?? untilSignal(proxy);
  io.stderr.write(`mcp-triage record: ${proxy.url} -> ${redactUrl(args.target)}, appending to ${args.out} (Ctrl-C to stop)\n`);
  if (target.pathname !== '/') {
    // A target given as the MCP endpoint (http://host:3000/mcp) while the client is pointed at the proxy's /mcp
    // forwards to /mcp/mcp: say so once, with the example, rather than let every request 404.
    const base = redactUrl(`${target.origin}${target.pathname.replace(/\/$/, '')}`);
    io.stderr.write(`mcp-triage record: warning: --target has the path ${target.pathname}; the client's request path is appended to it (${proxy.url}/mcp goes to ${base}/mcp); give the target without a path to forward paths unchanged\n`);
  }
  await stopped;
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
