# The Python app of test/real-audit87/record.mjs py: the Python SDK 2.3.0 Client through the fault hop, the incident's steps; prints what it saw as JSON lines.
#   /work/py-venv/bin/python test/real-audit87/py_client.py URL
import asyncio, json, sys, time

url = sys.argv[1]
seen = []


def note(**kw):
    seen.append(kw)


async def main():
    from mcp import Client
    import mcp_types as t

    def client():
        return Client(url, mode="auto", client_info=t.Implementation(name="audit87-py", version="2.3.0"))

    async def step(c, label, name, args, timeout=None):
        t0 = time.monotonic()
        try:
            r = await c.call_tool(name, args, read_timeout_seconds=timeout)
            text = " ".join(getattr(b, "text", "") for b in (r.content or []))
            note(label=label, ok={"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}, ms=round((time.monotonic() - t0) * 1000))
            return True
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            note(label=label, error={"name": type(inner).__name__, "message": str(inner)[:300]}, ms=round((time.monotonic() - t0) * 1000))
            return False

    async with client() as c:
        note(label="connect", ok=True)
        tools = await c.list_tools()
        note(label="tools/list", ok=[x.name for x in tools.tools])
        if not await step(c, "lookup_order A-1 #1", "lookup_order", {"orderId": "A-1"}):
            await asyncio.sleep(0.3)
            await step(c, "lookup_order A-1 #2", "lookup_order", {"orderId": "A-1"})
        if not await step(c, "send_invoice A-1 #1", "send_invoice", {"orderId": "A-1"}, timeout=1):
            await asyncio.sleep(0.2)
            await step(c, "send_invoice A-1 #2", "send_invoice", {"orderId": "A-1"})
        await step(c, "crash", "crash", {})
        print(json.dumps({"restart": True}), flush=True)
        sys.stdin.readline()  # the recorder restarts the server, then answers
        ok = await step(c, "lookup_order A-2 #1", "lookup_order", {"orderId": "A-2"}, timeout=5)
    if not ok:
        async with client() as c2:
            note(label="connect again", ok=True)
            await step(c2, "lookup_order A-2 #2", "lookup_order", {"orderId": "A-2"})


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    note(label="uncaught", error={"name": type(e).__name__, "message": str(e)[:300]})
print(json.dumps({"seen": seen}), flush=True)
