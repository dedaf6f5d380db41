# Python side of test/real-audit7/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn, whose tools append what they really ran to a file.
#   /work/py-venv/bin/python test/real-audit7/py_server.py MODE PORT RAN_FILE   (MODE: stateful | json; SSE or JSON bodies, both with sessions)
import sys

import anyio
import uvicorn
from mcp_types import ToolAnnotations

from mcp.server.mcpserver import Context, MCPServer


def main(mode: str, port: int, ran_file: str) -> None:
    def ran(line: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    mcp = MCPServer("py-audit7-server", version="2.3.0")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_order(orderId: str) -> str:  # noqa: N803 - the TypeScript servers' argument name
        await anyio.sleep(0.02)
        ran(f"lookup {orderId}")
        return f"order {orderId}: shipped"

    @mcp.tool(annotations=ToolAnnotations(destructive_hint=True, read_only_hint=False))
    async def refund_order(orderId: str) -> str:  # noqa: N803
        await anyio.sleep(0.03)
        ran(f"refund {orderId}")
        return f"refund for order {orderId} issued"

    @mcp.tool()
    async def send_invoice(orderId: str) -> str:  # noqa: N803
        await anyio.sleep(0.02)
        ran(f"invoice {orderId}")
        return f"invoice for order {orderId} sent"

    @mcp.tool()
    async def export_report(month: str, ctx: Context) -> str:
        # six steps of 150 ms, a progress notification after each; a cancellation stops it where it is
        step = 0
        try:
            for step in range(1, 7):
                await anyio.sleep(0.15)
                await ctx.report_progress(step, 6, f"step {step}")
        except anyio.get_cancelled_exc_class():
            ran(f"export {month} cancelled at step {step}")
            raise
        ran(f"export {month} done")
        return f"report for {month} exported"

    from mcp.shared.exceptions import MCPError

    failed: set[str] = set()

    @mcp.tool()
    async def reserve_stock(orderId: str) -> str:  # noqa: N803
        # holds the stock, then fails once with a -32602 the tool raises itself (on 2026-07-28 the server sends it in HTTP 400)
        await anyio.sleep(0.03)
        ran(f"reserve {orderId}")
        if orderId not in failed:
            failed.add(orderId)
            raise MCPError(code=-32602, message=f"warehouse rejected the reservation of {orderId} after holding it")
        return f"stock for order {orderId} reserved"

    app = mcp.streamable_http_app(json_response=mode == "json")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
