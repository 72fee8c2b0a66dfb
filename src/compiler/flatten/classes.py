"""Classes as the flattener sees them: inheritance expanded, short classes resolved, names looked up.

Input: ``ClassEntry``s of a ``compiler.library.Library``. Output: ``ClassInfo`` (members with
the extends modifications that apply to them, nested classes, equations and algorithms with
the class they are written in) and ``lookup`` of a name in a class's lexical scope.
"""
from __future__ import annotations

import dataclasses

from compiler.errors import CompilerError
from compiler.flatten.errors import FlattenError
from compiler.flatten.rules import lookup as lookup_rules
from compiler.flatten.rules import redeclarations, restrictions, visibility
from compiler.lang import ast, parse
from compiler.library import ClassEntry

BUILTIN_SCALARS = ("Real", "Integer", "Boolean", "String")
_PRELUDE = parse("""
type StateSelect = enumeration(never, avoid, default, prefer, always);
type AssertionLevel = enumeration(warning, error);
""", "<builtin>")
BUILTIN_CLASSES = {name: ClassEntry(name, None, ast.ClassDef(name, "type", ast.Composition()))
                   for name in BUILTIN_SCALARS}
BUILTIN_CLASSES.update({cls.name: ClassEntry(cls.name, None, cls) for cls in _PRELUDE.classes})
# the base of external object classes (MLS 12.9.7): its extensions hold a constructor and a
# destructor, and their variables are handles of what the constructor made
EXTERNAL_OBJECT = ClassEntry("ExternalObject", None,
                             ast.ClassDef("ExternalObject", "class", ast.Composition()))
BUILTIN_CLASSES["ExternalObject"] = EXTERNAL_OBJECT
_UNSUPPORTED_CLASSES = {"Clock": "clocks (synchronous language elements)"}


class Member:
    """A component of a class, own or inherited.

    ``scope`` is the class whose text declares it (types and modifier expressions are looked
    up there); ``layers`` are the extends modifications that reach it, outermost first, each
    ``(arguments, scope)``.
    """

    __slots__ = ("decl", "scope", "layers", "holder")

    def __init__(self, decl: ast.Component, scope: ClassEntry, layers: tuple = (),
                 holder: ClassEntry | None = None):
        self.decl = decl
        self.scope = scope
        self.layers = layers
        # the class that has it (``scope`` or a class inheriting it): a package constant's
        # binding reads the other elements of this class, as modified there
        self.holder = holder if holder is not None else scope


class ClassInfo:
    """The expanded contents of a class (own and inherited elements)."""

    __slots__ = ("entry", "kind", "partial", "builtin", "literals", "members", "classes",
                 "equations", "initial_equations", "algorithms", "initial_algorithms",
                 "type_layers", "dims", "flow", "variability", "causality", "composition",
                 "external_object", "enumeration", "protected", "bases")

    def __init__(self, entry: ClassEntry, definition: ast.ClassDef):
        self.entry = entry
        self.kind = definition.kind
        self.partial = definition.partial
        self.builtin = None        # "Real", "Integer", "Boolean", "String" or "enumeration"
        self.literals = ()         # enumeration literals
        self.members: dict[str, Member] = {}
        self.classes: dict[str, ClassEntry] = {}
        self.equations: list = []  # (equation, scope) pairs; likewise the other sections
        self.initial_equations: list = []
        self.algorithms: list = []
        self.initial_algorithms: list = []
        self.type_layers: tuple = ()  # (modification, scope) on a built-in type, outermost first
        self.dims: tuple = ()          # (expression, scope) from short class definitions
        self.flow = self.variability = self.causality = ""
        self.composition = definition.body if isinstance(definition.body, ast.Composition) else None
        self.external_object = False  # extends ExternalObject
        self.enumeration = ""          # the enumeration whose literals it has (short classes)
        self.protected: set[str] = set()  # its protected elements (components and classes)
        self.bases: set[int] = set()  # ids of the entries of its base classes, transitively

    @property
    def name(self) -> str:
        return self.entry.full_name

    @property
    def is_structured(self) -> bool:
        return self.builtin is None and not self.external_object

    @property
    def type_name(self) -> str:
        """The type of a variable of this class: the built-in's name, the enumeration that
        defines the literals (``DigitalOutput = output Logic`` is ``Logic``), or the external
        object class."""
        if self.builtin == "enumeration":
            return self.enumeration or self.name
        return self.name if self.external_object else self.builtin


