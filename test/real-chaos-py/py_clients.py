# The Python side of test/real-chaos-py/record.mjs: N concurrent Python SDK (mcp 2.3.0) clients, each its own Client
# (legacy mode: initialize handshake) over streamable HTTP with its own httpx2 client, calling five tools with an
# app-level retry policy. What each caller got goes to OUT (JSON), the ground truth beside the logs.
#   /work/py-venv/bin/python test/real-chaos-py/py_clients.py URL SEED CLIENTS CALLS OUT [PROFILE]
#
# PROFILE modern (record.mjs --profile modern): each Client in mode="auto", which speaks 2026-07-28 (stateless, no
# session, server/discover) to the Python server.
# PROFILE sessions (record.mjs --profile sessions): the connect's POSTs (initialize, notifications/initialized,
# tools/list) are named too (`<client>-connect<N>#0#<post>`) so the hop can fault them; a connect that fails is retried
# with a new Client; after a call's 404 (the server lost the session: the caller's MCPError) the app leaves that Client,
# connects again (a new Client, a new session) and retries the call there.
#
# PROFILE streams (record.mjs --profile streams): fewer apps, each with three workers calling at once on one Client
# (concurrent tools/call in one session); every request is named by the app's hooks from what it is (see
# run_stream_client); a lost session (its 404, the server restarted) makes the app connect again.
#
# The app's httpx2 event hooks (in front of the wire) note each POST of the current attempt: its JSON-RPC method and id,
# the session it carried, its status and Retry-After; and name it with `x-chaos-attempt: <call key>#<attempt>` (a header
# that is in the logs), from which the fault hop draws its fault, so faults do not depend on arrival order.
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import describe  # noqa: E402

TOOLS = ["lookup", "set_flag", "delete_item", "send_email", "export_report"]


def parse(content: bytes) -> Any:
    try:
        return json.loads(content)
    except Exception:  # noqa: BLE001 - not JSON: not a message this app notes
        return None


def session_lost(got: dict) -> bool:
    """The caller's error says the session is gone: the server's own 404 body (the TS server: -32001 "Session not
    found") or the Python SDK's stand-in for a bare 404 (-32600 "Session terminated")."""
    e = got.get("error") or {}
    return e.get("name") == "MCPError" and (e.get("message") in ("Session not found", "Session terminated"))


