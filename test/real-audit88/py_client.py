# The Python app of test/real-audit88/record.mjs (scenario py-client-ts-router): the Python SDK 2.3.0 Client, one per
# server (BASE/a/mcp and BASE/b/mcp), concurrently: tools/list, then `sync` inv-1 on both; a call that fails is retried
# once by the app 300 ms later; then `sync` inv-2 on B. Prints what the app saw as one JSON line.
#   /work/py-venv/bin/python test/real-audit88/py_client.py BASE
import asyncio, json, sys, time

base = sys.argv[1]
seen = []


async def main():
    from mcp import Client
    import mcp_types as t

    async def step(c, label, server, item, attempt):
        t0 = time.monotonic()
        try:
            r = await c.call_tool("sync", {"item": item})
            text = " ".join(getattr(x, "text", "") for x in (r.content or []))
            seen.append(dict(label=label, server=server, item=item, attempt=attempt, ok={"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}, ms=round((time.monotonic() - t0) * 1000)))
            return True
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            seen.append(dict(label=label, server=server, item=item, attempt=attempt, error={"name": type(inner).__name__, "message": str(inner)[:300]}, ms=round((time.monotonic() - t0) * 1000)))
            return False

    async def call(c, server, item):
        if not await step(c, f"{server} sync {item} #1", server, item, 1):
            await asyncio.sleep(0.3)
            await step(c, f"{server} sync {item} #2", server, item, 2)

    async with Client(f"{base}/a/mcp", mode="auto", client_info=t.Implementation(name="audit88-py", version="2.3.0")) as ca, \
            Client(f"{base}/b/mcp", mode="auto", client_info=t.Implementation(name="audit88-py", version="2.3.0")) as cb:
        seen.append(dict(label="connect", ok=True))
        for label, c in (("A", ca), ("B", cb)):
            tools = await c.list_tools()
            seen.append(dict(label=f"{label} tools/list", ok=[x.name for x in tools.tools]))
        await asyncio.gather(call(ca, "A", "inv-1"), call(cb, "B", "inv-1"))
        await call(cb, "B", "inv-2")


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append(dict(label="uncaught", error={"name": type(e).__name__, "message": str(e)[:300]}))
print(json.dumps({"seen": seen}), flush=True)
