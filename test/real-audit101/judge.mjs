// The judge of the hundred-and-first audit's blind runs: every way one view's report differs from what happened (observed.json), as sentences.
// Audit 97's judge (test/real-audit97/real-audit97.test.ts) widened to its own draws: every request the hop saw, not only
// the drawn call (faults on the opening and on tools/list), several calls of one tool at once (matched by their arguments),
// and five views: the client's and the server's logs together, each alone, the HAR alone, and the Python client's own
// DEBUG log alone.

/** The seed article's layers, as the README's Outcomes table gives them. */
export const LAYER = { NO_RESPONSE: 'transport', HTTP_ERROR: 'transport', STREAM_INCOMPLETE: 'transport', MALFORMED_JSON: 'protocol', INVALID_ENVELOPE: 'protocol', JSONRPC_ERROR: 'protocol', INPUT_REQUIRED: 'interaction', TOOL_ERROR: 'application', TOOL_SUCCESS: 'application', SUCCESS: 'application' };
/** What the hop answered itself, without forwarding: the status. */
export const HOP_ANSWERED = { 503: 503, 429: 429, 404: 404, '500html': 500 };
/** Findings a judge accepts on an attempt of these runs (each checked below where it must or must not be). */
const ALLOWED = new Set(['CANCELLED', 'SIDE_DIVERGENCE', 'NO_FINAL_RESULT', 'ORPHAN_RESPONSE', 'RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY', 'RETRY_AFTER_IGNORED', 'RETRY_POLICY']);

/** The views of a run: the files given, and whether the server's log and the client's notes are in them. */
export function viewsOf(o) {
  return ['client+server', 'client', 'server', 'har', ...(o.cell.client === 'py' ? ['pylog'] : [])];
}
export function argsOf(dir, view) {
  return { 'client+server': ['--client', `${dir}/client.ndjson`, '--server', `${dir}/server.ndjson`], client: [`${dir}/client.ndjson`], server: [`${dir}/server.ndjson`], har: [`${dir}/capture.har.ndjson`], pylog: [`${dir}/client.log`] }[view];
}

const timedOut = (s) => s?.error !== undefined && (s.error.code === 'REQUEST_TIMEOUT' || s.error.code === -32001 && /timed out/i.test(s.error.message) || /timed out/i.test(s.error.message));
const codes = (a) => a.findings.map((f) => f.code);
const has = (a, c) => codes(a).includes(c);
const methodOf = (h) => h.request.split(' ')[1];
const ok2 = (h) => h.answer?.startsWith('2') === true;
/** An outcome the server's log shows as failed (README: isFailure): a retry may follow it. */
const FAILED_THERE = (a) => !['TOOL_SUCCESS', 'SUCCESS', 'TOOL_ERROR', 'INPUT_REQUIRED'].includes(a.outcome);

/** What the server answered to a request the hop forwarded, as an outcome (undefined where no answer came to the hop). */
function served(h) {
  if (!h.answer) return undefined;
  if (h.serverAnswered === 'input_required') return 'INPUT_REQUIRED';
  if (!ok2(h)) return 'HTTP_ERROR';
  if (h.serverAnswered === 'error') return 'JSONRPC_ERROR';
  if (methodOf(h) !== 'tools/call') return 'SUCCESS';
  return h.serverAnswered === 'isError' ? 'TOOL_ERROR' : 'TOOL_SUCCESS';
}

/** The outcomes the seed article's model allows for one request in one view. */
function expected(h, view, o) {
  if (view === 'server') return h.action === 'delay' && !h.answer ? ['NO_RESPONSE', 'STREAM_INCOMPLETE'] : [served(h)];
  let want;
  if (h.action in HOP_ANSWERED) want = ['HTTP_ERROR'];
  else if (h.action === 'cut') want = ['STREAM_INCOMPLETE'];
  else if (h.action === 'delay') want = ['NO_RESPONSE', 'STREAM_INCOMPLETE'];
  else if (h.action === 'malformed') want = ['MALFORMED_JSON'];
  else if (h.action === 'wrongid') want = ['INVALID_ENVELOPE'];
  else want = [served(h)];
  // the Python client's DEBUG log leaves out the answers it read as application/json (README: python-sdk), and the
  // status of a POST among others in flight
  if (view === 'pylog' && (/application\/json/.test(h.answer ?? '') || h.action in HOP_ANSWERED && (o.cell.concurrency ?? 1) > 1)) want.push('UNANSWERED');
  return want;
}

