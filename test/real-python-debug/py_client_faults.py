# The Python SDK 2.3.0 client with Python logging at DEBUG, behind test/real-python-debug/fault-proxy.mjs: tools/call
# set_flag meets a 503 and the app sends it again, lookup k2 a 500 with a JSON-RPC error body, then lookup k3 and k4
# go at once (k4 meets a 503 while both are in flight). Prints what the app saw of each call.
#   /work/py-venv/bin/python py_client_faults.py URL LOG_FILE
import logging
import sys

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

url, log_file = sys.argv[1], sys.argv[2]
logging.basicConfig(level=logging.DEBUG, filename=log_file, format="%(asctime)s %(levelname)s %(name)s: %(message)s")


async def main() -> None:
    out = []
    async with streamable_http_client(url) as (read, write, *_):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            for attempt in (1, 2):
                try:
                    r = await session.call_tool("set_flag", {"key": "k1", "ms": 5})
                    out.append(f"set_flag#{attempt}: isError={r.is_error}")
                    break
                except Exception as e:  # noqa: BLE001
                    out.append(f"set_flag#{attempt}: {type(e).__name__}: {e}")
            try:
                r = await session.call_tool("lookup", {"key": "k2", "ms": 5})
                out.append(f"lookup: isError={r.is_error}")
            except Exception as e:  # noqa: BLE001
                out.append(f"lookup: {type(e).__name__}: {e}")
            res = {}

            async def one(key: str) -> None:
                try:
                    r = await session.call_tool("lookup", {"key": key, "ms": 30})
                    res[key] = f"isError={r.is_error}"
                except Exception as e:  # noqa: BLE001
                    res[key] = f"{type(e).__name__}: {e}"

            async with anyio.create_task_group() as tg:
                tg.start_soon(one, "k3")
                tg.start_soon(one, "k4")
            for k in sorted(res):
                out.append(f"lookup {k}: {res[k]}")
    print("\n".join(out))


anyio.run(main)
