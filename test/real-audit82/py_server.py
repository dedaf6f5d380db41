# The Python server of test/real-audit82/record.mjs --server py: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn, streamable HTTP, an event store per session.
#   /work/py-venv/bin/python test/real-audit82/py_server.py PORT RETRY_MS   (RETRY_MS 0: no retry_interval)
# work(key, steps, ms): steps of ms, a progress notification after each; prints one JSON line per change of what the tool
# body did ({"key", "started"|"progressSent"|"returned", "at": epoch ms}) for the recorder's observed.json.
import json
import sys
import time

import anyio
import uvicorn

from mcp.server import streamable_http
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore


class MemoryEventStore(EventStore):
    """Every event of every stream, in order; ids `<stream id>.<n>` (n counts per store)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []
        self.n = 0

    async def store_event(self, stream_id, message):  # type: ignore[override]
        self.n += 1
        event_id = f"{stream_id}.{self.n}"
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):  # type: ignore[override]
        at = next((i for i, e in enumerate(self.events) if e[0] == last_event_id), None)
        if at is None:
            return None
        stream_id = self.events[at][1]
        for event_id, sid, message in self.events[at + 1 :]:
            if sid == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


def note(key: str, what: str, value: object = None) -> None:
    print(json.dumps({"key": key, "what": what, "value": value, "at": int(time.time() * 1000)}), flush=True)


def main(port: int, retry_ms: int) -> None:
    mcp = MCPServer("audit82-py", version="2.3.0")

    @mcp.tool(description="Steps with progress")
    async def work(key: str, steps: int, ms: int, ctx: Context) -> str:
        note(key, "started")
        for i in range(1, steps + 1):
            await anyio.sleep(ms / 1000)
            await ctx.report_progress(i, steps)
            note(key, "progressSent", i)
        note(key, "returned")
        return f"work {key} done"

    # One store per session (a stream's id is its request's JSON-RPC id, which sessions share).
    init = streamable_http.StreamableHTTPServerTransport.__init__

    def per_session(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if kwargs.get("event_store") is not None:
            kwargs["event_store"] = MemoryEventStore()
        init(self, *args, **kwargs)

    streamable_http.StreamableHTTPServerTransport.__init__ = per_session  # type: ignore[method-assign]
    app = mcp.streamable_http_app(event_store=MemoryEventStore(), retry_interval=retry_ms or None)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
