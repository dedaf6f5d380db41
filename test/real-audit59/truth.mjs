// The truth note of each test/fixtures/real-audit59 case (truth.md): the kitchen selection, what the judge's application
// saw at each step (its calls' returns and throws, its policy's choice) and what the emulated kitchen did (its own
// events: which POST got an injected status, which tools/call an injected JSON-RPC error, which invocation ran how).
// `node test/real-audit59/truth.mjs` rewrites every case's from its observed.json; record.mjs runs it too.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const CLIENT = { ts1: 'SDK 1.32.2 client (2025-11-25), recordingFetch', v2: 'v2 2.4.0 client, recordingFetch', py: 'Python SDK 2.3.0 client, its DEBUG log (client.log)' };

export function writeTruth(dir, name) {
  const o = JSON.parse(readFileSync(`${dir}observed.json`, 'utf8'));
  const era = o.client === 'v2' ? (name.startsWith('v2m-') ? ' with versionNegotiation auto (2026-07-28)' : ' with its defaults (it initializes on 2025-11-25)') : o.client === 'py' && /modern/.test(name) ? ' in mode auto (2026-07-28)' : '';
  const step = (s) => {
    if (s.action) return `- the elicitation handler answered ${s.action}`;
    if (s.gaveUp) return '- the app gave up connecting';
    const head = `- ${s.step}: `;
    if (s.ok === false) return `${head}threw ${s.error?.name}${s.error?.code !== undefined ? ` ${s.error.code}` : ''}: ${String(s.error?.message ?? '').slice(0, 140)}${s.policy ? ` (the app's policy: ${s.policy})` : ''}`;
    if (s.tools) return `${head}returned ${s.tools.join(', ')}`;
    return `${head}${s.isError ? 'returned isError true' : 'returned'}${s.text ? `: ${s.text.slice(0, 160)}` : ''}`;
  };
  const text = `# ${name}\n\nKitchen selection: \`${o.scenario}\` ${JSON.stringify(o.params)}, PAT required (the app sends it).\nClient: ${CLIENT[o.client]}${era}; \`mcp-triage record\` between the app and the kitchen (proxy.ndjson); the server's log where the kitchen's observations sit (server.ndjson).\n\nWhat the application saw, step by step:\n\n${o.steps.map(step).join('\n')}\n\nWhat the kitchen did (its own events, in order; an injected status or JSON-RPC error never reached the SDK server, so no tool ran for it):\n\n${o.kitchen.length ? o.kitchen.map((e) => `- ${JSON.stringify(e)}`).join('\n') : '- nothing injected'}\n`;
  writeFileSync(`${dir}truth.md`, text);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('../fixtures/real-audit59/', import.meta.url));
  for (const name of readdirSync(root)) writeTruth(`${root}${name}/`, name);
}
