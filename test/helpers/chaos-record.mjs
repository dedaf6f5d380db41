// What the chaos recorders (test/real-chaos/record.mjs, test/real-chaos-py/record.mjs) share: the seeded generator, the key hash, the five annotated tools.

/** mulberry32: a fixed, seeded pseudo-random generator. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A string's 32-bit hash, to seed a fault by a call's key and attempt rather than by arrival order. */
export const hash = (s) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** The tools the chaos servers offer, with the annotations their tools/list gives. */
export const TOOLS = {
  lookup: { readOnlyHint: true },
  set_flag: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  delete_item: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  send_email: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  export_report: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};
