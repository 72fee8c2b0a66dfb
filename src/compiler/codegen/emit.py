"""``System`` -> model.c (the six functions of fmu_templates/model.h) and its FMU interface.

Input: a causalized ``System``. Output: ``EmittedModel``: the ``ModelInterface`` the packager
turns into modelDescription.xml and config.h, and the C text of the equations. Parameters
fixed at compile time are folded first (``parameters``); ``interface`` lays out the slots;
``blocks``, ``events``, ``jacobian`` and ``functions`` write the parts assembled here.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.codegen.blocks import PART_LINES, Context, Sequence, function_text, parted_function
from compiler.codegen.function_body import INDENT
from compiler.codegen import events
from compiler.codegen.events import C_EVENTS, assert_lines, indicator_lines
from compiler.codegen.functions import FunctionCode
from compiler.codegen.interface import TERMINATE_FLAG, Layout, make_layout, sample_fired
from compiler.codegen.jacobian import jacobian_parts
from compiler.codegen.loops import SlotIndex
from compiler.codegen.naming import plain_identifier
from compiler.codegen.parameters import fold, plan_parameters
from compiler.fmu import ModelInterface
from compiler.fmu.external_sources import ExternalCode, external_sources
from compiler.system import HOMOTOPY_FLAG, System

# Part of the cache key of compiled FMUs: change it whenever generated code changes meaning.
EMITTER_VERSION = "3"
# Beyond this many lines gcc -O2 takes longer than the model would ever gain from it (large
# models spend their time in the integrator's sparse LU, not in model code): gcc's quick
# optimization level -Og compiles them about 3x faster than -O1 and 5x faster than -O2.
LARGE_MODEL_LINES = 4000
LARGE_MODEL_PRAGMA = """/* A large model: compile time matters more here than what -O2 adds to -Og. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("Og")
#endif
"""


# the functions of model.h, which run inside a frame of external_support.h when model code
# calls external functions, holds external objects or makes Strings
EXPORTED = ("Status model_initialize(ModelData *m)", "Status model_derivatives(ModelData *m)",
            "Status model_outputs(ModelData *m)",
            "Status model_event_indicators(ModelData *m, double z[])",
            "Status model_event_update(ModelData *m, EventUpdate *update)",
            "Status model_jacobian(ModelData *m, double values[])")


@dataclass(frozen=True, slots=True)
class EmittedModel:
    """The interface of an FMU and the C text of its equations (model.c); ``external`` is
    None for a model that needs nothing of external_support.h."""
    interface: ModelInterface
    source: str
    external: ExternalCode | None = None


def emit_c(system: System, identifier: str | None = None, loops: bool = True) -> EmittedModel:
    """Generate the C of ``system``; ``identifier`` is the FMU's modelIdentifier (default:
    the model's name as a C identifier); ``loops``: runs of alike equations as for loops
    (``codegen.loops``; False: every equation scalar, as a reference). Raises ``EmitError``
    for what C cannot express."""
    plan = plan_parameters(system)
    system = fold(system, plan)
    layout = make_layout(system, plan, identifier or plain_identifier(system.name))
    samples = {item.var: (item.start, item.interval, sample_fired(item.index))
               for item in system.samples}
    functions = FunctionCode(system.functions, (item.name for item in system.external_objects),
                             system.enumerations, {item.name: item for item in
                                                   system.external_objects})
    context = Context(layout.slots, samples, functions, system.when_clauses)
    if loops:
        context.slot_index = SlotIndex(layout.slots, layout.interface)
    source = _Module(system, layout, context).text()
    if not functions.support:
        return EmittedModel(layout.interface, source)
    used = [functions.functions[name] for name in functions.used]
    calls = [(item.external, item.span) for item in used if item.external is not None]
    external = ExternalCode(functions.externals.source(system.name), external_sources(calls),
                            tuple(functions.resources.items()))
    return EmittedModel(layout.interface, source, external)


class _Module:
    """The text of model.c, part by part."""

    def __init__(self, system: System, layout: Layout, context: Context):
        self.system = system
        self.layout = layout
        self.context = context
        self.terminate_flag = TERMINATE_FLAG in context.slots

    sequence_class = Sequence

    def sequences(self) -> tuple[list, list, list, list]:
        """The parts of the derivative, indicator, remaining and initialization blocks."""
        system, sequence = self.system, self.sequence_class
        n_d, n_i = system.n_derivative_blocks, system.n_indicator_blocks
        initial = sequence(self.context, initial=True, skip=self.layout.exact_states)
        return (sequence(self.context).add_all(system.blocks[:n_d]).parts,
                sequence(self.context).add_all(system.blocks[n_d:n_i]).parts,
                sequence(self.context).add_all(system.blocks[n_i:]).parts,
                initial.add_all(system.initial_blocks).parts)

    def text(self) -> str:
        system = self.system
        derivatives, indicators, others, initial = self.sequences()
        jacobian = self._jacobian()
        parts = [
            parted_function("/* the blocks the event indicators need besides the derivatives' */",
                            "static Status indicator_blocks(ModelData *m)", indicators),
            parted_function("/* the blocks of the remaining variables */",
                            "static Status other_blocks(ModelData *m)", others),
            parted_function("/* variables kept equal to others: negated aliases */",
                            "static Status derived_values(ModelData *m)",
                            self._assignment_parts(self._derived(copies=False))),
            function_text("/* every variable from time, states, inputs, parameters and latches */",
                          "static Status evaluate_all(ModelData *m)",
                          ["CHECK(model_derivatives(m));", "CHECK(indicator_blocks(m));",
                           "CHECK(other_blocks(m));", "CHECK(derived_values(m));"]),
            self._initialize(initial),
            parted_function("/* The derivatives and what they need. */",
                            "Status model_derivatives(ModelData *m)", derivatives,
                            after=self._assignments(self._derived(copies=True))),
            function_text("/* Everything else a user can read. */",
                          "Status model_outputs(ModelData *m)",
                          ["CHECK(indicator_blocks(m));", "CHECK(other_blocks(m));",
                           "CHECK(derived_values(m));"] + assert_lines(self.context, system)),
            function_text("/* Event indicators: z = L ? d + eps : d - eps for relation d > 0 with latch L. */",
                          "Status model_event_indicators(ModelData *m, double z[])",
                          ["CHECK(indicator_blocks(m));"] + indicator_lines(self.context, system)
                          if system.relations else ["(void)z;"]),
            self._event_update(),
            self._delays(),
            self._spatials(),
            jacobian,
        ]
        code = self.context.functions
        objects = self._objects()
        # last: the parts above decide which functions and helpers are needed
        functions = code.definitions(self.context)
        if code.support and not objects:
            objects = [_external_model(0, [])]
        parts = [self._header()] + [code.externals.prototype_text()] + functions + \
            self.context.helpers + objects + parts
        if code.support:
            parts = [_guarded(part) for part in parts] + [
                _guard(signature, bool(self.layout.objects)) for signature in EXPORTED]
            parts[0] = parts[0] + '\n#include "external_support.h"'
        text = "\n\n".join(part for part in parts if part) + "\n"
        if text.count("\n") > LARGE_MODEL_LINES:
            text = text.replace('#include "model_support.h"\n', '#include "model_support.h"\n\n' + LARGE_MODEL_PRAGMA, 1)
        return text

    def _header(self) -> str:
        system = self.system
        description = f": {system.description}" if system.description else ""
        return "\n".join([
            f"/* {system.name}{description}",
            " *",
            " * Generated by cosim from the causalized model. Do not edit: change the Modelica",
            " * source and compile again. Slots are named after the Modelica variables (config.h);",
            " * comments give each equation's variable and source. */",
            "#include <math.h>",
            "#include <stdlib.h>",
            "",
            '#include "model.h"',
            '#include "model_support.h"'])

    def _objects(self) -> list[str]:
        """The destructor calls of the external objects (last constructed first) and the
        model's entry of external_support.h."""
        code = self.context.functions
        objects = self.layout.objects
        if not objects:
            return []
        code.support = True
        types = {item.name: item for item in self.system.external_objects}
        lines = []
        for k in reversed(range(len(objects))):
            destructor = code.functions[types[self.system.variable(objects[k]).type].destructor]
            code.use(destructor.name)
            lines += [f"if (OBJECT({k})) {{ /* {objects[k]} */", f"{INDENT}void *object = OBJECT({k});",
                      f"{INDENT}OBJECT({k}) = NULL;",
                      f"{INDENT}(void){code.c_name(destructor)}(m, object);", "}"]
        return [_external_model(len(objects), lines), self._restore_objects()]

    def _restore_objects(self) -> str:
        """The constructors of the objects an instance lacks although past its
        initialization: an FMU state set into a fresh instance restores the parameters, not
        the objects (which are no part of it)."""
        bindings = dict(self.layout.fixed_values)
        lines = []
        for k, name in enumerate(self.layout.objects):
            writer = self.context.writer()
            value = writer.text(bindings[name])
            lines += [f"if (!OBJECT({k})) {{", *(INDENT + line for line in writer.take_lines()),
                      f"{INDENT}OBJECT({k}) = {value}; /* {name} */", "}"]
        return function_text("/* external objects missing after an FMU state was set */",
                             "static Status restore_objects(ModelData *m)", lines)

    def _derived(self, copies: bool) -> list:
        derivative_copies = {v.name for v in self.layout.interface.variables if v.derivative_of}
        return [(name, expr) for name, expr in self.layout.derived
                if (name in derivative_copies) == copies]

    def _assignments(self, pairs) -> list[str]:
        return [line for part in self._assignment_parts(pairs) for line in part]

    def _assignment_parts(self, pairs) -> list[list[str]]:
        """``v = expr;`` for (v, expr) pairs, in pieces of PART_LINES."""
        parts: list[list[str]] = [[]]
        writer = self.context.writer()
        for name, expr in pairs:
            if len(parts[-1]) >= PART_LINES:
                parts.append([])
                writer = self.context.writer()
            text = writer.text(expr)
            parts[-1].extend(writer.take_lines())
            parts[-1].append(writer.assignment(name, text, f" /* {name} */"))
        return parts

    def _initialize(self, initial_parts: list[list[str]]) -> str:
        context, system, layout = self.context, self.system, self.layout
        before = ["destroy_objects(m); /* constructed again from the parameters */"] \
            if layout.objects else []
        fixed = self._assignments(layout.fixed_values)
        if fixed:
            before += self.comment("parameters and constant aliases computed from tunable "
                                   "parameters") + fixed
        guesses = self._assignments(layout.computed_starts)
        if guesses:
            before += self.comment("start values (guesses) that depend on parameters") + guesses
        if any(initial_parts) and self.MARK_INITIALIZATION_SYSTEM:
            initial_parts[0][:0] = self.comment("the initialization system")
        after = []
        latches = events.initial_latch_lines(context, system, syntax=self.events)
        if latches:
            after += self.comment("relations start as written") + latches
        after += events.initial_action_lines(context, system, self.terminate_flag,
                                             syntax=self.events)
        after += self._assignments(self._derived(copies=True))
        after.append(self.check("derived_values(m)"))
        comment = ("Initialization: every variable at the start time (runs again on each read in\n"
                   "Initialization Mode; exact start values and parameters stay as set).")
        if HOMOTOPY_FLAG not in context.slots:
            return self.parted(comment, "model_initialize", initial_parts, before, after)
        flag = context.writer().place(context.slots[HOMOTOPY_FLAG])
        solve = self.parted("the initialization system", "initialization_system",
                            initial_parts, public=False)
        homotopy = [
            *self.comment("homotopy(): the simplified equations first; their solution is the "
                          "guess for the\nactual ones (where they fail, the actual ones start "
                          "from the start values)"),
            f"{flag} = true;", self.discard("initialization_system(m)"), f"{flag} = false;",
            self.check("initialization_system(m)")]
        return solve + "\n\n" + self.function(comment, "model_initialize",
                                               [*before, *homotopy, *after])

    def _event_update(self) -> str:
        context, system, syntax = self.context, self.system, self.events
        lines = events.string_pre_lines(context, system) + [self.check("evaluate_all(m)")]
        latches = events.latch_update_lines(context, system, syntax=syntax)
        if latches:
            # a relation reads values this iteration computes (t >= t_start + T, with
            # t_start set by a when-equation): switch and evaluate until none switches
            lines += [*self.comment("relations switch, on the values of this iteration"),
                      self.RELATION_LOOP, f"{INDENT}{self.SWITCHED}"]
            lines += [INDENT + line for line in latches]
            lines += [f"{INDENT}{self.check('evaluate_all(m)')}",
                      *(INDENT + line for line in self.when("!switched", "break;")), "}"]
        clauses = events.when_clause_lines(context, system, syntax=syntax)
        if clauses:
            lines += self.comment("when-clauses that fire: reinit, assert, terminate") + clauses
            if any(clause.reinits for clause in system.when_clauses):
                lines += self.when(syntax.update("state_values_changed"),
                                   self.check("evaluate_all(m)"))
        lines += events.assert_lines(context, system, syntax=syntax)
        if self.terminate_flag:
            flag = context.writer().place(context.slots[TERMINATE_FLAG])
            lines += self.when(flag, f"{syntax.update('terminate_simulation')} = true;")
        lines += events.discrete_change_lines(context, system, syntax=syntax)
        lines += events.sample_fired_lines(context, system, syntax=syntax)
        lines += events.next_event_lines(context, system, syntax=syntax)
        return self.event_update_function(
            "One event iteration (pre values hold the values before it): blocks, relations,\n"
            "blocks again, when-clauses, asserts; then whether discrete values changed.",
            lines, uses_update=any("update" in line for line in lines))

    # ------------------------------------------------------------ the language's spelling
    events = C_EVENTS
    MARK_INITIALIZATION_SYSTEM = True   # a comment where the initialization system starts
    RELATION_LOOP = "for (int pass = 0; pass < RELATION_PASSES; pass++) {"
    SWITCHED = "bool switched = false;"

    def comment(self, text: str) -> list[str]:
        lines = text.split("\n")
        return [("/* " if k == 0 else " * ") + line + (" */" if k == len(lines) - 1 else "")
                for k, line in enumerate(lines)]

    def check(self, call: str) -> str:
        return f"CHECK({call});"

    def discard(self, call: str) -> str:
        return f"(void){call};"

    def when(self, condition: str, statement: str) -> list[str]:
        """``statement`` if ``condition`` holds."""
        return [f"if ({condition}) {statement}"]

    def function(self, comment: str, name: str, lines: list[str], public: bool = True) -> str:
        return function_text("\n".join(self.comment(comment)),
                             f"{'' if public else 'static '}Status {name}(ModelData *m)", lines)

    def parted(self, comment: str, name: str, parts, before=(), after=(), public: bool = True) -> str:
        return parted_function("\n".join(self.comment(comment)),
                               f"{'' if public else 'static '}Status {name}(ModelData *m)",
                               parts, before, after)

    def event_update_function(self, comment: str, lines: list[str], uses_update: bool) -> str:
        return function_text("\n".join(self.comment(comment)),
                             "Status model_event_update(ModelData *m, EventUpdate *update)",
                             lines if uses_update else lines + ["(void)update;"])

    def _delays(self) -> str:
        """model_delays (model.h): what the runtime records for each delay()."""
        if not self.system.delays:
            return ""
        return self._recorded(
            "/* delay(): the values to record, the delay times and the maximum delay times */",
            "Status model_delays(ModelData *m, double value[], double delay_time[], "
            "double delay_max[])",
            [[(f"{target}[{item.index}]", expr) for target, expr in (
                ("value", item.expr), ("delay_time", item.delay_time),
                ("delay_max", item.delay_max))] for item in self.system.delays],
            [item.text for item in self.system.delays])

    def _spatials(self) -> str:
        """model_spatials and model_spatial_profile (model.h): what the runtime records for
        each spatialDistribution(), and its initial profile."""
        if not self.system.spatials:
            return ""
        return "\n\n".join((self._recorded(
            "/* spatialDistribution(): the inputs to record (positiveVelocity as 1 or 0) */",
            "Status model_spatials(ModelData *m, double in0[], double in1[], double x[], "
            "double positive[])",
            [[(f"{target}[{item.index}]", expr) for target, expr in (
                ("in0", item.in0), ("in1", item.in1), ("x", item.x),
                ("positive", item.positive))] for item in self.system.spatials],
            [item.text for item in self.system.spatials]), self._profiles()))

    def _profiles(self) -> str:
        """model_spatial_profile: a case per operator."""
        writer = self.context.writer()
        lines = ["switch (k) {"]
        for item in self.system.spatials:
            lines.append(f"case {item.index}: /* {item.text} */")
            for target, exprs in (("points", item.points), ("values", item.values)):
                for j, expr in enumerate(exprs):
                    text = writer.text(expr)
                    lines.extend(f"    {line}" for line in writer.take_lines())
                    lines.append(f"    {target}[{j}] = {text};")
            lines.append("    break;")
        lines += ["default:", "    break;", "}"]
        return function_text(
            "/* spatialDistribution() number k: its initialPoints and initialValues */",
            "Status model_spatial_profile(ModelData *m, size_t k, double points[], "
            "double values[])", lines)

    def _recorded(self, comment: str, signature: str, groups: list, texts: list) -> str:
        """A function assigning what the runtime records: ``groups`` of (target, expression)
        per operator, the last line of each commented with its ``texts`` entry."""
        writer = self.context.writer()
        lines = []
        for group, text in zip(groups, texts):
            for target, expr in group:
                value = writer.text(expr)
                lines.extend(writer.take_lines())
                lines.append(f"{target} = {value};")
            lines[-1] += f" /* {text} */"
        return function_text(comment, signature, lines)

    def _jacobian(self) -> str:
        signature = "Status model_jacobian(ModelData *m, double values[])"
        comment = "/* d der(x) / d x in the pattern's order (chain rule on the partials) */"
        if not self.layout.interface.has_jacobian:
            return function_text("/* no analytic Jacobian: the runtime uses differences */",
                                 signature, ["(void)values;"], result="StatusError")
        parts = jacobian_parts(self.context, self.system)
        if not any(parts):
            return function_text(comment, signature, ["(void)values;"])
        return parted_function(comment, signature, parts)


