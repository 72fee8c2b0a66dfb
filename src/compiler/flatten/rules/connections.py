"""Restrictions of connections and connectors (MLS 9.1, 9.3).

Input: the matched primitive variables of a connect (``VarRecord``s), the connection sets,
the connector instances of the model. Output: nothing, or a ``FlattenError`` at the connect
equation or connector declaration:

- a connect names connectors ``c1.c2...cn`` or ``m.c`` (MLS 9.1);
- matched variables have the same primitive type, causal variables meet causal ones,
  parameters meet parameters and constants constants, with equal values (MLS 9.3);
- a connection set holds at most one source of its signal (MLS 9.3);
- a connector that is neither partial, simple nor expandable has as many flow variables as
  potential ones (MLS 9.3.1);
- the declared (potentially present) elements of an expandable connector are not modified
  where it is used (MLS 9.1.3).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError, NotEvaluable

CONNECTOR_KINDS = frozenset({"connector", "expandable connector"})


def check_expandable_unmodified(decl, info, mod) -> None:
    """Component ``decl`` of class ``info`` with modification ``mod``: an expandable
    connector's declared variables are only potentially present, so they are not modified
    (its parameters, which size its arrays, are)."""
    if info.kind != "expandable connector" or mod is None:
        return
    for name, sub in mod.args.items():
        member = info.members.get(name)
        if member is not None and member.decl.variability not in ("parameter", "constant"):
            raise FlattenError(f"'{decl.name}.{name}' is a potentially present element of "
                               f"expandable connector {info.name}: it cannot be modified "
                               "(MLS 9.1.3)", sub.span or decl.span)


def check_form(ref, env, eq) -> None:
    """At most the first part of a connector reference is a non-connector component."""
    from compiler.flatten.instances import REMOVED, Instance
    instance = env.instance
    for position, part in enumerate(ref.parts[:-1]):
        node = instance.member(part.name)
        if node is None or node is REMOVED or not node.elements or \
                not isinstance(node.elements[0], Instance):
            return
        instance = node.elements[0]
        if position > 0 and instance.info.kind not in CONNECTOR_KINDS:
            raise FlattenError(f"'{ref.dotted}' is no connector of this class nor of one of its "
                               "components: connect takes c1.c2...cn or m.c (MLS 9.1)",
                               ref.span or eq.span)


def check_matched(ra, rb, ctx, eq) -> None:
    """Two primitive variables a connect matches."""
    if ra.type != rb.type:
        raise FlattenError(f"cannot connect '{ra.name}' ({ra.type}) to '{rb.name}' ({rb.type}): "
                           "matched variables have the same primitive type (MLS 9.3)", eq.span)
    if bool(ra.causality) != bool(rb.causality):
        causal, other = (ra, rb) if ra.causality else (rb, ra)
        raise FlattenError(f"cannot connect {causal.causality} '{causal.name}' to '{other.name}', "
                           "which is neither input nor output (MLS 9.3)", eq.span)
    fixed = ("constant", "parameter")
    if (ra.variability in fixed or rb.variability in fixed) and \
            ra.variability != rb.variability:
        raise FlattenError(f"cannot connect {ra.variability or 'variable'} '{ra.name}' to "
                           f"{rb.variability or 'variable'} '{rb.name}' (MLS 9.3)", eq.span)
    if ra.variability in fixed:
        _check_equal_values(ra, rb, ctx, eq)


def _check_equal_values(ra, rb, ctx, eq) -> None:
    from compiler.flatten.evaluate import evaluate
    try:
        a, b = evaluate(flat.Var(ra.name), ctx), evaluate(flat.Var(rb.name), ctx)
    except NotEvaluable:
        return
    if a != b:
        raise FlattenError(f"connected {ra.variability}s '{ra.name}' and '{rb.name}' differ "
                           f"({a} and {b}); they must be equal (MLS 9.3)", eq.span)


def check_sources(group, info, is_source) -> None:
    """``group``: the (name, outside) keys of one connection set; ``info[key]`` its
    (VarRecord, span, owner). At most one inside output or public outside input."""
    sources = [key for key in group if is_source(info[key][0], key[1])]
    if len(sources) > 1:
        names = " and ".join(f"'{name}'" for name, _ in sources[:2])
        raise FlattenError(f"the connection set of {names} has {len(sources)} sources of its "
                           "signal (inside outputs or outside inputs); it may have one "
                           "(MLS 9.3)", info[sources[1]][1])


def check_connector_balance(instance) -> None:
    """A connector component's flow variables match its potential ones (MLS 9.3.1)."""
    info = instance.info
    if info.kind != "connector" or info.partial:
        return
    flows = potentials = 0
    causal = False
    for record in _records(instance):
        if record is None:
            return  # (its size is not told here)
        if type(record) is int:
            potentials += record  # an overdetermined component: its residues count
            continue
        if record.variability in ("constant", "parameter") or record.stream_flow:
            continue  # (stream variables are neither flow nor potential: MLS 9.3.1)
        if record.flow:
            flows += 1
        elif record.causality:
            causal = True
        else:
            potentials += 1
    if flows == 0 and not causal:
        return  # a simple connector (MLS 9.3.1)
    if flows != potentials:
        _unbalanced(instance, flows, potentials)


