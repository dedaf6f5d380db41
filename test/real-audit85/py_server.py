# The Python server of test/real-audit85/record.mjs py: the Python SDK's MCPServer (mcp 2.3.0), stateless_http=True, SSE answers, on uvicorn.
#   /work/py-venv/bin/python test/real-audit85/py_server.py PORT
# get_time {}, charge {amount} (destructive), lookup {q} (readOnly); each run prints one JSON line to stdout:
# {"n": its invocation number, "tool", "tag": the x-audit85-truth header the recorder's forwarder put back, "start", "end"}.
import json
import sys
import time

import anyio
import uvicorn
from mcp_types import ToolAnnotations

from mcp.server.mcpserver import Context, MCPServer

counter = 0


def main(port: int) -> None:
    mcp = MCPServer("audit85-py", version="2.3.0")

    async def run(tool: str, ms: int, ctx: Context) -> str:
        global counter
        counter += 1
        n = counter
        request = ctx.request_context.request
        tag = request.headers.get("x-audit85-truth") if request is not None else None
        start = int(time.time() * 1000)
        await anyio.sleep(ms / 1000)
        print(json.dumps({"n": n, "tool": tool, "tag": tag, "start": start, "end": int(time.time() * 1000)}), flush=True)
        return f"{tool} run #{n}"

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def get_time(ctx: Context) -> str:
        return await run("get_time", 80, ctx)

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False))
    async def charge(amount: float, ctx: Context) -> str:
        return await run("charge", 250, ctx)

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup(q: str, ctx: Context) -> str:
        return await run("lookup", 60, ctx)

    app = mcp.streamable_http_app(stateless_http=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]))
