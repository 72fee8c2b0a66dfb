"""FlatModel -> flat Modelica text (what ``cosim flatten`` prints).

Input: a ``compiler.flat.FlatModel`` (or one expression, equation or statement). Output: text.
Flattened names are printed as they are (``a.b[2].c``), as OpenModelica's flat output does.
"""
from __future__ import annotations

from compiler import flat
from compiler.lang.lexer import encode_string
from compiler.lang.precedence import ADDITIVE, BINARY, IF, NON_ASSOCIATIVE, PRIMARY, RELATION

INDENT = "  "


def expr_text(node) -> str:
    """Modelica text of a flat expression, with the parentheses precedence needs."""
    kind = type(node)
    if kind is flat.Var:
        return node.name
    if kind is flat.Const:
        return _const(node.value)
    if kind is flat.Binary:
        prec = BINARY[node.op]
        left, right = _precedence(node.left), _precedence(node.right)
        left_parens = left < prec or (left == prec and prec in NON_ASSOCIATIVE)
        if type(node.left) is flat.Const and prec != BINARY["^"]:
            left_parens = False  # -1 / x reads the same either way
        return f"{_wrap(node.left, left_parens)} {node.op} {_wrap(node.right, right <= prec)}"
    if kind is flat.Unary:
        if node.op == "not":
            return "not " + _wrap(node.operand, _precedence(node.operand) < RELATION)
        return node.op + _wrap(node.operand, _precedence(node.operand) <= ADDITIVE)
    if kind is flat.Call:
        return f"{node.name}({', '.join(map(expr_text, node.args))})"
    if kind is flat.EnumConst:
        return f"{node.type}.{node.name}"
    if kind is flat.IfExpr:
        return (f"if {expr_text(node.condition)} then {_wrap(node.then, _precedence(node.then) == IF)}"
                f" else {expr_text(node.else_)}")
    if kind is flat.Index:
        return f"{_wrap(node.base, _precedence(node.base) < PRIMARY)}[{', '.join(map(expr_text, node.subscripts))}]"
    if kind is flat.ArrayExpr:
        return "{" + ", ".join(map(expr_text, node.elements)) + "}"
    if kind is flat.RangeExpr:
        parts = [node.start] + ([node.step] if node.step is not None else []) + [node.stop]
        return ":".join(_wrap(part, _precedence(part) <= RELATION) for part in parts)
    if kind is flat.TupleExpr:
        return "(" + ", ".join("" if item is None else expr_text(item) for item in node.elements) + ")"
    raise TypeError(f"not a flat expression: {node!r}")


