"""Fast constructors for frozen slotted dataclasses, for the parser's hot path.

Input: a frozen ``slots=True`` dataclass. Output: a function with the class's positional
signature and defaults returning an instance equal to ``cls(...)``. The fields are stored
into a plain *twin* class with the same ``__slots__`` (ordinary attribute stores), then the
instance gets its real class by ``__class__`` assignment, which CPython allows, and checks,
between classes of identical layout. A frozen dataclass's ``__init__`` instead pays a C call
with a fresh argument tuple per field. Where the class switch is refused, a slower
descriptor-based constructor is used.
"""
from __future__ import annotations

from dataclasses import MISSING, fields


def fast_constructor(cls):
    """A function ``make(*fields)`` building an instance of the frozen dataclass ``cls``."""
    names = [item.name for item in fields(cls)]
    if any(item.default_factory is not MISSING for item in fields(cls)) or \
            tuple(getattr(cls, "__slots__", ())) != tuple(names):
        raise TypeError(f"{cls.__name__} is not a slotted dataclass without default factories")
    twin = type(f"_Building{cls.__name__}", (), {"__slots__": tuple(names)})
    namespace = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    params = []
    for index, item in enumerate(fields(cls)):
        if item.default is not MISSING:
            namespace[f"_default{index}"] = item.default
            params.append(f"{item.name}=_default{index}")
        else:
            params.append(item.name)
    body = "".join(f"    obj.{name} = {name}\n" for name in names)
    source = (f"def make({', '.join(params)}):\n    obj = _twin()\n{body}"
              "    obj.__class__ = _cls\n    return obj\n")
    exec(source, namespace)  # the technique dataclasses itself uses to build __init__
    make = namespace["make"]
    try:
        probe = make(*([None] * len(names)))
    except TypeError:
        return _descriptor_constructor(cls, params, namespace)
    if type(probe) is not cls:
        return _descriptor_constructor(cls, params, namespace)
    make.__name__ = make.__qualname__ = f"make_{cls.__name__}"
    return make


def _descriptor_constructor(cls, params, namespace):
    """The portable fallback: write each slot through its member descriptor."""
    names = [item.name for item in fields(cls)]
    for name in names:
        namespace[f"_set_{name}"] = cls.__dict__[name].__set__
    body = "".join(f"    _set_{name}(obj, {name})\n" for name in names)
    source = f"def make({', '.join(params)}):\n    obj = _new(_cls)\n{body}    return obj\n"
    exec(source, namespace)
    make = namespace["make"]
    make.__name__ = make.__qualname__ = f"make_{cls.__name__}"
    return make
