"""
A mitmdump addon written for test/real-mitmproxy/record.mjs (not part of mitmproxy): one HAR 1.2 entry per line,
appended as each flow ends, with the entry shape of mitmproxy 10+'s HAR exporter (mitmproxy/addons/savehar.py, which
mitmproxy 8.1.1 does not have): a flow without a response is written with status 0, empty headers and
response._error (flow.error.msg); a body mitmproxy did not store (streamed: stream_large_bodies) is written as
"text": null (Message.get_text() gives None), for the request (postData.text) and the response (content.text).
Unlike 8.1.1's contrib har_dump.py, it also writes flows that ended in an error (the `error` hook), and it does not
fail on streamed flows.

    mitmdump -s har_lines.py --set harlines=FILE
"""
import base64
import json
from datetime import datetime, timezone

from mitmproxy import ctx, http
from mitmproxy.utils import strutils


def load(loader):
    loader.add_option("harlines", str, "", "Append one HAR entry per line to this file.")


def _pairs(multidict):
    return [{"name": k, "value": v} for k, v in multidict.items(multi=True)]


def _entry(flow: http.HTTPFlow) -> dict:
    req = flow.request
    send = 1000 * (req.timestamp_end - req.timestamp_start) if req.timestamp_end else 0
    res = flow.response
    wait = 1000 * (res.timestamp_start - req.timestamp_end) if res and req.timestamp_end else 0
    receive = 1000 * (res.timestamp_end - res.timestamp_start) if res and res.timestamp_end else 0
    timings = {"connect": None, "ssl": None, "send": send, "receive": receive, "wait": wait}
    if res:
        raw = res.raw_content
        content = {"size": len(raw) if raw else 0, "compression": (len(res.content) if res.content else 0) - (len(raw) if raw else 0), "mimeType": res.headers.get("Content-Type", "")}
        if res.content and strutils.is_mostly_bin(res.content):
            content["text"] = base64.b64encode(res.content).decode()
            content["encoding"] = "base64"
        else:
            content["text"] = res.get_text(strict=False)  # None when the body was streamed (not stored)
        response = {"status": res.status_code, "statusText": res.reason, "httpVersion": res.http_version, "cookies": [], "headers": _pairs(res.headers),
                    "content": content, "redirectURL": res.headers.get("Location", ""), "headersSize": len(str(res.headers)), "bodySize": content["size"]}
        if flow.error:
            response["_error"] = flow.error.msg
    else:
        response = {"status": 0, "statusText": "", "httpVersion": "", "headers": [], "cookies": [], "content": {}, "redirectURL": "",
                    "headersSize": -1, "bodySize": -1, "_transferSize": 0, "_error": flow.error.msg if flow.error else None}
    entry = {
        "startedDateTime": datetime.fromtimestamp(req.timestamp_start, timezone.utc).isoformat(),
        "time": sum(v for v in timings.values() if v is not None and v >= 0),
        "request": {"method": req.method, "url": req.pretty_url, "httpVersion": req.http_version, "cookies": [], "headers": _pairs(req.headers),
                    "queryString": _pairs(req.query), "headersSize": len(str(req.headers)), "bodySize": len(req.raw_content) if req.raw_content else 0},
        "response": response,
        "cache": {},
        "timings": timings,
    }
    if req.method in ("POST", "PUT", "PATCH"):
        entry["request"]["postData"] = {"mimeType": req.headers.get("Content-Type", ""), "text": req.get_text(strict=False), "params": []}
    if flow.server_conn and flow.server_conn.peername:
        entry["serverIPAddress"] = str(flow.server_conn.peername[0])
    return entry


def _write(flow):
    if ctx.options.harlines and isinstance(flow, http.HTTPFlow):
        with open(ctx.options.harlines, "a") as f:
            f.write(json.dumps(_entry(flow)) + "\n")


def response(flow: http.HTTPFlow):
    _write(flow)


def error(flow: http.HTTPFlow):
    _write(flow)
