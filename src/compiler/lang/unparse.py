"""AST -> Modelica source text.

Parentheses are written exactly where ``compiler.lang.precedence`` needs them, so
``parse(unparse(tree)) == tree`` for every tree the parser builds.
"""
from __future__ import annotations

from compiler.lang import ast
from compiler.lang.lexer import encode_string
from compiler.lang.precedence import (ADDITIVE, BINARY, IF, NON_ASSOCIATIVE, OR, PRIMARY,
                                      RANGE, RELATION, UNARY)

INDENT = "  "


def unparse(node) -> str:
    """Modelica text for any AST node (a whole file, a class, an equation, an expression...)."""
    if isinstance(node, ast.StoredDefinition):
        return _stored_definition(node)
    if isinstance(node, ast.ClassDef):
        return "\n".join(_class(node, 0)) + "\n"
    if isinstance(node, ast.Modification):
        return _modification(node)
    if isinstance(node, _EQUATIONS) or isinstance(node, _STATEMENTS):
        return "\n".join(_section_item(node, 0))
    if isinstance(node, (ast.Component, ast.Extends, ast.Import)):
        return _element(node)
    return expr(node)


# ------------------------------------------------------------------------------ expressions
def precedence(node) -> int:
    kind = type(node)
    if kind is ast.Binary:
        return BINARY[node.op]
    if kind is ast.Unary:
        return UNARY[node.op]
    if kind is ast.IfExpr:
        return IF
    if kind is ast.Range:
        return RANGE
    if (kind is ast.IntLit or kind is ast.RealLit) and node.value < 0:
        return ADDITIVE  # a negative literal reads like a sign applied to a number
    return PRIMARY


def _operand(node, needs_parens: bool) -> str:
    text = expr(node)
    return f"({text})" if needs_parens else text


def expr(node) -> str:
    """Text of an expression node."""
    kind = type(node)
    if kind is ast.ComponentRef:
        return _ref(node)
    if kind is ast.Binary:
        prec = BINARY[node.op]
        left_prec, right_prec = precedence(node.left), precedence(node.right)
        left_parens = left_prec < prec or (left_prec == prec and prec in NON_ASSOCIATIVE)
        return (f"{_operand(node.left, left_parens)} {node.op} "
                f"{_operand(node.right, right_prec <= prec)}")
    if kind is ast.Unary:
        # ``-`` takes a term (tighter than additive); ``not`` takes a relation.
        minimum = ADDITIVE + 1 if node.op in ("-", "+") else RELATION
        operand = _operand(node.operand, precedence(node.operand) < minimum)
        return f"not {operand}" if node.op == "not" else f"{node.op}{operand}"
    if kind is ast.IntLit:
        return str(node.value)
    if kind is ast.RealLit:
        return _real(node.value)
    if kind is ast.StrLit:
        return encode_string(node.value)
    if kind is ast.BoolLit:
        return "true" if node.value else "false"
    if kind is ast.Call:
        return f"{_ref(node.func)}({_call_args(node.args, node.named)})"
    if kind is ast.FunctionArg:
        return f"function {_ref(node.func)}({_call_args((), node.named)})"
    if kind is ast.IfExpr:
        parts = []
        for index, (condition, value) in enumerate(node.branches):
            parts.append(f"{'if' if index == 0 else 'elseif'} {expr(condition)} then "
                         f"{_operand(value, isinstance(value, ast.IfExpr))}")
        parts.append(f"else {expr(node.else_)}")
        return " ".join(parts)
    if kind is ast.Range:
        items = [node.start] + ([node.step] if node.step is not None else []) + [node.stop]
        return ":".join(_operand(item, precedence(item) < OR) for item in items)
    if kind is ast.ArrayCons:
        return "{" + _call_args(node.elements, ()) + "}"
    if kind is ast.MatrixCons:
        return "[" + "; ".join(", ".join(expr(item) for item in row) for row in node.rows) + "]"
    if kind is ast.TupleExpr:
        return "(" + ", ".join("" if item is None else expr(item) for item in node.elements) + ")"
    if kind is ast.Comprehension:
        return f"{expr(node.expr)} for {_for_indices(node.indices)}"
    if kind is ast.End:
        return "end"
    if kind is ast.Colon:
        return ":"
    raise TypeError(f"not an expression node: {node!r}")


def _real(value: float) -> str:
    if value in (float("inf"), float("-inf")):
        return "-1e999" if value < 0 else "1e999"
    text = repr(value)
    return text if ("." in text or "e" in text) else text + ".0"


def _ref(ref: ast.ComponentRef) -> str:
    text = ".".join(part.name + _subscripts(part.subscripts) for part in ref.parts)
    return "." + text if ref.is_global else text


