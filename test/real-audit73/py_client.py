# Python side of test/real-audit73/record.mjs: the Python SDK (mcp 2.3.0) Client in legacy mode through mcpsnoop's HTTP proxy: one healthy call and one isError call.
#   PYTHON py_client.py URL   -> what the caller saw (one JSON line)
import asyncio
import json
import sys


def describe(err: BaseException) -> str:
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(describe(e) for e in err.exceptions)
    return f"{type(err).__name__}: {str(err)[:200]}"


async def main(url: str) -> list:
    from mcp import Client
    from mcp_types import Implementation
    seen: list = []
    try:
        async with Client(url, mode="legacy", client_info=Implementation(name="py-audit73-agent", version="2.3.0")) as c:
            for label, name, args in (("call lookup_order", "lookup_order", {"orderId": "P-1"}), ("call refund_order", "refund_order", {"orderId": "P-2"})):
                try:
                    r = await c.call_tool(name, args)
                    seen.append({"label": label, "ok": {"isError": bool(r.is_error), "text": " ".join(getattr(b, "text", "") for b in r.content)[:200]}})
                except BaseException as err:  # noqa: BLE001
                    seen.append({"label": label, "error": describe(err)})
    except BaseException as err:  # noqa: BLE001
        seen.append({"uncaught": describe(err)})
    return seen


print(json.dumps(asyncio.run(main(sys.argv[1]))))