class Classes:
    """Expands and looks up classes, caching one ``ClassInfo`` per class."""

    def __init__(self, library):
        self.library = library
        self._infos: dict[int, ClassInfo] = {}
        self._expanding: dict[int, ClassEntry] = {}
        self._imports: dict[int, tuple] = {}
        self._checked_imports: set[int] = set()
        self._enclosing_cache: dict[int, bool] = {}
        self._dotted_ok: set[tuple] = set()  # (class id, name): A.name passed its checks
        self.type_cache: dict = {}  # (class info, type name, scope) ids -> ClassEntry
        self.leaf_cache: dict = {}  # id(record class info) -> its leaves (records.py)
        self._by_name: dict[str, ClassInfo] = {}  # full name -> the class expanded under it
        self._modified_bases: dict[int, ClassEntry] = {}  # id(modified class) -> its class
        self._extended: dict[int, ClassEntry] = {}  # id(class extends entry) -> the class it extends
        self._plain_extends: set[int] = set()  # those without ``redeclare``
        self._views: dict[tuple, ClassEntry] = {}  # inherited classes seen in derived ones
        self._written: dict[int, ClassEntry] = {}  # id(view) -> the class it shows
        self._keep: list = []  # (entries only a view's id refers to, kept alive)

    def info_named(self, name: str) -> ClassInfo | None:
        """The expanded class of a full name (as record values carry it), or None."""
        info = self._by_name.get(name)
        if info is None:
            entry = self.library.lookup(name)
            if entry is not None:
                info = self.expand(entry)
        return info

    # ------------------------------------------------------------------------ definitions
    def definition(self, entry: ClassEntry, span=None) -> ast.ClassDef:
        """The parsed class; a library error without a place is reported at ``span``."""
        try:
            return entry.definition
        except CompilerError as error:
            if error.span is None:
                raise FlattenError(error.message, span) from None
            raise

    def expand(self, entry: ClassEntry, span=None) -> ClassInfo:
        """The expanded class; ``span`` locates errors in finding it (cyclic extends)."""
        key = id(entry)
        info = self._infos.get(key)
        if info is not None:
            return info
        if key in self._expanding:
            chain = " extends ".join(e.name for e in self._expanding.values())
            raise FlattenError(f"cyclic extends: {chain} extends {entry.name}", span)
        definition = self.definition(entry, span)
        self._expanding[key] = entry
        try:
            info = ClassInfo(entry, definition)
            if entry.parent is None and entry.name in BUILTIN_SCALARS and \
                    BUILTIN_CLASSES.get(entry.name) is entry:
                info.builtin = entry.name
            else:
                restrictions.check_name(entry, definition)
                self._fill(info, definition)
        finally:
            del self._expanding[key]
        self._infos[key] = info
        self._by_name.setdefault(info.name, info)
        if definition.replaceable and definition.constraint is not None:
            redeclarations.check_replaceable(self, self.side(entry))
        return info

    def _fill(self, info: ClassInfo, definition: ast.ClassDef) -> None:
        body = definition.body
        if isinstance(body, ast.Enumeration):
            if body.unspecified:
                raise FlattenError("enumeration(:) is not supported", definition.span)
            restrictions.check_enumeration(body)
            info.builtin = "enumeration"
            info.literals = tuple(literal.name for literal in body.literals)
            info.enumeration = info.name
        elif isinstance(body, ast.DerClass):
            # (a function without elements of its own: partial_derivatives.py makes it)
            if definition.kind != "function":
                raise FlattenError(f"der({body.function.dotted}, ...) defines a function, not "
                                   f"a {definition.kind} (MLS 12.7.2)", body.span)
        elif isinstance(body, ast.ShortClass):
            self._short_class(info, body, definition)
        else:
            restrictions.check_composition(info.kind, info.name, definition, body)
            if definition.extends_base:
                # ``model extends B(mods) ... end B``: the inherited B, modified, is the
                # implicit base of the new B (MLS 7.3.1)
                original = self._class_extended(info.entry, definition)
                self._inherit(info, self.expand(original, definition.span), definition.base_mod,
                              info.entry)
                info.protected.update(self.expand(original).protected)
            self._composition(info, body)

    def seen_from(self, found: ClassEntry, scope: ClassEntry | None) -> ClassEntry:
        """The class an instance's name denotes for a declaration written in ``scope``: a
        ``class extends`` without ``redeclare`` is the new class only for the text of the
        classes that have it; declarations inherited from a base still see the class they
        named there (the original is not replaced)."""
        while id(found) in self._plain_extends and scope is not None and \
                self.expand(scope).classes.get(found.name) is not found:
            found = self._extended[id(found)]
        return found

    def _class_extended(self, entry: ClassEntry, definition: ast.ClassDef) -> ClassEntry:
        """The inherited class a ``class extends`` entry extends: recorded when its enclosing
        class is expanded."""
        original = self._extended.get(id(entry))
        if original is None and entry.parent is not None:
            self.expand(entry.parent, definition.span)
            original = self._extended.get(id(entry))
        if original is None:
            raise FlattenError(f"'{definition.name}' is extended by 'class extends', but no "
                               "class of that name is inherited (MLS 7.3.1)", definition.span)
        return original

    def _short_class(self, info: ClassInfo, body: ast.ShortClass, definition) -> None:
        entry = info.entry
        scope = self._short_class_scope(entry)
        base_entry = self._modified_bases.get(id(entry)) or \
            self.lookup_class(body.base, scope, definition.span)
        base = self.expand(base_entry, body.base.span)
        restrictions.check_extends(info.kind, base, body.base.span, short=True)
        # a short class of a partial class is partial (MLS 4.6.1)
        info.partial = info.partial or base.partial
        self._inherit(info, base, body.modification, scope)
        info.protected.update(base.protected)
        info.dims = tuple((dim, entry.parent) for dim in body.dims) + base.dims
        info.flow = body.flow or base.flow
        info.variability = body.variability or base.variability
        info.causality = body.causality or base.causality
        if base.builtin == "enumeration" and not info.literals:
            info.literals = base.literals

    def _short_class_scope(self, entry: ClassEntry) -> ClassEntry:
        """Where a short class reads its base: around its text (an inherited one: in the
        class inheriting it first)."""
        written = self._written.get(id(entry))
        if written is None:
            return entry.parent
        while id(written) in self._written:   # inherited on several levels: the text's class
            written = self._written[id(written)]
        return self.inherited_scope(written.parent, entry.parent)

    def alias_of(self, entry: ClassEntry, span=None) -> ClassEntry:
        """The class a plain short class stands for (``function f = P.g``, no modification
        nor prefixes), followed to the end; the class itself otherwise."""
        definition = self.definition(entry, span)
        body = definition.body
        while isinstance(body, ast.ShortClass) and not body.dims and \
                body.modification is None and not (body.causality or body.variability or
                                                   body.flow):
            entry = self.lookup_class(body.base, self._short_class_scope(entry), span)
            body = self.definition(entry, span).body
        return entry

    def _inherit(self, info: ClassInfo, base: ClassInfo, modification, scope) -> None:
        """Add the elements of ``base`` as modified by ``modification`` (written in ``scope``)."""
        info.bases.add(id(base.entry))
        info.bases.update(base.bases)
        if base.builtin is not None:
            if info.builtin is not None and info.builtin != base.builtin:
                raise FlattenError(f"class {info.name} extends two different built-in types",
                                   modification.span if modification else None)
            info.builtin = base.builtin
            info.literals = base.literals or info.literals
            info.enumeration = base.enumeration or info.enumeration
            info.dims = info.dims + base.dims  # ``extends Real[4]`` through a short class
            layer = ((modification, scope),) if modification is not None else ()
            info.type_layers = layer + base.type_layers
            info.flow = info.flow or base.flow
            info.variability = info.variability or base.variability
            info.causality = info.causality or base.causality
            return
        if base.entry is EXTERNAL_OBJECT or base.external_object:
            info.external_object = True
        per_member = _split_arguments(modification)
        redeclared_classes = per_member.pop(None, {})
        for name, redeclared in redeclared_classes.items():
            self._redeclare_class(info, base, name, redeclared, scope)
        for name, member in base.members.items():
            args = per_member.pop(name, ())
            layers = (((tuple(args), scope),) + member.layers) if args else member.layers
            self._add_member(info, Member(member.decl, member.scope, layers, info.entry),
                             inherited=True)
        for name, entry in base.classes.items():
            entry = self._seen_in(entry, base.entry, info.entry)
            existing = info.classes.setdefault(name, entry)
            if existing is not entry and name not in redeclared_classes:
                self._check_same_class(existing, entry, modification.span if modification
                                       else None)
        for name, args in per_member.items():
            if name not in base.classes:
                raise FlattenError(f"class {base.name} has no element '{name}' to modify",
                                   args[0].span)
            info.classes[name] = self._modified_class(base.classes[name], args, scope)
        info.equations.extend(base.equations)
        info.initial_equations.extend(base.initial_equations)
        info.algorithms.extend(base.algorithms)
        info.initial_algorithms.extend(base.initial_algorithms)

    def _modified_class(self, original: ClassEntry, args: list, scope) -> ClassEntry:
        """``extends A(B(x = 4))``: the nested class B of A as modified there, a short class
        of the original written in ``scope`` (its modifiers are read there)."""
        arguments = []
        for argument in args:
            if len(argument.name) > 1:
                arguments.append(dataclasses.replace(argument, name=argument.name[1:]))
                continue
            modification = argument.modification
            if modification is not None and modification.binding is not None:
                raise FlattenError(f"class '{original.name}' cannot be given a value",
                                   argument.span)
            arguments.extend(modification.arguments if modification is not None else ())
        definition = self.definition(original)
        span = args[0].span
        modified = ast.ClassDef(original.name, definition.kind, ast.ShortClass(
            ast.TypeName((original.name,), span=span), modification=ast.Modification(
                tuple(arguments), span=span), span=span), span=span)
        entry = ClassEntry(original.name, scope, modified)
        self._modified_bases[id(entry)] = original
        return entry

    def _seen_in(self, entry: ClassEntry, base: ClassEntry, derived: ClassEntry) -> ClassEntry:
        """A class written in ``base`` as ``derived`` inherits it: the same definition, its
        names looked up in ``derived`` (MLS 5.3: an inherited ``function f`` of a package
        reads the constants and calls the functions of the package that extends it, as
        redeclared there). Classes placed elsewhere (redeclarations) keep their scope."""
        if entry.parent is not base or derived is None or base is derived:
            return entry
        key = (id(entry), id(derived))
        view = self._views.get(key)
        if view is None:
            view = ClassEntry(entry.name, derived, load=lambda: entry.definition,
                              directory=entry.directory)
            self._views[key] = view
            self._written[id(view)] = entry
            if id(entry) in self._extended:
                # the class it extends, seen in ``derived`` as well
                self._extended[id(view)] = self._seen_in(self._extended[id(entry)], base,
                                                         derived)
            if id(entry) in self._plain_extends:
                self._plain_extends.add(id(view))
            if id(entry) in self._modified_bases:
                # ``extends A(B(x = 4))``'s B, inherited further: still A's B modified
                self._modified_bases[id(view)] = self._modified_bases[id(entry)]
        return view

    def inherited_scope(self, scope: ClassEntry, holder: ClassEntry) -> ClassEntry:
        """Where expressions written in ``scope`` (a base class of ``holder``) about an
        element of ``holder`` are read: the elements of ``holder`` first (as modified and
        redeclared there), then the scopes of the text (MLS 5.3); ``scope`` itself when it
        is the holder."""
        if holder is scope or holder is None or scope is None:
            return scope
        key = (id(scope), id(holder))
        view = self._views.get(key)
        if view is None:
            def empty():
                return ast.ClassDef("$declaration", "class", ast.Composition())
            written = ClassEntry("$declaration", scope, load=empty)
            view = ClassEntry("$declaration", holder, load=empty)
            self._views[key] = view
            self._written[id(view)] = written
            self._keep.append(written)
        return view

    def written_name(self, entry: ClassEntry) -> str:
        """The full name of the class where its text is (a view: the class it shows)."""
        while id(entry) in self._written:
            entry = self._written[id(entry)]
        return entry.full_name

    def _redeclare_class(self, info, base, name, argument, scope) -> None:
        original = base.classes.get(name)
        if original is None:
            raise FlattenError(f"class {base.name} has no class '{name}' to redeclare",
                               argument.span)
        entry = ClassEntry(name, scope, argument.element)
        self.check_class_redeclaration(original, entry, argument.span)
        info.classes[name] = entry

    def side(self, entry: ClassEntry) -> redeclarations.Side:
        """A replaceable class for the redeclaration rules: its definition, with its names
        resolved where it is written."""
        def expanded():
            try:
                return self.expand(entry)
            except FlattenError:
                return None  # (``enumeration(:)``, waiting for its redeclaration)
        return redeclarations.Side(self.definition(entry), self.resolver(entry.parent),
                                   expanded)

    def resolver(self, scope):
        """``type name -> ClassInfo`` seen from ``scope`` (None when it does not resolve)."""
        def resolve(type_name):
            try:
                return self.expand(self.lookup_class(type_name, scope), type_name.span)
            except FlattenError:
                return None
        return resolve

    def check_class_redeclaration(self, original: ClassEntry, new: ClassEntry, span) -> None:
        redeclarations.check_redeclaration(self, self.side(original), self.side(new), span)

    def _check_same_class(self, first: ClassEntry, second: ClassEntry, span) -> None:
        """Two classes of one name, inherited or declared, are identical (MLS 7.1)."""
        if not self._same_class_text(first, second):
            raise FlattenError(f"class '{first.name}' is inherited and declared again "
                               f"differently ({self.written_name(first)} and "
                               f"{self.written_name(second)}): "
                               "elements of the same name must be identical (MLS 7.1)",
                               span or self.definition(second).span)

    def _same_class_text(self, first: ClassEntry, second: ClassEntry) -> bool:
        """Whether two class definitions are the same but for their places, descriptions and
        annotations (two bases declaring ``replaceable package Medium = PartialMedium``)."""
        from compiler.lang.unparse import unparse
        a, b = self.definition(first), self.definition(second)
        if a == b:
            return True

        def text(definition):
            return unparse(dataclasses.replace(definition, description="", annotation=None))
        return text(a) == text(b)

    def _encloses_operator_record(self, entry: ClassEntry) -> bool:
        """Whether a class holds an operator record among its nested class definitions."""
        found = self._enclosing_cache.get(id(entry))
        if found is None:
            self._enclosing_cache[id(entry)] = False  # (while looking: no cycles)
            body = self.definition(entry).body
            found = isinstance(body, ast.Composition) and any(
                isinstance(element, ast.ClassDef) and (
                    element.kind == "operator record" or
                    self._encloses_operator_record(entry.child(element.name)))
                for element in body.elements)
            self._enclosing_cache[id(entry)] = found
        return found

    def _redeclare_member(self, info: ClassInfo, element: ast.Component, entry) -> None:
        """``redeclare Real x = 3`` among the elements of a class: the inherited component
        replaced, with its prefixes where the new one gives none; the extends modifications
        apply to the new declaration (MLS 7.3)."""
        original = info.members.get(element.name)
        if original is None:
            raise FlattenError(f"there is no inherited element '{element.name}' to redeclare "
                               "(MLS 7.3)", element.span)
        redeclarations.check_protection(element.name in info.protected, element)
        redeclarations.check_redeclaration(
            self, redeclarations.Side(original.decl, self.resolver(original.scope)),
            redeclarations.Side(element, self.resolver(entry)), element.span)
        old = original.decl
        decl = dataclasses.replace(
            element, dims=element.dims or old.dims, flow=element.flow or old.flow,
            variability=element.variability or old.variability,
            causality=element.causality or old.causality,
            condition=element.condition or old.condition)
        info.members[element.name] = Member(decl, entry, original.layers)

    def _redeclare_element(self, info: ClassInfo, new: ClassEntry, element) -> None:
        """``redeclare model X ... end X`` among the elements of a class."""
        original = info.classes.get(element.name)
        if original is None:
            raise FlattenError(f"there is no inherited class '{element.name}' to redeclare "
                               "(MLS 7.3)", element.span)
        redeclarations.check_protection(element.name in info.protected, element)
        self.check_class_redeclaration(original, new, element.span)

    def _add_member(self, info: ClassInfo, member: Member, inherited: bool = False) -> None:
        name = member.decl.name
        existing = info.members.get(name)
        if existing is not None and self._identical(existing, member):
            # the same element inherited twice, or declared again as inherited: one element
            # (MLS 7.3.1); the class's own declaration is the one kept
            if not inherited:
                info.members[name] = member
            return
        if existing is not None or name in info.classes:
            span = member.decl.span
            first = existing.decl.span if existing is not None else None
            where = f" (first declared at {first.file}:{first.line}:{first.col})" \
                if first is not None else ""
            raise FlattenError(f"duplicate declaration of '{name}' in {info.name}{where}: "
                               "elements of the same name must be identical", span)
        info.members[name] = member

    def _identical(self, a: Member, b: Member) -> bool:
        """Whether two declarations of one name are the same element: equal but for their
        descriptions and annotations, equally modified, their types the same class."""
        if a.layers != b.layers or _bare(a.decl) != _bare(b.decl):
            # declared or modified apart, they may still be identical after modification
            # (MLS 7.3: the same parameter modified to the same expression on two paths)
            if _unmodified(a.decl) != _unmodified(b.decl):
                return False
            effective = _effective_modification(a)
            if effective is None or effective != _effective_modification(b):
                return False
        elif a.scope is b.scope:
            return True
        try:
            if self.lookup_class(a.decl.type_name, a.scope) is \
                    self.lookup_class(b.decl.type_name, b.scope):
                return True
            # a type named through a replaceable class each base declares alike
            # (``Medium.MassFlowRate``): one class in the class inheriting both
            first = a.decl.type_name.parts[0]
            classes = [self.lookup(first, member.scope) for member in (a, b)]
            return all(isinstance(found, ClassEntry) and self.definition(found).replaceable
                       for found in classes) and self._same_class_text(*classes)
        except FlattenError:
            return False

    def _composition(self, info: ClassInfo, body: ast.Composition) -> None:
        entry = info.entry
        bases = []
        for element in body.elements:
            if isinstance(element, ast.Extends):
                base_entry = self.lookup_class(element.base, entry, element.span, own_only=True)
                if self.definition(base_entry).replaceable:
                    raise FlattenError(f"the base class {base_entry.full_name} is replaceable; "
                                       "a base class must not be (MLS 7.1.4)", element.span)
                base = self.expand(base_entry, element.span)
                restrictions.check_extends(info.kind, base, element.span, short=False)
                if self._encloses_operator_record(base_entry):
                    raise FlattenError(f"{base_entry.full_name} encloses an operator record; a "
                                       "class enclosing one cannot be extended (MLS 4.7)",
                                       element.span)
                bases.append((element, base))
                self._inherit(info, base, element.modification, entry)
                # a protected extends makes every inherited element protected (MLS 7.1.2)
                info.protected.update(base.members if element.protected else base.protected)
                if element.protected:
                    info.protected.update(base.classes)
        restrictions.check_combination(info.name, body, bases)
        own = set()
        for element in body.elements:
            if isinstance(element, ast.Component):
                if element.name in own:
                    previous = info.members[element.name].decl.span
                    where = f" (first declared at {previous.line}:{previous.col})" if previous else ""
                    raise FlattenError(f"duplicate declaration of '{element.name}'{where}",
                                       element.span)
                own.add(element.name)
                if element.redeclare:
                    self._redeclare_member(info, element, entry)
                else:
                    self._add_member(info, Member(element, entry))
            elif isinstance(element, ast.ClassDef):
                if element.name in info.members:
                    raise FlattenError(f"duplicate declaration of '{element.name}'", element.span)
                if element.extends_base:
                    redeclarations.check_class_extends(element, info.classes.get(element.name),
                                                       self.definition, self.written_name)
                    self._extended[id(entry.child(element.name))] = info.classes[element.name]
                    if not element.redeclare:
                        self._plain_extends.add(id(entry.child(element.name)))
                if element.redeclare:
                    self._redeclare_element(info, entry.child(element.name), element)
                elif element.name in info.classes and not element.extends_base:
                    self._check_same_class(info.classes[element.name],
                                           entry.child(element.name), element.span)
                info.classes[element.name] = entry.child(element.name)
            else:
                continue
            if element.protected:
                info.protected.add(element.name)
        if entry.directory is not None:
            for name, child in entry.children().items():
                info.classes.setdefault(name, child)
        info.equations.extend((eq, entry) for eq in body.equations)
        info.initial_equations.extend((eq, entry) for eq in body.initial_equations)
        info.algorithms.extend((stmts, entry) for stmts in body.algorithms)
        info.initial_algorithms.extend((stmts, entry) for stmts in body.initial_algorithms)
        if info.kind == "connector":
            restrictions.check_stream_connector(info)

    # ---------------------------------------------------------------------------- lookup
    def lookup_class(self, name: ast.TypeName, scope: ClassEntry | None, span=None,
                     own_only: bool = False) -> ClassEntry:
        """The class a type name denotes, seen from ``scope``."""
        found = self.lookup(name.parts[0], None if name.is_global else scope, own_only,
                            name.span or span)
        for part in name.parts[1:]:
            if not isinstance(found, ClassEntry):
                break
            found = self.public_member_of(found, part, name.span)
        if not isinstance(found, ClassEntry):
            message = (f"unknown type '{name.dotted}'" if found is None
                       else f"'{name.dotted}' is a component, not a class")
            raise FlattenError(message, name.span or span)
        return found

    def public_member_of(self, entry: ClassEntry, name: str, span=None):
        """Element ``name`` of class ``entry`` named with dot notation (``A.name``), which
        must be public (MLS 4.1) and may be looked up so (MLS 5.3.2)."""
        found = self.member_of(entry, name, span)
        if found is not None and id(entry) not in self._expanding and \
                (id(entry), name) not in self._dotted_ok:
            holder = self.expand(entry, span)
            visibility.check_public(holder, name, span)
            lookup_rules.check_inside(holder, found, name, span, self.definition)
            self._dotted_ok.add((id(entry), name))
        return found

    def member_of(self, entry: ClassEntry, name: str, span=None):
        """Element ``name`` of class ``entry``: a ClassEntry, a Member, or None."""
        if id(entry) in self._expanding:
            return entry.child(name)
        info = self.expand(entry, span)
        found = info.classes.get(name)
        if found is None:
            found = info.members.get(name)
        return found

    def lookup(self, name: str, scope: ClassEntry | None, own_only: bool = False, span=None):
        """``name`` seen from ``scope``: a ClassEntry, a Member (with its scope) or None.

        Walks the scope, its imports, then the enclosing classes (up to an encapsulated
        one), the library's top level and the built-in classes. With ``own_only`` the first
        scope contributes only its own nested classes (base-class names are looked up so).
        """
        first = True
        while scope is not None:
            if first and own_only:
                found = self.definition(scope).body
                found = scope.child(name) if isinstance(found, ast.Composition) else None
            else:
                found = self.member_of(scope, name)
            if found is None:
                found = self._imported(name, scope)
            if found is not None:
                return found
            if self.definition(scope).encapsulated:
                break
            written = self._written.get(id(scope))
            while written is not None:
                # an inherited class: the elements of the class inheriting it (as redeclared
                # and modified there), then the scopes around its text (imports are not
                # inherited, MLS 13.2.1), through every inheritance on the way
                found = self.member_of(scope.parent, name)
                if found is not None:
                    return found
                scope = written
                written = self._written.get(id(scope))
            scope, first = scope.parent, False
        if name in _UNSUPPORTED_CLASSES:
            raise FlattenError(f"{_UNSUPPORTED_CLASSES[name]} are not supported", span)
        found = self.library.root(name)
        return found if found is not None else BUILTIN_CLASSES.get(name)

    def _imports_of(self, scope: ClassEntry) -> tuple:
        imports = self._imports.get(id(scope))
        if imports is None:
            body = self.definition(scope).body
            imports = tuple(element for element in body.elements
                            if isinstance(element, ast.Import)) \
                if isinstance(body, ast.Composition) else ()
            lookup_rules.check_import_names(imports)
            self._imports[id(scope)] = imports
        return imports

    def _imported(self, name: str, scope: ClassEntry):
        """``name`` as the imports of ``scope`` give it: qualified and renaming imports first,
        then the public elements of the packages of unqualified ones (MLS 13.2.1)."""
        wildcards = []
        for element in self._imports_of(scope):
            path = element.path
            if element.wildcard:
                wildcards.append(element)
            elif element.alias == name or (not element.alias and not element.names and
                                           path[-1] == name):
                self._check_import(element, path[:-1])
                return self._global(path, element.span)
            elif name in element.names:
                self._check_import(element, path)
                return self._global(path + (name,), element.span)
        found = None
        for element in wildcards:
            package = self._global(element.path, element.span)
            if not isinstance(package, ClassEntry):
                continue
            self._check_import(element, element.path)
            candidate = self.member_of(package, name, element.span)
            if candidate is None or name in self.expand(package).protected:
                continue
            if found is not None and candidate is not found:
                raise FlattenError(f"'{name}' is found by two unqualified imports (MLS 13.2.1)",
                                   element.span)
            found = candidate
        return found

    def _check_import(self, element: ast.Import, holder_path: tuple) -> None:
        """What an import names is a package or an element of one (checked once)."""
        if id(element) in self._checked_imports:
            return
        self._checked_imports.add(id(element))
        holder = self._global(holder_path, element.span) if holder_path else None
        if isinstance(holder, ClassEntry):
            lookup_rules.check_import(element, self.expand(holder, element.span))

    def _global(self, path: tuple, span):
        found = self.library.root(path[0])
        for part in path[1:]:
            if not isinstance(found, ClassEntry):
                found = None
                break
            found = self.public_member_of(found, part, span)
        if found is None:
            raise FlattenError(f"imported name '{'.'.join(path)}' not found", span)
        return found


