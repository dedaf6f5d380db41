# Records real traffic of the Python FastMCP framework (fastmcp 4.0.10) into test/fixtures/real-fastmcp-py/<scenario>/.
#
# Run with a venv that has fastmcp (not part of `npm test`; see test/fixtures/real-fastmcp-py/README.md):
#   /work/py-fastmcp/bin/python test/real-fastmcp-py/record.py [scenario ...]
# Every scenario runs on 127.0.0.1: client -> `mcp-triage record --side client` -> (fault hop) ->
# `mcp-triage record --side server` -> server. The FastMCP server runs as a child process of this script
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
FIXTURES = REPO / "test" / "fixtures" / "real-fastmcp-py"
PEER = HERE / "peer.mjs"
NODE = shutil.which("node") or "node"

sys.path.insert(0, str(HERE.parent / "helpers"))
from recording import Observer, describe, free_port, read_json_line, start_record_proxy, stop, wait_port, write_observed  # noqa: E402


# ---------------------------------------------------------------- the FastMCP server (child process)


def serve(mode: str, port: int) -> None:
    """A FastMCP server over Streamable HTTP.

    mode: stateful | stateless | json | masked (mask_error_details) | resumable (event store) | ratelimit
    (RateLimitingMiddleware, 1 request/s, burst 3) | audit (a middleware that fails after send_invoice ran) |
    auth (a bearer token checked by StaticTokenVerifier: only "good-token" passes) | sse (the HTTP+SSE transport)."""
    import anyio
    import uvicorn
    from mcp_types import ToolAnnotations
    from pydantic import BaseModel

    from fastmcp import Context, FastMCP
    from fastmcp.exceptions import ToolError

    read_only = ToolAnnotations(readOnlyHint=True)
    auth = None
    if mode == "auth":
        from fastmcp.server.auth.providers.jwt import StaticTokenVerifier

        auth = StaticTokenVerifier(tokens={"good-token": {"client_id": "recorder", "scopes": []}})
    mcp = FastMCP("fastmcp-server", version="4.0.10", mask_error_details=mode == "masked", auth=auth)
    if mode == "ratelimit":
        from fastmcp.server.middleware.rate_limiting import RateLimitingMiddleware

        mcp.add_middleware(RateLimitingMiddleware(max_requests_per_second=1, burst_capacity=3))
    if mode == "audit":
        from mcp import MCPError

        from fastmcp.server.middleware import Middleware

        class AuditLog(Middleware):
            """Fails send_invoice's first call after the tool ran: a JSON-RPC -32000 for work that was done."""

            failed = False

            async def on_call_tool(self, context, call_next):
                result = await call_next(context)
                if context.message.name == "send_invoice" and not AuditLog.failed:
                    AuditLog.failed = True
                    raise MCPError(code=-32000, message="audit log unavailable")
                return result

        mcp.add_middleware(AuditLog())

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

    @mcp.tool(annotations=read_only, timeout=0.3)
    async def bounded_report(seconds: float) -> str:
        """FastMCP's own tool timeout (300 ms)."""
        await anyio.sleep(seconds)
        return "bounded report ready"

    @mcp.tool(annotations=read_only)
    def blocking_report(seconds: float) -> str:
        """A sync tool: FastMCP runs it in a worker thread, which a cancellation cannot stop."""
        time.sleep(seconds)
        return "blocking report ready"

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

    @mcp.resource("orders://1001")
    def order_1001() -> str:
        return '{"id": "1001", "status": "shipped"}'

    event_store = None
    if mode == "resumable":
        from fastmcp.server.event_store import EventStore

        event_store = EventStore()

    if mode == "sse":  # the deprecated HTTP+SSE transport (2024-11-05): GET /sse, POST /messages/?session_id=...
        uvicorn.run(mcp.http_app(path="/sse", transport="sse"), host="127.0.0.1", port=port, log_level="warning")
        return
    app = mcp.http_app(
        path="/mcp",
        stateless_http=mode == "stateless",
        json_response=mode == "json",
        event_store=event_store,
        retry_interval=200 if event_store else None,
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "serve":
    serve(sys.argv[2], int(sys.argv[3]))
    sys.exit(0)


# ---------------------------------------------------------------- processes


class Topology:
    """Server, server-side recording proxy, optional fault hop, client-side recording proxy."""

    def __init__(self, name: str, server: str, hop: list | None = None):
        self.name, self.server, self.hop_rules = name, server, hop
        self.dir = FIXTURES / name
        self.procs: list[asyncio.subprocess.Process] = []

    async def start_server(self) -> None:
        kind, _, mode = self.server.partition(":")
        if kind == "fastmcp":
            self.server_proc = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "serve", mode, str(self.server_port), stderr=open(self.dir / "server.log.tmp", "ab")
            )
            await wait_port(self.server_port, 15)
        else:
            self.server_proc = await asyncio.create_subprocess_exec(
                NODE, str(PEER), "ts-server", *(["--event-store"] if mode == "event-store" else []), stdout=asyncio.subprocess.PIPE
            )
            self.server_url = (await read_json_line(self.server_proc))["url"]

    async def __aenter__(self) -> "Topology":
        self.dir.mkdir(parents=True, exist_ok=True)
        for f in ("client.ndjson", "server.ndjson", "observed.json", "server.log.tmp"):
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
        p, url = await start_record_proxy(side, target, self.dir / f"{side}.ndjson", stderr=asyncio.subprocess.DEVNULL)
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
        (self.dir / "server.log.tmp").unlink(missing_ok=True)


