# Records the real OpenTelemetry output of the Python MCP SDK (mcp 2.3.0) into test/fixtures/real-otlp/<scenario>/.
#
# Run with a venv that has the SDK and opentelemetry-sdk (not part of `npm test`; see test/fixtures/real-otlp/README.md):
#   /work/py-venv/bin/python test/real-otlp/record.py [scenario ...]
# Every scenario runs on 127.0.0.1. The Python server (a child process, `record.py serve MODE PORT OTLP_URL`) and the
# Python client (this process) each have an opentelemetry-sdk TracerProvider whose BatchSpanProcessor exports
# ExportTraceServiceRequest protobuf over HTTP to /v1/traces of a small receiver here, which writes what the
# Collector's file exporter writes: one OTLP JSON object per export request and line (traces.jsonl). The same traffic
# goes through `mcp-triage record` proxies (client.ndjson, server.ndjson), and observed.json says what each caller saw.
import asyncio
import base64
import gzip
import json
import shutil
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FIXTURES = REPO / "test" / "fixtures" / "real-otlp"
BIN = REPO / "dist" / "bin.cjs"
PEER = HERE / "peer.mjs"
NODE = shutil.which("node") or "node"

sys.path.insert(0, str(HERE.parent / "helpers"))
from recording import Observer, describe, free_port, start_record_proxy, stop, wait_port  # noqa: E402

sys.path.insert(0, str(HERE))
import semconv_shim  # noqa: E402

semconv_shim.install()


# ---------------------------------------------------------------- OpenTelemetry: the SDK side


def setup_otel(service: str, otlp_url: str):
    """A TracerProvider exporting to otlp_url as the OTLP/HTTP exporter does: protobuf POSTed to /v1/traces."""
    import urllib.request

    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult

    class ProtobufHttpExporter(SpanExporter):
        # opentelemetry-exporter-otlp-proto-http 1.45.0 needs two packages absent from the offline wheels; its
        # payload is encode_spans(spans).SerializeToString() with Content-Type application/x-protobuf, as here.
        def export(self, spans):
            body = encode_spans(spans).SerializeToString()
            req = urllib.request.Request(otlp_url + "/v1/traces", data=body, method="POST", headers={"Content-Type": "application/x-protobuf"})
            try:
                urllib.request.urlopen(req, timeout=5).read()
                return SpanExportResult.SUCCESS
            except OSError:
                return SpanExportResult.FAILURE

        def shutdown(self):
            pass

    provider = TracerProvider(resource=Resource.create({"service.name": service, "service.version": "2.3.0"}))
    # A short delay and small batches: several export requests per scenario, each holding the spans that had ended.
    provider.add_span_processor(BatchSpanProcessor(ProtobufHttpExporter(), schedule_delay_millis=150, max_export_batch_size=8))
    trace.set_tracer_provider(provider)
    return provider


# ---------------------------------------------------------------- OpenTelemetry: the Collector side

ID_KEYS = {"traceId", "spanId", "parentSpanId"}


