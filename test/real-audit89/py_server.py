# The Python server of test/real-audit89/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn at log level info, so its console (stdout and stderr) has uvicorn's lines; one JSON line per tool body that ran goes to RAN_FILE.
#   /work/py-venv/bin/python test/real-audit89/py_server.py PORT RAN_FILE [DEBUG_LOG]   (DEBUG_LOG: the SDK's DEBUG lines, logging's default format with the time)
# Tools: lookup_order (readOnlyHint), send_invoice (unannotated; its first run raises: the SDK answers a tool error), refund (always a tool error).
import json
import logging
import sys

RAN = open(sys.argv[2], "a", buffering=1)

import uvicorn

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations

runs = {"send_invoice": 0}


def main(port: int) -> None:
    if len(sys.argv) > 3:
        handler = logging.FileHandler(sys.argv[3])
        handler.setFormatter(logging.Formatter("%(asctime)s - %(name)s - %(levelname)s - %(message)s"))
        logging.getLogger("mcp").addHandler(handler)
        logging.getLogger("mcp").setLevel(logging.DEBUG)
    mcp = MCPServer("audit89-py", version="2.3.0")

    @mcp.tool(description="Look up an order", annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_order(orderId: str) -> str:
        RAN.write(json.dumps({"ran": f"lookup_order {orderId[:40]}"}) + "\n")
        return f"order {orderId[:40]}: shipped"

    @mcp.tool(description="Send the invoice of an order")
    async def send_invoice(orderId: str) -> str:
        runs["send_invoice"] += 1
        RAN.write(json.dumps({"ran": f"send_invoice {orderId[:40]}", "run": runs["send_invoice"]}) + "\n")
        if runs["send_invoice"] == 1:
            raise RuntimeError("mail relay refused the connection")
        return f"invoice for {orderId[:40]} sent"

    @mcp.tool(description="Refund an order")
    async def refund(orderId: str) -> str:
        RAN.write(json.dumps({"ran": f"refund {orderId[:40]}"}) + "\n")
        raise ValueError(f"refund of {orderId[:40]} failed: payment gateway busy")

    app = mcp.streamable_http_app(host="127.0.0.1")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="info")


if __name__ == "__main__":
    main(int(sys.argv[1]))
