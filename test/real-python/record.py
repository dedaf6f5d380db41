# Records real traffic of the official Python MCP SDK (mcp 2.3.0) into test/fixtures/real-python/<scenario>/.
#
# Run with a venv that has the SDK (not part of `npm test`; see test/fixtures/real-python/README.md):
#   /work/py-venv/bin/python test/real-python/record.py [scenario ...]
# Every scenario runs on 127.0.0.1: client -> `mcp-triage record --side client` -> (fault hop) ->
# `mcp-triage record --side server` -> server. The Python server runs as a child process of this script
# (`record.py serve MODE PORT`), so a restart is a real process restart on the same port.
import asyncio
import json
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "test" / "fixtures" / "real-python"
BIN = REPO / "dist" / "bin.cjs"
PEER = HERE / "peer.mjs"
NODE = shutil.which("node") or "node"

sys.path.insert(0, str(HERE.parent / "helpers"))
from recording import Observer, describe, free_port, read_json_line, start_record_proxy, stop, wait_port, write_observed  # noqa: E402


# ---------------------------------------------------------------- the Python server (child process)


def serve(mode: str, port: int) -> None:
    """An MCPServer over Streamable HTTP. mode: stateful | stateless | json | resumable (stateful + event store) | one-session."""
    import anyio
    import uvicorn
    from mcp_types import ToolAnnotations
    from pydantic import BaseModel

    from typing import Annotated

    from mcp.server.mcpserver import Context, MCPServer, Resolve
    from mcp.server.mcpserver.resolve import Elicit
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.server.streamable_http import EventStore

    read_only = ToolAnnotations(read_only_hint=True)
    mcp = MCPServer("py-sdk-server", version="2.3.0")

    @mcp.tool(annotations=read_only)
    async def lookup_order(order_id: str) -> str:
        await anyio.sleep(0.02)
        return f"order {order_id}: shipped"

    @mcp.tool()
    async def send_invoice(order_id: str) -> str:
        await anyio.sleep(0.02)
        return f"invoice for order {order_id} sent"

    @mcp.tool(annotations=read_only)
    def validate_quantity(quantity: int) -> str:
        if quantity <= 0:
            raise ToolError(f"quantity must be positive, got {quantity}")
        return "quantity ok"

    @mcp.tool()
    def crash() -> str:
        raise RuntimeError("database connection lost")

    @mcp.tool(annotations=read_only)
    async def slow_report(steps: int, step_ms: int, ctx: Context) -> str:
        for i in range(1, steps + 1):
            await anyio.sleep(step_ms / 1000)
            await ctx.report_progress(i, steps, f"step {i}")
            await ctx.info(f"report step {i} of {steps} done")
        return f"report ready after {steps} steps"

    @mcp.tool(annotations=read_only)
    def count_items() -> int:
        return 3

    class OrderSummary(BaseModel):
        order_id: str
        total: float
        items: int

    @mcp.tool(annotations=read_only)
    def order_summary(order_id: str) -> OrderSummary:
        return OrderSummary(order_id=order_id, total=12.5, items=2)

    class Approval(BaseModel):
        approve: bool

    @mcp.tool()
    async def ask_user(ctx: Context) -> str:
        answer = await ctx.elicit("Approve the refund for order 1001?", Approval)
        return f"user answered {answer.action}: {getattr(answer, 'data', None)}"

    def ask_approval(order_id: str) -> Elicit[Approval]:
        return Elicit(f"Refund order {order_id}?", Approval)

    @mcp.tool()
    async def approve_refund(order_id: str, approval: Annotated[Approval, Resolve(ask_approval)]) -> str:
        # The resolver asks: elicitation/create mid-call on 2025-11-25, an input_required result on 2026-07-28.
        return f"refund for order {order_id}: {'approved' if approval.approve else 'refused'}"

    @mcp.tool(annotations=read_only)
    async def resumable_report(ctx: Context) -> str:
        await ctx.report_progress(1, 2, "half way")
        await ctx.close_sse_stream()  # the client reconnects with Last-Event-ID
        await anyio.sleep(0.4)
        await ctx.report_progress(2, 2, "done")
        return "report ready after a reconnect"

    @mcp.tool(annotations=read_only)
    async def poke_client(ctx: Context) -> str:
        await ctx.session.send_tool_list_changed()  # no related request: it goes on the GET stream
        await anyio.sleep(0.1)
        await ctx.close_standalone_sse_stream()  # the client reconnects it
        return "poked"

    @mcp.tool()
    async def change_tools(ctx: Context) -> str:
        await ctx.notify_tools_changed()  # to subscriptions/listen streams (2026-07-28)
        return "tools changed"

    @mcp.resource("orders://1001")
    def order_1001() -> str:
        return '{"id": "1001", "status": "shipped"}'

    class MemoryEventStore(EventStore):
        def __init__(self) -> None:
            self.events: list[tuple[str, str, Any]] = []

        async def store_event(self, stream_id, message):
            event_id = f"{stream_id}-{len(self.events) + 1}"
            self.events.append((event_id, stream_id, message))
            return event_id

        async def replay_events_after(self, last_event_id, send_callback):
            from mcp.server.streamable_http import EventMessage

            index = next((i for i, e in enumerate(self.events) if e[0] == last_event_id), None)
            if index is None:
                return None
            stream_id = self.events[index][1]
            for event_id, sid, message in self.events[index + 1 :]:
                if sid == stream_id and message is not None:
                    await send_callback(EventMessage(message, event_id))
            return stream_id

    app = mcp.streamable_http_app(
        stateless_http=mode == "stateless",
        json_response=mode == "json",
        event_store=MemoryEventStore() if mode == "resumable" else None,
        retry_interval=200 if mode == "resumable" else None,
        max_sessions=1 if mode == "one-session" else 10_000,
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


# ---------------------------------------------------------------- processes


class Topology:
    """Server, server-side recording proxy, optional fault hop, client-side recording proxy."""

    def __init__(self, name: str, server: str, hop: list | None = None):
        self.name, self.server, self.hop_rules = name, server, hop
        self.dir = FIXTURES / name
        self.procs: list[asyncio.subprocess.Process] = []

    async def start_server(self) -> None:
        kind, _, mode = self.server.partition(":")
        if kind == "py":
            self.server_proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "serve", mode, str(self.server_port))
            await wait_port(self.server_port)
        else:
            self.server_proc = await asyncio.create_subprocess_exec(
                NODE, str(PEER), "ts-server", *(["--event-store"] if mode == "event-store" else []), stdout=asyncio.subprocess.PIPE
            )
            self.server_url = (await read_json_line(self.server_proc))["url"]

    async def __aenter__(self) -> "Topology":
        self.dir.mkdir(parents=True, exist_ok=True)
        for f in ("client.ndjson", "server.ndjson", "observed.json"):
            (self.dir / f).unlink(missing_ok=True)
        self.server_port = free_port()
        self.server_url = f"http://127.0.0.1:{self.server_port}"
        await self.start_server()
        upstream = await self.proxy("server", self.server_url)
        if self.hop_rules is not None:
            hop = await asyncio.create_subprocess_exec(NODE, str(PEER), "hop", upstream, json.dumps(self.hop_rules), stdout=asyncio.subprocess.PIPE)
            self.procs.append(hop)
            upstream = (await read_json_line(hop))["url"]
        self.url = (await self.proxy("client", upstream)) + "/mcp"
        return self

    async def proxy(self, side: str, target: str) -> str:
        p, url = await start_record_proxy(side, target, self.dir / f"{side}.ndjson")
        self.procs.append(p)
        return url

    async def restart(self) -> None:
        """A crash and restart: the server process is killed and started again on the same port (its sessions are gone)."""
        await stop(self.server_proc, signal.SIGKILL)
        await self.start_server()

    async def __aexit__(self, *exc) -> None:
        await asyncio.sleep(0.3)
        for p in reversed(self.procs):
            await stop(p)
        await stop(self.server_proc)