# ---------------------------------------------------------------- what a caller saw


def summarize(result: Any) -> Any:
    if result is None or isinstance(result, (bool, str, int, float)):
        return result
    if hasattr(result, "content") and hasattr(result, "is_error"):
        return {
            "text": " ".join(getattr(c, "text", "") for c in result.content),
            "isError": bool(result.is_error),
            **({"structuredContent": result.structured_content} if result.structured_content is not None else {}),
        }
    if isinstance(result, (list, tuple)):
        return [getattr(x, "name", None) or (getattr(x, "text", None) if hasattr(x, "text") else None) or str(getattr(x, "uri", None) or summarize(x)) for x in result]
    return str(result)[:200]


# ---------------------------------------------------------------- the FastMCP client


def fm_client(url: str, mode: str = "legacy", seen: dict | None = None, headers: dict | None = None, auth: str | None = None, **kw):
    from fastmcp import Client
    from fastmcp.client.transports import StreamableHttpTransport

    if seen is not None:

        async def on_log(msg):
            seen["logs"].append(msg.data)

        async def on_progress(progress, total, message):
            seen["progress"].append([progress, total, message])

        kw.setdefault("log_handler", on_log)
        kw.setdefault("progress_handler", on_progress)
    return Client(StreamableHttpTransport(url, headers=headers, auth=auth), mode=mode, **kw)


async def approve(message, response_type, params, context):
    return {"approve": True}


async def fm_calls(o: Observer, c) -> None:
    """The common sequence: list, success, ToolError, crash, unknown tool, bad arguments, FastMCP's tool timeout,
    progress + logs, structured output, resources."""
    await o.step("list_tools", c.list_tools())
    await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
    await o.step("validate_quantity -3 (ToolError)", c.call_tool("validate_quantity", {"quantity": -3}))
    await o.step("crash (unexpected exception)", c.call_tool("crash", {}))
    await o.step("no_such_tool", c.call_tool("no_such_tool", {}))
    await o.step("lookup_order wrong argument type", c.call_tool("lookup_order", {"order_id": 42}))
    await o.step("bounded_report 1 s (FastMCP tool timeout 300 ms)", c.call_tool("bounded_report", {"seconds": 1}))
    await o.step("slow_report 3 steps with progress and logs", c.call_tool("slow_report", {"steps": 3, "step_ms": 50}))
    await o.step("order_summary (structured model)", c.call_tool("order_summary", {"order_id": "1001"}))
    await o.step("list_resources", c.list_resources())
    await o.step("read_resource orders://1001", c.read_resource("orders://1001"))
    await o.step("read_resource config://missing", c.read_resource("config://missing"))


async def run_fm(body) -> dict:
    o = Observer(summarize)
    try:
        await body(o)
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


