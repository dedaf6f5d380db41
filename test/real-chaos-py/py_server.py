# The Python server of test/real-chaos-py/record.mjs's pyserver profile: the Python SDK's MCPServer (mcp 2.3.0) on
# uvicorn, stateful streamable HTTP (SSE responses, no event store), with the chaos audit's five annotated tools (10 to
# 400 ms; export_report sends progress). Each real run of a tool appends its call key to RAN_FILE.
#   /work/py-venv/bin/python test/real-chaos-py/py_server.py PORT RAN_FILE
import sys

import anyio
import uvicorn
from mcp_types import ToolAnnotations

from mcp.server.mcpserver import Context, MCPServer

ANNOTATIONS = {
    "lookup": ToolAnnotations(read_only_hint=True),
    "set_flag": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
    "delete_item": ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False),
    "send_email": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False),
    "export_report": ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True),
}


def main(port: int, ran_file: str) -> None:
    def ran(key: str) -> None:
        with open(ran_file, "a", encoding="utf-8") as f:
            f.write(key + "\n")

    mcp = MCPServer("chaos-py-server", version="2.3.0")

    def register(name: str) -> None:
        async def tool(key: str, ms: float, ctx: Context) -> str:
            if name == "export_report":
                for i in range(1, 4):
                    await anyio.sleep(ms / 3000)
                    await ctx.report_progress(i, 3)
            else:
                await anyio.sleep(ms / 1000)
            ran(key)
            return f"{name} {key} done"

        mcp.tool(name=name, annotations=ANNOTATIONS[name])(tool)

    for name in ANNOTATIONS:
        register(name)

    app = mcp.streamable_http_app()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
