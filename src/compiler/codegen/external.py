"""External "C" functions -> C: the body of their ``fn_`` wrapper, and model_external.c.

Input: ``flat.Function`` values with an ``external`` call, and the ``BodyWriter`` of the
wrapper (its outputs and protected variables already declared). Output: the statements
that call the external function with Modelica's mapping of types (MLS 12.9.1: Real ``double``,
Integer, Boolean and enumerations ``int``, String ``const char *``, external objects
``void *``, arrays by pointer, ``size(a, k)`` as ``size_t``, outputs other than the result
by pointer), converting Boolean and enumeration values to ``int`` and back; and the text of
model_external.c: the ``Include`` texts, then one trampoline ``ext_<function>`` per function
whose parameters have exactly those types and which calls the external function. The
trampolines are a translation unit of their own, compiled like the libraries' code: the
headers an ``Include`` brings are not the generated code's, and their prototypes convert the
arguments. Without an ``Include`` the trampoline's own parameter types give the prototype.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler import flat
from compiler.codegen.external_fortran import fortran_argument, hidden_lengths, symbol
from compiler.codegen.function_body import INDENT, BodyWriter, Local, _bare
from compiler.codegen.interface import source_place
from compiler.codegen.naming import plain_identifier

# C types of the MLS mapping for values of the model's C types
_SCALARS = {"Real": "double", "Integer": "int", "Boolean": "int", "String": "const char *"}


@dataclass(frozen=True, slots=True)
class Argument:
    """One argument of an external call: its C type in the mapping and the C text the
    wrapper passes."""
    c_type: str
    text: str


class ExternalCalls:
    """The external functions of one model: wrapper statements and model_external.c."""

    def __init__(self, objects: frozenset):
        self.objects = objects
        self.trampolines: dict[str, str] = {}    # function name -> its trampoline's text
        self.prototypes: dict[str, str] = {}     # function name -> declaration in model.c
        self.includes: list[str] = []            # the Include texts, each once

    def trampoline_name(self, function: flat.Function) -> str:
        return f"ext_{plain_identifier(function.name)}"

    def mapped_type(self, type_: str) -> str:
        """The C type of a scalar of Modelica type ``type_`` in the mapping."""
        if type_ in self.objects:
            return "void *"
        return _SCALARS.get(type_, "int")   # enumerations: int

    # ---------------------------------------------------------------- wrapper statements
    def call_lines(self, writer: BodyWriter, function: flat.Function) -> list[str]:
        """The statements of the wrapper between the declarations and the return."""
        external = function.external
        writer.span = function.span
        outputs = {item.name for item in function.outputs}
        before, after, arguments = [], [], []
        for arg in external.args:
            if external.language == "FORTRAN 77":
                argument, pre, post = self._fortran_argument(writer, function, arg)
            else:
                argument, pre, post = self._argument(writer, function, arg, outputs)
            arguments.append(argument)
            before += pre
            after += post
        result_type, assign = "void", None
        if external.output:
            local = writer.locals[external.output]
            result_type = self.mapped_type(local.type)
            assign = local
        name = self.trampoline_name(function)
        call = f"{name}({', '.join(item.text for item in arguments)})"
        self._declare(function, name, result_type, [item.c_type for item in arguments])
        if assign is None:
            line = f"{call};"
        elif assign.type == "Boolean":
            line = f"{assign.c_name} = {call} != 0;"
        else:
            line = f"{assign.c_name} = {call};"
        return writer.take() + before + [line] + after

    def _argument(self, writer: BodyWriter, function, arg, outputs) -> tuple:
        """(Argument, statements before the call, statements after it) for one argument."""
        kind = type(arg)
        if kind is flat.Call and arg.name == "size" and type(arg.args[0]) is flat.Var:
            local = writer.locals[arg.args[0].name]
            dimension = int(arg.args[1].value) - 1
            return Argument("size_t", local.sizes[dimension]), [], []
        if kind is flat.Var and arg.name in writer.locals:
            local = writer.locals[arg.name]
            if local.sizes:
                return self._array(writer, local, arg.name in outputs)
            if arg.name in outputs:
                return self._output(writer, local)
        type_ = writer.type_of(arg)
        text = _bare(writer.expr(arg))
        if type_ == "Boolean" or (type_ not in _SCALARS and type_ not in self.objects):
            text = f"(int)({text})"
        return Argument(self.mapped_type(type_), text), [], []

    def _fortran_argument(self, writer: BodyWriter, function, arg) -> tuple:
        mapped = fortran_argument(self.mapped_type, writer, function, arg)
        if mapped is None:
            return self._output(writer, writer.locals[arg.name])
        (c_type, text), before, after = mapped
        return Argument(c_type, text), before, after

    def _output(self, writer: BodyWriter, local: Local) -> tuple:
        """A scalar output passed by pointer (Boolean and enumerations through an int)."""
        mapped = self.mapped_type(local.type)
        if mapped != "int" or local.type == "Integer":
            pointer = f"{mapped}*" if mapped.endswith("*") else f"{mapped} *"
            return Argument(pointer, f"&{local.c_name}"), [], []
        temp = writer.fresh(f"{local.c_name}_int")
        converted = f"{temp} != 0" if local.type == "Boolean" else temp
        return (Argument("int *", f"&{temp}"), [f"int {temp} = (int)({local.c_name});"],
                [f"{local.c_name} = {converted};"])

    def _array(self, writer: BodyWriter, local: Local, output: bool) -> tuple:
        """An array by pointer; Boolean and enumeration arrays through a copy of ints."""
        mapped = self.mapped_type(local.type)
        constant = "" if output else "const "
        if mapped.endswith("*"):   # Strings, external objects
            return Argument(f"{mapped}{constant}*", local.c_name), [], []
        if mapped != "int" or local.type == "Integer":
            return Argument(f"{constant}{mapped} *", local.c_name), [], []
        temp, k = writer.fresh(f"{local.c_name}_int"), writer.fresh("k")
        count = local.count
        loop = f"for (size_t {k} = 0; {k} < {count}; {k}++) "
        before = [f"int {temp}[({count}) > 0 ? {count} : 1];",
                  f"{loop}{temp}[{k}] = (int)({local.c_name}[{k}]);"]
        back = f"{temp}[{k}] != 0" if local.type == "Boolean" else f"{temp}[{k}]"
        after = [f"{loop}{local.c_name}[{k}] = {back};"] if output else []
        return Argument(f"{constant}int *", temp), before, after

    # ------------------------------------------------------------------- model_external.c
    def _declare(self, function: flat.Function, name: str, result: str, types: list) -> None:
        if function.name in self.trampolines:
            return
        external = function.external
        parameters = ", ".join(_parameter(c_type, f"a{k + 1}") for k, c_type in
                               enumerate(types)) or "void"
        head = f"{_result(result)}{name}({parameters})"
        names = [f"a{k + 1}" for k in range(len(types))]
        target, declared = external.function, list(types)
        if external.language == "FORTRAN 77":
            lengths = hidden_lengths(types, names)
            target, names = symbol(external.function), names + lengths
            declared += ["size_t"] * len(lengths)
            if lengths and "#include <string.h>" not in self.includes:
                self.includes.append("#include <string.h>")
        call = f"{target}({', '.join(names)})"
        body = f"{call};" if result == "void" else f"return {call};"
        place = source_place(function.span)
        comment = f"/* {function.name}{f' ({place})' if place else ''} */"
        lines = [comment]
        if not external.include or external.language == "FORTRAN 77":
            lines.append(f"{_result(result)}{target}({', '.join(declared) or 'void'});")
        lines += [f"{head} {{", f"{INDENT}{body}", "}"]
        self.trampolines[function.name] = "\n".join(lines)
        self.prototypes[function.name] = f"{head};"
        for text in external.include:
            if text not in self.includes:
                self.includes.append(text)

    def prototype_text(self) -> str:
        """The declarations of the trampolines, for model.c."""
        if not self.prototypes:
            return ""
        return "/* external functions (model_external.c) */\n" + "\n".join(
            self.prototypes.values())

    def source(self, model_name: str) -> str:
        """model_external.c; empty when the model calls no external function."""
        if not self.trampolines:
            return ""
        head = [f"/* {model_name}: the external functions the model calls, each through a "
                "trampoline", " * whose parameters have the C types of the Modelica mapping "
                "(MLS 12.9.1).", " *", " * Generated by cosim. Compiled as library code: the "
                "Include annotations' text", " * follows as given. */", "#include <stddef.h>",
                ""]
        return "\n".join(head + self.includes + [""] + list(self.trampolines.values())) + "\n"


def _result(c_type: str) -> str:
    return c_type if c_type.endswith("*") else f"{c_type} "


def _parameter(c_type: str, name: str) -> str:
    return f"{c_type}{name}" if c_type.endswith("*") else f"{c_type} {name}"
