# The Python servers of test/real-audit88/record.mjs (scenario v2-py-router): two Python SDK 2.3.0 MCPServers, stateless
# (stateless_http=True), mounted in one Starlette app at /a/mcp and /b/mcp, both with a tool `sync`: A's read-only, B's
# destructive (it charges). Each real run of a tool body appends a JSON line to RAN_FILE.
#   /work/py-venv/bin/python test/real-audit88/py_router.py PORT RAN_FILE
import contextlib, json, sys, time

import uvicorn
from mcp_types import ToolAnnotations
from starlette.applications import Starlette
from starlette.routing import Mount

from mcp.server.mcpserver import MCPServer

port, ran_file = int(sys.argv[1]), sys.argv[2]


def ran(**o):
    with open(ran_file, "a", encoding="utf-8") as f:
        f.write(json.dumps({"ts": time.time(), **o}) + "\n")


def server(label, read_only):
    mcp = MCPServer(f"server-{label}", version="1.0.0")

    @mcp.tool(name="sync", annotations=ToolAnnotations(read_only_hint=read_only, destructive_hint=not read_only, idempotent_hint=read_only))
    async def sync(item: str) -> str:
        ran(server=label, tool="sync", item=item, effect="read only" if read_only else f"charged {item}")
        return f"{label}: {'in sync' if read_only else 'charged'} {item}"

    return mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True)


a, b = server("A", True), server("B", False)


@contextlib.asynccontextmanager
async def lifespan(app):
    async with a.router.lifespan_context(a), b.router.lifespan_context(b):
        yield


app = Starlette(routes=[Mount("/a", app=a), Mount("/b", app=b)], lifespan=lifespan)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
