# The Python server of test/real-audit14-py/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn, streamable HTTP with an event store of its own per session that keeps every event or loses some (STORE), or stateless_http=True with that store passed.
#   /work/py-venv/bin/python test/real-audit14-py/py_server.py PORT RAN_FILE STORE RETRY_MS [stateless]
# slow_report(steps, stepMs): steps of stepMs, a progress notification after each (awaited). STORE: memory (every
# event, ids `<stream id>.<n>`), evicted (the session's newest 3 events only; an id it no longer holds replays nothing
# and gives no stream id), replay-raises (replay_events_after raises: its backend is gone), answer-dropped (a stream's
# events deleted once its response is stored). Each run of the tool appends to RAN_FILE.
import sys

import anyio
import uvicorn
from mcp_types import JSONRPCError, JSONRPCResponse

from mcp.server import streamable_http
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.streamable_http import EventMessage, EventStore


class MemoryEventStore(EventStore):
    """Every event of every stream, in order; ids `<stream id>.<n>` (n counts per stream)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, object]] = []  # (event id, stream id, message or None for priming)
        self.count: dict[str, int] = {}

    async def store_event(self, stream_id, message):  # type: ignore[override]
        n = self.count.get(stream_id, 0) + 1
        self.count[stream_id] = n
        event_id = f"{stream_id}.{n}"
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


class BoundedStore(MemoryEventStore):
    """The session's newest 3 events only."""

    async def store_event(self, stream_id, message):  # type: ignore[override]
        event_id = await super().store_event(stream_id, message)
        del self.events[:-3]
        return event_id


class RaisingStore(MemoryEventStore):
    """Its backend is gone when a resumption asks it to replay."""

    async def replay_events_after(self, last_event_id, send_callback):  # type: ignore[override]
        raise RuntimeError("event store unavailable")


class DropAnsweredStore(MemoryEventStore):
    """Forgets a stream's events once its response is stored (as if answered streams needed no replay)."""

    async def store_event(self, stream_id, message):  # type: ignore[override]
        event_id = await super().store_event(stream_id, message)
        if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id is not None:
            self.events = [e for e in self.events if e[1] != stream_id]
        return event_id


STORES = {"memory": MemoryEventStore, "evicted": BoundedStore, "replay-raises": RaisingStore, "answer-dropped": DropAnsweredStore}


def main(port: int, ran_file: str, store: str, retry_ms: int, stateless: bool) -> None:
    def ran(line: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    mcp = MCPServer("reports-py", version="2.3.0")

    @mcp.tool(description="A slow report with progress")
    async def slow_report(steps: int, stepMs: int, ctx: Context) -> str:  # noqa: N803 - the audit's argument names
        ran(f"slow_report {steps}x{stepMs}")
        try:
            for i in range(1, steps + 1):
                await anyio.sleep(stepMs / 1000)
                await ctx.report_progress(i, steps)
        except BaseException:
            ran("slow_report aborted")
            raise
        ran("slow_report done")
        return f"report of {steps} steps"

    # The SDK hands one event store to every session's transport, and a stream's id is its request's JSON-RPC id, which
    # sessions share: each session gets a store of its own here.
    init = streamable_http.StreamableHTTPServerTransport.__init__

    def per_session(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        if kwargs.get("event_store") is not None:
            kwargs["event_store"] = STORES[store]()
        init(self, *args, **kwargs)

    streamable_http.StreamableHTTPServerTransport.__init__ = per_session  # type: ignore[method-assign]
    app = mcp.streamable_http_app(event_store=STORES[store](), retry_interval=retry_ms, stateless_http=stateless)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), len(sys.argv) > 5 and sys.argv[5] == "stateless")
