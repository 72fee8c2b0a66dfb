"""The compiler's public functions (what ``cosim`` and other tools call).

Input: paths of ``.mo`` files and library locations. Output: ASTs, libraries, flat models and
check summaries. Every failure is a ``compiler.errors.CompilerError`` located in the source.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from compiler.errors import Span
from compiler.flat import FlatModel
from compiler.flatten import FlattenError, flatten
from compiler.lang import ast, parse
from compiler.library import Library, LibraryError, read_source, search_path


def parse_file(path) -> ast.StoredDefinition:
    """Parse one ``.mo`` file (raises ``ParseError`` at the first syntax error)."""
    path = Path(path)
    return parse(read_source(path), str(path))


def load_library(path=None, libs=(), environ=None) -> tuple[Library, list[str]]:
    """A library of the file ``path`` (optional) on the search path ``libs`` + MODELICAPATH.

    Returns the library and the full names of the classes ``path`` defines, in file order.
    A ``within`` clause puts the file's classes into that package of the search path.
    """
    library = Library()
    for location in search_path(libs, environ):
        library.add_path(location)
    names: list[str] = []
    if path is not None:
        stored = parse_file(path)
        parent = None
        if stored.within is not None and stored.within.parts:
            dotted = stored.within.dotted
            parent = library.lookup(dotted)
            if parent is None:
                raise LibraryError(f"package '{dotted}' of the within clause is not on the "
                                   "library path (add it with --lib or MODELICAPATH)",
                                   stored.within.span)
        package_dir = Path(path).parent if Path(path).name == "package.mo" else None
        entries = library.add_stored_definition(stored, parent, package_dir)
        names = [entry.full_name for entry in entries]
    return library, names


def _model_name(names: list[str], model: str | None, path, library: Library) -> str:
    if model is None:
        if not names:
            raise FlattenError("the file defines no class", Span(str(path), 1, 1))
        return names[-1]
    if library.lookup(model) is not None:
        return model
    if names and "." in names[0]:
        within = names[0].rsplit(".", 1)[0]
        if library.lookup(f"{within}.{model}") is not None:
            return f"{within}.{model}"
    inside = [f"{name}.{model}" for name in names if library.lookup(f"{name}.{model}")]
    hint = (f"; did you mean '{inside[0]}'?" if inside
            else f"; {Path(path).name} defines {', '.join(names)}" if names else "")
    raise FlattenError(f"class '{model}' not found{hint}", Span(str(path), 1, 1))


def flatten_model(path, model: str | None = None, libs=(), environ=None) -> FlatModel:
    """Parse ``path`` and flatten ``model`` (default: the file's last class).

    Parameters
    ----------
    path : str or Path
        The ``.mo`` file.
    model : str, optional
        Full name of the class to flatten, or a name relative to the file's ``within``.
    libs : sequence of str or Path
        Library locations searched in order before ``MODELICAPATH``.
    """
    return flatten(*library_and_name(path, model, libs, environ))


def library_and_name(path, model: str | None = None, libs=(), environ=None
                     ) -> tuple[Library, str]:
    """The library of ``path`` and the full name of its class ``model`` (as for
    ``flatten_model``)."""
    library, names = load_library(path, libs, environ)
    return library, _model_name(names, model, path, library)


@dataclass(frozen=True, slots=True)
class CheckSummary:
    """What ``cosim check`` reports about a model that flattens."""

    model: str
    variables: int      # scalar unknowns (continuous and discrete, not top-level inputs)
    states: int         # variables that appear differentiated
    equations: int      # scalar equations, algorithm outputs included
    parameters: int
    inputs: int
    outputs: int
    functions: int

    def __str__(self) -> str:
        counts = [_count(self.variables, "variable") + f" ({_count(self.states, 'state')})",
                  _count(self.equations, "equation"), _count(self.parameters, "parameter"),
                  _count(self.inputs, "input"), _count(self.outputs, "output"),
                  _count(self.functions, "function")]
        return f"{self.model}: " + ", ".join(counts)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def check(path, model: str | None = None, libs=(), environ=None) -> CheckSummary:
    """Parse and flatten a model; the counts ``cosim check`` prints."""
    return summarize(flatten_model(path, model, libs, environ))


def summarize(flat_model: FlatModel) -> CheckSummary:
    """The counts ``cosim check`` prints, of a flat model."""
    from compiler.flatten.equations import count_equations
    from compiler.flatten.walk import nodes
    from compiler import flat

    states = {node.args[0].name for node in nodes(flat_model.equations)
              if type(node) is flat.Call and node.name == "der" and node.args
              and type(node.args[0]) is flat.Var}
    variables = flat_model.variables
    equations = count_equations(flat_model.equations) + _algorithm_outputs(flat_model)
    return CheckSummary(
        flat_model.name,
        sum(1 for v in variables if v.variability in ("continuous", "discrete")
            and v.causality != "input"),
        len(states), equations,
        sum(1 for v in variables if v.variability == "parameter"),
        sum(1 for v in variables if v.causality == "input"),
        sum(1 for v in variables if v.causality == "output"),
        len(flat_model.functions))


def _algorithm_outputs(flat_model: FlatModel) -> int:
    from compiler import flat
    from compiler.flatten.walk import nodes
    total = 0
    for algorithm in flat_model.algorithms:
        assigned = set()
        for node in nodes(algorithm.statements):
            if type(node) is flat.Assign:
                targets = node.target.elements if type(node.target) is flat.TupleExpr \
                    else (node.target,)
                assigned.update(t.name for t in targets if type(t) is flat.Var)
        total += len(assigned)
    return total