def b64_ids_to_hex(v: Any) -> Any:
    """protobuf's JSON mapping writes bytes as base64; OTLP/JSON writes trace and span ids as hex."""
    if isinstance(v, dict):
        return {k: (base64.b64decode(x).hex() if k in ID_KEYS and isinstance(x, str) else b64_ids_to_hex(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [b64_ids_to_hex(x) for x in v]
    return v


def otlp_json(body: bytes, kind: str) -> dict:
    """An OTLP/HTTP protobuf request body as OTLP/JSON: lowerCamelCase keys, hex ids, int64 as strings, enums as integers."""
    from google.protobuf.json_format import MessageToDict

    if kind == "traces":
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest as Req
    else:
        from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceRequest as Req
    msg = Req()
    msg.ParseFromString(body)
    return b64_ids_to_hex(MessageToDict(msg, use_integers_for_enums=True))


class Receiver:
    """OTLP/HTTP receiver + file exporter: every export request becomes one line of the current scenario's file."""

    def __init__(self) -> None:
        self.out: Path | None = None
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                if self.headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                kind = "traces" if self.path == "/v1/traces" else "logs" if self.path == "/v1/logs" else None
                if kind is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                line = json.dumps(otlp_json(body, kind), separators=(",", ":"))
                with receiver.lock:
                    if receiver.out is not None:
                        with receiver.out.open("a") as f:
                            f.write(line + "\n")
                self.send_response(200)
                self.send_header("content-type", "application/x-protobuf")
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


# ---------------------------------------------------------------- the Python server (child process)


def serve(mode: str, port: int, otlp_url: str) -> None:
    """mode: stateful (MCPServer) | lowlevel (the low-level Server, whose handler exceptions become JSON-RPC errors)."""
    setup_otel("py-mcp-server", otlp_url)
    import anyio
    import uvicorn
    from pydantic import BaseModel

    if mode == "lowlevel":
        import mcp_types as types

        from mcp.server.lowlevel import Server
        from mcp.shared.exceptions import MCPError

        async def list_tools(ctx, params):
            schema = {"type": "object", "properties": {"order_id": {"type": "string"}}}
            return types.ListToolsResult(tools=[types.Tool(name=n, input_schema=schema) for n in ("lookup_order", "crash", "refuse")])

        async def call_tool(ctx, params):
            if params.name == "crash":
                raise RuntimeError("database connection lost")
            if params.name == "refuse":
                raise MCPError(code=-32002, message="order 1001 is locked")
            await anyio.sleep(0.02)
            return types.CallToolResult(content=[types.TextContent(type="text", text="order 1001: shipped")])

        app = Server("py-lowlevel-server", on_list_tools=list_tools, on_call_tool=call_tool).streamable_http_app()
        uvicorn.run(app, host="127.0.0.1", port=port, log_level="critical")
        return

    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    mcp = MCPServer("py-sdk-server", version="2.3.0")

    @mcp.tool()
    async def lookup_order(order_id: str) -> str:
        await anyio.sleep(0.02)
        return f"order {order_id}: shipped"

    @mcp.tool()
    def validate_quantity(quantity: int) -> str:
        if quantity <= 0:
            raise ToolError(f"quantity must be positive, got {quantity}")
        return "quantity ok"

    @mcp.tool()
    def crash() -> str:
        raise RuntimeError("database connection lost")

    @mcp.tool()
    async def slow_report(steps: int, step_ms: int, ctx: Context) -> str:
        for i in range(1, steps + 1):
            await anyio.sleep(step_ms / 1000)
            await ctx.report_progress(i, steps, f"step {i}")
        return f"report ready after {steps} steps"

    class Approval(BaseModel):
        approve: bool

    @mcp.tool()
    async def ask_user(ctx: Context) -> str:
        answer = await ctx.elicit("Approve the refund for order 1001?", Approval)
        return f"user answered {answer.action}"

    @mcp.resource("orders://1001")
    def order_1001() -> str:
        return '{"id": "1001", "status": "shipped"}'

    @mcp.prompt()
    def summarize_order(order_id: str) -> str:
        return f"Summarize order {order_id}."

    app = mcp.streamable_http_app(stateless_http=mode == "stateless")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="critical")


# ---------------------------------------------------------------- processes


class Topology:
    """The instrumented server, `mcp-triage record` in front of it (server side) and in front of the client (client side)."""

    def __init__(self, name: str, mode: str, receiver: Receiver, provider):
        self.name, self.mode, self.receiver, self.provider = name, mode, receiver, provider
        self.dir = FIXTURES / name
        self.procs: list[asyncio.subprocess.Process] = []

    async def __aenter__(self) -> "Topology":
        self.dir.mkdir(parents=True, exist_ok=True)
        for f in ("client.ndjson", "server.ndjson", "observed.json", "traces.jsonl"):
            (self.dir / f).unlink(missing_ok=True)
        self.receiver.out = self.dir / "traces.jsonl"
        port = free_port()
        self.server = await asyncio.create_subprocess_exec(sys.executable, __file__, "serve", self.mode, str(port), self.receiver.url)
        await wait_port(port)
        upstream = await self.proxy("server", f"http://127.0.0.1:{port}")
        self.url = (await self.proxy("client", upstream)) + "/mcp"
        return self

    async def proxy(self, side: str, target: str) -> str:
        p, url = await start_record_proxy(side, target, self.dir / f"{side}.ndjson")
        self.procs.append(p)
        return url

    async def __aexit__(self, *exc) -> None:
        await asyncio.sleep(0.3)
        self.provider.force_flush()
        await stop(self.server, seconds=8)  # uvicorn shuts down, the TracerProvider flushes at exit
        for p in reversed(self.procs):
            await stop(p, seconds=8)
        self.receiver.out = None


# ---------------------------------------------------------------- what a caller saw


def summarize(result: Any) -> Any:
    if result is None:
        return None
    if hasattr(result, "tools"):
        return {"tools": [t.name for t in result.tools]}
    if hasattr(result, "contents"):
        return {"contents": [getattr(c, "text", None) for c in result.contents]}
    if hasattr(result, "messages"):
        return {"messages": len(result.messages)}
    if hasattr(result, "content"):
        return {"text": " ".join(getattr(c, "text", "") for c in result.content), "isError": bool(result.is_error)}
    return str(result)[:200]


def py_client(url: str, mode: str = "legacy", **kw):
    from mcp import Client
    from mcp_types import Implementation

    return Client(url, mode=mode, client_info=Implementation(name="py-sdk-client", version="2.3.0"), **kw)


async def run(topo: Topology, body) -> None:
    o = Observer(summarize, message_chars=300)
    try:
        await body(o)
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err, 300)})
    (topo.dir / "observed.json").write_text(json.dumps(o.observed, indent=2) + "\n")


# ---------------------------------------------------------------- scenarios


async def on_elicit(context, params):
    from mcp_types import ElicitResult

    return ElicitResult(action="accept", content={"approve": True})


