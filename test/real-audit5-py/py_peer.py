# Python side of test/real-audit5-py/record.mjs: the Python SDK (mcp 2.3.0) client's scenarios and the Python server.
#   /work/py-venv/bin/python test/real-audit5-py/py_peer.py client SCENARIO URL   -> what the caller saw (one JSON line)
#   /work/py-venv/bin/python test/real-audit5-py/py_peer.py serve MODE PORT        -> MCPServer on uvicorn (stateful|stateless|json)
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import Observer  # noqa: E402


def summarize(result):
    if result is None:
        return None
    if hasattr(result, "tools"):
        return {"tools": [t.name for t in result.tools]}
    if hasattr(result, "content"):
        return {"text": " ".join(getattr(c, "text", "") for c in result.content), "isError": bool(result.is_error)}
    return str(result)[:200]


# ---------------------------------------------------------------- the Python client on the fourth audit's hops

# scenario -> (the faulted first call's tool, the call after it); the TypeScript server's tools take orderId
CALLS = {
    "empty-200-json": ("send_invoice", "lookup_order"),
    "duplicate-response-sse": ("send_invoice", "lookup_order"),
    "error-then-result-same-id": ("send_invoice", "lookup_order"),
    "batch-of-one-response": ("lookup_order", "lookup_order"),
    "string-id-response": ("lookup_order", "lookup_order"),
    "multiline-sse-data": ("lookup_order", "lookup_order"),
    "html-in-sse-after-head": ("send_invoice", "lookup_order"),
}


async def client(scenario: str, url: str) -> dict:
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize)
    logged: list[str] = []
    mode = "auto" if scenario.endswith("-auto") else "legacy"
    base = scenario.removesuffix("-auto")
    first, after = CALLS[base]
    o.observed["notes"].append({"mode": mode})

    import logging

    class Keep(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                logged.append(f"{record.name}: {record.getMessage()}"[:300])

    logging.getLogger().addHandler(Keep())
    try:
        async with Client(url, mode=mode, client_info=Implementation(name="py-audit5-client", version="2.3.0")) as c:
            await o.step("list_tools", c.list_tools())
            await o.step(f"{first} 1001 (the hop alters its answer)", c.call_tool(first, {"orderId": "1001"}, read_timeout_seconds=1.5))
            await o.step(f"{after} 1002 after", c.call_tool(after, {"orderId": "1002"}, read_timeout_seconds=5))
            await asyncio.sleep(0.2)
    except BaseException as err:  # noqa: BLE001
        from recording import describe

        o.observed["notes"].append({"uncaught": describe(err)})
    o.observed["logged"] = logged
    return o.observed


async def timeout_retry(scenario: str, url: str) -> dict:
    """export_orders (0.8 s, not read-only) with a 0.3 s timeout, then the app calls it again with 3 s."""
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize)
    mode = "auto" if scenario.endswith("-auto") else "legacy"
    o.observed["notes"].append({"mode": mode})
    try:
        async with Client(url, mode=mode, client_info=Implementation(name="py-audit5-client", version="2.3.0")) as c:
            await o.step("list_tools", c.list_tools())
            ok, _ = await o.step("export_orders 2026-11 (0.8 s tool, 0.3 s timeout)", c.call_tool("export_orders", {"month": "2026-11"}, read_timeout_seconds=0.3))
            if not ok:
                await asyncio.sleep(0.4)
                await o.step("export_orders 2026-11 again (the app retries, 3 s timeout)", c.call_tool("export_orders", {"month": "2026-11"}, read_timeout_seconds=3))
            await o.step("lookup_order 1002 after", c.call_tool("lookup_order", {"orderId": "1002"}, read_timeout_seconds=5))
            await asyncio.sleep(0.8)
    except BaseException as err:  # noqa: BLE001
        from recording import describe

        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


# ---------------------------------------------------------------- the Python server


def serve(mode: str, port: int) -> None:
    """MCPServer: a tool that raises, one that returns an isError result, one that is slow (not read-only), one that succeeds."""
    import anyio
    import uvicorn
    from mcp_types import CallToolResult, TextContent, ToolAnnotations

    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    mcp = MCPServer("py-audit5-server", version="2.3.0")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_order(orderId: str) -> str:  # noqa: N803 - the TypeScript server's argument name
        await anyio.sleep(0.02)
        return f"order {orderId}: shipped"

    @mcp.tool()
    async def send_invoice(orderId: str) -> str:  # noqa: N803
        await anyio.sleep(0.02)
        return f"invoice for order {orderId} sent"

    @mcp.tool()
    async def charge_card(orderId: str) -> str:
        raise RuntimeError(f"payment gateway refused order {orderId}")

    @mcp.tool()
    async def validate_address(orderId: str) -> str:
        raise ToolError(f"no delivery address on order {orderId}")

    @mcp.tool()
    async def check_stock(orderId: str) -> CallToolResult:
        return CallToolResult(content=[TextContent(type="text", text=f"order {orderId}: out of stock")], is_error=True)

    @mcp.tool()
    async def export_orders(month: str) -> str:
        await anyio.sleep(0.8)
        return f"exported orders of {month}"

    from mcp.shared.exceptions import MCPError

    failed: set[tuple[str, str]] = set()

    @mcp.tool()
    async def refund_order(orderId: str) -> str:  # noqa: N803
        # books the refund, then fails once with a JSON-RPC error the tool raises itself (not an isError result)
        await anyio.sleep(0.05)
        if ("refund", orderId) not in failed:
            failed.add(("refund", orderId))
            raise MCPError(code=-32603, message=f"ledger unavailable after booking the refund of {orderId}")
        return f"refund of order {orderId} booked"

    @mcp.tool()
    async def reserve_stock(orderId: str) -> str:  # noqa: N803
        await anyio.sleep(0.05)
        if ("reserve", orderId) not in failed:
            failed.add(("reserve", orderId))
            raise MCPError(code=-32602, message=f"warehouse rejected the reservation of {orderId} after holding it")
        return f"stock for order {orderId} reserved"

    app = mcp.streamable_http_app(stateless_http=mode == "stateless", json_response=mode == "json")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2], int(sys.argv[3]))
    else:
        run = timeout_retry if sys.argv[2].startswith("timeout-retry") else client
        print(json.dumps(asyncio.run(run(sys.argv[2], sys.argv[3]))), flush=True)
