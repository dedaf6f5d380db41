# The Python apps of test/real-audit105/record.mjs: W workers of the Python SDK 2.3.0 Client (mode legacy: sessions),
# each running sessions one after another (a tools/list, then the recorder's call plan, seeded), the app's own retries, and a line
# per attempt in TRUTH_FILE (what the app got or threw).
#   /work/py-venv/bin/python test/real-audit105/py_app.py URL WORKERS SECONDS SEED TRUTH_FILE
import asyncio, json, random, sys, time

url, workers, seconds, seed, truth_file = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
out = open(truth_file, "a", encoding="utf-8")
deadline = time.monotonic() + seconds


def err_of(e):
    inner = e
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    return f"{type(inner).__name__}: {str(inner)[:200]}"


def plan(rnd):
    r = rnd.random()
    return "lookup" if r < 0.6 else "charge" if r < 0.85 else "fail"


async def worker(w):
    from mcp import Client
    import mcp_types as t

    rnd = random.Random(seed * 1000 + w)
    info = t.Implementation(name=f"audit105-py-w{w}", version="2.3.0")
    long = w < 2
    n = 0
    while time.monotonic() < deadline:
        calls = 10**9 if long else rnd.randint(1, 12)
        try:
            async with Client(url, mode="legacy", client_info=info) as c:
                await c.list_tools()
                k = 0
                while k < calls and time.monotonic() < deadline:
                    k += 1
                    n += 1
                    tag, tool = f"py-w{w}-c{n}", plan(rnd)
                    ms = rnd.randint(0, 60)
                    lost = False
                    for attempt in (1, 2, 3):
                        t0 = time.time()
                        rec = {"sdk": "py", "worker": w, "call": tag, "tool": tool, "attempt": attempt, "t0": round(t0 * 1000)}
                        try:
                            r = await c.call_tool(tool, {"tag": tag, "ms": ms}, read_timeout_seconds=1.0)
                            rec.update(got="isError" if r.is_error else "result")
                            out.write(json.dumps(rec) + "\n"); out.flush()
                            break
                        except BaseException as e:  # noqa: BLE001 - what the app saw, whatever it is
                            rec.update(got="threw", error=err_of(e))
                            out.write(json.dumps(rec) + "\n"); out.flush()
                            if "404" in rec["error"] or "Session" in rec["error"] or "terminated" in rec["error"]:
                                lost = True
                                break
                            await asyncio.sleep(1.1 if "429" in rec["error"] else 0.25 * attempt)
                    if lost:
                        break
                    await asyncio.sleep(rnd.random() * 0.1)
        except BaseException as e:  # noqa: BLE001
            out.write(json.dumps({"sdk": "py", "worker": w, "session": "connect", "got": "threw", "error": err_of(e), "t0": round(time.time() * 1000)}) + "\n"); out.flush()
            await asyncio.sleep(0.3)


async def main():
    await asyncio.gather(*(worker(w) for w in range(workers)))


asyncio.run(main())