# ---------------------------------------------------------------- what a caller saw


def summarize(result: Any) -> Any:
    if result is None:
        return None
    if hasattr(result, "tools"):
        return {"tools": [t.name for t in result.tools]}
    if hasattr(result, "resources"):
        return {"resources": [str(r.uri) for r in result.resources]}
    if hasattr(result, "contents"):
        return {"contents": [getattr(c, "text", None) for c in result.contents]}
    if hasattr(result, "content"):
        return {
            "text": " ".join(getattr(c, "text", "") for c in result.content),
            "isError": bool(result.is_error),
            **({"structuredContent": result.structured_content} if result.structured_content is not None else {}),
        }
    return str(result)[:200]


# ---------------------------------------------------------------- the Python client

def py_client(url: str, mode: str = "legacy", **kw):
    from mcp import Client
    from mcp_types import Implementation

    return Client(url, mode=mode, client_info=Implementation(name="py-sdk-client", version="2.3.0"), **kw)


async def py_calls(o: Observer, c, seen: dict) -> None:
    """The common sequence: list, success, ToolError, crash, unknown tool, bad arguments, resources, progress + logs, structured output."""
    async def on_progress(progress, total, message):
        seen["progress"].append([progress, total, message])

    await o.step("list_tools", c.list_tools())
    await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
    await o.step("validate_quantity -3 (ToolError)", c.call_tool("validate_quantity", {"quantity": -3}))
    await o.step("crash (unexpected exception)", c.call_tool("crash", {}))
    await o.step("no_such_tool", c.call_tool("no_such_tool", {}))
    await o.step("lookup_order wrong argument type", c.call_tool("lookup_order", {"order_id": 42}))
    await o.step("list_resources", c.list_resources())
    await o.step("read_resource orders://1001", c.read_resource("orders://1001"))
    await o.step("read_resource config://missing", c.read_resource("config://missing"))
    await o.step("slow_report 3 steps with progress and logs", c.call_tool("slow_report", {"steps": 3, "step_ms": 50}, progress_callback=on_progress))
    await o.step("count_items (structured int)", c.call_tool("count_items", {}))
    await o.step("order_summary (structured model)", c.call_tool("order_summary", {"order_id": "1001"}))


