# The app of test/real-audit93/record.mjs (and real-audit103's): the Python SDK 2.3.0 Client (mode "legacy": one 2025-era
# session) with logging at DEBUG for mcp and httpx into LOG; lookup_order (its first POST gets 503: the app calls again
# once), send_invoice (a tool error, the app calls again once), refund (a tool error); prints what each call got or raised.
#   /work/py-venv/bin/python py_client.py URL LOG ORDER [NAME [basic]]
# NAME: its clientInfo name (audit93-py); basic: logging's basic format, no time on any line (audit 103).
import asyncio, json, logging, sys, time

url, log_file, order = sys.argv[1], sys.argv[2], sys.argv[3]
client_name = sys.argv[4] if len(sys.argv) > 4 else "audit93-py"
if len(sys.argv) > 5 and sys.argv[5] == "basic":
    logging.basicConfig(level=logging.DEBUG, filename=log_file)
else:
    logging.basicConfig(level=logging.DEBUG, filename=log_file, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
seen = []


async def main():
    from mcp import Client
    import mcp_types as t

    async def step(c, label, name):
        t0 = time.monotonic()
        try:
            r = await c.call_tool(name, {"orderId": order}, read_timeout_seconds=5)
            text = " ".join(getattr(b, "text", "") for b in (r.content or []))
            is_error = bool(getattr(r, "is_error", False))
            seen.append({"app": "py", "step": label, "ok": {"isError": is_error, "text": text[:200]}, "ms": round((time.monotonic() - t0) * 1000)})
            return not is_error
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            err = {"name": type(inner).__name__, "message": str(inner)[:300]}
            if getattr(inner, "code", None) is not None:
                err["code"] = inner.code
            seen.append({"app": "py", "step": label, "threw": err, "ms": round((time.monotonic() - t0) * 1000)})
            return False

    async with Client(url, mode="legacy", client_info=t.Implementation(name=client_name, version="2.3.0")) as c:
        seen.append({"app": "py", "step": "connect", "ok": "connected"})
        for name in ("lookup_order", "send_invoice", "refund"):
            if not await step(c, f"{name} {order}", name) and name != "refund":
                await asyncio.sleep(0.2)
                await step(c, f"{name} {order} (the app's call again)", name)


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append({"app": "py", "step": "uncaught", "threw": {"name": type(e).__name__, "message": str(e)[:300]}})
print(json.dumps({"seen": seen}))
