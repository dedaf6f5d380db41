# A judge's small Python application (MCP Python SDK 2.3.0) against the MCP test kitchen, for
# test/real-audit59/record.mjs: the PAT bearer on an httpx2 client, connect (three tries, backoff), list tools, call with
# a retry policy (timeouts reconnect; errors retried with backoff except -32602; isError not retried), logging as the
# README advises (logging.basicConfig(level=DEBUG, filename=...), %(asctime)s in the format). Prints its steps as JSON.
# Usage: /work/py-venv/bin/python test/real-audit59/py_app.py URL LOGFILE PLAN_JSON
import asyncio
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from py_errors import describe  # noqa: E402


async def main(url: str, plan: dict) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    import mcp_types as t

    steps = []
    answers = list(plan.get("elicit", []))
    backoff = plan.get("backoff", 0.15)

    async def on_elicit(ctx, params):
        action = answers.pop(0) if answers else "cancel"
        steps.append({"step": "elicitation", "action": action})
        if action == "accept":
            return t.ElicitResult(action="accept", content={"reason": "judge approves"})
        return t.ElicitResult(action=action)

    headers = {"Authorization": f"Bearer {plan['pat']}"}
    pending = list(enumerate(plan["calls"], 1))
    for i in range(1, 4):
        try:
            async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=30.0)) as hc:
                async with Client(
                    streamable_http_client(url, http_client=hc),
                    mode=plan.get("mode", "legacy"),
                    client_info=t.Implementation(name="judge-py-app", version="0.1.0"),
                    elicitation_callback=on_elicit,
                ) as c:
                    steps.append({"step": f"connect {i}", "ok": True})
                    tools = await c.list_tools()
                    steps.append({"step": "list tools", "ok": True, "tools": [x.name for x in tools.tools]})
                    reconnect = False
                    while pending:
                        n, call = pending[0]
                        for k in range(1, 4):
                            timeout = call.get("timeout")
                            if timeout and k > 1:
                                timeout = timeout * 5
                            try:
                                r = await c.call_tool(call["tool"], call.get("args", {}), read_timeout_seconds=timeout)
                                text = r.content[0].text if r.content else ""
                                steps.append({"step": f"call {n} try {k}", "ok": True, "isError": bool(r.is_error), "text": text[:300]})
                                break
                            except Exception as err:  # noqa: BLE001
                                d = describe(err)
                                what = "give-up" if d.get("code") == -32602 or k == 3 else "retry"
                                steps.append({"step": f"call {n} try {k}", "ok": False, "error": d, "policy": what})
                                if what == "give-up":
                                    break
                                await asyncio.sleep(backoff * 2 ** (k - 1))
                        pending.pop(0)
                        if reconnect:
                            break
            break
        except BaseException as err:  # noqa: BLE001
            steps.append({"step": f"connect {i}", "ok": False, "error": describe(err)})
            await asyncio.sleep(backoff * 2 ** (i - 1))
    print(json.dumps(steps))


url, logfile, plan = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
# plan["logFormat"] == "basic": logging's own default format (BASIC_FORMAT, no time), what a bare basicConfig writes.
log_format = logging.BASIC_FORMAT if plan.get("logFormat") == "basic" else "%(asctime)s %(levelname)s %(name)s %(message)s"
logging.basicConfig(level=logging.DEBUG, filename=logfile, format=log_format)
asyncio.run(main(url, plan))