def seen_logs():
    seen = {"logs": [], "progress": []}

    async def on_log(params):
        seen["logs"].append(params.data)

    return seen, on_log


async def run_py(topo: Topology, body) -> dict:
    o = Observer(summarize)
    try:
        await body(o)
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


# ---------------------------------------------------------------- the TypeScript clients (Node peer)


async def run_ts(topo: Topology, which: str, scenario: str) -> dict:
    p = await asyncio.create_subprocess_exec(
        NODE, str(PEER), which, scenario, topo.url, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
    )
    while True:
        msg = await asyncio.wait_for(read_json_line(p), 60)
        if msg.get("restart"):
            await topo.restart()
            p.stdin.write(b"restarted\n")
            await p.stdin.drain()
            continue
        await p.wait()
        return msg


# ---------------------------------------------------------------- scenarios


async def ts_on_py(name: str, mode: str, scenario: str, which: str = "ts-client", hop: list | None = None) -> dict:
    async with Topology(name, f"py:{mode}", hop) as topo:
        observed = await run_ts(topo, which, scenario)
    write_observed(topo.dir, observed)
    return observed


async def py_on_py_legacy(name="py-client-legacy"):
    async with Topology(name, "py:stateful") as topo:
        seen, on_log = seen_logs()

        async def body(o):
            async with py_client(topo.url, logging_callback=on_log) as c:
                await o.step("set_logging_level info", c.set_logging_level("info"))
                await py_calls(o, c, seen)
                await asyncio.sleep(0.3)  # the GET stream is open by now

        observed = await run_py(topo, body)
    observed.update(seen)
    write_observed(topo.dir, observed)


async def py_on_py_auto(name="py-client-auto"):
    async with Topology(name, "py:stateful") as topo:
        seen, on_log = seen_logs()

        async def body(o):
            async with py_client(topo.url, mode="auto", logging_callback=on_log, log_level="info") as c:
                o.observed["notes"].append({"protocolVersion": c.protocol_version})
                await py_calls(o, c, seen)

        observed = await run_py(topo, body)
    observed.update(seen)
    write_observed(topo.dir, observed)


