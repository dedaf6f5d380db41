# The thirteenth audit's Python client (the Python SDK's Client, mcp 2.3.0): runs the calls given as JSON against a URL and prints what it got, for record.mjs's py-* scenarios.
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import Observer  # noqa: E402


def summarize(result):
    content = getattr(result, "content", None)
    if content is not None:
        return {"isError": bool(getattr(result, "is_error", False)), "text": " ".join(getattr(b, "text", "") for b in content)[:240]}
    tools = getattr(result, "tools", None)
    if tools is not None:
        return {"tools": len(tools)}
    return None


async def main(url: str, mode: str, calls: list) -> dict:
    from mcp import Client
    from mcp_types import Implementation

    o = Observer(summarize, 300)
    try:
        async with Client(url, mode=mode, client_info=Implementation(name="py-audit13-client", version="2.3.0")) as c:
            o.observed["notes"].append({"protocolVersion": getattr(c, "protocol_version", None) or getattr(getattr(c, "session", None), "protocol_version", None)})
            await o.step("list_tools", c.list_tools())
            for name, args, timeout in calls:
                await o.step(f"{name} {json.dumps(args)}", c.call_tool(name, args, read_timeout_seconds=timeout))
            await asyncio.sleep(0.2)
    except BaseException as err:  # noqa: BLE001
        from recording import describe

        o.observed["notes"].append({"uncaught": describe(err)})
    return o.observed


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3])))))
