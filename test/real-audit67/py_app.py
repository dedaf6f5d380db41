# The sixty-seventh audit's Python SDK (mcp 2.3.0) client app: runs the tool calls of env STEPS (the JSON of app.mjs) and catches a failed call to make it again once where a step says retry; its DEBUG log goes to client-debug.log, the wire to the record proxy in front of it.
# argv: URL; env READ_S: the httpx client's read timeout in seconds (300, the SDK's default client's, when unset). Each step's timeout (ms) is call_tool's read_timeout_seconds (absent: the client's, None by default: no
# timeout). truth-client.ndjson: each call as the app saw it. Exit 1 when the last call raised, 2 when connect failed.
import asyncio
import json
import logging
import os
import sys
import time
from datetime import datetime, timezone

RUN = int(os.environ.get("RUN", "1"))
logging.basicConfig(level=logging.DEBUG, filename="client-debug.log", format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")


def truth(**o):
    with open("truth-client.ndjson", "a") as f:
        f.write(json.dumps({"ts": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"), "run": RUN, **o}) + "\n")


async def main(url):
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    import mcp_types as t

    async with httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=float(os.environ.get("READ_S", "300")))) as hc:
        async with Client(streamable_http_client(url, http_client=hc), mode="legacy", client_info=t.Implementation(name="audit67-py", version="1.0.0")) as c:
            truth(step="connect", ok=True)
            ok = True

            async def one(s, by, n):
                t0 = time.time()
                kw = {"read_timeout_seconds": s["timeout"] / 1000} if s.get("timeout") else {}
                started = datetime.fromtimestamp(t0, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
                try:
                    r = await c.call_tool(s["tool"], s["args"], **kw)
                    truth(step=n, tool=s["tool"], args=s["args"], by=by, ok=True, isError=bool(r.is_error), started=started, ms=int((time.time() - t0) * 1000))
                    return True
                except Exception as e:  # noqa: BLE001
                    truth(step=n, tool=s["tool"], args=s["args"], by=by, ok=False, error=f"{type(e).__name__}: {str(e)[:200]}", code=getattr(getattr(e, "error", None), "code", None), name=type(e).__name__, started=started, ms=int((time.time() - t0) * 1000))
                    return False

            for n, s in enumerate(json.loads(os.environ["STEPS"])):
                if s.get("waitMs"):
                    await asyncio.sleep(s["waitMs"] / 1000)
                ok = await one(s, "app", n)
                if not ok and s.get("retry"):
                    ok = await one(s, "app-retry", n)
            await asyncio.sleep(0.3)
            return ok


try:
    good = asyncio.run(main(sys.argv[1]))
except BaseException as e:  # noqa: BLE001
    truth(step="connect", ok=False, error=f"{type(e).__name__}: {str(e)[:200]}")
    sys.exit(2)
sys.exit(0 if good else 1)
