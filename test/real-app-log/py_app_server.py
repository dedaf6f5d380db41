# Python side of test/real-app-log/record-py.mjs: the Python SDK's MCPServer (mcp 2.3.0) on uvicorn whose app code logs every JSON-RPC message it receives and sends with python-json-logger, structlog or loguru.
#   /work/py-venv/bin/python test/real-app-log/py_app_server.py LOGGER PORT [model|text]   (LOGGER: pjl | structlog | loguru; the log goes to stdout;
#   `model`: the app logs the SDK's message object itself, not its JSON dict, and the logger writes what it makes of it;
#   `text`: the app formats the message dict into the log text, logger.info("mcp message received {}", message), Python's str() of it)
# The hook is the one a Python developer finds by reading the SDK: the session manager builds a
# StreamableHTTPServerTransport per session and serves the (read, write) streams its connect() yields; a subclass wraps
# those two streams, logs each SessionMessage going through them, and replaces the class the manager builds.
import contextlib
import logging
import sys

import anyio
import uvicorn
from mcp_types import ToolAnnotations

import mcp.server.streamable_http_manager as manager_module
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http import StreamableHTTPServerTransport
from py_logged_streams import LoggedRead, LoggedWrite


def make_logger(kind: str):
    """The app's logger: (info(text), message(direction, session_id, message_dict))."""
    if kind == "pjl":
        from pythonjsonlogger.json import JsonFormatter

        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        log = logging.getLogger("billing_app")
        log.setLevel(logging.INFO)
        log.addHandler(handler)
        log.propagate = False

        def message(direction, session_id, rpc):
            log.info("mcp message received" if direction == "in" else "mcp message sent", extra={"sessionId": session_id, "rpc": rpc})

        return log.info, message
    if kind == "structlog":
        import structlog

        structlog.configure(
            processors=[structlog.processors.add_log_level, structlog.processors.TimeStamper(fmt="iso"), structlog.processors.JSONRenderer()],
            logger_factory=structlog.PrintLoggerFactory(sys.stdout),
        )
        log = structlog.get_logger("billing_app")

        def message(direction, session_id, rpc):
            log.bind(session_id=session_id).info("mcp message received" if direction == "in" else "mcp message sent", rpc=rpc)

        return log.info, message
    from loguru import logger

    logger.remove()
    logger.add(sys.stdout, serialize=True, enqueue=False)

    def message(direction, session_id, rpc):
        if AS_TEXT:
            logger.bind(sessionId=session_id).info("mcp message received {}" if direction == "in" else "mcp message sent {}", rpc)
            return
        logger.bind(sessionId=session_id, rpc=rpc).info("mcp message received" if direction == "in" else "mcp message sent")

    return logger.info, message


AS_MODEL = len(sys.argv) > 3 and sys.argv[3] == "model"
AS_TEXT = len(sys.argv) > 3 and sys.argv[3] == "text"


def as_dict(session_message):
    if AS_MODEL:
        return session_message.message
    return session_message.message.model_dump(by_alias=True, exclude_unset=True, mode="json")


def install_hooks(log_message):
    class LoggingTransport(StreamableHTTPServerTransport):
        @contextlib.asynccontextmanager
        async def connect(self):
            async with super().connect() as (read_stream, write_stream):
                yield (
                    LoggedRead(read_stream, lambda item: log_message("in", self.mcp_session_id, as_dict(item))),
                    LoggedWrite(write_stream, lambda item: log_message("out", self.mcp_session_id, as_dict(item))),
                )

    manager_module.StreamableHTTPServerTransport = LoggingTransport


def main(kind: str, port: int) -> None:
    info, log_message = make_logger(kind)
    install_hooks(log_message)
    mcp = MCPServer("billing-app", version="2.1.0")

    @mcp.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def lookup_invoice(invoiceId: str) -> str:  # noqa: N803 - the TypeScript recorder's argument name
        return f"invoice {invoiceId}: paid"

    @mcp.tool()
    async def export_ledger(month: str) -> str:
        raise ValueError(f"ledger for {month} is locked by another export")

    from mcp.shared.exceptions import MCPError

    @mcp.tool()
    async def void_invoice(invoiceId: str) -> str:  # noqa: N803
        # The tool refuses with a JSON-RPC error of its own (not an isError result).
        raise MCPError(code=-32602, message=f"invoice {invoiceId} is already paid and cannot be voided")

    charged: list[int] = []

    @mcp.tool(annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=False))
    async def charge_card(customer: str, cents: int) -> str:
        # The payment provider is slow the first time: the client gives up first.
        charged.append(cents)
        await anyio.sleep(0.6 if len(charged) == 1 else 0.02)
        return f"charged {customer} {cents} cents"

    app = mcp.streamable_http_app()
    info(f"billing-app listening on http://127.0.0.1:{port}/mcp")
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
