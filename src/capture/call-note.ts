// Per-call notes from the application (retry origin, attempt number, a call name), carried by AsyncLocalStorage.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { z } from 'zod';
import type { NoteSchema } from '../schema/record.js';

export type CallNote = z.infer<typeof NoteSchema>;

const notes = new AsyncLocalStorage<CallNote>();

/**
 * Run `fn` with a note attached to every JSON-RPC request it sends through a recording fetch, e.g.
 * `await withCallNote({ retryOrigin: 'app', attempt: 2 }, () => client.callTool(args))`.
 */
export function withCallNote<T>(note: CallNote, fn: () => T): T {
  return notes.run({ ...notes.getStore(), ...note }, fn);
}

/** The note of the call in progress, if the application set one. */
export function currentCallNote(): CallNote | undefined {
  return notes.getStore();
}
