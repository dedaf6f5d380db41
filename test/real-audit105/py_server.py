# The Python server of test/real-audit105/record.mjs: one Python SDK 2.3.0 MCPServer, stateful (sessions), at /mcp, with
# the recorder's three tools (lookup read-only, charge destructive, fail an isError result). Each tool body that runs
# appends a JSON line to RAN_FILE (its tag).
#   /work/py-venv/bin/python test/real-audit105/py_server.py PORT RAN_FILE
import json, sys, time, asyncio

import uvicorn
from mcp_types import ToolAnnotations

from mcp.server.mcpserver import MCPServer

port, ran_file = int(sys.argv[1]), sys.argv[2]
out = open(ran_file, "a", encoding="utf-8")


def ran(tool, tag):
    out.write(json.dumps({"ts": time.time(), "server": "py", "tool": tool, "tag": tag}) + "\n")
    out.flush()


mcp = MCPServer("audit105-py", version="1.0.0")


@mcp.tool(name="lookup", annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True))
async def lookup(tag: str, ms: int = 0) -> str:
    await asyncio.sleep(ms / 1000)
    ran("lookup", tag)
    return f"found {tag}"


@mcp.tool(name="charge", annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False))
async def charge(tag: str, ms: int = 0) -> str:
    await asyncio.sleep(ms / 1000)
    ran("charge", tag)
    return f"charged {tag}"


@mcp.tool(name="fail")
async def fail(tag: str, ms: int = 0) -> str:
    ran("fail", tag)
    raise ValueError(f"no stock for {tag}")


uvicorn.run(mcp.streamable_http_app(streamable_http_path="/mcp"), host="127.0.0.1", port=port, log_level="warning")
