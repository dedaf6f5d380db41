# The (read, write) stream wrappers an app puts around the Python SDK's SessionMessage streams to log each message, shared by py_app_server.py (server) and py_client.py (client).
import anyio


class LoggedRead:
    """A read stream that calls `log(item)` for each SessionMessage read from it (not for an Exception item)."""

    def __init__(self, inner, log):
        self._inner, self._log = inner, log

    @property
    def last_context(self):
        return self._inner.last_context

    async def receive(self):
        item = await self._inner.receive()
        if not isinstance(item, Exception):
            self._log(item)
        return item

    def __aiter__(self):
        return self

    async def __anext__(self):
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration

    def __getattr__(self, name):
        return getattr(self._inner, name)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self._inner.aclose()


class LoggedWrite:
    """A write stream that calls `log(item)` for each SessionMessage before it is sent on."""

    def __init__(self, inner, log):
        self._inner, self._log = inner, log

    async def send(self, item):
        self._log(item)
        await self._inner.send(item)

    def __getattr__(self, name):
        return getattr(self._inner, name)

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self._inner.aclose()
