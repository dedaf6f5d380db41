# The Python SDK (mcp 2.3.0) client app of test/real-audit96/record.mjs: its httpx2 client logs each POST and DELETE exchange by event hooks (one JSON line each, as such hooks are written); prints one JSON line per step.
#   /work/py-venv/bin/python test/real-audit96/py_hooks_app.py URL PLAN_JSON LOG_FILE   (PLAN_JSON: [{"tool": ..., "orderId": ..., "retry": 0|1}, ...])
import asyncio
import json
import re
import sys
import time
from datetime import datetime, timezone

UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")
LOG = sys.argv[3]
started: dict[int, float] = {}


def say(**o) -> None:
    print(json.dumps(o), flush=True)


def clean(s: str) -> str:
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", UUID.sub("<session>", s))[:300]


async def on_request(request) -> None:
    started[id(request)] = time.time()


async def on_response(response) -> None:
    request = response.request
    if request.method == "GET":  # the event stream stays open: not logged
        return
    t0 = started.pop(id(request), time.time())
    await response.aread()
    line = {
        "timestamp": datetime.fromtimestamp(t0, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "method": request.method, "url": str(request.url), "request_headers": dict(request.headers),
        "request_body": request.content.decode("utf-8") or None, "status_code": response.status_code,
        "response_headers": dict(response.headers), "response_body": response.text, "elapsed_ms": round((time.time() - t0) * 1000, 1),
    }
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


async def main(url: str, plan: list) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    import mcp_types as t

    hc = httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=60.0), event_hooks={"request": [on_request], "response": [on_response]})
    async with hc:
        async with Client(streamable_http_client(url, http_client=hc), mode="legacy", client_info=t.Implementation(name="audit96-py-app", version="1.0.0")) as c:
            say(step="connect", ok="connected")
            for s in plan:
                label = f"{s['tool']} {s['orderId']}"
                for i in range(1 + s.get("retry", 0)):
                    try:
                        r = await c.call_tool(s["tool"], {"orderId": s["orderId"]})
                        text = " ".join(getattr(b, "text", "") for b in r.content)[:120]
                        say(step=label if i == 0 else f"{label} (the app's call again)", ok={"isError": bool(getattr(r, "is_error", False)), "text": text})
                        if not getattr(r, "is_error", False):
                            break
                    except BaseException as e:  # noqa: BLE001
                        while isinstance(e, BaseExceptionGroup) and e.exceptions:
                            e = e.exceptions[0]
                        say(step=label if i == 0 else f"{label} (the app's call again)", threw={"name": type(e).__name__, "message": clean(str(e))})
                    await asyncio.sleep(0.15)


asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
