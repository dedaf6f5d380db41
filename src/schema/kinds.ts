// The kinds of canonical record (kept apart from the zod schema so the hot path can use them without loading zod).
export const RECORD_KINDS = ['exchange', 'request', 'response', 'event', 'end', 'message', 'claim'] as const;
