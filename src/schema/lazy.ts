// Loading the zod schemas only when a record needs them: the hot path checks records with cheap guards, and zod
// costs ~150 ms to load, which a run over well-formed logs should not pay.
type RecordModule = typeof import('./record.js');

let loaded: RecordModule | undefined;

/** The schema module once loaded, else undefined (adapters then ask the reader to load it and try again). */
export function schemas(): RecordModule | undefined {
  return loaded;
}

export async function loadSchemas(): Promise<RecordModule> {
  loaded ??= await import('./record.js');
  return loaded;
}

/** What an adapter returns as its error when it needs the schemas that are not loaded yet. */
export const NEEDS_SCHEMAS = '\u0000needs-schemas';
