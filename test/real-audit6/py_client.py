# Python side of test/real-audit6/record.mjs: the Python SDK (mcp 2.3.0) Client in auto mode (2026-07-28) through the fifth audit's hops to the v2 TypeScript server.
#   /work/py-venv/bin/python test/real-audit6/py_client.py SCENARIO URL   -> what the caller saw (one JSON line)
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
        return {"content": [{"type": "text", "text": " ".join(getattr(c, "text", "") for c in result.content)}], "isError": bool(result.is_error)}
    return str(result)[:200]


async def main(scenario: str, url: str) -> dict:
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize)
    try:
        async with Client(url, mode="auto", client_info=Implementation(name="py-audit6-client", version="2.3.0")) as c:
            await o.step("tools/list", c.list_tools())
            if scenario == "py-502-after-run":
                for tool in ("refund_order", "lookup_order"):
                    ok, _ = await o.step(f"{tool} 1001 (server ran it, hop answers 502)", c.call_tool(tool, {"orderId": "1001"}, read_timeout_seconds=5))
                    if not ok:
                        await asyncio.sleep(0.3)
                        await o.step(f"{tool} 1001 (app retry)", c.call_tool(tool, {"orderId": "1001"}, read_timeout_seconds=5))
            elif scenario == "py-429-retry-after":
                await o.step("send_invoice 1001 (429, Retry-After an HTTP date)", c.call_tool("send_invoice", {"orderId": "1001"}, read_timeout_seconds=5))
                await asyncio.sleep(0.25)
                await o.step("send_invoice 1001 (app retry after 250 ms: 429, Retry-After 1)", c.call_tool("send_invoice", {"orderId": "1001"}, read_timeout_seconds=5))
                await asyncio.sleep(1.1)
                await o.step("send_invoice 1001 (app retry after 1.1 s)", c.call_tool("send_invoice", {"orderId": "1001"}, read_timeout_seconds=5))
            elif scenario == "py-timeout-then-retry":
                ok, _ = await o.step("slow_report 800 (timeout 300 ms)", c.call_tool("slow_report", {"delayMs": 800}, read_timeout_seconds=0.3))
                if not ok:
                    await asyncio.sleep(0.1)
                    await o.step("slow_report 800 (app retry, timeout 2 s)", c.call_tool("slow_report", {"delayMs": 800}, read_timeout_seconds=2))
                await asyncio.sleep(0.8)
            o.observed["era"] = "2026-07-28"
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