async def mcpserver_calls(o: Observer, c) -> None:
    async def on_progress(progress, total, message):
        pass

    await o.step("list_tools", c.list_tools())
    await o.step("lookup_order 1001", c.call_tool("lookup_order", {"order_id": "1001"}))
    await o.step("validate_quantity -3 (ToolError)", c.call_tool("validate_quantity", {"quantity": -3}))
    await o.step("crash (the tool raises RuntimeError)", c.call_tool("crash", {}))
    await o.step("no_such_tool", c.call_tool("no_such_tool", {}))
    await o.step("read_resource orders://1001", c.read_resource("orders://1001"))
    await o.step("read_resource config://missing", c.read_resource("config://missing"))
    await o.step("get_prompt summarize_order", c.get_prompt("summarize_order", {"order_id": "1001"}))
    await o.step("set_logging_level (no logging capability)", c.set_logging_level("info"))
    await o.step("slow_report 3 steps with progress", c.call_tool("slow_report", {"steps": 3, "step_ms": 30}, progress_callback=on_progress))
    await o.step("ask_user (elicitation/create, accepted)", c.call_tool("ask_user", {}))
    await o.step("slow_report times out at 0.3 s", c.call_tool("slow_report", {"steps": 10, "step_ms": 100}, read_timeout_seconds=0.3))
    await asyncio.sleep(1.2)
    # The caller cancels (its task is cancelled, not the SDK's timeout): CancelledError ends the client's span.
    await o.step("slow_report cancelled by the caller at 0.2 s", asyncio.wait_for(c.call_tool("slow_report", {"steps": 10, "step_ms": 100}), 0.2))
    await asyncio.sleep(1.2)
    await o.step("lookup_order after the timeout", c.call_tool("lookup_order", {"order_id": "1002"}))


def scenario_py(name: str, server_mode: str, client_mode: str):
    async def go(receiver, provider):
        async with Topology(name, server_mode, receiver, provider) as topo:

            async def body(o):
                async with py_client(topo.url, mode=client_mode, elicitation_callback=on_elicit) as c:
                    o.observed["notes"].append({"protocolVersion": c.protocol_version})
                    await mcpserver_calls(o, c)

            await run(topo, body)

    return go


async def py_lowlevel(receiver, provider, name="py-client-lowlevel-server"):
    async with Topology(name, "lowlevel", receiver, provider) as topo:

        async def body(o):
            async with py_client(topo.url) as c:
                await o.step("list_tools", c.list_tools())
                await o.step("lookup_order", c.call_tool("lookup_order", {"order_id": "1001"}))
                await o.step("crash (the handler raises RuntimeError)", c.call_tool("crash", {}))
                await o.step("refuse (the handler raises MCPError -32002)", c.call_tool("refuse", {}))
                await o.step("list_resources (no handler)", c.list_resources())

        await run(topo, body)


async def py_concurrent(receiver, provider, name="py-clients-concurrent"):
    """Three Python clients at once, each session inside an application span (one trace per session)."""
    from opentelemetry import trace

    tracer = trace.get_tracer("recorder-app")
    async with Topology(name, "stateful", receiver, provider) as topo:

        async def one(o, i):
            with tracer.start_as_current_span(f"agent task {i}"):
                async with py_client(topo.url) as c:
                    await asyncio.sleep(0.03 * i)
                    await o.step(f"client {i}: lookup_order 100{i}", c.call_tool("lookup_order", {"order_id": f"100{i}"}))
                    await o.step(f"client {i}: validate_quantity -{i}", c.call_tool("validate_quantity", {"quantity": -i}))
                    await o.step(f"client {i}: read_resource config://missing", c.read_resource("config://missing"))

        async def body(o):
            await asyncio.gather(*(one(o, i) for i in (1, 2, 3)))

        await run(topo, body)


async def ts_concurrent(receiver, provider, name="ts-clients-concurrent"):
    """Three TypeScript SDK clients at once (no OpenTelemetry in the client: server spans only, no trace context)."""
    async with Topology(name, "stateful", receiver, provider) as topo:
        p = await asyncio.create_subprocess_exec(NODE, str(PEER), "ts-clients", topo.url, "3", stdout=asyncio.subprocess.PIPE)
        line = await asyncio.wait_for(p.stdout.readline(), 60)
        await p.wait()
        (topo.dir / "observed.json").write_text(json.dumps(json.loads(line), indent=2) + "\n")


SCENARIOS = {
    "py-client-legacy": scenario_py("py-client-legacy", "stateful", "legacy"),
    "py-client-auto": scenario_py("py-client-auto", "stateful", "auto"),
    "py-client-lowlevel-server": py_lowlevel,
    "py-clients-concurrent": py_concurrent,
    "ts-clients-concurrent": ts_concurrent,
}


async def main(names: list[str]) -> None:
    if not BIN.exists():
        sys.exit("build first: npm run build")
    receiver = Receiver()
    provider = setup_otel("py-mcp-client", receiver.url)
    for name in names or list(SCENARIOS):
        t0 = time.monotonic()
        await asyncio.wait_for(SCENARIOS[name](receiver, provider), 90)
        print(f"recorded {name} ({round((time.monotonic() - t0) * 1000)} ms)", file=sys.stderr)
    provider.shutdown()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        asyncio.run(main(sys.argv[1:]))
