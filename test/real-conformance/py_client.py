# The Python SDK 2.3.0 client (`mcp.Client`) as the conformance suite's client under test, for
# test/real-conformance/record.mjs: initializes, lists the tools, calls each (add_numbers with a=5, b=3), prints what it
# got as JSON. Usage: /work/py-venv/bin/python py_client.py URL (the suite sets MCP_CONFORMANCE_SCENARIO). Not run by `npm test`.
import asyncio
import json
import sys

from mcp import Client
from mcp_types import Implementation

URL = sys.argv[1]


async def main() -> None:
    async with Client(URL, mode="legacy", client_info=Implementation(name="conformance-py-client", version="2.3.0")) as c:
        tools = await c.list_tools()
        for t in tools.tools:
            args = {"a": 5, "b": 3} if t.name == "add_numbers" else {}
            try:
                r = await c.call_tool(t.name, args)
                print(json.dumps({"tool": t.name, "isError": bool(r.is_error), "content": [getattr(x, "text", None) for x in r.content]}))
            except Exception as err:  # noqa: BLE001
                print(json.dumps({"tool": t.name, "error": repr(err)}))


asyncio.run(main())
