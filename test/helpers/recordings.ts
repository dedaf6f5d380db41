// Test helpers for real-traffic fixtures analyzed through the library: flat folders (<scenario>.{client,server,proxy}.ndjson) and the audits' folders of scenarios (<scenario>/<view files>, observed.json).
import { readdirSync, readFileSync } from 'node:fs';
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

/** What the fault hop in front of the client did to each request (observed.json's `hop`). */
export interface HopAction {
  request: string;
  action: string;
}

/**
 * An audit recorded by a rig (test/helpers/audit-rig.mjs): its scenarios, the steps its app took (each with what it got,
 * `ok`, or threw, `error`), what the fault hop did, what the server's tools ran, and each scenario read one of the five
 * ways (analyzed once).
 */
export function auditKit<Step extends { label: string }>(name: string) {
  const fx = auditFixtures(name);
  const scenarios = readdirSync(fx.root).filter((s) => !s.includes('.')).sort();
  const steps = (s: string) => fx.observed(s).filter((x) => typeof x.label === 'string') as unknown as Step[];
  const hop = (s: string) => (fx.observed(s).find((x) => x.hop) as { hop?: HopAction[] } | undefined)?.hop ?? [];
  const analyzed = new Map<string, Promise<AnalysisResult>>();
  const runView = (s: string, v: View) => {
    const key = `${s}|${v.name}`;
    if (!analyzed.has(key)) analyzed.set(key, fx.run(s, ...v.inputs));
    return analyzed.get(key)!;
  };
  return {
    ...fx,
    scenarios,
    steps,
    step: (s: string, label: string) => steps(s).find((x) => x.label === label)!,
    hop,
    serverRan: (s: string) => (fx.observed(s).find((x) => x.serverRan) as { serverRan: string[] }).serverRan,
    runView,
    /**
     * The tools/call outcomes a view must show, in order: each step whose label toolStep matches (its first group is the
     * tool), with the outcome outcomeOf reads from what the app got (null: no request went out); a 429 or 503 the hop
     * answered itself (codeOf gives the step's HTTP status) is not seen by the views behind the hop.
     */
    expectedToolCalls(s: string, v: View, how: { toolStep: RegExp; outcomeOf: (st: Step) => string | null; codeOf: (st: Step) => unknown }): string[] {
      let skip = behindHop(v) ? hop(s).filter((h) => h.action === 'respond' && h.request.startsWith('POST tools/call')).length : 0;
      const out: string[] = [];
      for (const st of steps(s).filter((x) => how.toolStep.test(x.label))) {
        const o = how.outcomeOf(st);
        if (o === null) continue;
        if (o === 'HTTP_ERROR' && skip > 0 && [429, 503].includes(Number(how.codeOf(st)))) {
          skip--;
          continue;
        }
        out.push(`${how.toolStep.exec(st.label)![1]} ${o}`);
      }
      return out;
    },
  };
}

/** One of the five views, by name. */
export const viewNamed = (name: string): View => FIVE_VIEWS.find((v) => v.name === name)!;
/** Views that see only what passed a fault hop standing right in front of the client. */
export const behindHop = (v: View) => v.name !== 'client' && v.name !== 'both';
/** An analysis's tools/call attempts (the library's result or the CLI's JSON report). */
export const toolCalls = <A extends { method: string }>(r: { attempts: A[] }): A[] => r.attempts.filter((a) => a.method === 'tools/call');
/** The finding codes of an attempt. */
export const codesOf = (a: { findings: { code: string }[] }) => a.findings.map((f) => f.code);
/** Every finding code of an analysis: its attempts' and its own (session-level), in that order. */
export const allCodes = (r: { attempts: { findings: { code: string }[] }[]; findings: { code: string }[] }) => [...r.attempts.flatMap(codesOf), ...r.findings.map((f) => f.code)];
