# The app of test/real-audit104/record.mjs: the Python SDK 2.3.0 Client (mode "auto") with Python logging at DEBUG (the
# SDK's, httpx's and httpcore's lines) into two files at once: LOG in "%(asctime)s - %(name)s - %(levelname)s - %(message)s"
# and BASIC_LOG in logging's default format (no times). Runs PLAN (a JSON list of steps) and prints what each call got or
# raised. A step may retry once after an error ("retryAfterMs") or run under the app's own anyio cancel scope ("cancelAfter").
#   /work/py-venv/bin/python py_app.py URL LOG BASIC_LOG PLAN
import asyncio, json, logging, sys, time

import anyio

url, log_file, basic_file, plan = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
root = logging.getLogger()
root.setLevel(logging.DEBUG)
for path, fmt in ((log_file, "%(asctime)s - %(name)s - %(levelname)s - %(message)s"), (basic_file, logging.BASIC_FORMAT)):
    h = logging.FileHandler(path)
    h.setFormatter(logging.Formatter(fmt))
    root.addHandler(h)
seen = []


async def main():
    from mcp import Client
    import mcp_types as t

    async def call(c, s, rec):
        t0 = time.monotonic()
        try:
            if s.get("cancelAfter") is not None:
                r = None
                with anyio.move_on_after(s["cancelAfter"]) as scope:
                    r = await c.call_tool(s["name"], s["args"], read_timeout_seconds=s.get("timeout", 5))
                if scope.cancelled_caught:
                    rec["cancelled"] = f"the app's anyio.move_on_after({s['cancelAfter']}) cancelled the call"
                    return False
            else:
                r = await c.call_tool(s["name"], s["args"], read_timeout_seconds=s.get("timeout", 5))
            text = " ".join(getattr(b, "text", "") for b in (r.content or []))
            rec["ok"] = {"isError": bool(getattr(r, "is_error", False)), "text": text[:200]}
            return True
        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
            inner = e
            while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
                inner = inner.exceptions[0]
            err = {"name": type(inner).__name__, "message": str(inner)[:300]}
            if getattr(inner, "code", None) is not None:
                err["code"] = inner.code
            rec["error"] = err
            return False
        finally:
            rec["ms"] = round((time.monotonic() - t0) * 1000)

    async def step(c, s):
        rec = {"label": s["label"], "tool": s["name"], "args": s["args"]}
        if s.get("timeout") is not None:
            rec["read_timeout_seconds"] = s["timeout"]
        ok = await call(c, s, rec)
        seen.append(rec)
        if not ok and s.get("retryAfterMs") is not None:
            await asyncio.sleep(s["retryAfterMs"] / 1000)
            again = {"label": f"{s['label']}: the app's retry {s['retryAfterMs']} ms later", "tool": s["name"], "args": s["args"], "waitedMs": s["retryAfterMs"]}
            await call(c, s, again)
            seen.append(again)

    async with Client(url, mode="auto", client_info=t.Implementation(name="audit104-py", version="2.3.0")) as c:
        for s in json.loads(plan):
            await step(c, s)


try:
    asyncio.run(main())
except BaseException as e:  # noqa: BLE001
    seen.append({"label": "uncaught", "error": {"name": type(e).__name__, "message": str(e)[:300]}})
print(json.dumps({"seen": seen}), flush=True)
