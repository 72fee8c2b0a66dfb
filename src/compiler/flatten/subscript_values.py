"""Values of subscripts that repeat across the unrolled equations of for-loops.

``u[min(i + 1, N), j]`` inside ``for i, j`` is translated and evaluated once per pair (i, j),
though its first subscript depends on i alone. A subscript made of literals, references
(for-indices, parameters), arithmetic and the built-ins below has a value fixed by where it
is written (instance and scope), the size of its dimension (``end``) and the values of the
for-indices it reads; ``cached_value`` keeps it under that key in the run's context
(``Context.subscripts``), so a model's flattening is a pure function as before.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.calls import builtin_called
from compiler.lang import ast

# built-ins whose call translates to its value with no trace left in the run (no auxiliary
# variable, no function of the model)
_PURE_BUILTINS = frozenset({"min", "max", "div", "mod", "rem", "abs", "integer"})


def cached_value(subscript, size: int, env, compute):
    """``compute()``, the value of ``subscript`` in ``env`` for a dimension of ``size``,
    from the cache when the subscript reads nothing else than the key holds."""
    cache = env.ctx.subscripts
    site = (id(subscript), id(env.instance), id(env.scope), tuple(env.iterators))
    entry = cache.get(site)
    if entry is None:
        # the entry keeps the objects alive, so their ids name them for the whole run
        entry = (subscript, env.instance, env.scope, _iterators_read(subscript, env))
        cache[site] = entry
    if entry[3] is None or entry[0] is not subscript or entry[1] is not env.instance \
            or entry[2] is not env.scope:
        return compute()
    key = (site, size, tuple(env.iterators[name] for name in entry[3]))
    value = cache.get(key)
    if value is None:
        value = compute()
        if isinstance(value, (int, tuple, flat.EnumConst)):   # not a varying subscript
            cache[key] = value
    return value


def _iterators_read(node, env) -> tuple | None:
    """The for-indices a subscript reads, or None when it has a part whose translation may
    depend on more (or leave a trace: calls of functions, arrays, if-expressions)."""
    names: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is ast.IntLit or kind is ast.End:
            continue
        if kind is ast.Binary:
            stack += (item.left, item.right)
        elif kind is ast.Unary:
            stack.append(item.operand)
        elif kind is ast.ComponentRef:
            first = item.parts[0].name
            if not item.is_global and first in env.iterators and first not in names:
                names.append(first)
            stack += [subscript for part in item.parts for subscript in part.subscripts]
        elif kind is ast.Call and not item.named and len(item.func.parts) == 1 and \
                item.func.parts[0].name in _PURE_BUILTINS and builtin_called(item.func, env):
            stack += item.args
        else:
            return None
    return tuple(names)
