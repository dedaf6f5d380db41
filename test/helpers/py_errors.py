# What a Python MCP app saw fail, as JSON for its recorder: the innermost exception of a group, its text, and the
# JSON-RPC code an MCPError carries (shared by the judge's apps of audits 56, 59 and 63).


def describe(err: BaseException) -> dict:
    inner = err
    while isinstance(inner, BaseExceptionGroup) and inner.exceptions:
        inner = inner.exceptions[0]
    out = {"name": type(inner).__name__, "message": str(inner)[:300]}
    code = getattr(getattr(inner, "error", None), "code", None)
    if code is not None:
        out["code"] = code
    return out
