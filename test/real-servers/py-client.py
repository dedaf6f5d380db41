# The Python SDK client (mcp 2.3.0) for test/real-servers/record.mjs: runs one scenario against URL and prints what the caller saw as one JSON line.
# Usage: /work/py-venv/bin/python test/real-servers/py-client.py SCENARIO URL
# A line {"restart": true} on stdout asks the recorder to restart the server; it answers "restarted" on stdin.
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
        return {
            "text": " ".join(getattr(c, "text", "") for c in result.content)[:240],
            "isError": bool(getattr(result, "is_error", False)),
        }
    return str(result)[:200]


async def restart() -> None:
    print(json.dumps({"restart": True}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def main(scenario: str, url: str) -> None:
    from mcp import Client
    from mcp_types import ElicitResult, Implementation

    o = Observer(summarize)
    progress: list = []

    async def on_progress(p, total, message):
        progress.append([p, total, message])

    async def on_elicit(context, params):
        o.observed["notes"].append({"elicitation": params.message})
        return ElicitResult(action="accept", content={"confirm": True})

    mode = "auto" if scenario.endswith("-auto") else "legacy"
    info = Implementation(name="py-sdk-client", version="2.3.0")
    try:
        async with Client(url, mode=mode, client_info=info, elicitation_callback=on_elicit, read_timeout_seconds=5) as c:
            o.observed["notes"].append({"mode": mode, "protocolVersion": getattr(c, "protocol_version", None)})
            await o.step("list_tools", c.list_tools())
            await o.step("lookup_order 1001", c.call_tool("lookup_order", {"orderId": "1001"}))
            await o.step("validate_quantity -3 (isError)", c.call_tool("validate_quantity", {"quantity": -3}))
            await o.step("crash (the tool throws)", c.call_tool("crash", {}))
            await o.step("no_such_tool", c.call_tool("no_such_tool", {}))
            await o.step("slow_report 3x50 with progress", c.call_tool("slow_report", {"steps": 3, "stepMs": 50}, progress_callback=on_progress))
            await o.step("confirm_refund 1001 (elicitation)", c.call_tool("confirm_refund", {"orderId": "1001"}))
            if scenario.startswith("py-client-hono"):
                await restart()
                o.observed["notes"].append("server restarted")
                await o.step("send_invoice 1001 after the restart (old session)", c.call_tool("send_invoice", {"orderId": "1001"}))
                await o.step("lookup_order 1002 after that", c.call_tool("lookup_order", {"orderId": "1002"}))
    except BaseException as err:  # noqa: BLE001 - what the caller saw when the Client itself failed
        o.observed["notes"].append({"uncaught": describe(err)})
    o.observed["progress"] = progress
    print(json.dumps(o.observed), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
