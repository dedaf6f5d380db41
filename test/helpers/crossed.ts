// A session's CANCELLED for a cancellation the client's own timeout sent after the answer had left (real-audit32's
// timeout races): the attempts it names, so that a test checks them against what the caller got.
import type { AnalysisResult, AttemptRow, Finding } from '../../src/index.js';

/** The tools/call attempts (in the finding's session, with its id) a "crossed" CANCELLED names; undefined for any other finding. */
export function crossedCancel(r: Pick<AnalysisResult, 'attempts'>, x: Finding): AttemptRow[] | undefined {
  if (x.code !== 'CANCELLED') return undefined;
  const m = /notifications\/cancelled for id (\S+) came .*? after (?:the server had sent its answer|its answer had ended in this log), with the reason .*its caller got the timeout error/.exec(x.message);
  if (!m) return undefined;
  return r.attempts.filter((a) => a.method === 'tools/call' && (a.session ?? null) === (x.session ?? null) && String(a.id) === m[1]);
}
