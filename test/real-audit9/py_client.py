# Python side of test/real-audit9/record.mjs: the Python SDK (mcp 2.3.0) Client in legacy mode against its servers (a draft protocol version, a URL elicitation).
#   PYTHON py_client.py version|url-elicitation URL   -> what the caller saw (one JSON line)
import asyncio
import json
import sys


def describe(err: BaseException) -> str:
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(describe(e) for e in err.exceptions)
    code = getattr(getattr(err, "error", None), "code", None)
    return f"{type(err).__name__}{f' {code}' if code is not None else ''}: {str(err)[:200]}"


async def version(url: str, seen: list) -> None:
    from mcp import Client
    from mcp_types import Implementation
    for attempt in (1, 2):
        try:
            async with Client(url, mode="legacy", client_info=Implementation(name="py-support-bot", version="2.3.0")) as c:
                seen.append({"connect": attempt, "ok": True})
                r = await c.call_tool("lookup", {})
                seen.append({"lookup": [getattr(x, "text", "") for x in r.content]})
        except BaseException as err:  # noqa: BLE001
            seen.append({"connect": attempt, "error": describe(err)})
        await asyncio.sleep(0.3)


async def url_elicitation(url: str, seen: list) -> None:
    from mcp import Client
    from mcp_types import Implementation
    try:
        async with Client(url, mode="legacy", client_info=Implementation(name="py-checkout-agent", version="2.3.0")) as c:
            await c.list_tools()
            for label in ("charge #1", "charge #2"):
                try:
                    r = await c.call_tool("charge_card", {"order": "ORD-8", "cents": 1299})
                    seen.append({"label": label, "isError": bool(r.is_error), "text": " ".join(getattr(x, "text", "") for x in r.content)})
                    break
                except BaseException as err:  # noqa: BLE001
                    seen.append({"label": label, "error": describe(err)})
                    await asyncio.sleep(0.4)  # the user confirms in the browser
    except BaseException as err:  # noqa: BLE001
        seen.append({"uncaught": describe(err)})


async def main(which: str, url: str) -> list:
    seen: list = []
    await {"version": version, "url-elicitation": url_elicitation}[which](url, seen)
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
