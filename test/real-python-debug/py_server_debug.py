# The Python SDK 2.3.0 MCPServer with Python logging at DEBUG into a file, on the legacy HTTP+SSE transport (sse_app:
# its own lines `Validated client message: ...`, `Sending message via SSE: ...` are the server's log mcp-triage reads)
# or on Streamable HTTP (streamable_http_app: it logs no message at all, only sessions and errors).
#   /work/py-venv/bin/python py_server_debug.py PORT LOG_FILE sse|streamable
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


app = mcp.sse_app() if sys.argv[3] == "sse" else mcp.streamable_http_app()
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
