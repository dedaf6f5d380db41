# Python side of test/real-audit5-py/record.mjs's abort scenarios: the Python SDK (mcp 2.3.0) Client in legacy mode cancels its call's task 60 ms after the second progress notification, then the app calls again.
#   /work/py-venv/bin/python test/real-audit5-py/py_abort.py URL   -> what the caller saw (one JSON line)
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import Observer, describe  # noqa: E402


def summarize(result):
    if result is None:
        return None
    if hasattr(result, "tools"):
        return {"tools": [t.name for t in result.tools]}
    if hasattr(result, "content"):
        return {"text": " ".join(getattr(c, "text", "") for c in result.content), "isError": bool(result.is_error)}
    return str(result)[:200]


async def main(url: str) -> dict:
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize)
    o.observed["notes"].append({"mode": "legacy"})
    try:
        async with Client(url, mode="legacy", client_info=Implementation(name="py-audit5-client", version="2.3.0")) as c:
            await o.step("list_tools", c.list_tools())
            seen: list[float] = []
            holder: dict = {}

            async def on_progress(progress, total, message):
                seen.append(progress)
                if progress == 2:
                    asyncio.get_running_loop().call_later(0.06, holder["task"].cancel)

            holder["task"] = asyncio.create_task(c.call_tool("export_report", {"month": "2026-11"}, read_timeout_seconds=5, progress_callback=on_progress))
            await o.step("export_report 2026-11 (task cancelled after progress 2)", holder["task"])
            o.observed["notes"].append({"progressSeenBeforeAbort": list(seen)})
            await asyncio.sleep(0.5)
            seen2: list[float] = []

            async def on_progress2(progress, total, message):
                seen2.append(progress)

            await o.step("export_report 2026-11 again (the app re-calls)", c.call_tool("export_report", {"month": "2026-11"}, read_timeout_seconds=5, progress_callback=on_progress2))
            o.observed["notes"].append({"progressSeenSecondCall": seen2})
            await o.step("lookup_order 1002 after", c.call_tool("lookup_order", {"orderId": "1002"}, read_timeout_seconds=5))
            await asyncio.sleep(0.3)
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))), flush=True)
