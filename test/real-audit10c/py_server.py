# Python side of test/real-audit10c/record.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn with resources, a template,
# prompts, a tool that logs at level error then succeeds, a tool with structured output. What its callbacks really ran goes to RAN_FILE.
#   /work/py-venv/bin/python test/real-audit10c/py_server.py PORT RAN_FILE
import sys

import anyio
import uvicorn
from pydantic import BaseModel

from mcp.server.mcpserver import Context, MCPServer


class Usage(BaseModel):
    bytes: int
    files: int


def main(port: int, ran_file: str) -> None:
    def ran(line: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    mcp = MCPServer("py-docs", version="2.3.0")

    @mcp.resource("docs://readme", mime_type="text/markdown")
    def readme() -> str:
        return "# Readme"

    @mcp.resource("docs://pages/{slug}", mime_type="text/markdown")
    async def page(slug: str) -> str:
        ran(f"page {slug}")
        if slug == "billing":
            raise RuntimeError(f"upstream wiki timed out fetching {slug}")
        return f"# {slug}"

    @mcp.prompt()
    def review_code(language: str, code: str) -> str:
        ran(f"prompt {language}")
        return f"Review this {language}: {code}"

    @mcp.tool()
    async def sync_orders(shop: str, ctx: Context) -> str:
        await ctx.error(f"replica lag 12s for {shop}, falling back to primary", logger_name="db")
        await anyio.sleep(0.05)
        ran(f"sync {shop}")
        return f"synced 42 orders for {shop}"

    @mcp.tool()
    async def disk_usage(path: str) -> Usage:
        ran(f"usage {path}")
        if path == "/denied":
            raise PermissionError(f"permission denied: {path}")
        return Usage(bytes=1024, files=3)

    app = mcp.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
