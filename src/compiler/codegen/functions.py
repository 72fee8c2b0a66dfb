"""User functions -> static C functions, and the calls of model code to them.

Input: the ``flat.Function`` values of a model. Output: ``definitions``: prototypes and
definitions of the functions the model calls (directly or through other functions), and
``call_text``: the C that evaluates one result of a call in model code. A function
``f(x, v[:]) -> (y, u[size(v, 1)])`` becomes
``static Status fn_f(ModelData *m, double x, const double *v, size_t v_n1, double *y_out,
double *u)``: arrays are row-major with their sizes after them, outputs are written through
pointers (the caller sizes output arrays), and the status reports a failed assert.
"""
from __future__ import annotations

import re

from compiler import flat
from compiler.codegen.cexpr import c_type
from compiler.codegen.errors import EmitError
from compiler.codegen.external import ExternalCalls
from compiler.codegen.function_body import INDENT, BodyWriter, Local, _size_t, array_size
from compiler.codegen.interface import source_place
from compiler.codegen.naming import plain_identifier
from compiler.fmu.c_tables import c_string
from compiler.fmu.interface import C_KEYWORDS
from compiler.flatten.resources import resource_name
from compiler.flatten.walk import nodes
from compiler.function_order import declaration_order
from compiler.function_shapes import count, output_shapes
from compiler.symbolic.expr import INTEGER, Array, Const

_TYPES = {"Real": "double", "Integer": "int32_t", "Boolean": "bool", "String": "const char *"}
# names a variable of a function must not take: the model argument and the C functions the
# body may call
RESERVED_NAMES = frozenset({
    "m", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp",
    "log", "log10", "sqrt", "pow", "fabs", "fmin", "fmax", "floor", "ceil", "trunc",
    "model_log", "true", "false", "bool", "size_t", "int32_t", "int64_t", "string_concat",
    "string_of_real", "string_of_integer", "string_of_boolean", "string_formatted",
    "string_compare", "string_assign", "frame_", "NULL"})


