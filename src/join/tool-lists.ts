// Remembering the tools/list each client and session got: paged lists merged, lists alike shared, the oldest let go.
import type { ToolSafety } from '../findings/annotations.js';
import { trimOldest } from '../bounded.js';
import { Digest } from './fingerprint.js';

/** Keys (sessions, callers) whose latest tools/list is kept (oldest out): a log of many connections keeps no list per each. */
export const TOOL_LISTS_KEPT = 4096;

/**
 * Keeps a tools/list under its key: a later page of a paginated list adds to the earlier pages; a new list replaces
 * the old one (moved to the newest place, so that the map lets the oldest go beyond TOOL_LISTS_KEPT). Lists alike
 * share one map: thousands of sessions of one server list the same tools.
 */
export function learnToolList(m: Map<string, Map<string, ToolSafety>>, key: string, list: Map<string, ToolSafety>, nextPage: boolean): void {
  const known = nextPage ? m.get(key) : undefined;
  const merged = known ? new Map([...known, ...list]) : list;
  m.delete(key);
  m.set(key, sharedToolList(merged));
  trimOldest(m, TOOL_LISTS_KEPT);
}

/** One map for each tool list seen (by content; the last SHARED_LISTS_KEPT of them), never changed once made. */
const sharedLists = new Map<number, Map<string, ToolSafety>>();
const SHARED_LISTS_KEPT = 256;
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 1;

function sharedToolList(list: Map<string, ToolSafety>): Map<string, ToolSafety> {
  const idOf = (schema: unknown): number => {
    if (typeof schema !== 'object' || schema === null) return 0;
    let id = schemaIds.get(schema);
    if (id === undefined) schemaIds.set(schema, (id = nextSchemaId++));
    return id;
  };
  // The list's digest (names, flags and schema identities in order), fed without building its text.
  const d = new Digest();
  for (const [name, t] of list) {
    d.tagged(0, name);
    d.unit(+t.readOnly | (+t.idempotent << 1) | (+t.annotated << 2) | (+(t.outputSchema === true) << 3));
    d.unit(idOf(t.schema));
    d.unit(idOf(t.inputSchema));
  }
  const sig = d.number();
  const known = sharedLists.get(sig);
  if (known) return known;
  const made = new Map(list);
  sharedLists.set(sig, made);
  trimOldest(sharedLists, SHARED_LISTS_KEPT);
  return made;
}
