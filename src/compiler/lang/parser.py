"""Modelica parser: source text -> ``ast.StoredDefinition``.

Hand-written recursive descent over the tokens of ``compiler.lang.lexer``. Grammar rules for
expressions and sections live in the mixins ``parse_expr`` and ``parse_sections``; this module
holds classes, elements and the entry points. Any failure is a ``ParseError`` with a span.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.lang import ast
from compiler.lang.errors import ParseError
from compiler.lang.fastnew import fast_constructor
from compiler.lang.gcpause import paused_gc
from compiler.lang.lexer import tokenize
from compiler.lang.parse_sections import SectionParser

_Component = fast_constructor(ast.Component)
_ClassDef = fast_constructor(ast.ClassDef)
_Composition = fast_constructor(ast.Composition)
_Modification = fast_constructor(ast.Modification)
_Extends = fast_constructor(ast.Extends)
_ELEMENT_PREFIXES = ("redeclare", "final", "inner", "outer", "replaceable")
_SIMPLE_KINDS = frozenset({"class", "model", "record", "block", "type", "package", "connector"})


def parse(text: str, file: str = "<string>") -> ast.StoredDefinition:
    """Parse a whole Modelica file.

    Raises
    ------
    ParseError
        The first syntax error, located at the offending token.
    """
    with paused_gc():
        parser = Parser(tokenize(text, file))
        return parser.guarded(parser.stored_definition)


def parse_expression(text: str, file: str = "<string>") -> ast.Expr:
    """Parse a single expression (used by tests and tools)."""
    parser = Parser(tokenize(text, file))

    def whole():
        expr = parser.expression()
        parser.expect("EOF", " after the expression")
        return expr
    return parser.guarded(whole)


class Parser(SectionParser):
    """Classes, elements, and the stored-definition entry rule."""

    def guarded(self, rule):
        """Run a rule; turn runaway nesting into a located ParseError."""
        try:
            return rule()
        except RecursionError:
            raise self.error("nesting too deep") from None

    def stored_definition(self) -> ast.StoredDefinition:
        within = None
        if self.accept("within"):
            start = self.pos
            within = (self.type_name() if self.kinds[self.pos] in ("IDENT", ".")
                      else ast.TypeName((), False, self.span_from(start)))
            self.expect(";", " after 'within'")
        classes = []
        while self.kinds[self.pos] != "EOF":
            start = self.pos
            final = self.accept("final")
            classes.append(self.class_definition(start, final=final))
            self.expect(";", f" after 'end {classes[-1].name}'")
        return ast.StoredDefinition(within, tuple(classes), self.span_from(0))

    # -------------------------------------------------------------------------- classes
    def class_definition(self, start: int | None = None, **prefixes) -> ast.ClassDef:
        start = self.pos if start is None else start
        encapsulated = self.accept("encapsulated")
        partial = self.accept("partial")
        kind, purity = self.class_kind()
        if self.accept("extends"):
            return self._class_extends(start, kind, encapsulated, partial, purity, prefixes)
        name = self.ident(f"a name for the {kind}")
        if self.accept("="):
            body, description, annotation = self.short_class_body()
            return _ClassDef(name, kind, body, description, annotation, partial, encapsulated,
                                purity, span=self.span_from(start), **prefixes)
        description = self.string_comment()
        body = self.composition(name, kind, start)
        return _ClassDef(name, kind, body, description, None, partial, encapsulated, purity,
                            span=self.span_from(start), **prefixes)

    def _class_extends(self, start, kind, encapsulated, partial, purity, prefixes):
        name = self.ident("the name of the class to extend")
        base_mod = self.class_modification_node()
        description = self.string_comment()
        body = self.composition(name, kind, start)
        return _ClassDef(name, kind, body, description, None, partial, encapsulated, purity,
                            True, base_mod, span=self.span_from(start), **prefixes)

    def class_kind(self) -> tuple[str, str]:
        kind = self.kinds[self.pos]
        if kind in _SIMPLE_KINDS:
            self.pos += 1
            return kind, ""
        if kind == "expandable":
            self.pos += 1
            self.expect("connector", " after 'expandable'")
            return "expandable connector", ""
        purity = ""
        if kind in ("pure", "impure"):
            purity = kind
            self.pos += 1
        if self.accept("operator"):
            if self.accept("record"):
                return "operator record", purity
            if self.accept("function"):
                return "operator function", purity
            return "operator", purity
        if self.accept("function"):
            return "function", purity
        raise self.unexpected("a class kind (model, block, connector, record, function, ...)")

    def short_class_body(self):
        start = self.pos
        if self.accept("enumeration"):
            self.expect("(", " after 'enumeration'")
            body = self._enumeration(start)
        elif self.accept("der"):
            self.expect("(", " after 'der'")
            function = self.type_name()
            variables = []
            while self.accept(","):
                variables.append(self.ident())
            self.expect(")", " to close der(")
            body = ast.DerClass(function, tuple(variables), self.span_from(start))
        else:
            flow, variability, causality = self.type_prefix()
            base = self.type_name()
            dims = self.subscripts() if self.kinds[self.pos] == "[" else ()
            modification = self.class_modification_node()
            body = ast.ShortClass(base, dims, modification, causality, variability, flow,
                                  self.span_from(start))
        description, annotation = self.comment()
        return body, description, annotation

    def _enumeration(self, start: int) -> ast.Enumeration:
        if self.accept(":"):
            self.expect(")", " after 'enumeration(:'")
            return ast.Enumeration((), True, self.span_from(start))
        literals = []
        if self.kinds[self.pos] != ")":
            while True:
                lit_start = self.pos
                name = self.ident("an enumeration literal")
                description, annotation = self.comment()
                literals.append(ast.EnumLiteral(name, description, annotation,
                                                self.span_from(lit_start)))
                if not self.accept(","):
                    break
        self.expect(")", " to close enumeration(")
        return ast.Enumeration(tuple(literals), False, self.span_from(start))

    def composition(self, name: str, kind: str, start: int) -> ast.Composition:
        body_start = self.pos
        parts = {"elements": [], "equations": [], "initial_equations": [], "algorithms": [],
                 "initial_algorithms": []}
        external = annotation = None
        protected = False
        kinds = self.kinds
        while True:
            kind_now = kinds[self.pos]
            if kind_now == "end" or kind_now == "EOF":
                break
            if kind_now == "public" or kind_now == "protected":
                self.pos += 1
                protected = kind_now == "protected"
            elif kind_now == "equation":
                self.pos += 1
                parts["equations"].extend(self.equations())
            elif kind_now == "algorithm":
                self.pos += 1
                parts["algorithms"].append(self.statements())
            elif kind_now == "initial" and kinds[self.pos + 1] == "equation":
                self.pos += 2
                parts["initial_equations"].extend(self.equations())
            elif kind_now == "initial" and kinds[self.pos + 1] == "algorithm":
                self.pos += 2
                parts["initial_algorithms"].append(self.statements())
            elif kind_now == "external":
                external = self.external_clause()
            elif kind_now == "annotation":
                annotation = self.annotation()
                self.expect(";", " after annotation")
            else:
                parts["elements"].extend(self.element(protected))
                self.expect(";", " after declaration")
        self._close_class(name, kind, start)
        return _Composition(*(tuple(parts[key]) for key in parts), external, annotation,
                               self.span_from(body_start))

    def _close_class(self, name: str, kind: str, start: int) -> None:
        kinds, texts = self.kinds, self.texts
        if kinds[self.pos] == "end" and kinds[self.pos + 1] == "IDENT" and texts[self.pos + 1] == name:
            self.pos += 2
            return
        raise self.error(f"expected 'end {name};' to close {kind} {name} opened at "
                         f"{self.where(start)}")

    def external_clause(self) -> ast.External:
        start = self.expect("external")
        language = self.string_comment()
        function, args, output = "", (), None
        if self.kinds[self.pos] in ("IDENT", "."):
            ref = self.component_ref()
            if self.accept("="):
                output = ref
                function = self.ident("an external function name")
            elif len(ref.parts) == 1 and not ref.parts[0].subscripts:
                function = ref.parts[0].name
            else:
                raise self.error("expected an external function name", start + 1)
            call = self.call_args(ast.ComponentRef((ast.RefPart(function),)), self.pos)
            args = call.args
        annotation = self.annotation()
        self.expect(";", " after the external clause")
        return ast.External(language, function, args, output, annotation, self.span_from(start))

    # ------------------------------------------------------------------------- elements
    def element(self, protected: bool) -> list:
        start = self.pos
        kind = self.kinds[start]
        if kind == "import":
            return [self.import_clause(protected)]
        if kind == "extends":
            self.pos += 1
            base = self.type_name()
            modification = self.class_modification_node()
            annotation = self.annotation()
            return [_Extends(base, modification, annotation, protected, self.span_from(start))]
        prefixes = {}
        while self.kinds[self.pos] in _ELEMENT_PREFIXES:
            prefixes[self.kinds[self.pos]] = True
            self.pos += 1
        if self.kinds[self.pos] in ("class", "model", "record", "block", "connector", "type",
                                    "package", "function", "operator", "expandable", "partial",
                                    "encapsulated", "pure", "impure"):
            elements = [self.class_definition(start, protected=protected, **prefixes)]
        else:
            elements = self.component_clause(start=start, protected=protected, **prefixes)
        if prefixes.get("replaceable") and self.kinds[self.pos] == "constrainedby":
            constraint = self.constraint()
            elements = [replace(element, constraint=constraint) for element in elements]
        return elements

    def constraint(self) -> ast.Constraint:
        start = self.expect("constrainedby")
        base = self.type_name()
        modification = self.class_modification_node()
        description, annotation = self.comment()
        return ast.Constraint(base, modification, description, annotation, self.span_from(start))

    def class_modification_node(self) -> ast.Modification | None:
        """``(arguments)`` after a class name, as a Modification without binding; or None."""
        if self.kinds[self.pos] != "(":
            return None
        start = self.pos
        return _Modification(self.class_modification(), None, self.span_from(start))

    def type_prefix(self) -> tuple[str, str, str]:
        if self.kinds[self.pos] == "IDENT":
            return "", "", ""
        flow = variability = causality = ""
        while True:
            kind = self.kinds[self.pos]
            if kind in ("flow", "stream") and not flow:
                flow = kind
            elif kind in ("discrete", "parameter", "constant") and not variability:
                variability = kind
            elif kind in ("input", "output") and not causality:
                causality = kind
            else:
                return flow, variability, causality
            self.pos += 1

    def component_clause(self, single: bool = False, start: int | None = None,
                         **prefixes) -> list[ast.Component]:
        """Components of one declaration; ``start`` is where its prefixes began."""
        start = self.pos if start is None else start
        flow, variability, causality = self.type_prefix()
        type_name = self.type_name()
        type_dims = self.subscripts() if self.kinds[self.pos] == "[" else ()
        components = []
        while True:
            decl_start = self.pos
            name = self.ident(f"a component name after type '{type_name.dotted}'")
            dims = self.subscripts() if self.kinds[self.pos] == "[" else ()
            modification = self.modification()
            condition = self.expression() if self.accept("if") else None
            description, annotation = self.comment()
            span = self.span_from(decl_start if components else start)
            components.append(_Component(
                name, type_name, dims + type_dims, modification, condition, description,
                annotation, flow, variability, causality, span=span, **prefixes))
            if single or not self.accept(","):
                return components

    def import_clause(self, protected: bool) -> ast.Import:
        start = self.expect("import")
        alias = ""
        if self.kinds[self.pos] == "IDENT" and self.kinds[self.pos + 1] == "=":
            alias = self.ident()
            self.pos += 1
        path = self.type_name().parts
        wildcard, names = False, ()
        if not alias and self.accept(".*"):
            wildcard = True
        elif not alias and self.kinds[self.pos] == "." and self.kinds[self.pos + 1] == "{":
            self.pos += 2
            names = [self.ident()]
            while self.accept(","):
                names.append(self.ident())
            self.expect("}", " to close the import list")
            names = tuple(names)
        description, annotation = self.comment()
        return ast.Import(path, alias, wildcard, names, description, annotation, protected,
                          self.span_from(start))


__all__ = ["parse", "parse_expression", "ParseError"]
