# Python side of test/real-examples/record.mjs: the Python SDK (mcp 2.3.0) Client against the TypeScript SDK 1.32.2 example servers, through the client-side recording proxy.
#   /work/py-venv/bin/python test/real-examples/py_client.py SCENARIO URL   -> what the caller saw (one JSON line)
import asyncio
import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "helpers"))
from recording import Observer, describe  # noqa: E402


def summarize(result):
    if result is None:
        return None
    if hasattr(result, "tools"):
        return {"tools": [t.name for t in result.tools]}
    if hasattr(result, "prompts"):
        return {"prompts": [p.name for p in result.prompts]}
    if hasattr(result, "resources"):
        return {"resources": [str(r.uri) for r in result.resources]}
    if hasattr(result, "contents"):
        return {"contents": [getattr(c, "text", None) for c in result.contents]}
    if hasattr(result, "messages"):
        return {"messages": [getattr(m.content, "text", None) for m in result.messages]}
    if hasattr(result, "content"):
        return {"content": [getattr(c, "text", None) or f"<{c.type} {getattr(c, 'uri', '')}>" for c in result.content], "isError": bool(result.is_error)}
    return str(result)[:200]


async def main(scenario: str, url: str) -> dict:
    from mcp import Client
    from mcp_types import ElicitResult, ErrorData, Implementation

    o = Observer(summarize)
    logged: list[str] = []
    notes = o.observed["notes"]

    class Keep(logging.Handler):
        def emit(self, record):
            if record.levelno >= logging.WARNING:
                logged.append(f"{record.name}: {record.getMessage()}"[:300])

    logging.getLogger().addHandler(Keep())
    mode = "auto" if scenario.endswith("-auto") else "legacy"
    messages: list[str] = []

    async def on_log(params):
        messages.append(str(params.data)[:120])

    async def on_message(message):
        if isinstance(message, Exception):
            messages.append(f"exception {type(message).__name__}: {str(message)[:200]}")
        else:
            messages.append(getattr(message, "method", type(message).__name__))

    async def on_elicit(context, params):
        notes.append({"elicitation": params.message})
        if "error" in scenario:
            return ErrorData(code=-32603, message="the user closed the form")
        return ElicitResult(action="accept", content={"name": "Ada", "email": "ada@example.com"})

    try:
        async with Client(url, mode=mode, logging_callback=on_log, message_handler=on_message, elicitation_callback=on_elicit,
                          client_info=Implementation(name="py-examples-client", version="2.3.0")) as c:
            o.observed["protocolVersion"] = c.protocol_version
            if scenario.startswith("py-sse-polling"):
                await o.step("tools/list", c.list_tools())
                await o.step("long-task (the server closes the stream mid-task)", c.call_tool("long-task", {}, read_timeout_seconds=15))
            elif scenario.startswith("py-tour"):
                await o.step("tools/list", c.list_tools())
                await o.step("greet Ada", c.call_tool("greet", {"name": "Ada"}, read_timeout_seconds=5))
                await o.step("multi-greet Ada (notifications between)", c.call_tool("multi-greet", {"name": "Ada"}, read_timeout_seconds=10))
                await o.step("list-files (resource links)", c.call_tool("list-files", {}, read_timeout_seconds=5))
                await o.step("no-such-tool", c.call_tool("no-such-tool", {}, read_timeout_seconds=5))
                await o.step("greet with a number for the name", c.call_tool("greet", {"name": 5}, read_timeout_seconds=5))
                await o.step("prompts/list", c.list_prompts())
                await o.step("get greeting-template Ada", c.get_prompt("greeting-template", {"name": "Ada"}))
                await o.step("resources/list", c.list_resources())
                await o.step("read greetings/default", c.read_resource("https://example.com/greetings/default"))
                await o.step("read file:///no/such.txt (missing)", c.read_resource("file:///no/such.txt"))
            elif scenario.startswith("py-elicit"):
                await o.step("collect-user-info contact (server asks elicitation/create)", c.call_tool("collect-user-info", {"infoType": "contact"}, read_timeout_seconds=10))
                await o.step("greet Ada after", c.call_tool("greet", {"name": "Ada"}, read_timeout_seconds=5))
            elif scenario.startswith("py-json-response"):
                await o.step("tools/list", c.list_tools())
                await o.step("greet Ada", c.call_tool("greet", {"name": "Ada"}, read_timeout_seconds=5))
                await o.step("multi-greet Ada (JSON response: notifications dropped?)", c.call_tool("multi-greet", {"name": "Ada"}, read_timeout_seconds=10))
                await o.step("no-such-tool", c.call_tool("no-such-tool", {}, read_timeout_seconds=5))
            elif scenario.startswith("py-stateless"):
                await o.step("tools/list", c.list_tools())
                await o.step("start-notification-stream 100 ms x3", c.call_tool("start-notification-stream", {"interval": 100, "count": 3}, read_timeout_seconds=10))
            elif scenario.startswith("py-timeout"):
                # 5 notifications 300 ms apart, then the result: the caller gives up after 0.7 s, then calls greet
                await o.step("start-notification-stream 300 ms x5 (timeout 0.7 s)", c.call_tool("start-notification-stream", {"interval": 300, "count": 5}, read_timeout_seconds=0.7))
                await asyncio.sleep(1.5)
                await o.step("greet Ada after", c.call_tool("greet", {"name": "Ada"}, read_timeout_seconds=5))
            elif scenario.startswith("py-standalone-get"):
                # the server adds a resource every 5 s and says so (notifications/resources/list_changed) on the GET stream
                await o.step("resources/list", c.list_resources())
                await asyncio.sleep(5.6)
                ok, listed = await o.step("resources/list after the list_changed", c.list_resources())
                if ok and len(listed.resources) > 1:
                    await o.step("read the added resource", c.read_resource(str(listed.resources[-1].uri)))
            elif scenario.startswith("py-legacy-sse-server"):
                await o.step("tools/list", c.list_tools())
            elif scenario.startswith("py-task-interactive"):
                await o.step("tools/list", c.list_tools())
                await o.step("confirm_delete without a task", c.call_tool("confirm_delete", {"filename": "notes.txt"}, read_timeout_seconds=10))
            await asyncio.sleep(0.3)
    except BaseException as err:  # noqa: BLE001
        notes.append({"uncaught": describe(err)})
    o.observed["mode"] = mode
    o.observed["serverMessages"] = messages[:60]
    if logged:
        o.observed["logged"] = logged[:30]
    return o.observed


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
