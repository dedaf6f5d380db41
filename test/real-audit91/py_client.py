# The app of test/real-audit91/record.mjs: the Python SDK 2.3.0 Client (mode "auto", then one "legacy" session) with
# logging at DEBUG for mcp and httpx into LOG; one call per case of the seed article; prints what each call got or raised.
#   /work/py-venv/bin/python py_client.py URL LOG
import asyncio, json, logging, sys, time

url, log_file = sys.argv[1], sys.argv[2]
logging.basicConfig(level=logging.DEBUG, filename=log_file, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
seen = []


async def main():
    from mcp import Client
    import mcp_types as t

    async def on_elicit(ctx, params):
        seen.append({"elicitation": params.message})
        return t.ElicitResult(action="accept", content={"reason": "damaged"})

    async def step(c, case, label, name, args):
        t0 = time.monotonic()
        try:
            r = await c.call_tool(name, args, read_timeout_seconds=3)
            text = " ".join(getattr(b, "text", "") for b in (r.content or []))
            seen.append({"case": case, "label": label, "args": args, "ok": {"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}, "ms": round((time.monotonic() - t0) * 1000)})
            return True
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            err = {"name": type(inner).__name__, "message": str(inner)[:300]}
            if getattr(inner, "code", None) is not None:
                err["code"] = inner.code
            seen.append({"case": case, "label": label, "args": args, "error": err, "ms": round((time.monotonic() - t0) * 1000)})
            return False

    async with Client(url, mode="auto", client_info=t.Implementation(name="audit91-py", version="2.3.0"), elicitation_callback=on_elicit) as c:
        seen.append({"label": "connect auto", "ok": True})
        tools = await c.list_tools()
        seen.append({"label": "tools/list", "ok": [x.name for x in tools.tools]})
        await step(c, 1, "baseline", "lookup", {"orderId": "A-1"})
        if not await step(c, 2, "503 #1", "lookup", {"orderId": "A-2"}):
            await asyncio.sleep(0.3)
            await step(c, 2, "503 #2 (the app's explicit retry)", "lookup", {"orderId": "A-2"})
        await step(c, 3, "jsonrpc_error", "set_limit", {"limit": -1})
        await step(c, 4, "tool_isError", "charge", {"orderId": "A-4"})
        await step(c, 5, "transport_precedence", "lookup", {"orderId": "A-5"})
        await step(c, 6, "malformed_json", "lookup", {"orderId": "A-6"})
        await step(c, 7, "conflicting_envelope", "lookup", {"orderId": "A-7"})
        await step(c, 8, "wrong_response_id", "lookup", {"orderId": "A-8"})
        await step(c, 9, "input_required", "refund", {"orderId": "A-9"})
        await step(c, 11, "invalid_tool_result", "lookup", {"orderId": "A-11"})
    async with Client(url, mode="legacy", client_info=t.Implementation(name="audit91-py-legacy", version="2.3.0")) as c:
        seen.append({"label": "connect legacy", "ok": True})
        await step(c, 10, "legacy_resultType_absent", "lookup", {"orderId": "A-10"})


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append({"label": "uncaught", "error": {"name": type(e).__name__, "message": str(e)[:300]}})
print(json.dumps({"seen": seen}), flush=True)
