# The Python side of test/real-xsdk-resume/record.mjs: one Python SDK (mcp 2.3.0) Client calls one tool with a progress callback and prints what it got (one JSON line).
#   /work/py-venv/bin/python test/real-xsdk-resume/py_client.py URL TOOL ARGS_JSON READ_TIMEOUT_S
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import describe  # noqa: E402


async def main(url: str, tool: str, args: dict, timeout: float) -> dict:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Implementation

    progress: list = []

    async def on_progress(p, total, message) -> None:
        progress.append(p)

    out: dict = {}
    async with httpx2.AsyncClient(timeout=httpx2.Timeout(10.0, read=10.0)) as hc:
        async with Client(
            streamable_http_client(url, http_client=hc),
            mode="legacy",
            client_info=Implementation(name="xsdk-resume-py-app", version="2.3.0"),
            read_timeout_seconds=timeout,
        ) as c:
            try:
                res = await c.call_tool(tool, args, progress_callback=on_progress)
                out = {"ok": True, "isError": bool(res.is_error), "text": " ".join(getattr(x, "text", "") for x in res.content)}
            except Exception as err:  # noqa: BLE001 - what the caller got is the point
                out = {"ok": False, "error": describe(err)}
    out["progress"] = progress
    return out


if __name__ == "__main__":
    got = asyncio.run(asyncio.wait_for(main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), float(sys.argv[4])), 30))
    print(json.dumps(got), flush=True)