def check_stream_connector_balance(instance, typed_members) -> None:
    """The balance of a stream connector, told from its declarations (``(declaration,
    ClassInfo of its type)`` pairs) before its stream variables are instantiated: its one
    flow variable (MLS 15.1) meets one potential variable (MLS 9.3.1). Potential variables
    of structured or array types, whose sizes are not told here, leave it unchecked."""
    potentials = 0
    for decl, info in typed_members:
        if decl.flow or info.flow or decl.condition is not None or \
                (decl.variability or info.variability) in ("constant", "parameter") or \
                decl.causality or info.causality:
            continue
        if info.is_structured or decl.dims or info.dims:
            return
        potentials += 1
    if potentials != 1:
        _unbalanced(instance, 1, potentials)


def _unbalanced(instance, flows: int, potentials: int):
    raise FlattenError(f"connector {instance.info.name} of '{instance.path}' has {flows} flow "
                       f"variable{'s' if flows != 1 else ''} but {potentials} potential "
                       f"one{'s' if potentials != 1 else ''}; they must be as many "
                       "(MLS 9.3.1)", instance.span)


def _records(instance):
    """The primitive variables of a connector; for a scalar component of an overdetermined
    type or record, the number of its ``equalityConstraint`` residues (MLS 9.4.1); None
    where the count cannot be told (an expandable connector, arrays of overdetermined
    components)."""
    from compiler.flatten.instances import REMOVED, VarRecord
    for _, node in instance.all_members():
        if node is REMOVED:
            continue
        for element in node.elements:
            if element.info.kind == "expandable connector":
                yield None
                return
            if "equalityConstraint" in element.info.classes:
                # (the dimensions of its own declaration, not those of an array type)
                arrayed = node.decl is None or node.decl.dims
                yield None if arrayed else _residue_count(element.info, instance.ctx)
                break
            if type(element) is VarRecord:
                yield element
            else:
                yield from _records(element)


def _residue_count(info, ctx):
    """The size of the output of ``info``'s ``equalityConstraint`` (None if not told)."""
    from compiler.flatten.context import Env
    from compiler.flatten.evaluate import evaluate_structural
    function = ctx.classes.expand(info.classes["equalityConstraint"])
    outputs = [member for member in function.members.values()
               if member.decl.causality == "output"]
    if len(outputs) != 1:
        return None
    count = 1
    for dim in outputs[0].decl.dims:
        try:
            size = evaluate_structural(dim, Env(ctx, None, outputs[0].scope), "a size")
        except FlattenError:
            return None
        if type(size) is not int:
            return None
        count *= size
    return count
