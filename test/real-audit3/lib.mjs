// Third audit round: the second round's harness (fault hop, observers, proxies) writing to test/fixtures/real-audit3.
import { fileURLToPath } from 'node:url';
import { scenarioFilesIn } from '../real-audit2/lib.mjs';
export * from '../real-audit2/lib.mjs';

export const ROOT = fileURLToPath(new URL('../fixtures/real-audit3/', import.meta.url));

/** The scenario's folder under real-audit3, emptied of an earlier run's logs. */
export const scenarioFiles = (name) => scenarioFilesIn(ROOT, name);
