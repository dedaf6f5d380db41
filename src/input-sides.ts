// Which side a plain input (no --client or --server) is read as: the other side next to inputs of one side, or the side its file name says.
import { basename, dirname } from 'node:path';
import type { InputSpec, ResolvedSpec } from './ingest.js';

type Side = 'client' | 'server';

const SIDE_WORDS: Record<string, Side> = { client: 'client', clients: 'client', server: 'server', servers: 'server' };

/**
 * The side a log's name says, as a word of it: `client.ndjson`, `mcp-server.log`, `serverLog.jsonl`, `client/app.log`
 * (the folder's name when the file's says none). None when it says both, or neither (`observer.log` has no word
 * `server`), and never for standard input.
 */
export function sideInName(path: string): Side | undefined {
  if (path === '-') return undefined;
  const said = (name: string): Side | 'both' | undefined => {
    let side: Side | undefined;
    // Words: runs of letters, split where a lower-case letter meets an upper-case one (camelCase).
    for (const word of name.split(/[^A-Za-z]+|(?<=[a-z])(?=[A-Z])/)) {
      const s = SIDE_WORDS[word.toLowerCase()];
      if (s === undefined) continue;
      if (side !== undefined && side !== s) return 'both';
      side = s;
    }
    return side;
  };
  const own = said(basename(path));
  if (own === 'both') return undefined;
  if (own !== undefined) return own;
  const folder = said(basename(dirname(path)));
  return folder === 'both' ? undefined : folder;
}

/**
 * The side each plain input's records that state none take (`assumed`; records that state a side keep theirs):
 * - next to inputs given with one side only, the other side (a plain HAR next to --server is the client's view);
 * - of two plain inputs and no other, the side each one's name says, when one says client and the other server
 *   (`client.ndjson` and `server.ndjson` are the two views of the same calls, to be joined, not counted twice);
 *   `assumedBy` is then `name`. Not among more files: a folder of scenarios' logs (`client-timeout.har`,
 *   `baseline.server.ndjson`, ...) names scenarios with the same words.
 * Otherwise (alone, among other plain inputs, or next to both sides) nothing: its calls are analyzed apart.
 */
export function assumeSides(inputs: InputSpec[]): ResolvedSpec[] {
  const client = inputs.some((i) => i.side === 'client');
  const server = inputs.some((i) => i.side === 'server');
  if (client !== server) {
    const assumed = client ? 'server' : 'client';
    return inputs.map((i) => (i.side === undefined ? { ...i, assumed } : i));
  }
  if (client || inputs.length !== 2) return inputs;
  const [a, b] = inputs.map((i) => sideInName(i.path));
  if (a === undefined || b === undefined || a === b) return inputs;
  return [{ ...inputs[0]!, assumed: a, assumedBy: 'name' }, { ...inputs[1]!, assumed: b, assumedBy: 'name' }];
}
