// Records the twenty-third audit's scenarios (specs.mjs: a hand-written server's protocol mistakes) with the three
// clients. Usage: npm run build && node test/real-audit23/record.mjs [scenario...]   (all by default; the Python
// client needs /work/py-venv or PYTHON). s06c-large-result-8mb (an 8 MB result, every client fine) is not committed.
import { runScenario } from './lib.mjs';
import { SPECS } from './specs.mjs';

const only = process.argv.slice(2);
for (const [name, spec] of Object.entries(SPECS)) if (only.length ? only.includes(name) : name !== 's06c-large-result-8mb') await runScenario(name, spec);
process.exit(0);
