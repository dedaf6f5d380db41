# Four Python SDK clients (mcp 2.3.0, `mcp.Client`, 2025-11-25) at once against one server, for
# test/real-healthy/record.mjs: each numbers its ids from 1 (initialize) and calls write tools with its own arguments (all answer
# "ok" or nothing), the same lookup from all four, then rounds of mixed calls. Prints what each call got, as JSON.
# Usage: /work/py-venv/bin/python py_clients.py URL. Not run by `npm test`.
import asyncio
import json
import sys

from mcp import Client
from mcp_types import Implementation

URL = sys.argv[1]


def summary(r):
    try:
        return {"isError": bool(r.is_error), "content": [getattr(c, "text", None) for c in r.content]}
    except Exception as err:  # noqa: BLE001
        return {"error": repr(err)}


async def one(name: str, out: list) -> None:
    async with Client(URL, mode="legacy", client_info=Implementation(name=name, version="2.3.0")) as c:
        async def call(tool, args):
            try:
                out.append({"client": name, "tool": tool, "args": args, "got": summary(await c.call_tool(tool, args))})
            except Exception as err:  # noqa: BLE001
                out.append({"client": name, "tool": tool, "args": args, "error": repr(err)})

        await call("update_setting", {"key": "theme", "value": name})
        await call("clear_cache", {"region": name})
        await call("lookup_order", {"orderId": "1001"})
        await asyncio.gather(call("record_event", {"name": f"{name}-login"}), call("update_setting", {"key": "lang", "value": name}))
        for r in range(6):
            await asyncio.gather(
                call("update_setting", {"key": f"k{r}", "value": name}),
                call("clear_cache", {"region": f"r{r}-{name}"}),
                call("record_event", {"name": f"e{r}-{name}"}),
            )


async def main() -> None:
    out: list = []
    await asyncio.gather(*(one(f"py-agent-{x}", out) for x in "abcd"))
    print(json.dumps(out))


asyncio.run(main())
