// mcpsnoop's `export -T json` document: each of its `events` turned into the trace JSONL frame the mcpsnoop format (mcpsnoop.ts) reads.

/**
 * What mcpsnoop 0.22.0's JSON export holds (test/fixtures/real-audit73/*\/export.json, real-audit75): one pretty-printed
 * document, `generated_at`, then `session` (`id`, `label`, `transport`, `endpoint`, counts), `summary`, `capabilities`,
 * `calls` (mcpsnoop's own pairing), `events` and `interactions`. `events` are the trace's frames with the same `seq`
 * and time, less the meta frame: `{seq, timestamp, direction, kind, method?, id? (as text), http_status?,
 * auth_challenge?, warning?, call_index?, raw?}`. Left out: the capture session on each event (it is `session.id`), the
 * transport (`session.transport`), the client's TCP connection (`conn_id`) and the Content-Type (`transport_headers`).
 * The frame made here names itself (`export: "json"`): the reader ties an answer without a JSON-RPC id (a 401, a lost
 * session's 404) to the request in flight without a connection to go by (see mcpsnoop.ts).
 */
export function mcpsnoopFrameOfEvent(event: Record<string, unknown>, session: Record<string, unknown> | undefined): Record<string, unknown> {
  const frame: Record<string, unknown> = {
    session_id: typeof session?.id === 'string' ? session.id : 'mcpsnoop-json-export',
    seq: typeof event.seq === 'number' ? event.seq : 0,
    ts: event.timestamp ?? null,
    direction: event.direction,
  };
  if (typeof session?.label === 'string') frame.server_label = session.label;
  if (typeof session?.transport === 'string') frame.transport = session.transport;
  if (event.raw !== undefined) frame.raw = event.raw;
  if (event.http_status !== undefined) frame.status = event.http_status;
  // (fields the trace's frame has under the same names, where an export keeps them)
  for (const k of ['text', 'truncated', 'auth_challenge', 'mcp_protocol_version']) if (event[k] !== undefined) frame[k] = event[k];
  frame.export = 'json';
  return frame;
}

/** At most this many calls' starts are kept per input to tell one mcpsnoop capture's renderings apart (see mcpsnoopRepeatNotes). */
const RUN_CALLS = 8;

/** Per input (its account), its first calls as one mcpsnoop capture's exports name them (kept beside the account: not in the output). */
const callsOf = new WeakMap<object, string[]>();

/**
 * One call of an mcpsnoop capture as its renderings name it: the session's label and the call's start as mcpsnoop wrote
 * it (to the nanosecond): a trace frame's `server_label` and `ts` (the JSON export's events become such frames), the HAR
 * export's entry `startedDateTime` (its url `mcp://<label>/<method>`). Kept for the input's first calls only.
 */
export function noteMcpsnoopCall(account: object, label: unknown, start: unknown): void {
  if (typeof label !== 'string' || typeof start !== 'string' || start.length > 64) return;
  let list = callsOf.get(account);
  if (!list) callsOf.set(account, (list = []));
  if (list.length < RUN_CALLS) list.push(`${label}\u0000${start}`);
}

/** A request frame of mcpsnoop's trace JSONL (or one made from the JSON export's event): its call, for noteMcpsnoopCall. */
export function noteMcpsnoopFrame(account: object, frame: Record<string, unknown>): void {
  const raw = frame.raw;
  if (frame.direction !== 'c2s' || typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const m = raw as Record<string, unknown>;
  if (typeof m.method !== 'string' || (typeof m.id !== 'string' && typeof m.id !== 'number')) return;
  noteMcpsnoopCall(account, frame.server_label, frame.ts);
}

/** The label of a HAR entry of mcpsnoop's HAR export (`mcp://<label>/<method>`), else undefined. */
export function mcpsnoopHarLabel(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  const m = /^mcp:\/\/([^/]{1,200})\//.exec(url);
  return m ? m[1] : undefined;
}

/**
 * Two inputs that are renderings of one mcpsnoop capture (its trace JSONL, its JSON export, its HAR export: the same
 * session label and a call started at the same nanosecond): the HAR keeps no JSON-RPC id, so the join cannot tell its
 * calls are the other's, and each would be counted twice in silence. Said once per pair, with the inputs' names; pairs
 * the join already said show the same requests, or read as one log (`said`, by input index pair "x|y"), are left to
 * its note.
 */
export function mcpsnoopRepeatNotes(accounts: ReadonlyArray<{ name: string }>, said: ReadonlySet<string>): string[] {
  const notes: string[] = [];
  for (let y = 0; y < accounts.length; y++) {
    const b = callsOf.get(accounts[y]!);
    if (!b?.length) continue;
    for (let x = 0; x < y; x++) {
      const a = callsOf.get(accounts[x]!);
      if (!a?.length || said.has(`${x}|${y}`) || !a.some((k) => b.includes(k))) continue;
      const label = (a.find((k) => b.includes(k)) ?? '').split('\u0000')[0]!;
      notes.push(`${accounts[x]!.name} and ${accounts[y]!.name} are two renderings of one mcpsnoop capture (its trace JSONL, JSON export or HAR export: session label ${JSON.stringify(label.slice(0, 60))}, calls that started at the same nanosecond): each input's calls are analyzed, so those calls appear twice (the HAR export keeps no JSON-RPC id to join them by); give one of them: the trace JSONL or the JSON export keeps the JSON-RPC ids and the HTTP statuses`);
    }
  }
  return notes;
}
