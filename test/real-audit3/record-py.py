# Third audit round: the official Python MCP SDK (mcp 2.3.0) where it behaves differently from the TypeScript SDK on
# the third round's scenarios. Writes test/fixtures/real-audit3/<scenario>/{client,server}.ndjson and observed.json.
#   /work/py-venv/bin/python test/real-audit3/record-py.py [scenario ...]
# Same topology as test/real-python/record.py (whose Topology, client and observer it reuses): client ->
# `mcp-triage record --side client` -> `mcp-triage record --side server` -> server (a child process).
import asyncio
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "real-python"))
sys.path.insert(0, str(HERE.parent / "helpers"))
import record as pyrec  # noqa: E402  (test/real-python/record.py)
from recording import read_json_line, wait_port, write_observed  # noqa: E402

FIXTURES = HERE.parent / "fixtures" / "real-audit3"
PEER = HERE / "peer.mjs"


def serve(port: int) -> None:
    """An MCPServer over Streamable HTTP (stateful): a tool that waits 0.4 s for its elicitation, prompts, resources, completion."""
    import anyio
    import uvicorn
    from mcp_types import Completion, ToolAnnotations
    from pydantic import BaseModel

    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    mcp = MCPServer("py-audit3-server", version="2.3.0")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_order(order_id: str) -> str:
        return f"order {order_id}: shipped"

    class Confirm(BaseModel):
        confirm: bool

    @mcp.tool()
    async def confirm_refund(order_id: str, ctx: Context) -> str:
        try:
            with anyio.fail_after(0.4):
                answer = await ctx.elicit(f"Refund order {order_id}?", Confirm)
        except TimeoutError:
            raise ToolError(f"no answer to the refund question for {order_id} within 0.4 s")
        return f"refund for {order_id}: {answer.action}"

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def slow_report(steps: int, step_ms: int, ctx: Context) -> str:
        for i in range(1, steps + 1):
            await anyio.sleep(step_ms / 1000)
            await ctx.report_progress(i, steps)
        return f"report ready after {steps} steps"

    @mcp.prompt()
    def order_summary(order_id: str) -> str:
        if order_id == "boom":
            raise RuntimeError("prompt backend unavailable")
        return f"Summarize order {order_id}"

    @mcp.resource("orders://{order_id}")
    def order(order_id: str) -> str:
        if order_id == "boom":
            raise RuntimeError("order store timed out")
        return f'{{"id": "{order_id}", "status": "shipped"}}'

    @mcp.completion()
    async def complete(ref, argument, context):
        if getattr(ref, "name", None) == "order_summary":
            return Completion(values=[v for v in ["1001", "1002", "2001"] if v.startswith(argument.value)])
        raise ValueError("nothing to complete there")

    app = mcp.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


class Topology(pyrec.Topology):
    """real-python's topology, writing under real-audit3, with this file's Python server or peer.mjs's TypeScript one."""

    def __init__(self, name: str, server: str, hop: list | None = None):
        super().__init__(name, server, hop)
        self.dir = FIXTURES / name

    async def start_server(self) -> None:
        if self.server == "py":
            self.server_proc = await asyncio.create_subprocess_exec(sys.executable, __file__, "serve", str(self.server_port))
            await wait_port(self.server_port)
        else:
            self.server_proc = await asyncio.create_subprocess_exec(pyrec.NODE, str(PEER), "ts-server", stdout=asyncio.subprocess.PIPE)
            self.server_url = (await read_json_line(self.server_proc))["url"]


async def ts_client_on_py(name: str, scenario: str):
    async with Topology(name, "py") as topo:
        p = await asyncio.create_subprocess_exec(pyrec.NODE, str(PEER), "ts-client", scenario, topo.url, stdout=asyncio.subprocess.PIPE)
        observed = await asyncio.wait_for(read_json_line(p), 60)
        await p.wait()
    write_observed(topo.dir, observed)


