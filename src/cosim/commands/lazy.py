"""Modules the verbs call into, imported when a verb first uses one: building the parser
registers every verb, and ``cosim compile`` then loads neither the master nor its
dependencies (networkx, the FMI loaders)."""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_import(name: str) -> ModuleType:
    """The module ``name``, executed at the first access of one of its attributes."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
