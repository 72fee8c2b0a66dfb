"""Python model classes through the compiler: libraries, flat models, Modelica text, files.

Input: a Python model class, or a ``.py`` file and the name of a class in it. Output: the
``Library`` holding its AST (before the search path ``libs`` + ``MODELICAPATH``), its
``FlatModel`` (``compiler.flatten``, as for ``.mo`` sources), its Modelica text. A file given
by path runs like a script: its classes are top-level Modelica classes.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

from compiler.errors import Span
from compiler.flat import FlatModel
from compiler.flatten import flatten
from compiler.lang.unparse import unparse
from compiler.library import Library, search_path
from cosim.build.classes import is_model_class
from cosim.build.emit import stored_definition
from cosim.build.errors import BuildError, from_python
from cosim.build.names import PACKAGE_ATTRIBUTE


def library_of(target, libs=(), environ=None) -> tuple[Library, str]:
    """A library holding ``target`` and the classes it uses, and ``target``'s full name."""
    stored = stored_definition(target)
    library = Library()
    for location in search_path(libs, environ):
        library.add_path(location)
    library.add_stored_definition(stored, None)
    return library, ".".join(target.__modelica_full_name__())


def flatten_class(target, libs=(), environ=None) -> FlatModel:
    """The flat model of a Python model class (``FlattenError`` located in its Python file)."""
    library, name = library_of(target, libs, environ)
    return flatten(library, name)


def modelica_text(target) -> str:
    """The Modelica source of ``target`` and the classes it uses."""
    return unparse(stored_definition(target))


def load_module(path):
    """Run the Python file ``path`` as a fresh module (its folder first on ``sys.path`` while
    it runs, as for a script) and return it."""
    path = Path(path)
    if not path.is_file():
        raise BuildError("no such Python file", Span(str(path), 1, 1))
    resolved = str(path.resolve())
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:12]
    name = f"_cosim_model_{digest}"
    spec = importlib.util.spec_from_file_location(name, resolved)
    module = importlib.util.module_from_spec(spec)
    setattr(module, PACKAGE_ATTRIBUTE, "")  # like a script: top-level classes
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent.resolve()))
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        sys.modules.pop(name, None)
        raise from_python(error, f"running {path.name}", (resolved,)) from None
    finally:
        sys.path.remove(str(path.parent.resolve()))
    return module


def find_class(module, model: str | None, path) -> type:
    """The class ``model`` (dotted for a nested class) of ``module``; by default the last
    model class the file defines."""
    where = Span(str(path), 1, 1)
    if model is None:
        defined = [value for value in vars(module).values()
                   if is_model_class(value) and value.__module__ == module.__name__
                   and value.__dict__.get("__modelica_parent__") is None]
        if not defined:
            raise BuildError("the file defines no model class (a subclass of "
                             "cosim.build.Model, Block, ...)", where)
        return defined[-1]
    found = module
    for part in model.split("."):
        found = vars(found).get(part) if hasattr(found, "__dict__") else None
        if found is None:
            break
    if not is_model_class(found):
        names = [key for key, value in vars(module).items() if is_model_class(value)]
        raise BuildError(f"class '{model}' not found; {Path(path).name} defines "
                         f"{', '.join(names) or 'no model class'}", where)
    return found


def load_class(path, model: str | None = None) -> type:
    """The model class ``model`` of the Python file ``path``."""
    return find_class(load_module(path), model, path)


def flatten_file(path, model: str | None = None, libs=(), environ=None) -> FlatModel:
    return flatten_class(load_class(path, model), libs, environ)
