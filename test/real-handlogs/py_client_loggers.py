# The Python client logger of the fifteenth audit's py- group, written as a user would from the README alone: an httpx2 transport for the Python SDK's streamable HTTP client that appends one canonical `exchange` record per request.
import json
import time
from datetime import datetime, timezone

import httpx2


class ExchangeLogger(httpx2.AsyncBaseTransport):
    """Wraps the real transport: one `exchange` per request, written when its body is done or dropped.

    ts is datetime.now(timezone.utc).isoformat() (microseconds, "+00:00"), durationMs from perf_counter, headers as
    dict(request.headers), the JSON body parsed into `send`, the response body teed and kept whole as `recvText` (an
    SSE body too), `end` "complete" when the SDK read it to its end, "aborted" when it closed it before; a failed
    request as `status: null` with the exception's text.
    """

    def __init__(self, path: str, inner: httpx2.AsyncBaseTransport | None = None) -> None:
        self.path = path
        self.inner = inner or httpx2.AsyncHTTPTransport()

    def write(self, record: dict) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        ts = datetime.now(timezone.utc).isoformat()
        t0 = time.perf_counter()
        base = {
            "v": 1, "kind": "exchange", "ts": ts, "side": "client", "method": request.method, "url": str(request.url),
            "requestHeaders": dict(request.headers),
        }
        body = request.content
        if body:
            base["send"] = json.loads(body)
        try:
            response = await self.inner.handle_async_request(request)
        except Exception as e:
            self.write({**base, "status": None, "error": f"{type(e).__name__}: {e}", "durationMs": (time.perf_counter() - t0) * 1000})
            raise
        logger = self
        head = {**base, "status": response.status_code, "responseHeaders": dict(response.headers)}
        inner_stream = response.stream

        class Tee(httpx2.AsyncByteStream):
            def __init__(self) -> None:
                self.chunks: list[bytes] = []
                self.done = False
                self.written = False

            async def __aiter__(self):
                async for chunk in inner_stream:
                    self.chunks.append(chunk)
                    yield chunk
                self.done = True

            async def aclose(self) -> None:
                try:
                    await inner_stream.aclose()
                finally:
                    if not self.written:
                        self.written = True
                        text = b"".join(self.chunks).decode("utf-8", "replace")
                        logger.write({**head, "recvText": text, "end": "complete" if self.done else "aborted", "durationMs": (time.perf_counter() - t0) * 1000})

        return httpx2.Response(response.status_code, headers=response.headers, stream=Tee(), extensions=response.extensions, request=request)