def _bare(decl: ast.Component) -> ast.Component:
    """A declaration without what does not make it another element."""
    return dataclasses.replace(decl, description="", annotation=None)


def _unmodified(decl: ast.Component) -> str:
    """A declaration's text without its modification (nor description and annotation)."""
    from compiler.lang.unparse import unparse
    return unparse(dataclasses.replace(_bare(decl), modification=None))


def _effective_modification(member: Member) -> dict | None:
    """What the modifications of a member (its declaration's, then the extends layers over
    it) set: path -> (final, the value's text); None when a redeclaration takes part (not
    compared so)."""
    result: dict = {}
    modification = member.decl.modification
    if modification is not None and not _modification_paths(modification, (), result):
        return None
    for arguments, _scope in reversed(member.layers):
        for argument in arguments:
            if not isinstance(argument, ast.ElementMod):
                return None
            found: dict = {}
            if not _modification_paths(ast.Modification((dataclasses.replace(
                    argument, name=argument.name[1:] or ("",)),)), (), found):
                return None
            result.update({tuple(part for part in path if part): value
                           for path, value in found.items()})
    return result


def _modification_paths(modification: ast.Modification, prefix: tuple, result: dict) -> bool:
    from compiler.lang.unparse import expr
    if modification.binding is not None:
        result[prefix] = (False, expr(modification.binding))
    for argument in modification.arguments:
        if not isinstance(argument, ast.ElementMod):
            return False
        path = prefix + argument.name
        if argument.modification is not None:
            if not _modification_paths(argument.modification, path, result):
                return False
            if argument.final and path in result:
                result[path] = (True, result[path][1])
    return True


def _split_arguments(modification: ast.Modification | None) -> dict:
    """The arguments of an extends modification by the member they modify; class
    redeclarations under the key None."""
    result: dict = {}
    if modification is None:
        return result
    if modification.binding is not None:
        raise FlattenError("a class modification cannot have a binding", modification.span)
    for argument in modification.arguments:
        if isinstance(argument, ast.ElementRedeclare) and \
                isinstance(argument.element, ast.ClassDef):
            result.setdefault(None, {})[argument.element.name] = argument
            continue
        name = (argument.element.name if isinstance(argument, ast.ElementRedeclare)
                else argument.name[0])
        result.setdefault(name, []).append(argument)
    return result
