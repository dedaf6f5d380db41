# The Python server of test/real-chaos-py/record.mjs (pyserver, modern and streams profiles) and record-stateless.mjs: the Python SDK's MCPServer (mcp 2.3.0) on
# uvicorn, stateful streamable HTTP (SSE responses, no event store), with the chaos audit's five annotated tools (10 to
# 400 ms; export_report sends progress). Each real run of a tool appends its call key to RAN_FILE.
#   /work/py-venv/bin/python test/real-chaos-py/py_server.py PORT RAN_FILE [streams|stateless|stateless-json|json]
# With `stateless`, `stateless-json` or `json` (record-stateless.mjs): stateless_http=True and/or json_response=True.
# With `streams` (record.mjs --profile streams): an in-memory event store (event ids `<stream id>.<n>`, a priming event
# on each stream) and retry_interval 250 ms, so the Python client resumes cut streams with Last-Event-ID.
import sys

import anyio
import uvicorn
from mcp_types import ToolAnnotations

from mcp.server.mcpserver import Context, MCPServer
from mcp.server import streamable_http
from mcp.server.streamable_http import EventMessage, EventStore

ANNOTATIONS = {
    "lookup": ToolAnnotations(read_only_hint=True),
    "set_flag": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
    "delete_item": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False),
    "send_email": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    "export_report": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
}


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


def main(port: int, ran_file: str, mode: str = "") -> None:
    streams = mode == "streams"
    def ran(key: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(key + "\n")

    mcp = MCPServer("chaos-py-server", version="2.3.0")

    def register(name: str) -> None:
        async def tool(key: str, ms: float, ctx: Context) -> str:
            if name == "export_report":
                for i in range(1, 4):
                    await anyio.sleep(ms / 3000)
                    await ctx.report_progress(i, 3)
            else:
                await anyio.sleep(ms / 1000)
            ran(key)
            return f"{name} {key} done"

        mcp.tool(name=name, annotations=ANNOTATIONS[name])(tool)

    for name in ANNOTATIONS:
        register(name)

    if streams:
        # The SDK hands one event store to every session's transport, and a stream's id is its request's JSON-RPC id,
        # which sessions share: each session gets its own store here, so a resumption replays its own session's events.
        init = streamable_http.StreamableHTTPServerTransport.__init__

        def per_session(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            if kwargs.get("event_store") is not None:
                kwargs["event_store"] = MemoryEventStore()
            init(self, *args, **kwargs)

        streamable_http.StreamableHTTPServerTransport.__init__ = per_session  # type: ignore[method-assign]
    if streams:
        app = mcp.streamable_http_app(event_store=MemoryEventStore(), retry_interval=250)
    else:
        app = mcp.streamable_http_app(stateless_http=mode.startswith("stateless"), json_response=mode.endswith("json"))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "")
