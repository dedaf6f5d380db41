# The Python SDK (mcp 2.3.0) client app of test/real-audit89/record.mjs: calls the tools of its plan, retrying a failed call once, and prints one JSON line per step; its DEBUG log goes to LOG_FILE.
#   /work/py-venv/bin/python test/real-audit89/py_app.py URL PLAN_JSON LOG_FILE [banner]   (PLAN_JSON: [{"tool": ..., "orderId": ..., "retry": 0|1}, ...])
#   banner: the app first logs its start-up section (its settings, one a line, at INFO), as many apps do, before it connects.
import asyncio
import json
import logging
import re
import sys

logging.basicConfig(level=logging.DEBUG, filename=sys.argv[3], format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")


def say(**o) -> None:
    print(json.dumps(o), flush=True)


def clean(s: str) -> str:
    return re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:<port>", UUID.sub("<session>", s))[:300]


def banner(url: str) -> None:
    log = logging.getLogger("orders_app")
    log.info("orders-app 1.4.2 starting")
    settings = {"mcp_url": url, "timeout_s": 30, "read_timeout_s": 60, "retries": 1, "log_level": "DEBUG", "region": "eu-west-1",
                "orders_db": "postgres://orders@db.internal/orders", "cache": "redis://cache.internal:6379/0", "feature_refunds": True,
                "feature_invoices": True, "worker_threads": 4, "queue": "orders-events", "tracing": False, "metrics_port": 9464,
                "tz": "UTC", "api_key": "sk-fake-0000"}
    for k, v in settings.items():
        log.info("setting %s = %s", k, "****" if k == "api_key" else v)
    log.info("health check: db ok, cache ok, queue ok")
    log.info("ready: connecting to the orders MCP server")


async def main(url: str, plan: list) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    import mcp_types as t

    hc = httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=60.0))
    async with hc:
        async with Client(streamable_http_client(url, http_client=hc), mode="legacy", client_info=t.Implementation(name="audit89-py-app", version="1.0.0")) as c:
            say(step="connect", ok="connected")
            for s in plan:
                label = f"{s['tool']} {s['orderId']}"
                for i in range(1 + s.get("retry", 0)):
                    try:
                        r = await c.call_tool(s["tool"], {"orderId": s["orderId"]})
                        text = " ".join(getattr(b, "text", "") for b in r.content)[:120]
                        say(step=label if i == 0 else f"{label} (the app's retry)", ok={"isError": bool(getattr(r, "is_error", False)), "text": text})
                        if not getattr(r, "is_error", False):
                            break
                    except BaseException as e:  # noqa: BLE001
                        while isinstance(e, BaseExceptionGroup) and e.exceptions:
                            e = e.exceptions[0]
                        say(step=label if i == 0 else f"{label} (the app's retry)", threw={"name": type(e).__name__, "message": clean(str(e)), **({"code": e.error.code} if getattr(getattr(e, "error", None), "code", None) is not None else {})})
                    await asyncio.sleep(0.2)


if len(sys.argv) > 4 and sys.argv[4] == "banner":
    banner(sys.argv[1])
asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