async def py_client_elicit_hang(name="py-client-ts-elicitation-never-answered"):
    """The Python client's elicitation callback never returns; the TypeScript server gives up after 0.4 s."""
    async with Topology(name, "ts") as topo:

        async def on_elicit(context, params):
            await asyncio.sleep(3600)

        async def body(o):
            async with pyrec.py_client(topo.url, elicitation_callback=on_elicit) as c:
                await o.step("confirm_refund 1001 (never answered; the server waits 0.4 s)", c.call_tool("confirm_refund", {"orderId": "1001", "timeoutMs": 400}, read_timeout_seconds=3))
                await o.step("lookup_order 1001 after", c.call_tool("lookup_order", {"orderId": "1001"}))

        observed = await pyrec.run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_client_other_methods(name: str, mode: str):
    """prompts/get, resources/read and completion/complete, each failing in the handler or unknown."""
    async with Topology(name, "py") as topo:

        async def body(o):
            from mcp_types import PromptReference

            async with pyrec.py_client(topo.url, mode=mode) as c:
                await o.step("get_prompt order_summary 1001", c.get_prompt("order_summary", {"order_id": "1001"}))
                await o.step("get_prompt unknown prompt", c.get_prompt("no_such_prompt", {}))
                await o.step("get_prompt whose handler raises", c.get_prompt("order_summary", {"order_id": "boom"}))
                await o.step("read_resource orders://1001", c.read_resource("orders://1001"))
                await o.step("read_resource unknown scheme", c.read_resource("nowhere://x"))
                await o.step("read_resource whose handler raises", c.read_resource("orders://boom"))
                await o.step("complete order_summary order_id 10", c.complete(PromptReference(type="ref/prompt", name="order_summary"), {"name": "order_id", "value": "10"}))
                await o.step("complete unknown prompt (handler raises)", c.complete(PromptReference(type="ref/prompt", name="no_such_prompt"), {"name": "x", "value": "1"}))

        observed = await pyrec.run_py(topo, body)
    write_observed(topo.dir, observed)


async def py_client_cancel_in_flight(name: str, mode: str):
    """The caller's task is cancelled 0.25 s into a streamed call (an app closing a request it no longer wants)."""
    async with Topology(name, "py") as topo:

        async def on_progress(progress, total, message):
            pass

        async def body(o):
            async with pyrec.py_client(topo.url, mode=mode) as c:
                task = asyncio.create_task(c.call_tool("slow_report", {"steps": 8, "step_ms": 100}, progress_callback=on_progress))
                await asyncio.sleep(0.25)
                task.cancel()
                await o.step("slow_report 8x100, its task cancelled at 0.25 s", task)
                await asyncio.sleep(0.5)
                await o.step("lookup_order 1001 after", c.call_tool("lookup_order", {"order_id": "1001"}))

        observed = await pyrec.run_py(topo, body)
    write_observed(topo.dir, observed)


SCENARIOS = {
    "py-server-ts-elicitation-never-answered": lambda: ts_client_on_py("py-server-ts-elicitation-never-answered", "elicit-hang"),
    "py-client-ts-elicitation-never-answered": py_client_elicit_hang,
    "py-client-other-methods-legacy": lambda: py_client_other_methods("py-client-other-methods-legacy", "legacy"),
    "py-client-other-methods-auto": lambda: py_client_other_methods("py-client-other-methods-auto", "auto"),
    "py-client-cancel-in-flight-legacy": lambda: py_client_cancel_in_flight("py-client-cancel-in-flight-legacy", "legacy"),
    "py-client-cancel-in-flight-auto": lambda: py_client_cancel_in_flight("py-client-cancel-in-flight-auto", "auto"),
}


async def main(names: list[str]) -> None:
    for name in names or list(SCENARIOS):
        t0 = time.monotonic()
        await asyncio.wait_for(SCENARIOS[name](), 90)
        print(f"recorded {name} ({round((time.monotonic() - t0) * 1000)} ms)", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        serve(int(sys.argv[2]))
    else:
        asyncio.run(main(sys.argv[1:]))
