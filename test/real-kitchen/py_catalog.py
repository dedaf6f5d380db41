# The Python SDK client (mcp 2.3.0) reading the kitchen-like catalog for test/real-kitchen/record-catalog.mjs: both
# resources, both prompts, then one tool call; prints what each step got as one JSON line.
# Usage: /work/py-venv/bin/python test/real-kitchen/py_catalog.py URL
import asyncio
import json
import sys


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    return {"name": type(inner).__name__, "message": str(inner)[:300]}


async def step(steps: list, label: str, fn) -> None:
    try:
        r = await fn()
        steps.append({"step": label, "ok": True, "isError": bool(getattr(r, "is_error", False))})
    except Exception as err:  # noqa: BLE001
        steps.append({"step": label, "ok": False, "error": describe(err)})


async def main(url: str) -> None:
    from mcp import Client
    from mcp_types import Implementation

    steps: list = []
    async with Client(url, mode="legacy", client_info=Implementation(name="kitchen-py-catalog", version="2.3.0")) as c:
        await step(steps, "read valid", lambda: c.read_resource("test://resources/valid"))
        await step(steps, "read invalid", lambda: c.read_resource("test://resources/invalid"))
        await step(steps, "get valid prompt", lambda: c.get_prompt("valid_prompt", {"topic": "catalog"}))
        await step(steps, "get invalid prompt", lambda: c.get_prompt("invalid_prompt"))
        await step(steps, "call tool", lambda: c.call_tool("run_configured_test_scenario", {"message": "after the catalog"}))
    print(json.dumps(steps))


asyncio.run(main(sys.argv[1]))
