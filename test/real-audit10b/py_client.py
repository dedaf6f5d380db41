# Python side of test/real-audit10b/record.mjs: the Python SDK (mcp 2.3.0) Client in legacy mode behind the 504 hop, retrying each call once 0.3 s after an error.
#   PYTHON py_client.py gateway-504 URL   -> what the caller saw (one JSON line)
import asyncio
import json
import sys


def describe(err: BaseException) -> str:
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(describe(e) for e in err.exceptions)
    code = getattr(getattr(err, "error", None), "code", None)
    return f"{type(err).__name__}{f' {code}' if code is not None else ''}: {str(err)[:200]}"


async def gateway_504(url: str, seen: list) -> None:
    from mcp import Client
    from mcp_types import Implementation
    try:
        async with Client(url, mode="legacy", client_info=Implementation(name="py-billing-agent", version="2.3.0")) as c:
            await c.list_tools()
            for tool in ("send_invoice", "get_balance"):
                for n in (1, 2):
                    try:
                        r = await c.call_tool(tool, {"account": "ACME-42"})
                        seen.append({"label": f"{tool} #{n}", "isError": bool(r.is_error), "text": " ".join(getattr(x, "text", "") for x in r.content)})
                        break
                    except BaseException as err:  # noqa: BLE001
                        seen.append({"label": f"{tool} #{n}", "error": describe(err)})
                        await asyncio.sleep(0.3)
    except BaseException as err:  # noqa: BLE001
        seen.append({"uncaught": describe(err)})


async def main(which: str, url: str) -> list:
    seen: list = []
    await {"gateway-504": gateway_504}[which](url, seen)
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
