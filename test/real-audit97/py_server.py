# The Python server of test/real-audit97/record.mjs: the Python SDK 2.3.0 MCPServer on uvicorn (streamable HTTP, its
# defaults: both protocol eras); each tool body that runs prints one JSON line {"ran": ...} to stdout.
#   /work/py-venv/bin/python py_server.py PORT
import json, logging, sys
from typing import Annotated
import uvicorn
from pydantic import BaseModel
import mcp_types as t
from mcp import MCPError
from mcp.server.mcpserver import Elicit, MCPServer, Resolve

sys.stdout.reconfigure(line_buffering=True)
mcp = MCPServer("audit97-py", version="2.3.0")


def did(what: str) -> None:
    print(json.dumps({"ran": what}), flush=True)


@mcp.tool(annotations=t.ToolAnnotations(read_only_hint=True, idempotent_hint=True))
async def lookup(orderId: str) -> str:  # noqa: N803
    did(f"lookup {orderId}")
    return f"order {orderId}: shipped"


@mcp.tool()
async def send_email(orderId: str) -> str:  # noqa: N803 - unannotated: not idempotent by the spec's defaults
    did(f"send_email {orderId}")
    return f"email for {orderId} sent"


@mcp.tool()
async def charge(orderId: str) -> str:  # noqa: N803 - a tool error (isError)
    did(f"charge {orderId}")
    raise ValueError(f"card declined for {orderId}")


@mcp.tool()
async def set_limit(limit: int) -> str:  # a JSON-RPC error -32602
    did(f"set_limit {limit}")
    raise MCPError(code=-32602, message=f"limit must be >= 0, got {limit}")


class Approval(BaseModel):
    reason: str


def ask_approval(orderId: str) -> Elicit[Approval]:  # noqa: N803
    return Elicit(f"Refund {orderId}?", Approval)


@mcp.tool()
async def refund(orderId: str, approval: Annotated[Approval, Resolve(ask_approval)]) -> str:  # noqa: N803 - an elicitation round
    did(f"refund {orderId}")
    return f"refund {orderId}: approved ({approval.reason})"


logging.getLogger("uvicorn.access").disabled = True
uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
