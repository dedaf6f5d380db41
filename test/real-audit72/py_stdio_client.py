# The Python mcp 2.3.0 stdio client of test/real-audit72/record.mjs: stdio_client whose command is mcpsnoop (argv[1]) with its arguments (argv[2:]); prints what each step got, as JSON.
import asyncio, json, os, sys
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    out = []
    params = StdioServerParameters(command=sys.argv[1], args=sys.argv[2:], env=dict(os.environ))
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            for label, name, args in [("lookup_order A-1", "lookup_order", {"orderId": "A-1"}), ("refund_order A-2 (isError)", "refund_order", {"orderId": "A-2"}), ("crash (throws)", "crash", {})]:
                try:
                    res = await s.call_tool(name, args)
                    out.append({"label": label, "ok": {"isError": bool(res.is_error), "text": " ".join(getattr(c, "text", "") for c in res.content)[:200]}})
                except Exception as e:
                    out.append({"label": label, "error": {"name": type(e).__name__, "message": str(e)[:300]}})
    print(json.dumps(out))

asyncio.run(main())
