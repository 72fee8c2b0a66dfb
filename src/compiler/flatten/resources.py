"""``loadResource`` of a ``modelica://`` or ``file://`` URI (MLS 13.5) as a built-in.

Input: a call of the library's ``loadResource`` (known by its full name) with a literal URI.
Output: the built-in ``loadResource(uri, path)``: ``path`` is the file or folder the URI names
on this machine (a located error when there is none). The FMU ships it in its resources/
under ``resource_name(uri)`` and opens it there when it runs, wherever the FMU has moved
(compiler.codegen, external_support.h). Other arguments (a file name, a String computed at
run time) keep the library's own function.
"""
from __future__ import annotations

from pathlib import PurePosixPath

from compiler import flat
from compiler.flatten.errors import FlattenError

LOAD_RESOURCE = frozenset({"ModelicaServices.ExternalReferences.loadResource",
                           "Modelica.Utilities.Files.loadResource"})
SCHEMES = ("modelica://", "file://")


def resource_call(ctx, function: str, arguments, span) -> flat.Call | None:
    """The built-in call for ``function(arguments)``, or None when it is not one."""
    if function not in LOAD_RESOURCE or len(arguments) != 1:
        return None
    uri = arguments[0]
    if type(uri) is not flat.Const or not isinstance(uri.value, str) or \
            not uri.value.lower().startswith(SCHEMES):
        return None
    path = ctx.classes.library.resolve_uri(uri.value)
    if path is None or not path.exists():
        raise FlattenError(f"the resource {uri.value} does not exist" +
                           (f" ({path})" if path is not None else ""), span)
    return flat.Call("loadResource", (uri, flat.Const(str(path.resolve()))))


def resource_name(uri: str) -> str:
    """Where the resource of ``uri`` lies in the FMU's resources/: ``Lib/Data/t.txt`` for
    ``modelica://Lib/Data/t.txt``, ``files/t.txt`` for ``file:///home/u/t.txt``."""
    scheme, _, rest = uri.partition("://")
    parts = [part for part in PurePosixPath(rest).parts if part not in ("/", "..", ".")]
    if scheme.lower() == "file":
        return "files/" + (parts[-1] if parts else "resource")
    return "/".join(parts) or "resource"
