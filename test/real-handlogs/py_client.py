# The Python SDK 2.3.0 client app of the fifteenth audit's py- group (record.mjs): its httpx2 client carries py_client_loggers.ExchangeLogger; prints what the app got as one JSON line.
#   /work/py-venv/bin/python test/real-handlogs/py_client.py SCENARIO URL LOG   (py-session-lost waits for a line on stdin while the server restarts)
import asyncio
import json
import sys

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

from py_client_loggers import ExchangeLogger


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    out = {"name": type(inner).__name__, "message": str(inner)[:200]}
    code = getattr(getattr(inner, "error", None), "code", None)
    if code is not None:
        out["code"] = code
    return out


async def main(scenario: str, url: str, log: str) -> None:
    observed: list = []

    def client() -> Client:
        # The SDK's default timeouts (30 s, 300 s SSE read), the logger as the transport.
        http = httpx2.AsyncClient(transport=ExchangeLogger(log), timeout=httpx2.Timeout(30, read=300))
        return Client(streamable_http_client(url, http_client=http), mode="legacy", client_info=Implementation(name="handlogs-py-app", version="1.0.0"))

    async def step(c: Client, label: str, name: str, args: dict) -> None:
        try:
            r = await c.call_tool(name, args)
            text = next((x.text for x in r.content if getattr(x, "type", None) == "text"), None)
            observed.append({"label": label, "ok": {"isError": bool(r.is_error), "text": text}})
        except Exception as err:  # noqa: BLE001
            observed.append({"label": label, "error": describe(err)})

    try:
        await run(scenario, client, step)
    finally:
        print(json.dumps({"steps": observed}), flush=True)


async def run(scenario: str, client, step) -> None:
    async with client() as c:
        if scenario == "py-tool-ok":
            await step(c, "call lookup_order", "lookup_order", {"orderId": "A-1"})
        elif scenario == "py-tool-error":
            await step(c, "call refund_order", "refund_order", {"orderId": "A-2"})
        elif scenario == "py-unknown-tool":
            await step(c, "call cancel_order", "cancel_order", {"orderId": "A-3"})
        elif scenario == "py-hop-503":
            await step(c, "call send_invoice", "send_invoice", {"orderId": "A-5"})
            await asyncio.sleep(0.2)
            await step(c, "call send_invoice again (app retry)", "send_invoice", {"orderId": "A-5"})
        elif scenario == "py-session-lost":
            await step(c, "call lookup_order", "lookup_order", {"orderId": "A-4"})
            print(json.dumps({"ready": True}), flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            await step(c, "call lookup_order after the restart", "lookup_order", {"orderId": "A-4"})
            async with client() as c2:
                await step(c2, "call lookup_order on a new session", "lookup_order", {"orderId": "A-4"})
        await asyncio.sleep(0.2)  # the app goes on a moment before it closes its client


asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
