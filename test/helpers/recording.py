# Process and observation helpers shared by the Python recorders (real-python, real-fastmcp-py, real-otlp): ports, child processes, what a caller saw.
import asyncio
import json
import shutil
import signal
import socket
import time
from pathlib import Path
from typing import Any, Callable

BIN = Path(__file__).resolve().parent.parent.parent / "dist" / "bin.cjs"

# ---------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def wait_port(port: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            _, w = await asyncio.open_connection("127.0.0.1", port)
            w.close()
            return
        except OSError:
            await asyncio.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


async def stop(proc: asyncio.subprocess.Process, sig: int = signal.SIGTERM, seconds: float = 5) -> None:
    if proc.returncode is None:
        proc.send_signal(sig)
        try:
            await asyncio.wait_for(proc.wait(), seconds)
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()


async def start_record_proxy(side: str, target: str, out: Path, **popen: Any) -> tuple[asyncio.subprocess.Process, str]:
    """`mcp-triage record --side SIDE` (this repository's build) on a free port in front of target, writing out: the process and its URL."""
    port = free_port()
    p = await asyncio.create_subprocess_exec(
        shutil.which("node") or "node", str(BIN), "record", "--listen", f"127.0.0.1:{port}", "--target", target, "--out", str(out), "--side", side, **popen
    )
    await wait_port(port)
    return p, f"http://127.0.0.1:{port}"


async def read_json_line(proc: asyncio.subprocess.Process) -> dict:
    line = await proc.stdout.readline()
    if not line:
        raise RuntimeError("the Node peer exited without answering")
    return json.loads(line)


# ---------------------------------------------------------------- what a caller saw


class Observer:
    """Each step's outcome as the caller saw it (summarize: the recorder's own view of a result), for observed.json."""

    def __init__(self, summarize: Callable[[Any], Any], message_chars: int = 400) -> None:
        self.summarize, self.message_chars = summarize, message_chars
        self.t0 = time.monotonic()
        self.observed: dict[str, Any] = {"steps": [], "notes": []}

    async def step(self, label: str, coro) -> tuple[bool, Any]:
        started = time.monotonic()
        entry: dict[str, Any] = {"step": label, "atMs": round((started - self.t0) * 1000)}
        try:
            result = await coro
            entry.update(ok=True, summary=self.summarize(result))
            ok = True
        except BaseException as err:  # noqa: BLE001 - an ExceptionGroup, an MCPError or a timeout is what the caller saw
            entry.update(ok=False, error=describe(err, self.message_chars))
            result, ok = err, False
        entry["ms"] = round((time.monotonic() - started) * 1000)
        self.observed["steps"].append(entry)
        return ok, result


def describe(err: BaseException, message_chars: int = 400) -> dict:
    out: dict[str, Any] = {"name": type(err).__name__, "message": str(err)[:message_chars]}
    # the MCP SDK's MCPError has .code; FastMCP's errors may carry it only on .error
    code = getattr(err, "code", None) or getattr(getattr(err, "error", None), "code", None)
    if isinstance(code, int):
        out["code"] = code
    if isinstance(err, BaseExceptionGroup):
        out["exceptions"] = [describe(e, message_chars) for e in err.exceptions]
    return out


def write_observed(dir: Path, observed: dict) -> None:
    """observed.json, and an empty recording for a side that saw no traffic."""
    for side in ("client", "server"):
        (dir / f"{side}.ndjson").touch()
    (dir / "observed.json").write_text(json.dumps(observed, indent=2) + "\n")
