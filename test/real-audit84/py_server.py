# The Python server of test/real-audit84/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn, its streamable_http_app with host 127.0.0.1, so its transport security (DNS-rebinding protection) is on by default.
#   /work/py-venv/bin/python test/real-audit84/py_server.py PORT [MAX_BODY]   (MAX_BODY: max_request_body_size, 4 MiB by default)
# Tools: lookup_order (readOnlyHint), send_invoice (unannotated). Prints one JSON line per tool body that ran ({"ran": ...}).
import json
import sys

import uvicorn

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations


def main(port: int, max_body: int | None) -> None:
    mcp = MCPServer("audit84-py", version="2.3.0")

    @mcp.tool(description="Look up an order", annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_order(orderId: str) -> str:
        print(json.dumps({"ran": f"lookup_order {orderId[:40]}"}), flush=True)
        return f"order {orderId[:40]}: shipped"

    @mcp.tool(description="Send the invoice of an order")
    async def send_invoice(orderId: str) -> str:
        print(json.dumps({"ran": f"send_invoice {orderId[:40]}"}), flush=True)
        return f"invoice for {orderId[:40]} sent"

    # host 127.0.0.1 (the default): allowed_hosts 127.0.0.1:*, localhost:*, [::1]:*; origins http://127.0.0.1:* ...
    app = mcp.streamable_http_app(host="127.0.0.1", **({"max_request_body_size": max_body} if max_body else {}))
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else None)