async def run_client(url: str, seed: int, ci: int, ncalls: int, calls: list, events: list, profile: str = "calls") -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Implementation

    r = random.Random(seed * 7919 + ci)
    name = f"py-chaos-app-{ci}"
    state: dict[str, Any] = {"current": None}
    other: list = []  # POSTs outside any app attempt (initialize, notifications, tools/list, late cancels)

    async def on_request(request: httpx2.Request) -> None:
        body = parse(request.content) if request.method == "POST" else None
        cur = state["current"]
        entry = {
            "http": request.method,
            "method": body.get("method") if isinstance(body, dict) else None,
            "id": body.get("id") if isinstance(body, dict) else None,
            "session": request.headers.get("mcp-session-id"),
            "wall": round(time.time(), 3),
        }
        if isinstance(body, dict) and body.get("method") == "notifications/cancelled":
            entry["cancels"] = (body.get("params") or {}).get("requestId")
        if cur is not None and request.method == "POST":
            tag = f"{cur['key']}#{cur['n']}#{len(cur['posts']) + 1}"
            request.headers["x-chaos-attempt"] = tag
            entry["tag"] = tag
            cur["posts"].append(entry)
        else:
            entry["client"] = name
            other.append(entry)
        request.extensions["chaos_entry"] = entry

    async def on_response(response: httpx2.Response) -> None:
        entry = response.request.extensions.get("chaos_entry")
        if entry is not None:
            entry["status"] = response.status_code
            if response.headers.get("retry-after") is not None:
                entry["retryAfter"] = response.headers.get("retry-after")

    plan = []
    for k in range(ncalls):
        tool = TOOLS[int(r.random() * len(TOOLS))]
        key = f"py{seed}-c{ci}-k{k}"
        plan.append((tool, key, {"key": key, "ms": 10 + int(r.random() * 390)}, r.random() * 0.06))
    pos = {"k": 0, "n": 1, "wait": 0.0}
    connects: list = []

    async def on_progress(progress, total, message) -> None:
        return None

    def finish_attempt(cur: dict, started: float, got: dict) -> bool:
        """Note what the caller got; move to the next attempt or call. True when the call is over."""
        tool, key, args, pause = plan[pos["k"]]
        if pos["n"] == 1:
            calls.append({"client": name, "key": key, "tool": tool, "arguments": args, "attempts": []})
        call = next(x for x in calls if x["key"] == key)
        call["attempts"].append({"n": pos["n"], "posts": cur["posts"], "ms": round((time.monotonic() - started) * 1000), "doneWall": round(time.time(), 3), **got})
        if (got["ok"] and not got["isError"]) or pos["n"] == 3:
            pos.update(k=pos["k"] + 1, n=1, wait=pause)
            return True
        # Honour Retry-After (the app reads it from the response its hook saw), else 0.25 s then 0.5 s.
        ra = next((p.get("retryAfter") for p in cur["posts"] if p.get("retryAfter")), None)
        pos.update(wait=max(float(ra) + 0.1, 0.25 * pos["n"]) if ra else 0.25 * pos["n"], n=pos["n"] + 1)
        return False

    # One Client (one session) until it dies: a reset connection ends the SDK's transport task group, and with it
    # the Client; the app then connects again (a new Client, a new session) and goes on where it was.
    sessions = profile == "sessions"
    while pos["k"] < len(plan) and len(connects) < 40:
        conn = {"client": name, "n": len(connects) + 1}
        connects.append(conn)
        started = time.monotonic()
        if sessions:
            # The connect's POSTs, named for the hop (attempt 0 of the connect's own key).
            conn["posts"] = []
            state["current"] = {"key": f"py{seed}-c{ci}-connect{conn['n']}", "n": 0, "posts": conn["posts"]}
        hc = httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=30.0), event_hooks={"request": [on_request], "response": [on_response]})
        try:
            async with hc:
                async with Client(
                    streamable_http_client(url, http_client=hc),
                    mode="auto" if profile == "modern" else "legacy",
                    client_info=Implementation(name=name, version="2.3.0"),
                    read_timeout_seconds=1.5,
                ) as c:
                    conn["session"] = None
                    await c.list_tools()
                    if sessions:
                        conn["connected"] = True
                        state["current"] = None
                    while pos["k"] < len(plan):
                        await asyncio.sleep(pos["wait"])
                        tool, key, args, _ = plan[pos["k"]]
                        cur = {"key": key, "n": pos["n"], "posts": []}
                        state["current"] = cur
                        started = time.monotonic()
                        try:
                            res = await c.call_tool(tool, args, progress_callback=on_progress if tool == "export_report" else None)
                            got = {"ok": True, "isError": bool(res.is_error), "text": " ".join(getattr(x, "text", "") for x in res.content)}
                        except Exception as err:  # noqa: BLE001 - what the caller got is the point
                            got = {"ok": False, "error": describe(err)}
                        state["current"] = None
                        if sessions and session_lost(got):
                            # The session is gone: leave this Client, connect again, retry there (after a third
                            # attempt's 404 too: the next call goes to the new session).
                            got["reconnected"] = True
                            conn["lost"] = f"{cur['key']}#{cur['n']}"
                            finish_attempt(cur, started, got)
                            break
                        finish_attempt(cur, started, got)
                    else:
                        await asyncio.sleep(0.2)
            conn["ok"] = True
        except BaseException as err:  # noqa: BLE001 - the Client died under the app
            conn["ok"] = False
            conn["error"] = describe(err)
            cur = state["current"]
            state["current"] = None
            if sessions and not conn.get("connected"):
                # The connect failed (its POSTs are in conn["posts"]): no call attempt was under way.
                conn["connectError"] = describe(err)
                cur = None
            if cur is not None:
                finish_attempt(cur, started, {"ok": False, "error": describe(err), "clientDied": True})
            conn["diedAt"] = cur and f"{cur['key']}#{cur['n']}"
            await asyncio.sleep(0.2)
    events.extend(connects)
    events.extend(other)


