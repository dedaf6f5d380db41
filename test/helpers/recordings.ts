// Test helper: a real-traffic fixture folder (<scenario>.{client,server,proxy}.ndjson) analyzed through the library, once per view.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type AnalysisResult } from '../../src/index.js';

export type RecordingSide = 'client' | 'server' | 'proxy';

export function recordings(folder: string) {
  const file = (scenario: string, side: RecordingSide): string => join(folder, `${scenario}.${side}.ndjson`);
  const cache = new Map<string, Promise<AnalysisResult>>();
  const once = (key: string, run: () => Promise<AnalysisResult>) => {
    if (!cache.has(key)) cache.set(key, run());
    return cache.get(key)!;
  };
  return {
    file,
    /** Client and server recordings of one scenario, read together. */
    both: (scenario: string) => once(`both|${scenario}`, () => analyze({ inputs: [{ path: file(scenario, 'client'), side: 'client' }, { path: file(scenario, 'server'), side: 'server' }] })),
    /** The recording proxy's file alone (no side, no conn or client key). */
    proxyOnly: (scenario: string) => once(`proxy|${scenario}`, () => analyze({ inputs: [{ path: file(scenario, 'proxy') }] })),
  };
}

/** The scenario names a recorder script defines (the keys of its `scenarios` object). */
export function scenariosOf(recorder: string): string[] {
  return readFileSync(recorder, 'utf8')
    .split('\n')
    .map((l) => /^ {2}'?([a-z0-9-]+)'?: \{$/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined);
}
