# The Python app of test/real-audit95/record.mjs: the Python SDK 2.3.0 Client against URL.
#   /work/py-venv/bin/python test/real-audit95/py_app.py URL call   : connect, then `sync` inv-1; a call that fails is
#     called again by the app once, 300 ms later (the redirect scenarios)
#   /work/py-venv/bin/python test/real-audit95/py_app.py URL loop N : the app's connect loop: a new Client 200 ms after
#     each failed connect, at most N connects; once connected, lookup_order A-1
# Prints what the app saw as one JSON line.
import asyncio, json, sys, time

url, mode = sys.argv[1], sys.argv[2]
seen = []


def err_of(e):
    inner = e
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    return {"name": type(inner).__name__, "message": str(inner)[:300]}


def text_of(r):
    return {"isError": bool(getattr(r, "is_error", False)), "text": " ".join(getattr(x, "text", "") for x in (r.content or []))[:200]}


async def main():
    from mcp import Client
    import mcp_types as t

    info = t.Implementation(name="audit95-py", version="2.3.0")
    if mode == "call":
        async with Client(url, mode="auto", client_info=info) as c:
            seen.append({"step": "connect", "ok": "connected"})
            for attempt in (1, 2):
                t0 = time.monotonic()
                try:
                    r = await c.call_tool("sync", {"item": "inv-1"})
                    seen.append({"step": f"sync inv-1 #{attempt}", "ok": text_of(r), "ms": round((time.monotonic() - t0) * 1000)})
                    break
                except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
                    seen.append({"step": f"sync inv-1 #{attempt}", "threw": err_of(e), "ms": round((time.monotonic() - t0) * 1000)})
                    await asyncio.sleep(0.3)
        return
    tries = int(sys.argv[3])
    for n in range(1, tries + 1):
        try:
            async with Client(url, mode="legacy", client_info=info) as c:
                seen.append({"step": f"connect #{n}", "ok": "connected"})
                r = await c.call_tool("lookup_order", {"orderId": "A-1"})
                seen.append({"step": "lookup_order A-1", "ok": text_of(r)})
            return
        except BaseException as e:  # noqa: BLE001
            seen.append({"step": f"connect #{n}", "threw": err_of(e)})
            await asyncio.sleep(0.2)


asyncio.run(main())
print(json.dumps(seen))