/**
 * The judge. Per request the hop saw (in the server's view, those it forwarded): one attempt, the outcome and layer the
 * model gives. Per logical call of the drawn tool (its arguments): one call, attempts in order, continuations origin
 * `none`, retries' origin (`app` where the TypeScript app noted it and its capture is read), RETRY_ORIGIN_AMBIGUOUS,
 * UNSAFE_RETRY, RETRY_AFTER_IGNORED, NO_FINAL_RESULT, SIDE_DIVERGENCE, CANCELLED exactly where they belong; no other
 * finding; the follow-up lookup clean; session findings only SESSION_EXPIRED after the hop's 404 (the server had not
 * lost the session) and CALL_NEVER_SENT where the app gave up before any call.
 */
export function judge(o, r, view) {
  const bad = [];
  const { cell } = o;
  const serverLog = view === 'client+server' || view === 'server';
  const clientSide = view !== 'server';
  const requests = o.hop.filter((h) => h.id !== undefined && methodOf(h) && !(view === 'server' && h.action in HOP_ANSWERED));
  const attempts = r.attempts.filter((a) => a.method && a.id !== undefined && a.id !== null).sort((a, b) => String(a.ts).localeCompare(String(b.ts)));
  // each request the hop saw, to its attempt: same method and id, the k-th of them
  const used = new Set();
  const of = new Map();
  for (const h of requests) {
    const a = attempts.find((x) => !used.has(x) && x.method === methodOf(h) && x.id === h.id);
    if (!a) { bad.push(`${h.request} id ${h.id} (${h.action}): no attempt`); continue; }
    used.add(a);
    of.set(h, a);
    const want = expected(h, view, o);
    if (want[0] !== undefined && !want.includes(a.outcome)) bad.push(`${h.request} id ${h.id} (${h.action}): ${a.outcome}, the model says ${want.join(' or ')}`);
    if (LAYER[a.outcome] && a.layer !== LAYER[a.outcome]) bad.push(`id ${a.id}: layer ${a.layer} for ${a.outcome}`);
    if (clientSide && h.action in HOP_ANSWERED && a.outcome === 'HTTP_ERROR' && a.status !== HOP_ANSWERED[h.action]) bad.push(`id ${a.id}: HTTP ${a.status}, the hop answered ${HOP_ANSWERED[h.action]}`);
    if (view === 'client+server' && h.action in HOP_ANSWERED && o.serverRan.length && a.notSeenByServer !== true) bad.push(`${h.request} id ${a.id}: the hop answered it, yet not said unseen by the server`);
    for (const c of codes(a)) if (!ALLOWED.has(c)) bad.push(`${h.request} id ${a.id}: ${c} raised`);
    if (has(a, 'ORPHAN_RESPONSE') && h.action !== 'wrongid') bad.push(`id ${a.id}: ORPHAN_RESPONSE without a wrong id`);
    const cutSeen = clientSide && h.action === 'cut';
    if (has(a, 'NO_FINAL_RESULT') !== cutSeen) bad.push(`${h.request} id ${a.id} (${h.action}): NO_FINAL_RESULT ${cutSeen ? 'missing' : 'raised'}`);
    // a probe the hop failed, after which the client sent initialize all the same: the why says the failure (not an
    // older server) put the connection on the 2025-11-25 handshake
    if (clientSide && methodOf(h) === 'server/discover' && h.action !== 'forward' && o.hop.slice(o.hop.indexOf(h) + 1).find((x) => ['initialize', 'server/discover'].includes(methodOf(x)))?.request === 'POST initialize' && !/put the connection on the older protocol/.test(a.detail?.why ?? '')) bad.push(`${h.request} (${h.action}), then initialize: the why does not say the client fell back because of it`);
    const diverged = ['cut', 'malformed', 'wrongid'].includes(h.action) || (h.action === 'delay' && ok2(h));
    if (has(a, 'SIDE_DIVERGENCE') && !diverged) bad.push(`${h.request} id ${a.id} (${h.action}): SIDE_DIVERGENCE raised`);
    if (view === 'client+server' && diverged && !has(a, 'SIDE_DIVERGENCE')) bad.push(`${h.request} id ${a.id} (${h.action}): SIDE_DIVERGENCE missing`);
  }
  for (const a of attempts) if (!used.has(a)) bad.push(`an attempt the hop never saw: ${a.method} id ${a.id} ${a.outcome}`);

  // the logical calls of the drawn tool, by their arguments; the app's own attempts of each
  const callLabels = o.plan.slice(0, -1).map((p) => p.label);
  for (const label of callLabels) {
    const orderId = label.split(' ')[1];
    const hs = requests.filter((h) => h.request === `POST tools/call ${cell.tool}` && (h.orderId === undefined ? true : h.orderId === orderId || cell.tool === 'set_limit'));
    // set_limit's arguments name no order: its calls at once are told apart by the app's attempts in the hop's order
    const mine = (cell.tool === 'set_limit' && callLabels.length > 1 ? [] : hs).map((h) => ({ h, a: of.get(h) })).filter((x) => x.a);
    // (in the server's log, in the order they reached the server: a held request may come after its retry)
    if (view === 'server') mine.sort((x, y) => String(x.a.ts).localeCompare(String(y.a.ts)));
    if (!mine.length) continue;
    const appTries = o.app.filter((s) => s.call === label);
    const continuation = (x, i) => i > 0 && mine[i - 1].h.serverAnswered === 'input_required' && mine[i - 1].h.action === 'forward';
    // the server's log alone sees a re-sent call after an answer it sent whole as another call: it cannot know the
    // client never got it (README: a retry follows a failed attempt); only the app's tries after one that failed there
    // are its retries
    if (view === 'server') {
      const cut = mine.findIndex((x, i) => i > 0 && !continuation(x, i) && !FAILED_THERE(mine[i - 1].a));
      if (cut > 0) mine.splice(cut);
    }
    const tries = mine.filter((x, i) => !continuation(x, i));
    const triesAll = view === 'server' ? tries.length : appTries.length;
    if (tries.length !== triesAll) bad.push(`${label}: ${tries.length} attempts, the app made ${appTries.length}`);
    if (new Set(mine.map((x) => x.a.call)).size !== 1) bad.push(`${label}: its attempts are not one logical call: ${mine.map((x) => x.a.call).join(', ')}`);
    mine.forEach((x, i) => { if (x.a.attempt !== i + 1) bad.push(`${label} id ${x.a.id}: attempt ${x.a.attempt}, is ${i + 1} of the call`); });
    mine.forEach((x, i) => { if (continuation(x, i) && x.a.retryOrigin?.origin !== 'none') bad.push(`${label} continuation id ${x.a.id}: origin ${x.a.retryOrigin?.origin}`); });
    let prev;
    let k = 0;
    mine.forEach((x, i) => {
      if (continuation(x, i)) return;
      const { h, a } = x;
      const app = view === 'server' ? undefined : appTries[k];
      const cancelled = timedOut(app) && !(cell.era === 'modern' && /application\/json/.test(h.answer ?? '') && h.action !== 'delay');
      if (app && has(a, 'CANCELLED') !== cancelled) bad.push(`${label} id ${a.id}: CANCELLED ${cancelled ? 'missing (the app timed out)' : 'raised'}`);
      if (k > 0) {
        const noted = cell.notes && cell.client !== 'py' && (view === 'client+server' || view === 'client');
        const origin = noted ? 'app' : 'unknown';
        if (a.retryOrigin?.origin !== origin) bad.push(`${label} id ${a.id}: origin ${a.retryOrigin?.origin}, the judge says ${origin}`);
        if (has(a, 'RETRY_ORIGIN_AMBIGUOUS') === noted) bad.push(`${label} id ${a.id}: RETRY_ORIGIN_AMBIGUOUS ${noted ? 'raised though the app noted its retry' : 'missing'}`);
        const prevRan = !(prev.action in HOP_ANSWERED) && ok2(prev) && prev.serverAnswered !== 'input_required';
        const unsafe = cell.tool !== 'lookup' && prevRan;
        const u = a.findings.find((f) => f.code === 'UNSAFE_RETRY');
        if (unsafe && !u) bad.push(`${label} id ${a.id}: UNSAFE_RETRY missing (the attempt before ran ${cell.tool})`);
        if (!unsafe && u && (serverLog || u.severity !== 'warning')) bad.push(`${label} id ${a.id}: UNSAFE_RETRY raised (${u.severity}), the attempt before did not run ${cell.tool}`);
        if (!unsafe && u && prev.action === '500html' && !u.message.includes('is an HTML page')) bad.push(`${label} id ${a.id}: UNSAFE_RETRY after the hop's 500 page does not say it was an HTML page, no MCP server's answer`);
        const after429 = clientSide && prev.action === '429';
        if (has(a, 'RETRY_AFTER_IGNORED') !== after429) bad.push(`${label} id ${a.id}: RETRY_AFTER_IGNORED ${after429 ? 'missing' : 'raised'}`);
      } else {
        for (const c of ['RETRY_ORIGIN_AMBIGUOUS', 'UNSAFE_RETRY', 'RETRY_AFTER_IGNORED', 'RETRY_POLICY']) if (has(a, c)) bad.push(`${label} id ${a.id}: ${c} on a first attempt`);
      }
      prev = h;
      k++;
    });
  }
  // the follow-up lookup, where the app made it
  const follow = o.plan[o.plan.length - 1].label;
  const fh = requests.find((h) => h.request === 'POST tools/call lookup' && h.orderId === follow.split(' ')[1]);
  if (o.app.some((s) => s.call === follow) && fh) {
    const last = of.get(fh);
    const want = view === 'pylog' && /application\/json/.test(fh.answer ?? '') ? ['TOOL_SUCCESS', 'UNANSWERED'] : ['TOOL_SUCCESS'];
    if (!last || !want.includes(last.outcome) || last.findings.length || attempts.some((a) => a !== last && a.call === last.call)) bad.push(`the follow-up lookup: ${last?.outcome} [${last ? codes(last).join(',') : ''}]`);
  }
  // session findings
  const hop404 = o.hop.some((h) => h.action === '404');
  const gaveUp = !o.app.some((s) => s.call) && o.hop.some((h) => h.action !== 'forward');
  for (const f of r.findings) {
    if (f.code === 'SESSION_EXPIRED' && hop404 && f.message.includes('the server had not lost the session')) continue;
    if (f.code === 'CALL_NEVER_SENT' && gaveUp) continue;
    // the server's log alone: a cancellation that came after the answer it sent (the client never got it), and a request
    // the hop held until after the client's DELETE of its session, refused 404: both true of what it saw
    if (view === 'server' && f.code === 'CANCELLED' && o.app.some(timedOut) && f.message.includes('after the server had sent its answer')) continue;
    if (view === 'server' && f.code === 'SESSION_EXPIRED' && o.hop.some((h) => h.action === 'delay' && h.answer?.startsWith('404')) && f.message.includes('after a DELETE of this session')) continue;
    bad.push(`session finding ${f.code}: ${f.message.slice(0, 200)}`);
  }
  if (clientSide && hop404 && !r.findings.some((f) => f.code === 'SESSION_EXPIRED')) bad.push('SESSION_EXPIRED missing for the 404');
  if (clientSide && gaveUp && !r.findings.some((f) => f.code === 'CALL_NEVER_SENT')) bad.push('CALL_NEVER_SENT missing: the app gave up before any call');
  return bad;
}
