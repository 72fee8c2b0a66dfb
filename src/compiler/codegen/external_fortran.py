"""The arguments of an external "FORTRAN 77" call (MLS 12.9.1), for ``codegen.external``.

Fortran receives every argument by reference: a scalar input or an expression is copied
into a local whose address is passed, a size ``size(a, k)`` becomes an ``INTEGER`` local,
protected and output scalars are passed by address (the routine may write them). Arrays
are passed in Fortran's column-major order: an array of two or more dimensions is copied,
transposed, into a local buffer before the call and, when the routine may write it (an
output or protected variable), copied back after. Real is ``DOUBLE PRECISION``
(``double``), Integer ``INTEGER``, Boolean ``LOGICAL`` and enumerations ``INTEGER`` (all
``int``, gfortran's default kinds). Strings go as NUL-terminated ``CHARACTER`` data; their
hidden lengths, which gfortran expects after the other arguments, are added by the
trampoline (``hidden_lengths``).
"""
from __future__ import annotations

from compiler import flat
from compiler.codegen.function_body import BodyWriter, Local, _bare


def symbol(function_name: str) -> str:
    """The linker name gfortran gives a routine: lower case with a trailing underscore."""
    return f"{function_name.lower()}_"


def fortran_argument(mapped_type, writer: BodyWriter, function: flat.Function, arg):
    """((C type, C text), statements before the call, statements after it) for one
    argument; None for a scalar output or protected variable, passed by address like a C
    output. ``mapped_type``: the C type of a Modelica scalar type in the mapping."""
    inputs = {item.name for item in function.inputs}
    kind = type(arg)
    if kind is flat.Call and arg.name == "size" and type(arg.args[0]) is flat.Var:
        local = writer.locals[arg.args[0].name]
        size = local.sizes[int(arg.args[1].value) - 1]
        return _copied(writer, "int", f"(int)({size})", "size")
    if kind is flat.Var and arg.name in writer.locals:
        local = writer.locals[arg.name]
        if local.sizes:
            return _array(mapped_type, writer, local, arg.name not in inputs)
        if arg.name not in inputs:
            return None
    type_ = writer.type_of(arg)
    text = _bare(writer.expr(arg))
    if type_ == "String":
        return ("const char *", text), [], []
    mapped = mapped_type(type_)
    if mapped == "void *":
        return ("void *", text), [], []
    return _copied(writer, mapped, f"({mapped})({text})", "arg")


def _copied(writer: BodyWriter, c_type: str, value: str, stem: str) -> tuple:
    temp = writer.fresh(stem)
    return (f"{c_type} *", f"&{temp}"), [f"{c_type} {temp} = {value};"], []


def _array(mapped_type, writer: BodyWriter, local: Local, written: bool) -> tuple:
    """An array by address; copied when it needs converting (Boolean, enumerations) or
    transposing (two or more dimensions)."""
    mapped = mapped_type(local.type)
    constant = "" if written else "const "
    if mapped.endswith("*"):
        return (f"{mapped}{constant}*", local.c_name), [], []
    converted = mapped == "int" and local.type != "Integer"
    if len(local.sizes) < 2 and not converted:
        return (f"{constant}{mapped} *", local.c_name), [], []
    temp, k = writer.fresh(f"{local.c_name}_f"), writer.fresh("k")
    count = local.count
    column = column_major_index(k, local.sizes)
    loop = f"for (size_t {k} = 0; {k} < {count}; {k}++) "
    to_fortran = f"({mapped})({local.c_name}[{k}])" if converted else f"{local.c_name}[{k}]"
    before = [f"{mapped} {temp}[({count}) > 0 ? {count} : 1];",
              f"{loop}{temp}[{column}] = {to_fortran};"]
    back = f"{temp}[{column}]"
    if local.type == "Boolean":
        back = f"{back} != 0"
    after = [f"{loop}{local.c_name}[{k}] = {back};"] if written else []
    return (f"{constant}{mapped} *", temp), before, after


def column_major_index(k: str, sizes: tuple[str, ...]) -> str:
    """The column-major position of the element at row-major position ``k`` of an array of
    ``sizes``: its indices i1..in are the digits of ``k`` in the mixed radix of the sizes
    (the last one fastest), and the position is i1 + s1 * (i2 + s2 * (... in))."""
    if len(sizes) < 2:
        return k
    digits, rest = [], k
    for size in reversed(sizes[1:]):
        digits.insert(0, f"{rest} % ({size})")
        rest = f"{rest} / ({size})"
    digits.insert(0, rest)
    text = f"({digits[-1]})"
    for index in range(len(sizes) - 2, -1, -1):
        text = f"({digits[index]} + ({sizes[index]}) * {text})"
    return text


def hidden_lengths(types: list, names: list) -> list[str]:
    """The lengths gfortran passes after the arguments, one per CHARACTER argument."""
    return [f"strlen({name})" for c_type, name in zip(types, names) if c_type == "const char *"]
