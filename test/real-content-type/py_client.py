# The Python SDK client (mcp 2.3.0) for test/real-content-type/record.mjs: lists the tools and calls lookup; prints
# what each step got as one JSON line.
# Usage: /work/py-venv/bin/python test/real-content-type/py_client.py URL
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import describe as describe_all  # noqa: E402


def describe(err: BaseException) -> dict:
    """The error the caller met: the first inside an exception group (anyio wraps the client's errors in one)."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    return describe_all(err, 300)


async def main(url: str) -> None:
    from mcp import Client
    from mcp_types import Implementation

    steps: list = []
    async with Client(url, mode="legacy", client_info=Implementation(name="content-type-py", version="2.3.0")) as c:
        for label, fn in (("list tools", lambda: c.list_tools()), ("call lookup", lambda: c.call_tool("lookup", {"sku": "A-1"}))):
            try:
                r = await asyncio.wait_for(fn(), 5)
                steps.append({"step": label, "ok": True, "isError": bool(getattr(r, "is_error", False))})
            except BaseException as err:  # noqa: BLE001
                steps.append({"step": label, "ok": False, "error": describe(err)})
    print(json.dumps(steps))


asyncio.run(main(sys.argv[1]))
