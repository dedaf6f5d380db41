# The Python SDK client (mcp 2.3.0) behind a judge's small application, for test/real-audit63/record.mjs: connects
# (three tries), then runs its plan: list every page of tools or resources, wait, call a tool (re-called once after a
# failure), answering elicitations as planned; logs at DEBUG to LOG_PATH and prints what it saw as JSON.
# Usage: /work/py-venv/bin/python test/real-audit63/py_app.py URL PLAN_JSON LOG_PATH
# PLAN: {"mode": "legacy"|"auto", "bearer": str|null, "elicit": [...], "maxPages": n,
#        "steps": [{"list": "tools"|"resources"|"prompts"} | {"wait": ms} | {"call": tool, "args": {}, "tries": n}]}
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

    async def on_elicit(ctx, params):
        action = answers.pop(0) if answers else "cancel"
        steps.append({"step": "elicitation", "action": action, "mode": getattr(params, "mode", None)})
        if action == "accept":
            return t.ElicitResult(action="accept", content={"confirm": "confirm", "reason": "python says yes"} if getattr(params, "mode", "form") != "url" else None)
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
                    n = 0
                    for s in plan["steps"]:
                        if "wait" in s:
                            await asyncio.sleep(s["wait"] / 1000)
                        elif "list" in s:
                            fn = {"tools": c.list_tools, "resources": c.list_resources, "prompts": c.list_prompts}[s["list"]]
                            cursor, page, names = None, 0, []
                            while page < plan.get("maxPages", 6):
                                page += 1
                                try:
                                    r = await fn(cursor=cursor)
                                except Exception as err:  # noqa: BLE001
                                    steps.append({"step": f"list {s['list']} page {page}", "ok": False, "error": describe(err)})
                                    break
                                items = getattr(r, s["list"])
                                names += [x.name for x in items]
                                steps.append({"step": f"list {s['list']} page {page}", "ok": True, "items": [x.name for x in items], "nextCursor": r.next_cursor})
                                cursor = r.next_cursor
                                if not cursor:
                                    break
                        elif "call" in s:
                            n += 1
                            for k in range(1, s.get("tries", 2) + 1):
                                try:
                                    r = await c.call_tool(s["call"], s.get("args", {}))
                                    text = r.content[0].text if r.content else ""
                                    steps.append({"step": f"call {n} try {k}", "tool": s["call"], "ok": True, "isError": bool(r.is_error), "text": text[:300]})
                                    break
                                except Exception as err:  # noqa: BLE001
                                    steps.append({"step": f"call {n} try {k}", "tool": s["call"], "ok": False, "error": describe(err)})
                                    await asyncio.sleep(0.2)
            break
        except BaseException as err:  # noqa: BLE001
            steps.append({"step": f"connect {i}", "ok": False, "error": describe(err)})
            await asyncio.sleep(0.2)
    print(json.dumps(steps))


logging.basicConfig(level=logging.DEBUG, filename=sys.argv[3], format="%(asctime)s %(levelname)s %(name)s: %(message)s")
asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
