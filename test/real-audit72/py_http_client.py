# The Python mcp 2.3.0 HTTP client of test/real-audit72/record.mjs: mcp.Client (legacy mode) at argv[1] (mcpsnoop http in front of a server); prints what each step got, as JSON.
import asyncio
import json
import sys


async def main(url: str) -> list:
    from mcp import Client
    from mcp_types import Implementation

    out: list = []
    async with Client(url, mode="legacy", client_info=Implementation(name="audit72-py-app", version="2.3.0")) as c:
        for label, name, args in [("lookup_order A-1", "lookup_order", {"orderId": "A-1"}), ("refund_order A-2", "refund_order", {"orderId": "A-2"}), ("no_such_tool", "no_such_tool", {})]:
            try:
                res = await c.call_tool(name, args)
                out.append({"label": label, "ok": {"isError": bool(res.is_error), "text": " ".join(getattr(b, "text", "") for b in res.content)[:200]}})
            except BaseException as e:  # noqa: BLE001
                out.append({"label": label, "error": {"name": type(e).__name__, "message": str(e)[:300], **({"code": e.error.code} if getattr(getattr(e, "error", None), "code", None) is not None else {})}})
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1]))), flush=True)