async def run_ts(topo: Topology, scenario: str) -> dict:
    p = await asyncio.create_subprocess_exec(NODE, str(PEER), "ts-client", scenario, topo.url, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
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

SCENARIOS: dict[str, Any] = {}


def scenario(fn):
    SCENARIOS[fn.__name__.replace("_", "-")] = fn
    return fn


def fm_scenario(name: str, server: str, hop: list | None = None):
    """A FastMCP Client scenario: body(o, topo, seen) runs the steps."""

    def wrap(body):
        async def run():
            async with Topology(name, server, hop) as topo:
                seen = {"logs": [], "progress": []}
                observed = await run_fm(lambda o: body(o, topo, seen))
            observed.update({k: v for k, v in seen.items() if v})
            write_observed(topo.dir, observed)

        SCENARIOS[name] = run
        return body

    return wrap


def ts_scenario(name: str, server: str, which: str, hop: list | None = None):
    async def run():
        async with Topology(name, server, hop) as topo:
            observed = await run_ts(topo, which)
        write_observed(topo.dir, observed)

    SCENARIOS[name] = run


# The TypeScript SDK 1.32.2 client against FastMCP servers
ts_scenario("ts-client-stateful", "fastmcp:stateful", "baseline")
ts_scenario("ts-client-masked", "fastmcp:masked", "baseline")
ts_scenario("ts-client-stateless", "fastmcp:stateless", "stateless")
ts_scenario("ts-client-json-response", "fastmcp:json", "stateless")
ts_scenario("ts-client-timeout-cancel", "fastmcp:stateful", "timeout-cancel")
ts_scenario("ts-client-restart-404", "fastmcp:stateful", "restart-404")
ts_scenario("ts-client-rate-limited", "fastmcp:ratelimit", "rate-limited")


@fm_scenario("fm-client-legacy", "fastmcp:stateful")
async def _(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen, elicitation_handler=approve) as c:
        await o.step("set_logging_level info", c.set_logging_level("info"))
        await fm_calls(o, c)
        await o.step("ask_user (elicitation, accepted)", c.call_tool("ask_user", {}))
        await asyncio.sleep(0.3)  # the GET stream is open by now


@fm_scenario("fm-client-auto", "fastmcp:stateful")
async def _(o, topo, seen):
    async with fm_client(topo.url, "auto", seen, elicitation_handler=approve) as c:
        o.observed["notes"].append({"protocolVersion": getattr(c, "protocol_version", None)})
        await fm_calls(o, c)
        await o.step("ask_user (elicitation, accepted)", c.call_tool("ask_user", {}))


@fm_scenario("fm-client-masked", "fastmcp:masked")
async def _(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen) as c:
        await o.step("crash (masked)", c.call_tool("crash", {}))
        await o.step("validate_quantity -3 (ToolError, not masked)", c.call_tool("validate_quantity", {"quantity": -3}))
        await o.step("bounded_report 1 s (tool timeout, masked)", c.call_tool("bounded_report", {"seconds": 1}))


@fm_scenario("fm-client-stateless", "fastmcp:stateless")
async def _(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen, elicitation_handler=approve) as c:
        await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
        await o.step("slow_report with progress", c.call_tool("slow_report", {"steps": 2, "step_ms": 30}))
        await o.step("ask_user (elicitation, no back channel)", c.call_tool("ask_user", {}))


@fm_scenario("fm-client-json-response", "fastmcp:json")
async def _(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen, elicitation_handler=approve) as c:
        await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
        await o.step("slow_report with progress (dropped in JSON mode)", c.call_tool("slow_report", {"steps": 2, "step_ms": 30}))
        await o.step("ask_user (elicitation, no back channel)", c.call_tool("ask_user", {}))


for _mode in ("legacy", "auto"):

    def _timeout(mode=_mode):
        async def body(o, topo, seen):
            async with fm_client(topo.url, mode, seen, timeout=0.3) as c:
                await o.step("slow_report times out at 300 ms (Client timeout)", c.call_tool("slow_report", {"steps": 10, "step_ms": 100}))
                await asyncio.sleep(1.2)
                await o.step("lookup_order after the timeout", c.call_tool("lookup_order", {"order_id": "1001"}))
                await o.step("slow_report, per-call timeout 0.2 s", c.call_tool("slow_report", {"steps": 3, "step_ms": 100}, timeout=0.2))
                await asyncio.sleep(0.6)

        return body

    fm_scenario(f"fm-client-timeout-{_mode}", "fastmcp:stateful")(_timeout())


def timeout_race(run: Path) -> str | None:
    """Which way the legacy Client timeout's race went in one run (see timeout_races)."""
    obs = json.loads((run / "observed.json").read_text())
    if any(s.get("error", {}).get("message") == "Connection closed" for s in obs["steps"]):
        return "client-died"
    recs = {side: [json.loads(l) for l in (run / f"{side}.ndjson").read_text().splitlines() if l] for side in ("client", "server")}

    def ack(side):
        return any(r["kind"] == "event" and '"id":2,"error":{"code":-32800' in (r.get("data") or "") for r in recs[side])

    if ack("server") and not ack("client"):
        return "answered-after-close"
    post = next(r for r in recs["client"] if r["kind"] == "request" and (r.get("send") or {}).get("id") == 2)
    end = next(r for r in recs["client"] if r["kind"] == "end" and r["xid"] == post["xid"])
    cancel = next((r for r in recs["client"] if (r.get("send") or {}).get("method") == "notifications/cancelled"), None)
    if end.get("end") == "aborted" and cancel is not None and end["ts"] < cancel["ts"]:
        return "close-first"
    return None


async def timeout_races() -> None:
    """The legacy Client timeout (Client(timeout=0.3)) is a race between the request timeout (notifications/cancelled)
    and the HTTP read timeout (closing the streams), run again until each outcome was seen once (20 runs at most):
    fm-client-timeout-legacy (the server's -32800 came after the client had closed the stream), ...-close-first (the
    close logged before the cancellation), ...-client-died (the cancellation's POST timed out too, and the transport
    died: later calls fail locally with "Connection closed")."""
    wanted = {"answered-after-close": "fm-client-timeout-legacy", "close-first": "fm-client-timeout-legacy-close-first", "client-died": "fm-client-timeout-legacy-client-died"}
    run = FIXTURES / "fm-client-timeout-legacy-run"
    for _ in range(20):
        if not wanted:
            break
        await SCENARIOS["fm-client-timeout-legacy-run"]()
        name = wanted.pop(timeout_race(run) or "", None)
        if name:
            shutil.rmtree(FIXTURES / name, ignore_errors=True)
            run.rename(FIXTURES / name)
    shutil.rmtree(run, ignore_errors=True)
    if wanted:
        print(f"not seen in 20 runs: {', '.join(wanted.values())}", file=sys.stderr)


fm_scenario("fm-client-timeout-legacy-run", "fastmcp:stateful")(_timeout("legacy"))
SCENARIOS["fm-client-timeout-legacy"] = timeout_races


@fm_scenario("fm-client-parallel", "fastmcp:stateful")
async def _(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen) as c:
        await o.step(
            "gather: lookup_order 1001, lookup_order 1002, slow_report, send_invoice 1001 twice",
            asyncio.gather(
                c.call_tool("lookup_order", {"order_id": "1001"}),
                c.call_tool("lookup_order", {"order_id": "1002"}),
                c.call_tool("slow_report", {"steps": 2, "step_ms": 40}),
                c.call_tool("send_invoice", {"order_id": "1001"}),
                c.call_tool("send_invoice", {"order_id": "1001"}),
            ),
        )


@fm_scenario("fm-client-restart-404", "fastmcp:stateful")
async def _(o, topo, seen):
    c = fm_client(topo.url, "legacy", seen)
    async with c:
        await o.step("lookup_order before the restart", c.call_tool("lookup_order", {"order_id": "1001"}))
        await topo.restart()
        ok, _r = await o.step("send_invoice after the restart", c.call_tool("send_invoice", {"order_id": "1001"}))
        o.observed["notes"].append({"connectedAfter404": c.is_connected()})
    if not ok:
        async with fm_client(topo.url, "legacy", seen) as c2:
            await o.step("send_invoice again with a new connection (app retry)", c2.call_tool("send_invoice", {"order_id": "1001"}))


@fm_scenario("fm-client-reconnect-same-client", "fastmcp:stateful")
async def _(o, topo, seen):
    """The same Client object entered again (FastMCP reconnects it): a new session, ids from 1 again."""
    c = fm_client(topo.url, "legacy", seen)
    async with c:
        await o.step("send_invoice 1001", c.call_tool("send_invoice", {"order_id": "1001"}))
    async with c:
        await o.step("lookup_order 1001 on the re-entered Client", c.call_tool("lookup_order", {"order_id": "1001"}))


def _rate_limited(mode: str):
    """Three lookups pass, send_invoice meets the rate limit (1 request/s, burst 3); the app retries it after 1.2 s."""
    async def body(o, topo, seen):
        async with fm_client(topo.url, mode, seen) as c:
            for i in range(1, 4):
                await o.step(f"lookup_order 100{i}", c.call_tool("lookup_order", {"order_id": f"100{i}"}))
            ok, _r = await o.step("send_invoice (rate limited)", c.call_tool("send_invoice", {"order_id": "1001"}))
            if not ok:
                await asyncio.sleep(1.2)
                await o.step("send_invoice again after 1.2 s (app retry)", c.call_tool("send_invoice", {"order_id": "1001"}))
    return body


fm_scenario("fm-client-rate-limited", "fastmcp:ratelimit")(_rate_limited("legacy"))


HTTP_ERRORS = [
    {"when": {"tool": "lookup_order", "n": 1}, "action": {"respond": 503, "headers": {"content-type": "text/plain", "retry-after": "1"}, "body": "upstream unavailable"}},
    {"when": {"tool": "send_invoice", "n": 1}, "action": {"respond": 429, "headers": {"content-type": "application/json", "retry-after": "1"}, "body": '{"error":"rate_limited"}'}},
]


async def http_errors_body(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen) as c:
        ok, _r = await o.step("lookup_order (503 from the hop)", c.call_tool("lookup_order", {"order_id": "1001"}))
        if not ok:
            await asyncio.sleep(1.1)
            await o.step("lookup_order again after Retry-After (app retry)", c.call_tool("lookup_order", {"order_id": "1001"}))
        ok, _r = await o.step("send_invoice (429 from the hop)", c.call_tool("send_invoice", {"order_id": "1001"}))
        if not ok:
            await asyncio.sleep(1.1)
            await o.step("send_invoice again after Retry-After (app retry)", c.call_tool("send_invoice", {"order_id": "1001"}))


fm_scenario("fm-client-http-errors", "fastmcp:stateful", HTTP_ERRORS)(http_errors_body)
fm_scenario("fm-client-ts-http-errors", "ts:plain", HTTP_ERRORS)(http_errors_body)


@fm_scenario("fm-client-ts-stateful", "ts:plain")
async def _(o, topo, seen):
    async with fm_client(topo.url, "auto", seen) as c:
        o.observed["notes"].append({"protocolVersion": getattr(c, "protocol_version", None)})
        await o.step("list_tools", c.list_tools())
        await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
        await o.step("no_such_tool", c.call_tool("no_such_tool", {}))
        await o.step("lookup_order wrong argument type", c.call_tool("lookup_order", {"order_id": 42}))
        await o.step("slow_report with progress", c.call_tool("slow_report", {"steps": 2, "step_ms": 30}))


CUT = [{"when": {"tool": "slow_report", "n": 1}, "action": {"cutAfterEvents": 1}}]


async def cut_body(o, topo, seen):
    async with fm_client(topo.url, "legacy", seen, timeout=5) as c:
        await o.step("slow_report, the stream cut after the first event", c.call_tool("slow_report", {"steps": 4, "step_ms": 150}))
        await o.step("lookup_order after the cut", c.call_tool("lookup_order", {"order_id": "1001"}))


# sse-starlette ends events with CRLF, which the hop's event counter does not split: FastMCP streams are cut by time
CUT_MS = [{"when": {"tool": "slow_report", "n": 1}, "action": {"cutAfterMs": 600}}]

fm_scenario("fm-client-ts-sse-cut-no-ids", "ts:plain", CUT)(cut_body)
fm_scenario("fm-client-ts-sse-cut-resumed", "ts:event-store", CUT)(cut_body)
fm_scenario("fm-client-sse-cut", "fastmcp:stateful", CUT_MS)(cut_body)
fm_scenario("fm-client-sse-cut-resumed", "fastmcp:resumable", CUT_MS)(cut_body)


fm_scenario("fm-client-auto-rate-limited", "fastmcp:ratelimit")(_rate_limited("auto"))


@fm_scenario("fm-client-error-after-tool", "fastmcp:audit")
async def _(o, topo, seen):
    """A middleware error (-32000) after the tool had run: the app retries a call whose work was done."""
    async with fm_client(topo.url, "legacy", seen) as c:
        ok, _r = await o.step("send_invoice (-32000 from a middleware after the tool ran)", c.call_tool("send_invoice", {"order_id": "1001"}))
        if not ok:
            await asyncio.sleep(1.2)
            await o.step("send_invoice again after 1.2 s (app retry)", c.call_tool("send_invoice", {"order_id": "1001"}))


for _mode in ("legacy", "auto"):

    def _auth(mode=_mode):
        async def body(o, topo, seen):
            async def connect_and_call():
                async with fm_client(topo.url, mode, seen, auth="wrong-token") as c:
                    return await c.call_tool("lookup_order", {"order_id": "1001"})

            await o.step("connect with a wrong bearer token, then lookup_order", connect_and_call())

        return body

    fm_scenario(f"fm-client-auth-refused-{_mode}", "fastmcp:auth")(_auth())


@fm_scenario("fm-client-foreign-origin", "fastmcp:stateful")
async def _(o, topo, seen):
    """A foreign Origin (as a page on another site would send): FastMCP 4.0.10 checks none by default (http_host_origin_protection=False)."""

    async def connect_and_call():
        async with fm_client(topo.url, "legacy", seen, headers={"Origin": "https://elsewhere.example"}) as c:
            return await c.call_tool("lookup_order", {"order_id": "1001"})

    await o.step("connect with Origin https://elsewhere.example, then lookup_order", connect_and_call())


@fm_scenario("fm-client-sse-transport", "fastmcp:sse")
async def _(o, topo, seen):
    """FastMCP's HTTP+SSE transport (2024-11-05) with the Client's SSETransport."""
    from fastmcp import Client
    from fastmcp.client.transports import SSETransport

    async with Client(SSETransport(topo.url.removesuffix("/mcp") + "/sse"), elicitation_handler=approve, progress_handler=None) as c:
        await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
        await o.step("validate_quantity -3 (ToolError)", c.call_tool("validate_quantity", {"quantity": -3}))
        await o.step("slow_report with progress", c.call_tool("slow_report", {"steps": 2, "step_ms": 50}))
        await o.step("ask_user (elicitation, accepted)", c.call_tool("ask_user", {}))


TWO_APPS = [{"when": {"tool": "send_invoice", "n": 1}, "action": {"respond": 503, "headers": {"content-type": "text/plain"}, "body": "upstream unavailable"}}]
for _mode in ("legacy", "auto"):

    def _two_apps(mode=_mode):
        async def body(o, topo, seen):
            """Two applications, each with its own FastMCP Client, call the same tool with the same arguments; the first
            call meets a 503. Nothing on the wire tells the two apart: both Clients call themselves "mcp" 0.1.0."""
            async with fm_client(topo.url, mode) as a:
                await o.step("app A: send_invoice 1001 (503 from the hop)", a.call_tool("send_invoice", {"order_id": "1001"}))
            await asyncio.sleep(0.5)
            async with fm_client(topo.url, mode) as b:
                await o.step("app B: send_invoice 1001", b.call_tool("send_invoice", {"order_id": "1001"}))

        return body

    fm_scenario(f"fm-client-two-apps-{_mode}", "fastmcp:stateful", TWO_APPS)(_two_apps())


@fm_scenario("fm-client-timeout-blocking", "fastmcp:stateful")
async def _(o, topo, seen):
    """A sync tool that a cancellation cannot stop: the server still sends its result after the client gave up."""
    async with fm_client(topo.url, "legacy", seen) as c:
        await o.step("blocking_report 0.6 s, per-call timeout 0.3 s", c.call_tool("blocking_report", {"seconds": 0.6}, timeout=0.3))
        await asyncio.sleep(0.8)
        await o.step("lookup_order after the timeout", c.call_tool("lookup_order", {"order_id": "1001"}))
    async with fm_client(topo.url, "legacy", seen, timeout=0.3) as c:
        await o.step("blocking_report 0.6 s, Client timeout 0.3 s", c.call_tool("blocking_report", {"seconds": 0.6}))
        await asyncio.sleep(0.8)


async def main(names: list[str]) -> None:
    for name in names or [n for n in SCENARIOS if not n.endswith("-run")]:
        if name not in SCENARIOS:
            raise SystemExit(f"unknown scenario {name}; known: {', '.join(SCENARIOS)}")
        print(f"recording {name}", file=sys.stderr)
        await SCENARIOS[name]()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