async def py_timeout(name: str, mode: str, progress: bool = False):
    async with Topology(name, "py:stateful") as topo:

        async def on_progress(progress, total, message):
            pass

        async def body(o):
            async with py_client(topo.url, mode=mode) as c:
                # With a progress callback the request carries a progressToken: on 2026-07-28 the first progress
                # notification commits the response to an SSE stream before the timeout closes it.
                extra = {"progress_callback": on_progress} if progress else {}
                await o.step("slow_report times out at 0.3 s", c.call_tool("slow_report", {"steps": 10, "step_ms": 100}, read_timeout_seconds=0.3, **extra))
                await asyncio.sleep(1.2)
                await o.step("lookup_order after the timeout", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_restart(name="py-client-restart-404"):
    async with Topology(name, "py:stateful") as topo:

        async def body(o):
            async with py_client(topo.url) as c:
                await o.step("lookup_order before the restart", c.call_tool("lookup_order", {"order_id": "1001"}))
                await topo.restart()
                ok, _ = await o.step("send_invoice after the restart", c.call_tool("send_invoice", {"order_id": "1001"}))
                await asyncio.sleep(2.5)  # what the client does on its own (the GET stream) after the 404
            if not ok:
                async with py_client(topo.url) as c2:
                    await o.step("send_invoice again with a new Client (app retry)", c2.call_tool("send_invoice", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_resume(name="py-client-resumed"):
    async with Topology(name, "py:resumable") as topo:
        seen, _ = seen_logs()

        async def body(o):
            async def on_progress(progress, total, message):
                seen["progress"].append([progress, total, message])

            async with py_client(topo.url) as c:
                await o.step("resumable_report (server closes the POST stream)", c.call_tool("resumable_report", {}, progress_callback=on_progress))

        observed = await run_py(topo, body)
    observed["progress"] = seen["progress"]
    write_observed(topo.dir, observed)


async def py_get_stream(name="py-client-get-stream-resumed"):
    async with Topology(name, "py:resumable") as topo:

        async def body(o):
            async with py_client(topo.url) as c:
                await o.step("poke_client (a notification on the GET stream, then the server closes it)", c.call_tool("poke_client", {}))
                await asyncio.sleep(2.5)
                await o.step("lookup_order afterwards", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_max_sessions(name="py-client-max-sessions-503"):
    async with Topology(name, "py:one-session") as topo:

        async def body(o):
            a = py_client(topo.url)
            await o.step("client A connects", a.__aenter__())
            await o.step("client B connects while A holds the only session", py_client(topo.url).__aenter__())
            await o.step("client A closes", a.__aexit__(None, None, None))
            async with py_client(topo.url) as b:
                await o.step("client B again (app retry), then lookup_order", b.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_auto_on_ts(name="py-client-auto-ts-server"):
    async with Topology(name, "ts") as topo:

        async def body(o):
            async with py_client(topo.url, mode="auto") as c:
                o.observed["notes"].append({"protocolVersion": c.protocol_version})
                await o.step("lookup_order", c.call_tool("lookup_order", {"orderId": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_auto_dropped(name="py-client-auto-response-dropped"):
    hop = [
        {"when": {"rpcMethod": "tools/call", "tool": "send_invoice", "n": 1}, "action": {"dropResponse": True}},
        {"when": {"rpcMethod": "tools/call", "tool": "lookup_order", "n": 1}, "action": {"respond": 502, "headers": {"content-type": "text/html"}, "body": "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>"}},
    ]
    async with Topology(name, "py:stateful", hop) as topo:

        async def first(o):
            async with py_client(topo.url, mode="auto") as c:
                await o.step("send_invoice (the hop drops the connection after the server answered)", c.call_tool("send_invoice", {"order_id": "1001"}))

        async def body(o):
            # A dropped connection fails the whole Client (its task group): the app needs a new one to retry.
            try:
                await first(o)
            except BaseException as err:  # noqa: BLE001
                o.observed["notes"].append({"the first Client failed": describe(err)})
            await asyncio.sleep(0.3)
            async with py_client(topo.url, mode="auto") as c:
                await o.step("send_invoice again with a new Client (app retry)", c.call_tool("send_invoice", {"order_id": "1001"}))
                await o.step("lookup_order (hop: 502)", c.call_tool("lookup_order", {"order_id": "1001"}))
                await asyncio.sleep(0.3)
                await o.step("lookup_order again (app retry)", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_elicitation(name: str, mode: str):
    async with Topology(name, "py:stateful") as topo:
        asked = []

        async def on_elicit(context, params):
            from mcp_types import ElicitResult

            asked.append(params.message)
            return ElicitResult(action="accept", content={"approve": True})

        async def body(o):
            async with py_client(topo.url, mode=mode, elicitation_callback=on_elicit) as c:
                await o.step("ask_user, accepted", c.call_tool("ask_user", {}))
                await o.step("ask_user again, accepted", c.call_tool("ask_user", {}))
                await o.step("approve_refund (a resolver asks), accepted", c.call_tool("approve_refund", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    observed["elicitations"] = asked
    write_observed(topo.dir, observed)


async def py_listen(name="py-client-auto-listen"):
    async with Topology(name, "py:stateful") as topo:

        async def body(o):
            async with py_client(topo.url, mode="auto") as c:
                async with c.listen(tools_list_changed=True) as sub:
                    o.observed["notes"].append({"listen honored": str(sub.honored)[:200]})
                    await o.step("change_tools (the server publishes tools/list_changed)", c.call_tool("change_tools", {}))

                    async def first_event():
                        async for event in sub:
                            return event

                    await o.step("the listen stream's first event", asyncio.wait_for(first_event(), 5))
                # leaving the block closes the listen stream
                await asyncio.sleep(0.2)
                await o.step("lookup_order after the listen stream closed", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_header_mismatch(name="py-client-auto-header-mismatch"):
    # A hop that rewrites the Mcp-Name header of the first lookup_order call: the server refuses it (HeaderMismatch).
    hop = [{"when": {"rpcMethod": "tools/call", "tool": "lookup_order", "n": 1}, "action": {"setRequestHeaders": {"mcp-name": "send_invoice"}}}]
    async with Topology(name, "py:stateful", hop) as topo:

        async def body(o):
            async with py_client(topo.url, mode="auto") as c:
                await o.step("lookup_order (its Mcp-Name header rewritten on the way)", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_on_ts(name: str, server: str, hop: list | None, body_fn):
    async with Topology(name, server, hop) as topo:
        observed = await run_py(topo, lambda o: body_fn(o, topo))
    write_observed(topo.dir, observed)


async def ts_http_errors(o: Observer, topo: Topology):
    async with py_client(topo.url) as c:
        ok, _ = await o.step("lookup_order (hop: 503)", c.call_tool("lookup_order", {"orderId": "1001"}))
        await asyncio.sleep(0.5)
        await o.step("lookup_order again (app retry after 0.5 s)", c.call_tool("lookup_order", {"orderId": "1001"}))
        await o.step("send_invoice (hop: 429 Retry-After: 1)", c.call_tool("send_invoice", {"orderId": "1001"}))
        await o.step("send_invoice again at once (app retry)", c.call_tool("send_invoice", {"orderId": "1001"}))


async def ts_forgets_session(o: Observer, topo: Topology):
    import urllib.request

    async with py_client(topo.url) as c:
        await o.step("lookup_order", c.call_tool("lookup_order", {"orderId": "1001"}))
        await asyncio.to_thread(urllib.request.urlopen, urllib.request.Request(topo.server_url + "/control/forget", method="POST"))
        await o.step("send_invoice after the server forgot the session", c.call_tool("send_invoice", {"orderId": "1001"}))
        await asyncio.sleep(2.5)
    async with py_client(topo.url) as c2:
        await o.step("send_invoice again with a new Client (app retry)", c2.call_tool("send_invoice", {"orderId": "1001"}))


async def ts_sse_cut(o: Observer, topo: Topology):
    seen = []

    async def on_progress(progress, total, message):
        seen.append(progress)

    async with py_client(topo.url) as c:
        await o.step("slow_report, its stream cut after 2 events", c.call_tool("slow_report", {"steps": 4, "stepMs": 100}, progress_callback=on_progress, read_timeout_seconds=5))
        await o.step("lookup_order afterwards", c.call_tool("lookup_order", {"orderId": "1001"}))
    o.observed["progress"] = seen


SCENARIOS = {
    # TypeScript SDK 1.32.2 client -> Python server
    "ts-client-stateful": lambda: ts_on_py("ts-client-stateful", "stateful", "baseline"),
    "ts-client-timeout-cancel": lambda: ts_on_py("ts-client-timeout-cancel", "stateful", "timeout-cancel"),
    "ts-client-stateless": lambda: ts_on_py("ts-client-stateless", "stateless", "stateless"),
    "ts-client-json-response": lambda: ts_on_py("ts-client-json-response", "json", "json-response"),
    "ts-client-elicitation": lambda: ts_on_py("ts-client-elicitation", "stateful", "elicitation"),
    "ts-client-restart-404": lambda: ts_on_py("ts-client-restart-404", "stateful", "restart-404"),
    "ts-client-origin-rejected": lambda: ts_on_py(
        "ts-client-origin-rejected", "stateful", "origin-rejected", hop=[{"when": {"method": "POST"}, "action": {"setRequestHeaders": {"origin": "http://app.example.com"}}}]
    ),
    # TypeScript v2 client (versionNegotiation auto) -> Python server
    "v2-client-auto": lambda: ts_on_py("v2-client-auto", "stateful", "baseline", "v2-client"),
    # Python client -> Python server
    "py-client-legacy": py_on_py_legacy,
    "py-client-auto": py_on_py_auto,
    "py-client-timeout-legacy": lambda: py_timeout("py-client-timeout-legacy", "legacy"),
    "py-client-timeout-auto": lambda: py_timeout("py-client-timeout-auto", "auto"),
    "py-client-timeout-auto-progress": lambda: py_timeout("py-client-timeout-auto-progress", "auto", progress=True),
    "py-client-restart-404": py_restart,
    "py-client-resumed": py_resume,
    "py-client-get-stream-resumed": py_get_stream,
    "py-client-elicitation-legacy": lambda: py_elicitation("py-client-elicitation-legacy", "legacy"),
    "py-client-elicitation-auto": lambda: py_elicitation("py-client-elicitation-auto", "auto"),
    "py-client-auto-response-dropped": py_auto_dropped,
    "py-client-auto-listen": py_listen,
    "py-client-auto-header-mismatch": py_header_mismatch,
    "py-client-max-sessions-503": py_max_sessions,
    # Python client -> TypeScript SDK 1.32.2 server, through the fault hop
    "py-client-ts-http-errors": lambda: py_on_ts(
        "py-client-ts-http-errors",
        "ts",
        [
            {"when": {"rpcMethod": "tools/call", "tool": "lookup_order", "n": 1}, "action": {"respond": 503, "headers": {"content-type": "text/plain"}, "body": "upstream unavailable"}},
            {"when": {"rpcMethod": "tools/call", "tool": "send_invoice", "n": 1}, "action": {"respond": 429, "headers": {"content-type": "application/json", "retry-after": "1"}, "body": json.dumps({"jsonrpc": "2.0", "error": {"code": -32000, "message": "rate limited"}, "id": None})}},
        ],
        ts_http_errors,
    ),
    "py-client-ts-session-lost": lambda: py_on_ts("py-client-ts-session-lost", "ts", None, ts_forgets_session),
    "py-client-ts-sse-cut-resumed": lambda: py_on_ts(
        "py-client-ts-sse-cut-resumed", "ts:event-store", [{"when": {"rpcMethod": "tools/call", "tool": "slow_report", "n": 1}, "action": {"cutAfterEvents": 2}}], ts_sse_cut
    ),
    "py-client-auto-ts-server": py_auto_on_ts,
    "py-client-ts-resume-refused": lambda: py_on_ts(
        "py-client-ts-resume-refused",
        "ts:event-store",
        [
            {"when": {"rpcMethod": "tools/call", "tool": "slow_report", "n": 1}, "action": {"cutAfterEvents": 2}},
            {"when": {"method": "GET", "resume": True}, "action": {"respond": 503, "headers": {"content-type": "text/plain"}, "body": "resume unavailable"}},
        ],
        ts_sse_cut,
    ),
    "py-client-ts-sse-cut-no-ids": lambda: py_on_ts(
        "py-client-ts-sse-cut-no-ids", "ts", [{"when": {"rpcMethod": "tools/call", "tool": "slow_report", "n": 1}, "action": {"cutAfterEvents": 1}}], ts_sse_cut
    ),
}


async def main(names: list[str]) -> None:
    if not BIN.exists():
        sys.exit("build first: npm run build")
    for name in names or list(SCENARIOS):
        t0 = time.monotonic()
        await asyncio.wait_for(SCENARIOS[name](), 90)
        print(f"recorded {name} ({round((time.monotonic() - t0) * 1000)} ms)", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        asyncio.run(main(sys.argv[1:]))
