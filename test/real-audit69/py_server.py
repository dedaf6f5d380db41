# Python side of test/real-audit69/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn 0.54.0, run the documented ways with the default log config; its console (stdout and stderr) is the log.
#   /work/py-venv/bin/python test/real-audit69/py_server.py MODE PORT RAN_FILE > server.log 2>&1
#   MODE run: mcp.run(transport="streamable-http", port=PORT) as the README shows it;
#   MODE uvicorn: uvicorn.run(app, port=PORT) on mcp.streamable_http_app(), wrapped in a plain ASGI function that raises
#   on a POST whose body names the tool "crash" (an app's middleware bug: uvicorn answers 500 and prints the traceback).
import sys

import anyio
import uvicorn
from starlette.requests import Request
from starlette.responses import PlainTextResponse

from mcp.server.mcpserver import MCPServer


def main(mode: str, port: int, ran_file: str) -> None:
    def ran(line: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    mcp = MCPServer("py-audit69-server", version="2.3.0")

    @mcp.tool()
    async def lookup_order(orderId: str) -> str:  # noqa: N803 - the TypeScript servers' argument name
        await anyio.sleep(0.02)
        ran(f"lookup {orderId}")
        return f"order {orderId}: shipped"

    @mcp.tool()
    async def refund_order(orderId: str) -> str:  # noqa: N803
        ran(f"refund {orderId}")
        raise ValueError(f"order {orderId} cannot be refunded: already refunded")

    @mcp.tool()
    async def slow_report(month: str) -> str:
        await anyio.sleep(1.5)
        ran(f"report {month}")
        return f"report for {month}"

    @mcp.custom_route("/health", methods=["GET"])
    async def health(_request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    if mode == "run":
        mcp.run(transport="streamable-http", port=port)
        return

    app = mcp.streamable_http_app()

    async def crashing(scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await app(scope, receive, send)
        chunks = []
        more = True
        while more:
            msg = await receive()
            chunks.append(msg.get("body", b""))
            more = msg.get("more_body", False)
        body = b"".join(chunks)
        if b'"name":"crash"' in body:
            raise RuntimeError("inventory backend unreachable")
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return await app(scope, replay, send)

    uvicorn.run(crashing, host="127.0.0.1", port=port)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3])
