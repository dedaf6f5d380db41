// Per-session state the join keeps while a session is active: ids sent, failures, orphans, cancels; released when idle.
import type { AttemptView, JsonRpcId, Source, ViewSide } from './attempt.js';

export interface SessionState {
  side: ViewSide;
  scope: string;
  /** The MCP session id (null for a scope keyed by connection or input). */
  session: string | null;
  firstTs: number | undefined;
  lastTs: number | undefined;
  firstSrc: Source;
  announced: boolean;
  initialized: boolean;
  deleted: boolean;
  unparsedRequests: number;
  clientResponses: number;
  strayMessages: number;
  serverRequests: number;
  /** Every request id sent in the session, with when and what, to tell orphans and duplicates. */
  /** When each id was answered (message-level), to tell a duplicated response row from an orphan. */
  answered: Map<string, number | undefined>;
  requestIds: Map<string, { ts: number | undefined; end?: number | undefined; fingerprint: string; src: Source }>;
  methods: Map<string, number>;
  orphans: { id: JsonRpcId; src: Source }[];
  cancels: { id: JsonRpcId; src: Source }[];
  malformedOnStreams: Source[];
  /** Identical records (an export's duplicate rows), counted once. */
  duplicates: { what: string; first: Source; dup: Source }[];
  /** Who the session belongs to: the client identity, else the input. */
  clientKey: string | undefined;
  /** Non-2xx responses in this session, in order. */
  failures: { status: number; method: string; sentSession: boolean; src: Source; ts: number | undefined }[];
  protocolVersion?: string;
  clientName?: string;
  noteRequest(view: AttemptView): void;
}

function newState(side: ViewSide, scope: string, session: string | null, ts: number | undefined, src: Source): SessionState {
  const s: SessionState = {
    side,
    scope,
    session,
    firstTs: ts,
    lastTs: ts,
    firstSrc: src,
    announced: false,
    initialized: false,
    deleted: false,
    unparsedRequests: 0,
    clientResponses: 0,
    strayMessages: 0,
    serverRequests: 0,
    requestIds: new Map(),
    answered: new Map(),
    methods: new Map(),
    orphans: [],
    cancels: [],
    malformedOnStreams: [],
    duplicates: [],
    clientKey: undefined,
    failures: [],
    noteRequest(view) {
      s.methods.set(view.method, (s.methods.get(view.method) ?? 0) + 1);
    },
  };
  return s;
}

export class SessionTracker {
  private states = new Map<string, SessionState>();

  constructor(private readonly windowMs: number, private readonly onClose: (s: SessionState) => void) {}

  touch(side: ViewSide, scope: string, session: string | null, ts: number | undefined, src: Source): SessionState {
    const key = `${side}|${scope}`;
    let s = this.states.get(key);
    if (!s) {
      s = newState(side, scope, session, ts, src);
      this.states.set(key, s);
    } else if (ts !== undefined) {
      if (s.firstTs === undefined || ts < s.firstTs) s.firstTs = ts;
      if (s.lastTs === undefined || ts > s.lastTs) s.lastTs = ts;
    }
    return s;
  }

  get(scopeKey: string): SessionState | undefined {
    return this.states.get(scopeKey);
  }

  noteStatus(side: ViewSide, scopeKey: string, session: string | null, status: number, attempts: AttemptView[], src: Source): void {
    const s = this.states.get(scopeKey) ?? this.states.get(`${side}|${session}`);
    if (!s) return;
    for (const a of attempts) s.failures.push({ status, method: a.method, sentSession: a.sentSession, src, ts: a.startTs });
    if (attempts.length === 0) s.failures.push({ status, method: '(none)', sentSession: session !== null, src, ts: undefined });
  }

  /** Close sessions idle for longer than the window. */
  advance(watermark: number): void {
    for (const [key, s] of this.states) {
      if (s.lastTs !== undefined && s.lastTs + this.windowMs * 2 < watermark) {
        this.states.delete(key);
        this.onClose(s);
      }
    }
  }

  flush(): void {
    const all = [...this.states.values()];
    this.states.clear();
    all.sort((a, b) => (a.firstTs ?? 0) - (b.firstTs ?? 0));
    for (const s of all) this.onClose(s);
  }

  get size(): number {
    return this.states.size;
  }
}
