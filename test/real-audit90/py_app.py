# The ninetieth audit's Python app (run by record.mjs): two sessions of the Python SDK 2.3.0 Client started at once by
# one app, each calling lookup_order {"orderId": "A-1"}: their initialize (id 0) and tools/call (id 1) lines are the
# same text, and the DEBUG log (logging's default BASIC_FORMAT) has no times. argv: URL LOGFILE. Prints {"seen": [...]}.
import asyncio, json, logging, sys, time

URL, LOG = sys.argv[1], sys.argv[2]
logging.basicConfig(level=logging.DEBUG, filename=LOG)  # BASIC_FORMAT: "%(levelname)s:%(name)s:%(message)s", no time
logging.getLogger("httpcore2").setLevel(logging.WARNING)

from mcp import Client
from mcp.client.streamable_http import streamable_http_client

seen = []

async def one(label):
    t0 = time.time()
    try:
        async with Client(streamable_http_client(URL), mode="legacy") as c:
            r = await c.call_tool("lookup_order", {"orderId": "A-1"})
            seen.append({"label": label, "ok": {"isError": bool(r.is_error), "text": r.content[0].text if r.content else None}, "ms": int((time.time() - t0) * 1000)})
    except BaseException as e:
        seen.append({"label": label, "error": {"name": type(e).__name__, "message": str(e)[:200]}, "ms": int((time.time() - t0) * 1000)})

async def main():
    await asyncio.gather(one("session 1 lookup_order A-1"), one("session 2 lookup_order A-1"))
    print(json.dumps({"seen": seen}), flush=True)

asyncio.run(main())
