# The Python SDK client (mcp 2.3.0) behind an application that reconnects (three tries) and re-calls (three tries)
# after a failure, for test/real-kitchen/record.mjs: prints what it saw as one JSON line.
# Usage: /work/py-venv/bin/python test/real-kitchen/py_client.py URL
import asyncio
import json
import sys


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    return {"name": type(inner).__name__, "message": str(inner)[:300]}


async def main(url: str) -> None:
    from mcp import Client
    from mcp_types import Implementation

    steps = []
    for i in range(1, 4):
        try:
            async with Client(url, mode="legacy", client_info=Implementation(name="kitchen-py-client", version="2.3.0")) as c:
                steps.append({"step": f"connect {i}", "ok": True})
                for n in range(1, 3):
                    for k in range(1, 4):
                        try:
                            r = await c.call_tool("run_configured_test_scenario", {"message": f"call {n}"})
                            steps.append({"step": f"call {n} try {k}", "ok": True, "isError": bool(r.is_error)})
                            break
                        except Exception as err:  # noqa: BLE001
                            steps.append({"step": f"call {n} try {k}", "ok": False, "error": describe(err)})
                            await asyncio.sleep(0.2)
            break
        except BaseException as err:  # noqa: BLE001
            steps.append({"step": f"connect {i}", "ok": False, "error": describe(err)})
            await asyncio.sleep(0.2)
    print(json.dumps(steps))


asyncio.run(main(sys.argv[1]))
