# The Python SDK client (mcp 2.3.0) of test/real-app-log/record-py.mjs: the billing agent's calls, printed as one JSON line of what it saw.
#   /work/py-venv/bin/python test/real-app-log/py_client.py URL [after-restart]
import asyncio
import json
import sys


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    out = {"name": type(inner).__name__, "message": str(inner)[:200]}
    code = getattr(getattr(inner, "error", None), "code", None)
    if code is not None:
        out["code"] = code
    return out


async def step(steps: list, name: str, call) -> bool:
    try:
        r = await call()
        text = next((c.text for c in r.content if getattr(c, "type", None) == "text"), None)
        steps.append({"step": name, "ok": True, "isError": bool(r.is_error), "text": text})
        return True
    except Exception as err:  # noqa: BLE001
        steps.append({"step": name, "ok": False, "error": describe(err)})
        return False


async def main(url: str, phase: str) -> None:
    from mcp import Client
    from mcp_types import Implementation

    steps: list = []
    info = Implementation(name="billing-agent-py", version="0.9.0")
    async with Client(url, mode="legacy", client_info=info) as c:
        if phase == "calls":
            await step(steps, "lookup_invoice", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-7"}))
            await step(steps, "export_ledger", lambda: c.call_tool("export_ledger", {"month": "2026-11"}))
            await step(steps, "void_invoice (JSON-RPC error)", lambda: c.call_tool("void_invoice", {"invoiceId": "INV-7"}))
            await step(steps, "refund_invoice (unknown tool)", lambda: c.call_tool("refund_invoice", {"invoiceId": "INV-7"}))
            # The app's own retry: its 300 ms timeout gives up on the first charge, it charges again.
            charge = lambda: c.call_tool("charge_card", {"customer": "cus_42", "cents": 1999}, read_timeout_seconds=0.3)  # noqa: E731
            if not await step(steps, "charge_card", charge):
                await step(steps, "charge_card (app retry)", charge)
            await asyncio.sleep(0.7)  # the first charge finishes on the server meanwhile
        else:
            await step(steps, "lookup_invoice", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-8"}))
            print(json.dumps({"ready": True}), flush=True)
            sys.stdin.readline()  # the recorder restarts the server meanwhile
            await step(steps, "lookup_invoice (after restart)", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-8"}))
    print(json.dumps({"steps": steps}), flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "calls"))
