# The Python mcp 2.3.0 stdio server of test/real-audit72/record.mjs (MCPServer): lookup_order, refund_order (isError), crash (raises); appends the bodies that ran to $RAN_LOG.
import os, sys
from mcp_types import CallToolResult, TextContent

from mcp.server.mcpserver import MCPServer

mcp = MCPServer("audit72-orders-py", version="2.3.0")

def ran(s):
    sys.stderr.write(f"[orders-py] {s}\n")
    if os.environ.get("RAN_LOG"):
        with open(os.environ["RAN_LOG"], "a") as f:
            f.write(s + "\n")

@mcp.tool()
def lookup_order(orderId: str) -> str:
    ran(f"lookup_order {orderId}")
    return f"order {orderId}: shipped"

@mcp.tool()
def refund_order(orderId: str) -> CallToolResult:
    ran(f"refund_order {orderId}")
    return CallToolResult(is_error=True, content=[TextContent(type="text", text=f"order {orderId} was already refunded")])

@mcp.tool()
def crash() -> str:
    ran("crash")
    raise RuntimeError("database connection refused")

if __name__ == "__main__":
    mcp.run()
