# The Python app of test/real-audit97/record.mjs: the Python SDK 2.3.0 Client (mode "auto" or "legacy") runs a plan given
# as JSON (each call's tool, arguments, timeout and the app's retry policy) and prints what each call got or raised.
#   /work/py-venv/bin/python py_app.py URL PLAN_JSON
import asyncio, json, sys, time

url, plan = sys.argv[1], json.loads(sys.argv[2])
seen = []


def err_of(e):
    inner = e
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    err = {"name": type(inner).__name__, "message": str(inner)[:300]}
    if getattr(inner, "code", None) is not None:
        err["code"] = inner.code
    return err


async def main():
    from mcp import Client
    import mcp_types as t

    async def on_elicit(ctx, params):
        seen.append({"elicitation": params.message})
        return t.ElicitResult(action="accept", content={"reason": "damaged"})

    async with Client(url, mode=plan["mode"], client_info=t.Implementation(name="audit97-py-app", version="2.3.0"), elicitation_callback=on_elicit) as c:
        seen.append({"label": "connect", "ok": True})
        await c.list_tools()
        for call in plan["calls"]:
            tries = 1 + call["retries"]
            for i in range(tries):
                t0 = time.monotonic()
                label = call["label"] + (f" (the app's attempt {i + 1})" if i else "")
                try:
                    r = await c.call_tool(call["tool"], call["args"], read_timeout_seconds=call["timeoutMs"] / 1000)
                    text = " ".join(getattr(b, "text", "") for b in (r.content or []))
                    seen.append({"label": label, "call": call["label"], "attempt": i + 1, "ok": {"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}, "ms": round((time.monotonic() - t0) * 1000)})
                    break
                except Exception as e:  # noqa: BLE001 - what the app saw
                    seen.append({"label": label, "call": call["label"], "attempt": i + 1, "error": err_of(e), "ms": round((time.monotonic() - t0) * 1000)})
                    if i + 1 < tries:
                        await asyncio.sleep(call["delays"][i] / 1000)


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append({"label": "uncaught", "error": err_of(e)})
print(json.dumps({"seen": seen}), flush=True)
