# The Python SDK's server (mcp 2.3.0, MCPServer over Streamable HTTP) for test/real-healthy/record.mjs: the same
# write tools that answer "ok" or nothing whatever they were asked. Usage: /work/py-venv/bin/python py_server.py MODE PORT
# (MODE: stateful, stateless, json, json-stateless). Not run by `npm test`.
import sys

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

mode, port = sys.argv[1], int(sys.argv[2])
mcp = MCPServer("py-healthy-server", version="2.3.0")
idempotent = ToolAnnotations(idempotent_hint=True)


@mcp.tool(annotations=idempotent)
async def update_setting(key: str, value: str) -> str:
    await anyio.sleep(0.01)
    return "ok"


@mcp.tool(annotations=idempotent)
async def clear_cache(region: str) -> list:
    await anyio.sleep(0.01)
    return []


@mcp.tool()
async def record_event(name: str, ms: int = 10) -> str:
    await anyio.sleep(ms / 1000)
    return "ok"


@mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
async def lookup_order(orderId: str) -> str:
    await anyio.sleep(0.01)
    return f"order {orderId}: shipped"


app = mcp.streamable_http_app(stateless_http="stateless" in mode, json_response="json" in mode)
print("ready", flush=True)
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