class FunctionCode:
    """The C of a model's user functions (see the module docstring). ``objects``: the
    names of the model's external object classes (their values are ``void *``).
    ``support``: the code uses external_support.h (Strings it makes, external functions)."""

    def __init__(self, functions, objects=frozenset(), enumerations=(), object_classes=None):
        self.functions = {item.name: item for item in functions}
        self.objects = frozenset(objects)
        # class name -> flat.ExternalObject: the functions making and freeing its objects
        self.object_classes = object_classes or {}
        self.enumerations = {item.name: item.literals for item in enumerations}
        self.externals = ExternalCalls(self.objects)
        self.used: list[str] = []   # in order of first use
        self.numbers = 0   # calls and branches in model code so far: their locals' names
        self.support = False
        self.resources: dict[str, str] = {}   # name in the FMU's resources/ -> file here

    def next_number(self) -> int:
        """A number for the locals of one call (unique in the model: writers of one C
        function share its scope)."""
        self.numbers += 1
        return self.numbers

    # -------------------------------------------------------------- names and signatures
    def c_name(self, function: flat.Function) -> str:
        return f"fn_{plain_identifier(function.name)}"

    @staticmethod
    def identifier(name: str) -> str:
        """The C name of a variable of a function (not a keyword, not a C function)."""
        text = plain_identifier(name)
        return f"{text}_" if text in C_KEYWORDS or text in RESERVED_NAMES else text

    def use(self, name: str) -> None:
        if name not in self.used:
            self.used.append(name)

    def resource(self, uri: str, path: str) -> str:
        """C text of ``loadResource(uri, path)``: the resource as the FMU ships it (found in
        its resources/ when it runs, else at ``path``)."""
        name = resource_name(uri)
        if self.resources.setdefault(name, path) != path:
            raise EmitError(f"the resources {uri} and {self.resources[name]} would both be "
                            f"resources/{name} of the FMU")
        self.support = True
        return f"model_resource(m, {c_string(name)}, {c_string(path)})"

    def literal_name(self, type_: str, ordinal: str) -> str:
        """C text of the name of the literal of enumeration ``type_`` whose ordinal is the C
        expression ``ordinal`` (String() of an enumeration)."""
        names = ", ".join(c_string(name) for name in self.enumerations[type_])
        return f"((const char *const[]){{{names}}})[({ordinal}) - 1]"

    def c_type(self, type_: str) -> str:
        """The C type of values of Modelica type ``type_`` in generated code."""
        if type_ in self.objects:
            return "void *"
        return _TYPES.get(type_) or c_type(type_)

    def signature(self, function: flat.Function) -> str:
        parameters = ["ModelData *m"]
        for item in function.inputs:
            name = self.identifier(item.name)
            type_ = self.c_type(item.type)
            if item.dims:
                pointer = f"{type_}const *" if type_.endswith("*") else f"const {type_} *"
                parameters.append(f"{pointer}{name}")
                parameters += [f"size_t {name}_n{k + 1}" for k in range(len(item.dims))]
            else:
                parameters.append(_declarator(type_, name))
        for item in function.outputs:
            name = self.identifier(item.name)
            parameters.append(_declarator(f"{_pointer(self.c_type(item.type))}",
                                          f"{name}{'' if item.dims else '_out'}"))
        return f"static Status {self.c_name(function)}({', '.join(parameters)})"

    # ------------------------------------------------------------------- function bodies
    def definitions(self, context) -> list[str]:
        """Prototypes, then definitions, of every function used so far and those they use."""
        texts, done = [], 0
        while done < len(self.used):
            texts.append(self._definition(self.functions[self.used[done]]))
            done += 1
        if not texts:
            return []
        prototypes = "\n".join(f"{self.signature(self.functions[name])};" for name in self.used)
        return ["/* user functions */\n" + prototypes] + texts

    def _definition(self, function: flat.Function) -> str:
        locals_: dict[str, Local] = {}
        writer = BodyWriter(self, function, locals_)
        for item in function.inputs:
            name = self.identifier(item.name)
            sizes = tuple(f"{name}_n{k + 1}" for k in range(len(item.dims)))
            locals_[item.name] = Local(name, item.type, sizes)
        lines = []
        for item in declaration_order(function):
            lines += self._declaration(writer, item, item in function.outputs)
        if function.external is not None:
            self.support = True
            lines += self.externals.call_lines(writer, function)
        else:
            lines += writer.statements(function.algorithm)
        unused = _unused_locals(function, locals_, lines)
        lines += [f"(void){name};" for name in unused] + self.return_lines(function, locals_)
        body = "\n".join(INDENT + line if line else "" for line in lines)
        code = _STRING_LITERAL.sub('""', body)
        unused = [name for name in _parameter_names(self.signature(function))
                  if not re.search(rf"\b{name}\b", code)]
        if unused:   # sizes of fixed-size arrays, the model when nothing logs
            body = f"{INDENT}{', '.join(f'(void){name}' for name in unused)};\n{body}"
        description = f": {function.description}" if function.description else ""
        place = source_place(function.span)
        comment = f"/* {function.name}{description}{f' ({place})' if place else ''} */"
        return f"{comment}\n{self.signature(function)} {{\n{body}\n}}"

    def _declaration(self, writer: BodyWriter, item: flat.FunctionVar, output: bool) -> list[str]:
        """Declaration and default of an output or protected variable."""
        name = self.identifier(item.name)
        type_ = self.c_type(item.type)
        if item.type in self.objects and not output and \
                not _constructed_local(item, writer.function, self.object_classes):
            # it would need its destructor called wherever the function returns
            raise EmitError(f"the external object {item.name}, a protected variable of "
                            f"{writer.function.name}, is not supported by the C code generator",
                            item.span or writer.function.span)
        lines = []
        if not item.dims:
            writer.locals[item.name] = Local(name, item.type)
            if item.default is None:
                return [f"{_declarator(type_, name)} = {_zero(type_)};"]
            value = writer.expr(item.default)
            return writer.take() + [f"{_declarator(type_, name)} = {value};"]
        if any(dim is None for dim in item.dims):
            raise EmitError(f"the array {item.name} of {writer.function.name} has a size only "
                            "its binding gives, which the C code generator does not support",
                            item.span or writer.function.span)
        sizes = []
        for k, dim in enumerate(item.dims):
            text = writer.expr(dim)
            lines += writer.take()
            text = _size_t(text)
            lines.append(f"const size_t {name}_n{k + 1} = {text};")
            sizes.append(f"{name}_n{k + 1}")
        local = Local(name, item.type, tuple(sizes))
        writer.locals[item.name] = local
        if not output:
            lines.append(f"{_declarator(type_, name)}[{array_size(local.count)}];")
        if item.default is not None:
            lines += writer._array_assign(local, item.default, item.span)
        else:
            # a protected array of no elements has one: it is set too (gcc checks reads)
            k = writer.fresh("k")
            count = local.count if output else array_size(local.count)
            lines.append(f"for (size_t {k} = 0; {k} < {count}; {k}++) {name}[{k}] = "
                         f"{_zero(type_)};")
        return lines

    def return_lines(self, function: flat.Function, locals_: dict) -> list[str]:
        lines = [f"*{locals_[item.name].c_name}_out = {locals_[item.name].c_name};"
                 for item in function.outputs if not item.dims]
        return lines + self._destructor_lines(function, locals_) + ["return StatusOK;"]

    def _destructor_lines(self, function: flat.Function, locals_: dict) -> list[str]:
        """The destructor calls of the external objects the function constructed (its
        protected ones), last constructed first. (A failure returns without them.)"""
        lines = []
        for item in reversed(function.locals):
            if item.type not in self.objects or item.name not in locals_:
                continue
            destructor = self.functions[self.object_classes[item.type].destructor]
            self.use(destructor.name)
            name = locals_[item.name].c_name
            lines.append(f"if ({name}) CHECK({self.c_name(destructor)}(m, {name}));")
        return lines

    @staticmethod
    def failure_line() -> str:
        return "return StatusError;"

    # ----------------------------------------------------- calls inside function bodies
    def argument_texts(self, writer: BodyWriter, callee: flat.Function, args,
                       written=frozenset()) -> list[str]:
        """The C arguments of a call in a function body; an array argument reading one of
        the variables the call ``written`` assigns is passed as a copy."""
        texts = []
        for item, arg in zip(callee.inputs, args):
            if not item.dims:
                texts.append(writer.expr(arg))
                continue
            shape = writer.shape(arg)
            if len(shape) != len(item.dims):
                raise writer.error(f"an argument of {len(shape)} dimensions for {item.name} "
                                   f"of {callee.name}")
            copy = any(node.name in written for node in nodes(arg) if type(node) is flat.Var)
            array, sizes = writer.materialized(arg, item.type, copy)
            texts += [array, *sizes]
        return texts

    def output_sizes(self, writer: BodyWriter, callee: flat.Function, args,
                     output: flat.FunctionVar) -> tuple[str, ...]:
        """C expressions of the sizes of an output of a call inside a function body."""
        inputs = dict(zip((item.name for item in callee.inputs), args))

        def size_text(node) -> str:
            kind = type(node)
            if kind is flat.Const:
                return str(int(node.value))
            if kind is flat.Var and node.name in inputs:
                return f"(size_t)({writer.expr(inputs[node.name])})"
            if kind is flat.Call and node.name == "size" and type(node.args[0]) is flat.Var \
                    and node.args[0].name in inputs and type(node.args[1]) is flat.Const:
                return writer.shape(inputs[node.args[0].name])[int(node.args[1].value) - 1]
            if kind is flat.Binary and node.op in ("+", "-", "*"):
                return f"({size_text(node.left)} {node.op} {size_text(node.right)})"
            raise writer.error(f"the size of the output {output.name} of {callee.name}")
        return tuple(size_text(dim) for dim in output.dims)

    # ------------------------------------------------------------- calls from model code
    def call_text(self, writer, node) -> str:
        """One result of a call in model code: the call itself goes to the writer's lines
        (once per call and arguments), its results into locals."""
        results = self.call_results(writer, node)
        callee = self.functions[node.function]
        if node.output >= len(results):
            raise EmitError(f"{callee.name}() has no result number {node.output + 1}",
                            callee.span)
        return results[node.output]

    def call_results(self, writer, node) -> list[str]:
        """The texts of the results of a call in model code, made by a call the writer's
        lines get (once per call and arguments)."""
        callee = self.functions.get(node.function)
        if callee is None:
            raise EmitError(f"unknown function {node.function}()")
        key = (node.function, node.args)
        results = writer.calls.get(key)
        if results is None:
            results = self._model_call(writer, callee, node.args)
            writer.calls[key] = results
        return results

    def _model_call(self, writer, callee: flat.Function, args) -> list[str]:
        if len(args) != len(callee.inputs):
            raise EmitError(f"{callee.name}() called with {len(args)} arguments, not "
                            f"{len(callee.inputs)}", callee.span)
        texts, shapes, values = [], {}, {}
        for item, arg in zip(callee.inputs, args):
            shape = _ir_shape(arg)
            if shape and shape[-1] == 0 and len(shape) < len(item.dims):
                # an empty array keeps no sizes after its first 0: it has no elements anyway
                shape += (0,) * (len(item.dims) - len(shape))
            shapes[item.name] = shape
            if type(arg) is Const and arg.type == INTEGER:
                values[item.name] = int(arg.value)
            if len(shape) != len(item.dims):
                raise EmitError(f"{callee.name}(): the argument for {item.name} has "
                                f"{len(shape)} dimensions, not {len(item.dims)}", callee.span)
            if shape:
                elements = ", ".join(writer.text(leaf) for leaf in _leaves(arg))
                # C has no empty array literals: an empty array is no array
                texts.append(f"({_constant(self.c_type(item.type))}[]){{{elements}}}"
                             if elements else "NULL")
                texts += [str(size) for size in shape]
            else:
                texts.append(writer.text(arg))
        self.use(callee.name)
        number = self.next_number()
        results, declarations, pointers = [], [], []
        for item, shape in zip(callee.outputs, output_shapes(callee, shapes, values)):
            if shape is None:
                raise EmitError(f"the size of the output {item.name} of {callee.name} is not "
                                "known at the call", item.span or callee.span)
            name = f"{self.identifier(callee.name.rsplit('.', 1)[-1])}{number}_{self.identifier(item.name)}"
            type_ = self.c_type(item.type)
            if item.dims:
                declarations.append(f"{_declarator(type_, name)}[{array_size(str(count(shape)))}];")
                pointers.append(name)
                results += [f"{name}[{k}]" for k in range(count(shape))]
            else:
                declarations.append(f"{_declarator(type_, name)};")
                pointers.append(f"&{name}")
                results.append(name)
        arguments = ", ".join(["m"] + texts + pointers)
        writer.lines.extend(declarations + [f"CHECK({self.c_name(callee)}({arguments}));"])
        return results


