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


# the fourth audit's hops: scenario -> (the faulted first call's tool, the call after it, what the hop does)
HOPPED = {
    "py-empty-200-json": ("send_invoice", "lookup_order", "hop empties the 200 body"),
    "py-duplicate-response-sse": ("send_invoice", "lookup_order", "result event sent twice, the second different"),
    "py-error-then-result-same-id": ("send_invoice", "lookup_order", "an error, then the result, same id"),
    "py-batch-of-one-response": ("lookup_order", "lookup_order", "answered as a batch of one"),
    "py-string-id-response": ("lookup_order", "lookup_order", "response id a string"),
    "py-html-in-sse-after-head": ("send_invoice", "lookup_order", "502 page inside the 200 event stream"),
}


async def main(scenario: str, url: str) -> dict:
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize)
    logged: list[str] = []

    import logging

    class Keep(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                logged.append(f"{record.name}: {record.getMessage()}"[:300])

    logging.getLogger().addHandler(Keep())
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
            elif scenario in HOPPED:
                first, after, label = HOPPED[scenario]
                await o.step(f"{first} 1001 ({label})", c.call_tool(first, {"orderId": "1001"}, read_timeout_seconds=1.5))
                await o.step(f"{after} 1002 after" if first == after else f"{after} 1001 after", c.call_tool(after, {"orderId": "1002" if first == after else "1001"}, read_timeout_seconds=5))
                await asyncio.sleep(0.2)
            elif scenario == "py-abort-between-progress":
                # the app cancels its task 60 ms after the second progress notification, then calls again
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
                await asyncio.sleep(0.3)
            elif scenario == "py-hop-cuts-stream":
                # the hop drops both connections after the second progress event; the app calls again after 0.5 s
                seen: list[float] = []

                async def on_progress(progress, total, message):
                    seen.append(progress)

                await o.step("export_report 2026-11 (the hop cuts the stream after progress 2)", c.call_tool("export_report", {"month": "2026-11"}, read_timeout_seconds=5, progress_callback=on_progress))
                o.observed["notes"].append({"progressSeenBeforeCut": list(seen)})
                await asyncio.sleep(0.5)
                await o.step("export_report 2026-11 again (the app re-calls)", c.call_tool("export_report", {"month": "2026-11"}, read_timeout_seconds=5))
                await o.step("lookup_order 1001 after", c.call_tool("lookup_order", {"orderId": "1001"}, read_timeout_seconds=5))
                await asyncio.sleep(0.3)
            elif scenario == "py-tool-errors-json":
                await o.step("validate_quantity -3 (isError)", c.call_tool("validate_quantity", {"quantity": -3}, read_timeout_seconds=5))
                await o.step("charge_card 1001 (throws ProtocolError -32602)", c.call_tool("charge_card", {"orderId": "1001"}, read_timeout_seconds=5))
                await o.step("sync_inventory A-1 (throws Error)", c.call_tool("sync_inventory", {"sku": "A-1"}, read_timeout_seconds=5))
                await o.step("no_such_tool", c.call_tool("no_such_tool", {}, read_timeout_seconds=5))
                await o.step("lookup_order 1001", c.call_tool("lookup_order", {"orderId": "1001"}, read_timeout_seconds=5))
            o.observed["era"] = "2026-07-28"
    except BaseException as err:  # noqa: BLE001
        o.observed["notes"].append({"uncaught": describe(err)})
    if logged:
        o.observed["logged"] = logged
    return o.observed


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
