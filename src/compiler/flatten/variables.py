"""Variables and annotations of the flat model: ``VarRecord`` -> ``flat.Variable``.

Input: the run's ``VarRecord``s and the top class's annotation. Output: ``flat.Variable``s
with their attributes translated (``fixed``, ``unit``, ``stateSelect``... evaluated), and the
``experiment`` settings and ``Documentation`` text of the top model.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.context import Env
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.evaluate import evaluate
from compiler.flatten.exprtypes import is_parameter_expression
from compiler.flatten.rules import operators as operator_rules
from compiler.flatten.rules import variability as variability_rules
from compiler.flatten.translate import attribute_value, translate, variable_binding
from compiler.lang import ast


def flat_variable(record, ctx, when_assigned: bool) -> flat.Variable:
    declared = record.variability
    if declared in ("constant", "parameter"):
        variability = declared
    elif declared == "discrete" or record.type != "Real" or when_assigned:
        variability = "discrete"
    else:
        variability = "continuous"
    if variability == "parameter":
        causality = "parameter"
    elif record.top_interface and record.causality in ("input", "output") and \
            variability != "constant":
        causality = record.causality
    else:
        causality = "local"
    real = _as_real if record.type == "Real" else _same
    binding = None
    if declared in ("constant", "parameter"):
        binding = real(variable_binding(record))
        if declared == "constant":
            variability_rules.check_constant(record, binding, ctx)
        if binding is not None:
            operator_rules.check_binding_type(record.type, binding, ctx,
                                              record.mod.binding.expr.span, record.name)
        if binding is not None and not is_parameter_expression(binding, ctx):
            raise FlattenError(f"the binding of {declared} '{record.name}' must be a parameter "
                               "expression", record.mod.binding.expr.span)
    start = attribute_value(record, "start")
    return flat.Variable(
        record.name, record.type, variability, causality, binding,
        start=real(start),
        fixed=_evaluated(record, "fixed", bool, ctx),
        nominal=real(attribute_value(record, "nominal")),
        min=real(attribute_value(record, "min")),
        max=real(attribute_value(record, "max")),
        unit=_evaluated(record, "unit", str, ctx) or "",
        display_unit=_evaluated(record, "displayUnit", str, ctx) or "",
        quantity=_evaluated(record, "quantity", str, ctx) or "",
        state_select=_state_select(record, ctx),
        protected=record.protected,
        structural=record.name in ctx.structural,
        description=record.decl.description,
        span=record.span,
        final=record.mod is not None and record.mod.final,
        evaluate=_annotated_evaluate(record.decl.annotation),
        start_confidence=_start_confidence(record, start, ctx))


def _start_confidence(record, start, ctx) -> tuple[int, ...]:
    """``(level, tie-breaker)`` of a start value (``flat.Variable.start_confidence``): the
    level of the instance its modifier is written in, and the best level through the
    bindings of parameters when it is just one (``m_flow(start = m_flow_start)`` with
    ``m_flow_start`` given at the top); () without a start value."""
    if start is None:
        return ()
    level = _modifier_level(record.mod.args["start"])
    best, seen = level, set()
    while type(start) is flat.Var and start.name not in seen:
        seen.add(start.name)
        parameter = ctx.variables.get(start.name)
        if parameter is None or parameter.variability not in ("parameter", "constant") or \
                parameter.mod is None or parameter.mod.binding is None:
            break
        best = min(best, _modifier_level(parameter.mod))
        try:
            start = variable_binding(parameter)
        except FlattenError:
            break
    return level, best


# the level of a modifier written in a class definition rather than for an instance (the
# start of ``type Temperature = Real(start = 288.15)``): below every instance's modifier
_CLASS_LEVEL = 1 << 20


def _modifier_level(mod) -> int:
    """1 for a modifier written in the top model, 2 one component down, and so on;
    ``_CLASS_LEVEL`` for one written in a type (no instance)."""
    instance = getattr(mod.binding.env, "instance", None)
    if instance is None:
        return _CLASS_LEVEL
    path = getattr(instance, "path", "")
    return 1 + (path.count(".") + 1 if path else 0)


def _annotated_evaluate(annotation) -> bool:
    """Whether a declaration's annotation says ``Evaluate = true``."""
    modification = _entry_named(annotation, "Evaluate")
    return modification is not None and isinstance(modification.binding, ast.BoolLit) \
        and modification.binding.value


def _as_real(value):
    """Integer literals given to Real variables are Real (``parameter Real k = 2`` is 2.0)."""
    if type(value) is flat.Const and type(value.value) is int:
        return flat.Const(float(value.value))
    return value


def _same(value):
    return value


def _evaluated(record, name: str, kind, ctx):
    value = attribute_value(record, name)
    if value is None:
        return None
    span = record.mod.args[name].binding.expr.span
    try:
        result = evaluate(value, ctx)
    except NotEvaluable as error:
        raise FlattenError(f"attribute '{name}' of '{record.name}' must be a parameter "
                           f"expression: {error.reason}", span) from None
    if not isinstance(result, kind):
        raise FlattenError(f"attribute '{name}' of '{record.name}' must be a "
                           f"{'Boolean' if kind is bool else 'String'}", span)
    return result


def _state_select(record, ctx) -> str:
    """The stateSelect literal of a variable; a parameter expression is evaluated (the
    parameters it uses become structural: state selection happens at translation)."""
    value = attribute_value(record, "stateSelect")
    if value is None:
        return ""
    span = record.mod.args["stateSelect"].binding.expr.span
    try:
        value = evaluate(value, ctx, structural=True)
    except NotEvaluable as error:
        raise FlattenError(f"stateSelect of '{record.name}' must be a parameter expression: "
                           f"{error.reason}", span) from None
    if type(value) is not flat.EnumConst or value.type != "StateSelect":
        raise FlattenError(f"stateSelect of '{record.name}' must be a StateSelect value", span)
    return value.name


# ----------------------------------------------------------------------------- annotations
def _annotation(definition: ast.ClassDef):
    body = definition.body
    if isinstance(body, ast.Composition) and body.annotation is not None:
        return body.annotation
    return definition.annotation


def _entry_named(annotation, name: str):
    if annotation is None:
        return None
    for argument in annotation.arguments:
        if isinstance(argument, ast.ElementMod) and argument.name == (name,):
            return argument.modification
    return None


def annotation_info(ctx, entry, definition: ast.ClassDef):
    """The top model's ``experiment`` (or None) and ``Documentation(info=...)`` text."""
    annotation = _annotation(definition)
    env = Env(ctx, None, entry)
    experiment = None
    settings = _entry_named(annotation, "experiment")
    if settings is not None:
        found = {}
        for key in ("StartTime", "StopTime", "Tolerance", "Interval"):
            modification = _entry_named(settings, key)
            if modification is not None and modification.binding is not None:
                found[key] = _number(modification.binding, env, key)
        experiment = flat.Experiment(found.get("StartTime"), found.get("StopTime"),
                                     found.get("Tolerance"), found.get("Interval"))
    documentation = ""
    info = _entry_named(_entry_named(annotation, "Documentation"), "info")
    if info is not None and isinstance(info.binding, ast.StrLit):
        documentation = info.binding.value
    return experiment, documentation


def _number(expr, env, key: str) -> float:
    try:
        value = evaluate(translate(expr, env), env.ctx)
    except NotEvaluable as error:
        raise FlattenError(f"experiment {key} must be a constant: {error.reason}",
                           expr.span) from None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FlattenError(f"experiment {key} must be a number", expr.span)
    return float(value)
