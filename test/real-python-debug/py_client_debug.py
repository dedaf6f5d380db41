# The Python SDK 2.3.0 client with Python logging at DEBUG, as a developer turns it on to see what the SDK does: its
# own lines (`Sending client message: ...`, `SSE message: ...`, `Received session ID: ...`) are the log mcp-triage reads.
#   /work/py-venv/bin/python py_client_debug.py URL LOG_FILE FORMAT [sse]
# FORMAT: "asctime" (a format with the time, the logger name and the level) or "default" (logging.basicConfig's own
# "%(levelname)s:%(name)s:%(message)s": no time). With "sse": the legacy HTTP+SSE transport (sse_client, URL .../sse).
import logging
import sys

import anyio
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

url, log_file, style = sys.argv[1], sys.argv[2], sys.argv[3]
legacy = len(sys.argv) > 4 and sys.argv[4] == "sse"
fmt = "%(asctime)s %(levelname)s %(name)s: %(message)s" if style == "asctime" else logging.BASIC_FORMAT
logging.basicConfig(level=logging.DEBUG, filename=log_file, format=fmt)


async def main() -> None:
    async with (sse_client(url) if legacy else streamable_http_client(url)) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            out = []
            # A tool that succeeds, one the server does not have (isError), arguments it refuses (isError), and a
            # prompt it does not have (a JSON-RPC error).
            for name, args in [("lookup", {"key": "a", "ms": 5}), ("nope", {}), ("lookup", {"key": "b"})]:
                r = await session.call_tool(name, args)
                out.append(f"{name}: isError={r.is_error}")
            try:
                await session.get_prompt("missing")
            except Exception as e:  # noqa: BLE001
                out.append(f"get_prompt: {type(e).__name__}: {e}")
            print("\n".join(out))


anyio.run(main)
