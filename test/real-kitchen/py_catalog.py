# The Python SDK client (mcp 2.3.0) reading the kitchen-like catalog for test/real-kitchen/record-catalog.mjs: both
# resources, both prompts, then one tool call; prints what each step got as one JSON line.
# Usage: /work/py-venv/bin/python test/real-kitchen/py_catalog.py URL
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