def _constructed_local(item: flat.FunctionVar, function: flat.Function, classes: dict) -> bool:
    """Whether a protected external object of ``function`` is made by its own constructor
    call in its declaration and never assigned: the function then owns it, and destroys it
    as it returns."""
    from compiler.flatten.walk import nodes
    known = classes.get(item.type)
    if known is None or type(item.default) is not flat.Call or \
            item.default.name != known.constructor:
        return False
    return not any(type(node) is flat.Assign and type(node.target) is flat.Var and
                   node.target.name == item.name for node in nodes(function.algorithm))


def _unused_locals(function: flat.Function, locals_: dict, lines: list[str]) -> list[str]:
    """The C names of protected variables the body never reads (only declares or assigns
    them), which gcc would warn about; a for-loop that declares its own variable of the same
    name (``for i in 1:n`` beside a protected ``Integer i``: Media's IF97 viscosity) reads
    that one, not the protected variable."""
    result = []
    for item in function.locals:
        if item.name not in locals_:
            continue
        name = locals_[item.name].c_name
        use = re.compile(rf"\b{name}\b")
        written = re.compile(rf"^(const size_t {name}_n\d+ = |[\w ]+\*?{name}(\[[^=]*\])?( = |;)|"
                             rf"for \(size_t \w+ = 0; \w+ < [^;]*; \w+\+\+\) {name}\[\w+\] = |"
                             rf"{name}(\[[^=]*\])? = )")
        shadowing = re.compile(rf"^for \([\w ]+ {name} = ")
        loop_indent = None   # the indentation of a loop that declares its own ``name``
        for line in lines:
            indent = len(line) - len(line.lstrip())
            if loop_indent is not None:
                if indent == loop_indent and line.strip().startswith("}"):
                    loop_indent = None
                continue
            if shadowing.match(line.strip()):
                loop_indent = indent
                continue
            text = _STRING_LITERAL.sub('""', line.strip())
            match = written.match(text)
            if use.search(text[match.end():] if match else text):
                break
        else:
            result.append(name)
    return result


