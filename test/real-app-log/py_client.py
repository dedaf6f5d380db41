# The Python SDK client (mcp 2.3.0) of test/real-app-log/record-py.mjs and record.mjs: the billing agent's calls, printed as one JSON line of what it saw.
#   /work/py-venv/bin/python test/real-app-log/py_client.py URL [calls|restart|logged LOGFILE]
#   `logged`: the calls, then the server restarts and one more call; the app logs every message with structlog to LOGFILE
#   (its transport's read and write streams wrapped, as py_app_server.py does on the server's side) and its failures.
import asyncio
import json
import sys


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    out = {"name": type(inner).__name__, "message": str(inner)[:200]}
    code = getattr(getattr(inner, "error", None), "code", None)
    if code is not None:
        out["code"] = code
    return out


APP_LOG = None  # the client app's structlog logger (phase `logged`)


async def step(steps: list, name: str, call) -> bool:
    try:
        r = await call()
        text = next((c.text for c in r.content if getattr(c, "type", None) == "text"), None)
        steps.append({"step": name, "ok": True, "isError": bool(r.is_error), "text": text})
        if APP_LOG and r.is_error:
            APP_LOG.warning("tool returned an error", tool=name.split(" ")[0])
        return True
    except Exception as err:  # noqa: BLE001
        steps.append({"step": name, "ok": False, "error": describe(err)})
        if APP_LOG:
            APP_LOG.exception("tool call failed", tool=name.split(" ")[0])
        return False


def logged_transport(url: str, path: str):
    """The SDK's Streamable HTTP transport with the app's structlog logging on its streams; the app's logger."""
    import contextlib

    import structlog
    from mcp.client.streamable_http import streamable_http_client
    from py_logged_streams import LoggedRead, LoggedWrite

    out = open(path, "w")  # noqa: SIM115 - open for the client's life
    structlog.configure(
        processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso"), structlog.processors.format_exc_info, structlog.processors.JSONRenderer()],
        logger_factory=structlog.PrintLoggerFactory(out),
    )
    log = structlog.get_logger("billing_agent")

    def message(text):
        # The dict the SDK sends and receives; the transport's session id is not within the app's reach.
        return lambda item: log.info(text, rpc=item.message.model_dump(by_alias=True, exclude_unset=True, mode="json"))

    @contextlib.asynccontextmanager
    async def transport():
        async with streamable_http_client(url) as (read_stream, write_stream):
            yield LoggedRead(read_stream, message("mcp message received")), LoggedWrite(write_stream, message("mcp message sent"))

    return transport(), log


async def main(url: str, phase: str) -> None:
    global APP_LOG
    from mcp import Client
    from mcp_types import Implementation

    steps: list = []
    info = Implementation(name="billing-agent-py", version="0.9.0")
    server = url
    if phase == "logged":
        server, APP_LOG = logged_transport(url, sys.argv[3])
    async with Client(server, mode="legacy", client_info=info) as c:
        if APP_LOG:
            APP_LOG.info("connected to billing-app", server=url)
        if phase in ("calls", "logged"):
            await step(steps, "lookup_invoice", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-7"}))
            await step(steps, "export_ledger", lambda: c.call_tool("export_ledger", {"month": "2026-11"}))
            if phase == "calls":  # (record.mjs's TS SDK server has no void_invoice)
                await step(steps, "void_invoice (JSON-RPC error)", lambda: c.call_tool("void_invoice", {"invoiceId": "INV-7"}))
            await step(steps, "refund_invoice (unknown tool)", lambda: c.call_tool("refund_invoice", {"invoiceId": "INV-7"}))
            # The app's own retry: its 300 ms timeout gives up on the first charge, it charges again.
            charge = lambda: c.call_tool("charge_card", {"customer": "cus_42", "cents": 1999}, read_timeout_seconds=0.3)  # noqa: E731
            if not await step(steps, "charge_card", charge):
                if APP_LOG:
                    APP_LOG.warning("retrying charge_card", attempt=2)
                await step(steps, "charge_card (app retry)", charge)
            await asyncio.sleep(0.7)  # the first charge finishes on the server meanwhile
        if phase == "logged":
            print(json.dumps({"ready": True}), flush=True)
            sys.stdin.readline()  # the recorder restarts the server meanwhile
            await step(steps, "lookup_invoice (after the server restart)", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-8"}))
        elif phase == "restart":
            await step(steps, "lookup_invoice", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-8"}))
            print(json.dumps({"ready": True}), flush=True)
            sys.stdin.readline()  # the recorder restarts the server meanwhile
            await step(steps, "lookup_invoice (after restart)", lambda: c.call_tool("lookup_invoice", {"invoiceId": "INV-8"}))
    print(json.dumps({"steps": steps}), flush=True)


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "calls"))
