# The sixty-seventh audit's Python server (mcp 2.3.0 MCPServer on uvicorn, stateful, SSE answers): `hang` {order, times} never answers its first `times` calls of an order (until cancelled), else answers; `echo` {text}. Its stream's pings (sse-starlette's `: ping - <time>` every 15 s) are what a silent tool's client sees.
#   /work/py-venv/bin/python test/real-audit67/py_server.py PORT   (appends what each tool body saw to truth-server.ndjson in the working directory)
import json
import sys
from datetime import datetime, timezone

import anyio
import uvicorn

from mcp.server.mcpserver import MCPServer

seen: dict[str, int] = {}


def truth(**o) -> None:
    with open("truth-server.ndjson", "a", encoding="utf-8") as f:
        f.write(json.dumps({"ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"), **o}) + "\n")


def main(port: int) -> None:
    mcp = MCPServer("audit67-py-server", version="1.0.0")

    @mcp.tool()
    async def hang(order: str, times: int) -> str:
        seen[order] = seen.get(order, 0) + 1
        truth(tool="hang", args={"order": order, "times": times}, phase="start")
        if seen[order] > times:
            truth(tool="hang", phase="return")
            return f"order {order} done"
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            truth(tool="hang", phase="cancelled")
            raise
        return "never"

    @mcp.tool()
    async def echo(text: str) -> str:
        return f"echo {text}"

    uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]))
