# The server of test/real-audit94/record.mjs: the Python SDK 2.3.0 MCPServer on uvicorn (streamable HTTP, its defaults),
# the tools the app's faults are played on (lookup, set_limit's MCPError, charge's isError, refund's input_required); its SDK DEBUG log goes to LOG, uvicorn's console (access log) to stderr.
#   /work/py-venv/bin/python py_server.py PORT LOG
import logging, sys
import uvicorn
from pydantic import BaseModel
import mcp_types as t
from mcp import MCPError
from typing import Annotated
from mcp.server.mcpserver import Elicit, MCPServer, Resolve

logging.basicConfig(level=logging.DEBUG, filename=sys.argv[2], format="%(asctime)s - %(name)s - %(levelname)s - %(message)s")
mcp = MCPServer("audit94-py-server", version="2.3.0")
ran = logging.getLogger("audit94.ran")


def did(name: str) -> None:
    ran.info("tool body ran: %s", name)


@mcp.tool(annotations=t.ToolAnnotations(read_only_hint=True, idempotent_hint=True))
async def lookup(orderId: str) -> str:  # noqa: N803 - the hop's faults are played on it
    did(f"lookup {orderId}")
    return f"order {orderId}: shipped"


@mcp.tool()
async def set_limit(limit: int) -> str:  # the tool refuses its arguments with a JSON-RPC error
    did(f"set_limit {limit}")
    if limit < 0:
        raise MCPError(code=-32602, message=f"limit must be >= 0, got {limit}")
    return f"limit {limit}"


@mcp.tool()
async def charge(orderId: str) -> str:  # noqa: N803 - the tool fails (isError)
    did(f"charge {orderId}")
    raise ValueError(f"card declined for {orderId}")


class Approval(BaseModel):
    reason: str


def ask_approval(orderId: str) -> Elicit[Approval]:  # noqa: N803
    return Elicit(f"Refund {orderId}?", Approval)


@mcp.tool()
async def refund(orderId: str, approval: Annotated[Approval, Resolve(ask_approval)]) -> str:  # noqa: N803 - input_required (MRTR on 2026-07-28)
    did(f"refund {orderId}")
    return f"refund {orderId}: approved ({approval.reason})"


sys.stdout.reconfigure(line_buffering=True)
uvicorn.run(mcp.streamable_http_app(), host="127.0.0.1", port=int(sys.argv[1]), log_level="info")