def _subscripts(subscripts) -> str:
    return "[" + ", ".join(expr(item) for item in subscripts) + "]" if subscripts else ""


def _call_args(args, named) -> str:
    return ", ".join([expr(arg) for arg in args] +
                     [f"{arg.name} = {expr(arg.value)}" for arg in named])


def _for_indices(indices) -> str:
    return ", ".join(index.name + (f" in {expr(index.range)}" if index.range is not None else "")
                     for index in indices)


def _type_name(name: ast.TypeName) -> str:
    return ("." if name.is_global else "") + ".".join(name.parts)


# ---------------------------------------------------------------------------- modifications
def _modification(mod: ast.Modification | None) -> str:
    if mod is None:
        return ""
    text = ""
    if mod.arguments or mod.binding is None:
        text = "(" + ", ".join(_argument(arg) for arg in mod.arguments) + ")"
    if mod.binding is not None:
        text += " = " + expr(mod.binding)
    return text


def _argument(arg) -> str:
    flags = ("each " if arg.each else "") + ("final " if arg.final else "")
    if isinstance(arg, ast.ElementRedeclare):
        head = ("redeclare " if arg.redeclare else "") + flags
        element = arg.element
        head += "replaceable " if element.replaceable else ""
        if isinstance(element, ast.ClassDef):
            return head + _class_header(element, with_element_prefixes=False)
        return head + _component_body(element)
    return (flags + ".".join(arg.name) + _modification(arg.modification) +
            _description(arg.description))


def _description(text: str) -> str:
    return " " + encode_string(text) if text else ""


def _comment(description: str, annotation) -> str:
    text = _description(description)
    if annotation is not None:
        text += " annotation" + _modification(annotation)
    return text


# ---------------------------------------------------------------------------------- elements
def _element_prefixes(element) -> str:
    return "".join(f"{name} " for name in ("redeclare", "final", "inner", "outer", "replaceable")
                   if getattr(element, name))


def _constraint(constraint) -> str:
    if constraint is None:
        return ""
    return (f" constrainedby {_type_name(constraint.base)}{_modification(constraint.modification)}"
            + _comment(constraint.description, constraint.annotation))


def _component_body(c: ast.Component) -> str:
    prefixes = "".join(f"{p} " for p in (c.flow, c.variability, c.causality) if p)
    text = f"{prefixes}{_type_name(c.type_name)} {c.name}{_subscripts(c.dims)}"
    text += _modification(c.modification)
    if c.condition is not None:
        text += " if " + expr(c.condition)
    return text + _comment(c.description, c.annotation) + _constraint(c.constraint)


def _element(element) -> str:
    if isinstance(element, ast.Component):
        return _element_prefixes(element) + _component_body(element)
    if isinstance(element, ast.Extends):
        text = f"extends {_type_name(element.base)}{_modification(element.modification)}"
        return text + _comment("", element.annotation)
    if isinstance(element, ast.Import):
        path = ".".join(element.path)
        if element.alias:
            path = f"{element.alias} = {path}"
        elif element.wildcard:
            path += ".*"
        elif element.names:
            path += ".{" + ", ".join(element.names) + "}"
        return "import " + path + _comment(element.description, element.annotation)
    raise TypeError(f"not an element: {element!r}")


# ----------------------------------------------------------------------------------- classes
def _stored_definition(node: ast.StoredDefinition) -> str:
    lines = []
    if node.within is not None:
        lines.append(f"within {_type_name(node.within)};" if node.within.parts else "within;")
    for cls in node.classes:
        lines.extend(_class(cls, 0))
    return "\n".join(lines) + "\n"


def _class_header(cls: ast.ClassDef, with_element_prefixes: bool = True) -> str:
    """The class up to its body; the whole class for short classes and enumerations."""
    head = _element_prefixes(cls) if with_element_prefixes else ""
    head += ("encapsulated " if cls.encapsulated else "") + ("partial " if cls.partial else "")
    head += (cls.purity + " " if cls.purity else "") + cls.kind + " "
    body = cls.body
    if isinstance(body, ast.ShortClass):
        prefixes = "".join(f"{p} " for p in (body.flow, body.variability, body.causality) if p)
        text = (f"{head}{cls.name} = {prefixes}{_type_name(body.base)}{_subscripts(body.dims)}"
                f"{_modification(body.modification) if body.modification else ''}")
        return text + _comment(cls.description, cls.annotation) + _constraint(cls.constraint)
    if isinstance(body, ast.Enumeration):
        literals = ":" if body.unspecified else ", ".join(
            lit.name + _comment(lit.description, lit.annotation) for lit in body.literals)
        return (f"{head}{cls.name} = enumeration({literals})" +
                _comment(cls.description, cls.annotation) + _constraint(cls.constraint))
    if isinstance(body, ast.DerClass):
        names = "".join(", " + name for name in body.variables)
        return (f"{head}{cls.name} = der({_type_name(body.function)}{names})" +
                _comment(cls.description, cls.annotation) + _constraint(cls.constraint))
    if cls.extends_base:
        return (f"{head}extends {cls.name}{_modification(cls.base_mod) if cls.base_mod else ''}"
                + _description(cls.description))
    return head + cls.name + _description(cls.description)


