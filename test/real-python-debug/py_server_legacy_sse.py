# The Python SDK 2.3.0 MCPServer on the legacy HTTP+SSE transport (sse_app), with Python logging at DEBUG into a file:
# its own lines (`Validated client message: ...`, `Sending message via SSE: ...`) are the server's log mcp-triage reads.
#   /work/py-venv/bin/python py_server_legacy_sse.py PORT LOG_FILE
import logging
import sys

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer

logging.basicConfig(level=logging.DEBUG, filename=sys.argv[2], format="%(asctime)s %(levelname)s %(name)s: %(message)s")

mcp = MCPServer("legacy-sse")


@mcp.tool()
async def lookup(key: str, ms: float) -> str:
    await anyio.sleep(ms / 1000)
    return f"lookup {key} done"


uvicorn.run(mcp.sse_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