WORKERS = 3


async def run_stream_client(url: str, seed: int, ci: int, ncalls: int, calls: list, events: list) -> None:
    """The streams profile's app: WORKERS workers share one Client (one session) and call at once, each its share of
    the plan, up to 3 attempts a call (0.25 s then 0.5 s apart); a 2 s read timeout (the SDK then sends
    notifications/cancelled). The SDK resumes cut streams itself (GET with Last-Event-ID) and opens the standalone GET
    stream. The hooks name every request (x-chaos-attempt) by what it is, read from its body or headers:
      tools/call                `<key>#<n>#call`      notifications/cancelled  `<key>#<n>#cancel` (by its requestId)
      GET with Last-Event-ID    `<key>#<n>#resume#<k>` (the event id `<request id>.<i>` names the call's request)
      standalone GET            `<app>#stream#<k>`     (no Last-Event-ID, or one of the `_GET_stream`)
      DELETE                    `<app>#DELETE#<k>`     connect POSTs `<app>#connect#<k>`
    and note it (status, session, Last-Event-ID, wall clock) in observed.json: in the call's attempt (posts, gets), or in
    the app's event (streams, deletes, connects)."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp_types import Implementation

    r = random.Random(seed * 7919 + ci)
    name = f"py-stream-app-{ci}"
    app: dict[str, Any] = {"client": name, "streams": [], "deletes": [], "connects": [], "lost": []}
    count = {"stream": 0, "DELETE": 0, "connect": 0}
    by_id: dict[tuple, dict] = {}  # (session, JSON-RPC id) -> the attempt that sent it
    current: dict[str, dict] = {}  # call key -> its attempt under way

    async def on_request(request: httpx2.Request) -> None:
        body = parse(request.content) if request.method == "POST" else None
        session = request.headers.get("mcp-session-id")
        entry: dict[str, Any] = {"http": request.method, "session": session, "wall": round(time.time(), 3)}
        method = body.get("method") if isinstance(body, dict) else None
        params = (body.get("params") or {}) if isinstance(body, dict) else {}
        last = request.headers.get("last-event-id")
        if method == "tools/call":
            a = current[params["arguments"]["key"]]
            entry.update(method=method, id=body.get("id"), tag=f"{a['key']}#{a['n']}#call")
            by_id[(session, body.get("id"))] = a
            a["posts"].append(entry)
        elif method == "notifications/cancelled" and (session, params.get("requestId")) in by_id:
            a = by_id[(session, params.get("requestId"))]
            entry.update(method=method, cancels=params.get("requestId"), tag=f"{a['key']}#{a['n']}#cancel")
            a["posts"].append(entry)
        elif request.method == "GET" and last and not last.startswith("_GET_stream"):
            rid = last.rsplit(".", 1)[0]
            a = next((x for (sid, i), x in by_id.items() if sid == session and str(i) == rid), None)
            entry["lastEventId"] = last
            if a is None:
                entry["tag"] = f"{name}#unknown-resume#{len(app['streams']) + 1}"
                app["streams"].append(entry)
            else:
                entry["tag"] = f"{a['key']}#{a['n']}#resume#{len(a['gets']) + 1}"
                a["gets"].append(entry)
        elif request.method == "GET":
            count["stream"] += 1
            entry.update(tag=f"{name}#stream#{count['stream']}", lastEventId=last)
            app["streams"].append(entry)
        elif request.method == "DELETE":
            count["DELETE"] += 1
            entry["tag"] = f"{name}#DELETE#{count['DELETE']}"
            app["deletes"].append(entry)
        else:
            count["connect"] += 1
            entry.update(method=method, id=body.get("id") if isinstance(body, dict) else None, tag=f"{name}#connect#{count['connect']}")
            app["connects"].append(entry)
        request.headers["x-chaos-attempt"] = entry["tag"]
        request.extensions["chaos_entry"] = entry

    async def on_response(response: httpx2.Response) -> None:
        entry = response.request.extensions.get("chaos_entry")
        if entry is not None:
            entry["status"] = response.status_code

    plan = []
    for k in range(ncalls):
        tool = TOOLS[int(r.random() * len(TOOLS))]
        key = f"py{seed}-s{ci}-k{k}"
        plan.append((tool, key, {"key": key, "ms": 10 + int(r.random() * 390)}, r.random() * 0.3))
    # Each worker's place in its share of the plan: the call, its attempt, the wait before it.
    workers = [{"todo": [p for i, p in enumerate(plan) if i % WORKERS == w], "k": 0, "n": 1, "wait": 0.0} for w in range(WORKERS)]

    async def on_progress(progress, total, message) -> None:
        return None

    def finish(w: dict, a: dict, got: dict) -> None:
        tool, key, args, pause = w["todo"][w["k"]]
        if w["n"] == 1:
            calls.append({"client": name, "key": key, "tool": tool, "arguments": args, "attempts": []})
        call = next(x for x in calls if x["key"] == key)
        call["attempts"].append({**a, "doneWall": round(time.time(), 3), **got})
        current.pop(key, None)
        if (got["ok"] and not got["isError"]) or w["n"] == 3:
            w.update(k=w["k"] + 1, n=1, wait=pause)
        else:
            w.update(wait=0.25 * w["n"], n=w["n"] + 1)

    async def work(c: Any, w: dict, lost: asyncio.Event) -> None:
        while w["k"] < len(w["todo"]) and not lost.is_set():
            await asyncio.sleep(w["wait"])
            if lost.is_set():
                return
            tool, key, args, _ = w["todo"][w["k"]]
            a = {"key": key, "n": w["n"], "posts": [], "gets": []}
            current[key] = a
            w["cur"] = a
            try:
                res = await c.call_tool(tool, args, progress_callback=on_progress)
                got = {"ok": True, "isError": bool(res.is_error)}
            except Exception as err:  # noqa: BLE001 - what the caller got is the point
                got = {"ok": False, "error": describe(err)}
            w["cur"] = None
            if session_lost(got):
                # The session is gone (the server restarted): the app connects again and retries there.
                got["reconnected"] = True
                lost.set()
            finish(w, a, got)

    while any(w["k"] < len(w["todo"]) for w in workers) and len(app["connects"]) < 60:
        lost = asyncio.Event()
        hc = httpx2.AsyncClient(timeout=httpx2.Timeout(30.0, read=30.0), event_hooks={"request": [on_request], "response": [on_response]})
        try:
            async with hc:
                async with Client(
                    streamable_http_client(url, http_client=hc),
                    mode="legacy",
                    client_info=Implementation(name=name, version="2.3.0"),
                    read_timeout_seconds=2.0,
                ) as c:
                    await c.list_tools()
                    await asyncio.gather(*(work(c, w, lost) for w in workers))
                    # Let late resumptions and cancels of this session go out before the Client closes (its DELETE).
                    await asyncio.sleep(1.5)
        except BaseException as err:  # noqa: BLE001 - the Client died under the app
            app.setdefault("died", []).append(describe(err))
            for w in workers:
                if w.get("cur") is not None:
                    a, w["cur"] = w["cur"], None
                    finish(w, a, {"ok": False, "error": describe(err), "clientDied": True})
            await asyncio.sleep(0.3)
    events.append(app)


async def main(url: str, seed: int, nclients: int, ncalls: int, out: str, profile: str) -> None:
    calls: list = []
    events: list = []
    if profile == "streams":
        await asyncio.gather(*(run_stream_client(url, seed, ci, ncalls, calls, events) for ci in range(1, nclients + 1)))
    else:
        await asyncio.gather(*(run_client(url, seed, ci, ncalls, calls, events, profile) for ci in range(1, nclients + 1)))
    Path(out).write_text(json.dumps({"calls": calls, "events": events}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6] if len(sys.argv) > 6 else "calls"))
