# The Python app of test/real-audit97/record.mjs: the Python SDK 2.3.0 Client (mode "auto" or "legacy") runs a plan given
# as JSON (each call's tool, arguments, timeout and the app's retry policy) and prints what each call got or raised.
# With `connect` in the plan (audit 101): the policy also on a failed connect (a new Client) and tools/list, the calls but
# the last at once (asyncio.gather), and the SDK's own DEBUG log written to `debugLog`.
#   /work/py-venv/bin/python py_app.py URL PLAN_JSON
import asyncio, json, logging, sys, time

url, plan = sys.argv[1], json.loads(sys.argv[2])
seen = []
if plan.get("debugLog"):
    logging.basicConfig(level=logging.DEBUG, filename=plan["debugLog"], format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")


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


async def step(base, policy, fn):
    tries = 1 + policy["retries"]
    for i in range(tries):
        t0 = time.monotonic()
        label = base["label"] + (f" (the app's attempt {i + 1})" if i else "")
        try:
            r = await fn()
            ok = True
            if r is not None and hasattr(r, "content"):
                ok = {"isError": bool(getattr(r, "is_error", False)), "text": " ".join(getattr(b, "text", "") for b in (r.content or []))[:200]}
            seen.append({**base, "label": label, "attempt": i + 1, "ok": ok, "ms": round((time.monotonic() - t0) * 1000)})
            return True
        except Exception as e:  # noqa: BLE001 - what the app saw
            seen.append({**base, "label": label, "attempt": i + 1, "error": err_of(e), "ms": round((time.monotonic() - t0) * 1000)})
            if i + 1 < tries:
                await asyncio.sleep(policy["delays"][i] / 1000)
    return False


async def main101():
    from mcp import Client
    import mcp_types as t

    async def on_elicit(ctx, params):
        seen.append({"elicitation": params.message})
        return t.ElicitResult(action="accept", content={"reason": "damaged"})

    policy = plan["connect"]
    for i in range(1 + policy["retries"]):
        t0 = time.monotonic()
        label = "connect" + (f" (the app's attempt {i + 1})" if i else "")
        opened = False
        try:
            async with Client(url, mode=plan["mode"], client_info=t.Implementation(name="audit97-py-app", version="2.3.0"), elicitation_callback=on_elicit) as c:
                opened = True
                seen.append({"label": label, "step": "initialize", "attempt": i + 1, "ok": True, "ms": round((time.monotonic() - t0) * 1000)})
                if await step({"label": "tools/list", "step": "tools/list"}, policy, c.list_tools):
                    call = lambda x: (lambda: c.call_tool(x["tool"], x["args"], read_timeout_seconds=x["timeoutMs"] / 1000))
                    drawn, follow = plan["calls"][:-1], plan["calls"][-1]
                    await asyncio.gather(*(step({"label": x["label"], "call": x["label"]}, x, call(x)) for x in drawn))
                    await step({"label": follow["label"], "call": follow["label"]}, follow, call(follow))
            return
        except Exception as e:  # noqa: BLE001 - what the app saw
            if opened:
                seen.append({"label": "uncaught", "error": err_of(e)})
                return
            seen.append({"label": label, "step": "initialize", "attempt": i + 1, "error": err_of(e), "ms": round((time.monotonic() - t0) * 1000)})
            if i < policy["retries"]:
                await asyncio.sleep(policy["delays"][i] / 1000)


try:
    asyncio.run(main101() if plan.get("connect") else main())
except BaseException as e:  # noqa: BLE001
    seen.append({"label": "uncaught", "error": err_of(e)})
print(json.dumps({"seen": seen}), flush=True)
