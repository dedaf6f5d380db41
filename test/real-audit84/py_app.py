# The Python SDK (mcp 2.3.0) client app of test/real-audit84/record.mjs: runs the scenario's plan (the same steps as the TypeScript app) and prints one JSON line per step (what the caller got or raised); its DEBUG log goes to LOG_FILE.
#   /work/py-venv/bin/python test/real-audit84/py_app.py URL PLAN_JSON LOG_FILE   (PLAN_JSON: {"plan": [...], "origin": null | "https://..."})
import asyncio
import json
import logging
import re
import sys

logging.basicConfig(level=logging.DEBUG, filename=sys.argv[3], format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")


def clean(s: str) -> str:
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", UUID.sub("<session>", s))[:300]


def say(**o) -> None:
    print(json.dumps(o), flush=True)


def short(r):
    if hasattr(r, "tools"):
        return {"tools": [t.name for t in r.tools]}
    if hasattr(r, "content"):
        return {"isError": bool(getattr(r, "is_error", False)), "text": " ".join(getattr(c, "text", "") for c in r.content)[:120]}
    return r


async def main(url: str, spec: dict) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    import mcp_types as t

    headers = {"Origin": spec["origin"]} if spec.get("origin") else {}
    stack: list = []

    async def new_client():
        hc = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0))
        cm = Client(streamable_http_client(url, http_client=hc), mode="legacy", client_info=t.Implementation(name="audit84-py-app", version="1.0.0"))
        try:
            c = await cm.__aenter__()
        except BaseException:
            await hc.aclose()
            raise
        stack.append((cm, hc))
        return c

    async def close():
        while stack:
            cm, hc = stack.pop()
            try:
                await cm.__aexit__(None, None, None)
            except BaseException:  # noqa: BLE001
                pass
            await hc.aclose()

    async def attempt(label, coro_fn):
        try:
            r = await coro_fn()
            say(step=label, ok=short(r))
            return True, r
        except BaseException as e:  # noqa: BLE001
            while isinstance(e, BaseExceptionGroup) and e.exceptions:
                e = e.exceptions[0]
            say(step=label, threw={"name": type(e).__name__, "message": clean(str(e)), **({"code": e.error.code} if getattr(getattr(e, "error", None), "code", None) is not None else {})})
            return False, None

    c = None

    async def connect():
        nonlocal c
        c = await new_client()
        return "connected"

    for s in spec["plan"]:
        op = s["op"]
        if op == "connect":
            tries = s.get("tries", 1)
            for i in range(1, tries + 1):
                ok, _ = await attempt(f"connect (new Client, try {i})", connect)
                if ok:
                    break
                if i < tries:
                    await asyncio.sleep(s["waitMs"] / 1000)
            if c is None:
                say(step="the app gives up: no connection")
                break
        elif op == "list":
            await attempt("tools/list", lambda: c.list_tools())
        elif op == "call":
            oid = s["id"] + "x" * s["big"] if s.get("big") else s["id"]
            label = f"{s['tool']} {oid if len(oid) <= 40 else oid[:12] + '... (' + str(len(oid)) + ' chars)'}"
            good, _ = await attempt(label, lambda: c.call_tool(s["tool"], {"orderId": oid}))
            for i in range(s.get("retry", 0)):
                if good:
                    break
                await asyncio.sleep(0.2)
                good, _ = await attempt(f"{label} (the app's retry {i + 1}, same Client)", lambda: c.call_tool(s["tool"], {"orderId": oid}))
            if not good and s.get("reconnect"):
                await asyncio.sleep(0.2)
                await close()
                c = None
                ok, _ = await attempt("connect (new Client after the failures)", connect)
                if ok:
                    await attempt(f"{label} (after reconnecting)", lambda: c.call_tool(s["tool"], {"orderId": oid}))
                else:
                    say(step="the app gives up")
                    break
        elif op == "preflight":
            async with httpx2.AsyncClient() as hc:
                async def pre():
                    r = await hc.request("OPTIONS", url, headers={"Origin": spec["origin"], "Access-Control-Request-Method": "POST"})
                    return {"status": r.status_code, "allowOrigin": r.headers.get("access-control-allow-origin"), "body": r.text[:120]}
                await attempt("OPTIONS /mcp (CORS preflight)", pre)
        elif op == "close":
            await close()
            c = None
    await close()


asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
