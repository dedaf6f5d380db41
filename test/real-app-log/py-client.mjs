// The Python SDK 2.3.0 client app (py_client.py in the venv), run by the app-log recorders record-py.mjs and record.mjs.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const PY = join(process.env.PY_VENV ?? '/work/py-venv', 'bin/python');

/** The Python client: runs py_client.py, returns its last JSON line; `onReady` is called when it prints {"ready": true}. */
export function pyClient(url, phase, onReady, args = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(PY, [join(HERE, 'py_client.py'), url, phase, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', async (d) => {
      out += d;
      if (onReady && out.includes('"ready"')) {
        const f = onReady;
        onReady = undefined;
        await f();
        child.stdin.write('\n');
      }
    });
    child.on('error', reject);
    child.on('exit', () => {
      const last = out.trim().split('\n').pop();
      try {
        resolve(JSON.parse(last).steps);
      } catch {
        reject(new Error(`py_client.py printed no steps: ${out}`));
      }
    });
  });
}

