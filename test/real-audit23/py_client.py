# Python SDK 2.3.0 client for the audit23 scenarios: connect, list tools, call lookup; prints steps as JSON.
import asyncio, json, sys

def describe(err):
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    return {"name": type(inner).__name__, "message": str(inner)[:300]}

async def main(url):
    from mcp import Client
    from mcp_types import Implementation
    steps = []
    async def body():
        async with Client(url, mode="legacy", client_info=Implementation(name="audit23-py", version="2.3.0")) as c:
            steps.append({"step": "connect", "ok": True})
            for label, fn in (("list tools", lambda: c.list_tools()), ("call lookup", lambda: c.call_tool("lookup", {"sku": "A-1"}))):
                try:
                    r = await asyncio.wait_for(fn(), 4)
                    d = {"step": label, "ok": True, "isError": bool(getattr(r, "is_error", False))}
                    if hasattr(r, "content"):
                        d["text"] = " ".join(getattr(b, "text", "?") for b in r.content)[:200]
                    steps.append(d)
                except BaseException as err:  # noqa
                    steps.append({"step": label, "ok": False, "error": describe(err)})
    try:
        await asyncio.wait_for(body(), 15)
    except BaseException as err:  # noqa
        steps.append({"step": "session", "ok": False, "error": describe(err)})
    print(json.dumps(steps))

asyncio.run(main(sys.argv[1]))