def _external_model(n_objects: int, destructor_lines: list[str]) -> str:
    """The model's ExternalModel (external_support.h) and its destroy_objects."""
    destroy = function_text("/* external objects: destructors, last constructed first */",
                            "static void destroy_objects(ModelData *m)", destructor_lines,
                            result=None)
    return f"{destroy}\n\nstatic const ExternalModel EXTERNAL_MODEL = {{{n_objects}, destroy_objects}};"


def _guarded(part: str) -> str:
    """A part of model.c with the definitions of the functions of model.h renamed: their
    bodies, which the guards (``_guard``) call."""
    for signature in EXPORTED:
        head = signature.split("(", 1)[0]
        part = part.replace(f"\n{signature} {{", f"\nstatic {head}_body({signature.split('(', 1)[1]} {{")
        if part.startswith(f"{signature} {{"):
            part = f"static {head}_body({signature.split('(', 1)[1]}" + part[len(signature):]
    return part


def _guard(signature: str, objects: bool) -> str:
    """A function of model.h running its body inside a frame (external_support.h); with
    ``objects``, outside the initialization after the objects an FMU state lacks."""
    name = signature.split("(", 1)[0].split()[-1]
    arguments = ", ".join(item.split()[-1].lstrip("*").replace("[]", "")
                          for item in signature.split("(", 1)[1].rstrip(")").split(","))
    call = f"{name}_body({arguments})"
    if objects and name != "model_initialize":
        call = f"restore_objects(m) > StatusWarning ? StatusError : {call}"
    return f"{signature} {{\n{INDENT}EXTERNAL_GUARDED(&EXTERNAL_MODEL, m, {call});\n}}"
