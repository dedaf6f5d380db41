# The Python SDK client (mcp 2.3.0) behind a small application, for test/real-audit56/record.mjs: connects (three
# tries), then makes each planned call, re-calling (up to three tries) after a failure; prints what it saw as JSON.
# Usage: /work/py-venv/bin/python test/real-audit56/py_app.py URL PLAN_JSON
# PLAN: {"mode": "legacy"|"auto", "bearer": str|null, "pause": s, "calls": [{"tool", "args", "timeout", "tries"}],
#        "elicit": ["accept"|"decline"|"cancel", ...]}
import asyncio
import json
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

    async def on_elicit(ctx, params):
        action = answers.pop(0) if answers else "cancel"
        steps.append({"step": "elicitation", "action": action})
        if action == "accept":
            return t.ElicitResult(action="accept", content={"reason": "python says yes"})
        return t.ElicitResult(action=action)

    headers = {"Authorization": f"Bearer {plan['bearer']}"} if plan.get("bearer") else {}
    for i in range(1, 4):
        try:
            async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=30.0)) as hc:
                async with Client(
                    streamable_http_client(url, http_client=hc),
                    mode=plan.get("mode", "legacy"),
                    client_info=t.Implementation(name="kitchen-py-app", version="2.3.0"),
                    elicitation_callback=on_elicit,
                ) as c:
                    steps.append({"step": f"connect {i}", "ok": True})
                    for n, call in enumerate(plan["calls"], 1):
                        for k in range(1, call.get("tries", 3) + 1):
                            try:
                                r = await c.call_tool(call["tool"], call.get("args", {}), read_timeout_seconds=call.get("timeout"))
                                text = r.content[0].text if r.content else ""
                                steps.append({"step": f"call {n} try {k}", "ok": True, "isError": bool(r.is_error), "text": text[:300]})
                                break
                            except Exception as err:  # noqa: BLE001
                                steps.append({"step": f"call {n} try {k}", "ok": False, "error": describe(err)})
                                await asyncio.sleep(plan.get("pause", 0.2))
            break
        except BaseException as err:  # noqa: BLE001
            steps.append({"step": f"connect {i}", "ok": False, "error": describe(err)})
            await asyncio.sleep(plan.get("pause", 0.2))
    print(json.dumps(steps))


asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