_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')


def _parameter_names(signature: str) -> list[str]:
    inside = signature[signature.index("(") + 1:-1]
    return [re.split(r"[\s*]+", parameter.strip())[-1] for parameter in inside.split(",")]


def _declarator(type_: str, name: str) -> str:
    """``double x``, ``const char *s``: a declaration of ``name`` of C type ``type_``."""
    return f"{type_}{name}" if type_.endswith("*") else f"{type_} {name}"


def _pointer(type_: str) -> str:
    """The C type of a pointer to ``type_`` values."""
    return f"{type_}*" if type_.endswith("*") else f"{type_} *"


def _constant(type_: str) -> str:
    """``type_`` made const (a pointer type: the pointer)."""
    return f"{type_}const" if type_.endswith("*") else f"const {type_}"


def _zero(type_: str) -> str:
    """The initial value of a variable of C type ``type_``."""
    return {"bool": "false", "const char *": '""', "void *": "NULL"}.get(type_, "0")


def _ir_shape(node) -> tuple:
    if type(node) is not Array:
        return ()
    inner = _ir_shape(node.elements[0]) if node.elements else ()
    return (len(node.elements),) + inner


def _leaves(node) -> list:
    if type(node) is Array:
        return [leaf for item in node.elements for leaf in _leaves(item)]
    return [node]