def _class(cls: ast.ClassDef, depth: int) -> list[str]:
    pad = INDENT * depth
    header = pad + _class_header(cls)
    body = cls.body
    if not isinstance(body, ast.Composition):
        return [header + ";"]
    lines = [header]
    protected = False
    for element in body.elements:
        if element.protected != protected:
            protected = element.protected
            lines.append(pad + ("protected" if protected else "public"))
        if isinstance(element, ast.ClassDef):
            lines.extend(_class(element, depth + 1))
        else:
            lines.append(pad + INDENT + _element(element) + ";")
    for keyword, items in (("initial equation", body.initial_equations),
                           ("equation", body.equations)):
        if items:
            lines.append(pad + keyword)
            for item in items:
                lines.extend(_section_item(item, depth + 1))
    for keyword, sections in (("initial algorithm", body.initial_algorithms),
                              ("algorithm", body.algorithms)):
        for statements in sections:
            lines.append(pad + keyword)
            for item in statements:
                lines.extend(_section_item(item, depth + 1))
    if body.external is not None:
        lines.append(pad + INDENT + _external(body.external))
    if body.annotation is not None:
        lines.append(pad + INDENT + "annotation" + _modification(body.annotation) + ";")
    constraint = _constraint(cls.constraint)
    lines.append(f"{pad}end {cls.name}{constraint};")
    return lines


def _external(ext: ast.External) -> str:
    text = "external"
    if ext.language:
        text += " " + encode_string(ext.language)
    if ext.function:
        call = f"{ext.function}({_call_args(ext.args, ())})"
        text += " " + (f"{_ref(ext.output)} = {call}" if ext.output is not None else call)
    return text + _comment("", ext.annotation) + ";"


# --------------------------------------------------------------------- equations, statements
_EQUATIONS = (ast.EqEquality, ast.EqConnect, ast.EqFor, ast.EqIf, ast.EqWhen, ast.EqCall)
_STATEMENTS = (ast.Assign, ast.CallStmt, ast.ForStmt, ast.WhileStmt, ast.IfStmt, ast.WhenStmt,
               ast.Break, ast.Return)


def _section_item(node, depth: int) -> list[str]:
    pad = INDENT * depth
    tail = _comment(node.description, node.annotation) + ";"
    kind = type(node)
    if kind is ast.EqEquality:
        return [f"{pad}{expr(node.lhs)} = {expr(node.rhs)}{tail}"]
    if kind is ast.Assign:
        return [f"{pad}{expr(node.target)} := {expr(node.value)}{tail}"]
    if kind is ast.EqCall or kind is ast.CallStmt:
        return [f"{pad}{expr(node.call)}{tail}"]
    if kind is ast.EqConnect:
        return [f"{pad}connect({_ref(node.a)}, {_ref(node.b)}){tail}"]
    if kind is ast.Break or kind is ast.Return:
        return [f"{pad}{'break' if kind is ast.Break else 'return'}{tail}"]
    if kind is ast.EqFor or kind is ast.ForStmt:
        return ([f"{pad}for {_for_indices(node.indices)} loop"] + _body(node.body, depth) +
                [f"{pad}end for{tail}"])
    if kind is ast.WhileStmt:
        return ([f"{pad}while {expr(node.condition)} loop"] + _body(node.body, depth) +
                [f"{pad}end while{tail}"])
    if kind is ast.EqIf or kind is ast.IfStmt:
        lines = _branches(node.branches, "if", "elseif", depth)
        if node.else_:
            lines += [f"{pad}else"] + _body(node.else_, depth)
        return lines + [f"{pad}end if{tail}"]
    if kind is ast.EqWhen or kind is ast.WhenStmt:
        return _branches(node.branches, "when", "elsewhen", depth) + [f"{pad}end when{tail}"]
    raise TypeError(f"not an equation or statement: {node!r}")


def _body(items, depth: int) -> list[str]:
    return [line for item in items for line in _section_item(item, depth + 1)]


def _branches(branches, first: str, other: str, depth: int) -> list[str]:
    pad = INDENT * depth
    lines = []
    for index, (condition, body) in enumerate(branches):
        lines.append(f"{pad}{first if index == 0 else other} {expr(condition)} then")
        lines.extend(_body(body, depth))
    return lines
