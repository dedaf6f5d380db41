// What a HAR document's producer (its log.creator.name) leaves out of the file, said per input ("cannot show").
// Facts from real captures (test/fixtures/real-mitmproxy: mitmproxy 8.1.1 and its contrib har_dump.py) and from the
// producers' source (mitmproxy's savehar.py).

const MITMPROXY_HAR_DUMP =
  "mitmproxy's har_dump.py writes a flow only when its response ended: a flow that got none (mitmproxy's own 502 when the upstream was down, a call the client gave up on, a stream still open when mitmdump stopped, the never-ending GET stream) is not in the file at all; a response it streamed has a null body (no body kept), and a flow whose request it streamed too (stream_large_bodies) makes it fail and is not written (a whole capture so is empty); a notifications/cancelled for a request the file never shows is such a flow";
const MITMPROXY_EXPORTHAR =
  "mitmproxy's exporter: a body it streamed and did not store is null (no body kept); its hardump option writes a flow when its response ends, so one that got none is missing (save.har writes it with status 0 and _error)";

const MCPSNOOP =
  "mcpsnoop's HAR export is not HTTP: an entry per JSON-RPC call (url mcp://<label>/<method>), with no JSON-RPC id (one is made from the entry's start), header, MCP session or HTTP status: 200 is a result, 500 an isError result or a JSON-RPC error, 0 no response, so an HTTP error without a JSON-RPC body (a 401, a lost session's 404, mcpsnoop's own 502 when the server is down) reads as no response, as a client's timeout does; its trace JSONL keeps them";

/** Notes on what the producer named by `creator` leaves out; none for a producer not known to leave anything out. */
export function harProducerNotes(creator: string | undefined): string[] {
  if (creator === 'mitmproxy har_dump') return [MITMPROXY_HAR_DUMP];
  if (creator === 'mitmproxy exporthar') return [MITMPROXY_EXPORTHAR];
  if (creator === 'mcpsnoop') return [MCPSNOOP];
  return [];
}
