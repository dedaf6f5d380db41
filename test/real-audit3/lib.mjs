// Third audit round: the second round's harness (fault hop, observers, proxies) writing to test/fixtures/real-audit3.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
export * from '../real-audit2/lib.mjs';

export const ROOT = fileURLToPath(new URL('../fixtures/real-audit3/', import.meta.url));

/** The scenario's folder under real-audit3, emptied of an earlier run's logs. */
export function scenarioFiles(name) {
  const dir = join(ROOT, name);
  mkdirSync(dir, { recursive: true });
  const files = Object.fromEntries(['client', 'server', 'proxy'].map((s) => [s, join(dir, `${s}.ndjson`)]));
  for (const f of Object.values(files)) rmSync(f, { force: true });
  return { dir, files };
}
