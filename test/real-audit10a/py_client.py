# Python side of test/real-audit10a/record.mjs: the Python SDK (mcp 2.3.0) Client in legacy mode against the docs server: an unknown resource, a prompt missing an argument, a stalled ping.
#   PYTHON py_client.py resources-prompts URL   -> what the caller saw (one JSON line)
import asyncio
import json
import sys


def describe(err: BaseException) -> str:
    if isinstance(err, BaseExceptionGroup):
        return "; ".join(describe(e) for e in err.exceptions)
    code = getattr(getattr(err, "error", None), "code", None)
    return f"{type(err).__name__}{f' {code}' if code is not None else ''}: {str(err)[:200]}"


async def step(seen: list, label: str, coro) -> None:
    try:
        r = await coro
        seen.append({"label": label, "ok": True, "kind": type(r).__name__})
    except BaseException as err:  # noqa: BLE001
        seen.append({"label": label, "error": describe(err)})


async def resources_prompts(url: str, seen: list) -> None:
    from mcp import Client
    from mcp_types import Implementation
    try:
        async with Client(url, mode="legacy", client_info=Implementation(name="py-docs-agent", version="2.3.0"), read_timeout_seconds=0.5) as c:
            await step(seen, "list", c.list_resources())
            await step(seen, "read missing", c.read_resource("docs://changelog"))
            await step(seen, "get missing arg", c.get_prompt("review_code", {"language": "python"}))
            await step(seen, "ping #1", c.send_ping())
            await asyncio.sleep(0.3)
            await step(seen, "ping #2", c.send_ping())
    except BaseException as err:  # noqa: BLE001
        seen.append({"uncaught": describe(err)})


async def main(which: str, url: str) -> list:
    seen: list = []
    await {"resources-prompts": resources_prompts}[which](url, seen)
    return seen


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))), flush=True)
