# The app of test/real-audit94/record.mjs: the Python SDK 2.3.0 Client (mode "auto": 2026-07-28, sessionless) with
# Python logging at DEBUG (the SDK's, httpx's and httpcore's lines) into LOG; runs PLAN (a JSON list of steps) and prints
# what each call got or raised. PLAN "two-open": two Clients, the first idle while the second calls, then the first again.
#   /work/py-venv/bin/python py_client.py URL LOG PLAN
import asyncio, json, logging, sys, time

url, log_file, plan = sys.argv[1], sys.argv[2], sys.argv[3]
logging.basicConfig(level=logging.DEBUG, filename=log_file, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
seen = []


async def main():
    from mcp import Client
    import mcp_types as t

    async def on_elicit(ctx, params):
        decline = "A-10" in params.message
        seen.append({"elicitation": params.message, "answer": "decline" if decline else "accept"})
        return t.ElicitResult(action="decline") if decline else t.ElicitResult(action="accept", content={"reason": "damaged"})

    async def step(c, s):
        t0 = time.monotonic()
        rec = {"label": s["label"], "tool": s["name"], "args": s["args"]}
        try:
            r = await c.call_tool(s["name"], s["args"], read_timeout_seconds=s.get("timeout", 5))
            text = " ".join(getattr(b, "text", "") for b in (r.content or []))
            rec["ok"] = {"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            err = {"name": type(inner).__name__, "message": str(inner)[:300]}
            if getattr(inner, "code", None) is not None:
                err["code"] = inner.code
            rec["error"] = err
        rec["ms"] = round((time.monotonic() - t0) * 1000)
        seen.append(rec)

    info = lambda n: t.Implementation(name=n, version="2.3.0")  # noqa: E731
    if plan == "two-open":
        async with Client(url, mode="auto", client_info=info("audit94-a")) as a:
            await step(a, {"label": "A first", "name": "lookup", "args": {"orderId": "A-1"}})
            async with Client(url, mode="auto", client_info=info("audit94-b")) as b:
                await step(b, {"label": "B while A idle", "name": "lookup", "args": {"orderId": "B-1"}})
                await step(a, {"label": "A again while B open", "name": "lookup", "args": {"orderId": "A-2"}})
                await step(b, {"label": "B again", "name": "lookup", "args": {"orderId": "B-2"}})
        return
    async with Client(url, mode="auto", client_info=info("audit94-py"), elicitation_callback=on_elicit) as c:
        for s in json.loads(plan):
            await step(c, s)


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append({"label": "uncaught", "error": {"name": type(e).__name__, "message": str(e)[:300]}})
print(json.dumps({"seen": seen}), flush=True)
