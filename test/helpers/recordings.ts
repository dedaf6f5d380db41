// Test helpers for real-traffic fixtures analyzed through the library: flat folders (<scenario>.{client,server,proxy}.ndjson) and the audits' folders of scenarios (<scenario>/<view files>, observed.json).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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

export type ViewSide = 'client' | 'server';
/** One way of reading an incident: files of its folder, each with the side it is given as (none: the records say). */
export interface View {
  name: string;
  inputs: [string, ViewSide?][];
}

/** The five ways the audits record each incident: the client's log, the server's, both, the record proxy's, the HAR lines. */
export const FIVE_VIEWS: View[] = [
  { name: 'client', inputs: [['client.ndjson', 'client']] },
  { name: 'server', inputs: [['server.ndjson', 'server']] },
  { name: 'both', inputs: [['client.ndjson', 'client'], ['server.ndjson', 'server']] },
  { name: 'proxy', inputs: [['proxy.ndjson']] },
  { name: 'har', inputs: [['capture.har.ndjson']] },
];

/** An audit's fixtures, test/fixtures/<name>/<scenario>/: a file's path, the analysis of some of its files, its observed.json. */
export function auditFixtures(name: string) {
  const root = fileURLToPath(new URL(`../fixtures/${name}/`, import.meta.url));
  const f = (scenario: string, file: string) => `${root}${scenario}/${file}`;
  return {
    root,
    f,
    run: (scenario: string, ...inputs: [string, ViewSide?][]) => analyze({ inputs: inputs.map(([file, side]) => ({ path: f(scenario, file), ...(side ? { side } : {}) })) }),
    observed: (scenario: string) => JSON.parse(readFileSync(f(scenario, 'observed.json'), 'utf8')) as Record<string, unknown>[],
  };
}
