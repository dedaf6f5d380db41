# Stands in for opentelemetry-semantic-conventions when its wheel is not installed (it was not in the offline
# wheel set): the SDK only imports attribute-name constants and metric helpers from it. Names the recordings show
# (exception.*, service.name, telemetry.sdk.*) are spelled out; other constants get the usual dotted lowercase form,
# metric helpers return no-op instruments. With the real package installed this module does nothing.
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types

KNOWN = {
    "EXCEPTION_TYPE": "exception.type",
    "EXCEPTION_MESSAGE": "exception.message",
    "EXCEPTION_STACKTRACE": "exception.stacktrace",
    "EXCEPTION_ESCAPED": "exception.escaped",
    "SERVICE_NAME": "service.name",
    "TELEMETRY_SDK_NAME": "telemetry.sdk.name",
    "TELEMETRY_SDK_LANGUAGE": "telemetry.sdk.language",
    "TELEMETRY_SDK_VERSION": "telemetry.sdk.version",
    "HTTP_RESPONSE_STATUS_CODE": "http.response.status_code",
    "ERROR_TYPE": "error.type",
}


class _Noop:
    def __getattr__(self, name):
        return lambda *a, **k: None


class _Constants:
    """ResourceAttributes: every member is an attribute name."""

    def __getattr__(self, name):
        return KNOWN.get(name, name.lower().replace("_", "."))


class _Values:
    """OtelComponentTypeValues and the like: every member has a .value."""

    def __getattr__(self, name):
        return types.SimpleNamespace(value=name.lower(), name=name)


class _Module(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        if name.startswith("create_"):
            return lambda *a, **k: _Noop()
        if name == "ResourceAttributes":
            return _Constants()
        if name.endswith("Values"):
            return _Values()
        if name.isupper():
            return KNOWN.get(name, name.lower().replace("_", "."))
        # a submodule imported by `from opentelemetry.semconv.attributes import exception_attributes`
        return importlib.import_module(f"{self.__name__}.{name}")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname == "opentelemetry.semconv" or fullname.startswith("opentelemetry.semconv."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _Module(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def install() -> None:
    if importlib.util.find_spec("opentelemetry.semconv") is None:
        sys.meta_path.append(_Finder())