def _const(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return encode_string(value)
    if isinstance(value, float):
        if value != value:
            return "0.0/0.0"
        if value in (float("inf"), float("-inf")):
            return "-1e999" if value < 0 else "1e999"
        text = repr(value)
        return text if ("." in text or "e" in text) else text + ".0"
    return str(value)


def _precedence(node) -> int:
    kind = type(node)
    if kind is flat.Binary:
        return BINARY[node.op]
    if kind is flat.Unary:
        return RELATION - 1 if node.op == "not" else ADDITIVE
    if kind is flat.IfExpr:
        return IF
    if kind is flat.RangeExpr:
        return RELATION - 1
    if kind is flat.Const and not isinstance(node.value, (bool, str)) and node.value < 0:
        return ADDITIVE
    return PRIMARY


def _wrap(node, parens: bool) -> str:
    text = expr_text(node)
    return f"({text})" if parens else text


# ------------------------------------------------------------------ equations and statements
def equation_lines(item, depth: int = 1) -> list[str]:
    """Lines of a flat equation or statement, indented ``depth`` levels."""
    pad = INDENT * depth
    kind = type(item)
    if kind is flat.Equation:
        return [f"{pad}{expr_text(item.lhs)} = {expr_text(item.rhs)};"]
    if kind is flat.Assign:
        return [f"{pad}{expr_text(item.target)} := {expr_text(item.value)};"]
    if kind is flat.Reinit:
        return [f"{pad}reinit({expr_text(item.var)}, {expr_text(item.value)});"]
    if kind is flat.Assert:
        level = "" if item.level == "error" else f", AssertionLevel.{item.level}"
        return [f"{pad}assert({expr_text(item.condition)}, {expr_text(item.message)}{level});"]
    if kind is flat.Terminate:
        return [f"{pad}terminate({expr_text(item.message)});"]
    if kind is flat.CallStatement:
        return [f"{pad}{expr_text(item.call)};"]
    if kind is flat.Break or kind is flat.Return:
        return [f"{pad}{'break' if kind is flat.Break else 'return'};"]
    if kind is flat.IfEquation or kind is flat.IfStatement:
        lines = _branches(item.branches, "if", "elseif", depth)
        if item.else_:
            lines += [f"{pad}else"] + _block(item.else_, depth)
        return lines + [f"{pad}end if;"]
    if kind is flat.WhenEquation or kind is flat.WhenStatement:
        return _branches(item.branches, "when", "elsewhen", depth) + [f"{pad}end when;"]
    if kind is flat.ForStatement:
        return ([f"{pad}for {item.index} in {expr_text(item.range)} loop"] +
                _block(item.body, depth) + [f"{pad}end for;"])
    if kind is flat.WhileStatement:
        return ([f"{pad}while {expr_text(item.condition)} loop"] + _block(item.body, depth) +
                [f"{pad}end while;"])
    raise TypeError(f"not a flat equation or statement: {item!r}")


def _block(items, depth: int) -> list[str]:
    return [line for item in items for line in equation_lines(item, depth + 1)]


def _branches(branches, first: str, other: str, depth: int) -> list[str]:
    lines = []
    for number, (condition, body) in enumerate(branches):
        keyword = first if number == 0 else other
        lines.append(f"{INDENT * depth}{keyword} {expr_text(condition)} then")
        lines.extend(_block(body, depth))
    return lines


# ---------------------------------------------------------------------------------- model
def variable_line(var: flat.Variable) -> str:
    prefixes = ["final"] if var.final else []
    if var.variability in ("constant", "parameter", "discrete"):
        prefixes.append(var.variability)
    if var.causality in ("input", "output"):
        prefixes.append(var.causality)
    attributes = [f"{name} = {expr_text(value)}" for name, value in (
        ("start", var.start), ("nominal", var.nominal), ("min", var.min), ("max", var.max))
        if value is not None]
    if var.fixed is not None:
        attributes.append(f"fixed = {'true' if var.fixed else 'false'}")
    attributes += [f"{name} = {encode_string(value)}" for name, value in (
        ("unit", var.unit), ("displayUnit", var.display_unit), ("quantity", var.quantity))
        if value]
    if var.state_select:
        attributes.append(f"stateSelect = StateSelect.{var.state_select}")
    text = " ".join(prefixes + [var.type, var.name])
    if attributes:
        text += "(" + ", ".join(attributes) + ")"
    if var.binding is not None:
        text += " = " + expr_text(var.binding)
    if var.description:
        text += " " + encode_string(var.description)
    return text + ";"


def function_text(function: flat.Function) -> list[str]:
    head = f"function {function.name}"
    lines = [head + (" " + encode_string(function.description) if function.description else "")]
    for prefix, variables in (("input ", function.inputs), ("output ", function.outputs)):
        lines.extend(INDENT + prefix + _function_var(var) for var in variables)
    if function.locals:
        lines.append("protected")
        lines.extend(INDENT + _function_var(var) for var in function.locals)
    if function.algorithm:
        lines.append("algorithm")
        lines.extend(line for item in function.algorithm for line in equation_lines(item))
    if function.external is not None:
        ext = function.external
        call = f"{ext.function}({', '.join(map(expr_text, ext.args))})"
        annotation = []
        for key, values in (("Include", ext.include), ("Library", ext.libraries),
                            ("IncludeDirectory", ext.include_directories),
                            ("LibraryDirectory", ext.library_directories)):
            if values:
                annotation.append(f"{key} = {{{', '.join(map(encode_string, values))}}}")
        annotation_text = f" annotation({', '.join(annotation)})" if annotation else ""
        lines.append(f'{INDENT}external {encode_string(ext.language)} '
                     f'{ext.output + " = " if ext.output else ""}{call}{annotation_text};')
    lines.extend(f"{INDENT}annotation({_derivative_text(item)});" for item in function.derivatives)
    return lines + [f"end {function.name};"]


def _derivative_text(item: flat.FunctionDerivative) -> str:
    options = [f"order = {item.order}"] if item.order != 1 else []
    options += [f"{key} = {name}" for key, names in (("noDerivative", item.no_derivative),
                                                     ("zeroDerivative", item.zero_derivative))
                for name in names]
    return f"derivative{'(' + ', '.join(options) + ')' if options else ''} = {item.name}"


def _function_var(var: flat.FunctionVar) -> str:
    dims = ""
    if var.dims:
        dims = "[" + ", ".join(":" if d is None else expr_text(d) for d in var.dims) + "]"
    default = f" = {expr_text(var.default)}" if var.default is not None else ""
    return f"{var.type}{dims} {var.name}{default};"


def model_text(model: flat.FlatModel) -> str:
    lines = []
    for enumeration in model.enumerations:
        lines.append(f"type {enumeration.name} = enumeration({', '.join(enumeration.literals)});")
    for item in model.external_objects:
        lines.append(f"class {item.name} extends ExternalObject (constructor {item.constructor}, "
                     f"destructor {item.destructor}); end {item.name};")
    for function in model.functions:
        lines.extend(function_text(function))
        lines.append("")
    head = f"class {model.name}"
    lines.append(head + (" " + encode_string(model.description) if model.description else ""))
    lines.extend(INDENT + variable_line(var) for var in model.variables)
    for keyword, equations in (("initial equation", model.initial_equations),
                               ("equation", model.equations)):
        if equations:
            lines.append(keyword)
            lines.extend(line for item in equations for line in equation_lines(item))
    for keyword, algorithms in (("initial algorithm", model.initial_algorithms),
                                ("algorithm", model.algorithms)):
        for algorithm in algorithms:
            lines.append(keyword)
            lines.extend(line for item in algorithm.statements for line in equation_lines(item))
    if model.experiment is not None:
        settings = [f"{name} = {_const(value)}" for name, value in (
            ("StartTime", model.experiment.start_time), ("StopTime", model.experiment.stop_time),
            ("Tolerance", model.experiment.tolerance), ("Interval", model.experiment.interval))
            if value is not None]
        lines.append(f"{INDENT}annotation(experiment({', '.join(settings)}));")
    lines.append(f"end {model.name};")
    return "\n".join(lines) + "\n"
