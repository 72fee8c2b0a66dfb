"""Stream connectors (MLS 15): connection sets of stream variables -> equations and the
expansion of ``inStream`` and ``actualStream``.

Input: the connection sets of stream variables (keys ``(name, is outside)`` from
``connections``, with the instance that wrote them) and the run's variables. Output: one
equation per stream variable of each connected outside connector, and flat parts with the
``inStream(v)``/``actualStream(v)`` calls that translation kept replaced by their mixing
expressions (MLS 15.2, 15.3).

``inStream(v)`` always looks at the set where ``v``'s connector is an inside connector (one
level above the component that holds it); an outside connector of that set contributes its own
``inStream``, from the set one level further up. Where no set holds ``v`` as inside (an
unconnected port, or a port of the simulated model itself) it is ``v`` (MLS 15.2, N = 1, M = 0).
"""
from __future__ import annotations

import dataclasses

from compiler import flat
from compiler.flatten.errors import NotEvaluable
from compiler.flatten.evaluate import evaluate
from compiler.flatten.translate import attribute_value

# eps of the regularized mixing: this times the smallest nominal flow of the set. MLS 15.2
# recommends relativeTolerance*min(nominal(m_flow)) with relativeTolerance above the relative
# tolerance of the nonlinear solver (the runtime's Newton stops at 1e-12, residuals 1e-10).
RELATIVE_TOLERANCE = 1e-5
_OPERATORS = ("inStream", "actualStream")


@dataclasses.dataclass(frozen=True)
class Port:
    """A stream variable of one connector in a connection set."""
    stream: str       # the stream variable
    flow: str         # its connector's flow variable
    outside: bool
    supplies: bool    # whether matter may enter the set through it (its flow's min/max)
    nominal: float    # the nominal value of its flow


@dataclasses.dataclass(frozen=True)
class StreamSets:
    """The stream connection sets: ``sets`` maps a key ``(stream name, is outside)`` to the
    ports of its set, ``flows`` a stream variable to its connector's flow variable."""
    sets: dict
    flows: dict

    def in_stream(self, name: str) -> flat.Expr:
        """``inStream(name)``: the mixing of the set where ``name`` is inside."""
        return _mixing(self, self.sets.get((name, False), ()), (name, False), flat.Var(name))

    def actual_stream(self, name: str) -> flat.Expr:
        """``if flow > 0 then inStream(v) else v`` (MLS 15.3)."""
        return flat.IfExpr(flat.Binary(">", flat.Var(self.flows[name]), flat.Const(0.0)),
                           self.in_stream(name), flat.Var(name))


def stream_sets(groups, variables: dict, ctx) -> StreamSets:
    """The StreamSets of the connection sets ``groups`` ((keys, owner, span) each)."""
    sets = {}
    for keys, _, _ in groups:
        ports = tuple(_port(name, outside, variables, ctx) for name, outside in keys)
        for key in keys:
            sets[key] = ports
    flows = {name: record.stream_flow for name, record in variables.items()
             if record.stream_flow}
    return StreamSets(sets, flows)


def outside_equations(streams: StreamSets, groups) -> tuple[list, list]:
    """For each outside connector of a set, its stream variable as the mixing of the others
    (MLS 15.2: 0 where no other port may supply the set); the set's writer owns it."""
    equations, owners = [], []
    for keys, owner, span in groups:
        for name, outside in keys:
            if outside:
                value = _mixing(streams, streams.sets[(name, True)], (name, True),
                                flat.Const(0.0))
                equations.append(flat.Equation(flat.Var(name), value, span))
                owners.append(owner)
    return equations, owners


def expand_operators(part, streams: StreamSets):
    """``part`` (flat nodes, tuples and lists of them) with inStream and actualStream
    expanded. ``m_flow*actualStream(h)`` of the stream's own flow is continuous where the
    flow reverses, so it is ``smooth(0, ...)``: no event (MLS 15.3)."""
    kind = type(part)
    if kind is tuple or kind is list:
        items = [expand_operators(item, streams) for item in part]
        return part if all(new is old for new, old in zip(items, part)) else kind(items)
    if kind is flat.Call and part.name in _OPERATORS:
        (arg,) = part.args
        return streams.in_stream(arg.name) if part.name == "inStream" else \
            streams.actual_stream(arg.name)
    if kind is flat.Binary and part.op == "*" and _carried(part, streams):
        expanded = flat.Binary("*", expand_operators(part.left, streams),
                               expand_operators(part.right, streams))
        return flat.Call("smooth", (flat.Const(0), expanded))
    fields = _FIELDS.get(kind)
    if not fields:
        return part
    changes = {}
    for name in fields:
        value = getattr(part, name)
        new = expand_operators(value, streams)
        if new is not value:
            changes[name] = new
    return dataclasses.replace(part, **changes) if changes else part


_FIELDS = {
    kind: tuple(item.name for item in dataclasses.fields(kind) if item.name != "span")
    for kind in vars(flat).values()
    if isinstance(kind, type) and dataclasses.is_dataclass(kind) and
    kind not in (flat.Const, flat.Var, flat.EnumConst)
}


def _carried(product: flat.Binary, streams: StreamSets) -> bool:
    """Whether a product is ``flow*actualStream(v)`` (either order, the flow maybe negated)
    of ``v``'s own flow."""
    for flow, other in ((product.left, product.right), (product.right, product.left)):
        if type(flow) is flat.Unary and flow.op == "-":
            flow = flow.operand
        if type(flow) is flat.Var and type(other) is flat.Call and \
                other.name == "actualStream" and type(other.args[0]) is flat.Var and \
                streams.flows.get(other.args[0].name) == flow.name:
            return True
    return False


def _port(name: str, outside: bool, variables: dict, ctx) -> Port:
    flow = variables[name].stream_flow
    record = variables.get(flow)
    # matter enters the set from an inside connector when its flow is negative, from an
    # outside one when it is positive
    bound = _attribute(record, "max" if outside else "min", ctx)
    supplies = bound is None or (bound > 0 if outside else bound < 0)
    nominal = _attribute(record, "nominal", ctx, structural=False)
    return Port(name, flow, outside, supplies, abs(nominal) if nominal else 1.0)


def _attribute(record, name: str, ctx, structural: bool = True):
    """A numeric attribute of a flow variable, evaluated (None when not given or not
    evaluable). Bounds decide which terms the mixing keeps: their parameters are structural."""
    if record is None:
        return None
    value = attribute_value(record, name)
    if value is None:
        return None
    try:
        result = evaluate(value, ctx, structural)
    except NotEvaluable:
        return None
    return float(result) if isinstance(result, (int, float)) and \
        not isinstance(result, bool) else None


def _mixing(streams: StreamSets, ports, exclude, alone: flat.Expr) -> flat.Expr:
    """The mixing value of the ports of a set other than ``exclude``, weighted by the flows
    that enter the set through them (MLS 15.2). One other port: its value, whatever the
    bounds of its flow (N = 2, or N = 1 and M = 1, or N = 0 and M = 2); more: the ports whose
    flow bounds let matter enter, ``alone`` where none may, the one value where one may, else
    the regularized formula."""
    others = [port for port in ports if (port.stream, port.outside) != exclude]
    if not others:
        return alone
    if len(others) > 1:
        others = [port for port in others if port.supplies]
    terms = [(flat.Var(port.flow), streams.in_stream(port.stream)) if port.outside else
             (flat.Unary("-", flat.Var(port.flow)), flat.Var(port.stream)) for port in others]
    if not terms:
        return alone
    if len(terms) == 1:
        return terms[0][1]
    eps = flat.Const(RELATIVE_TOLERANCE * min(port.nominal for port in ports))
    entering = [_max0(inflow) for inflow, _ in terms]
    return _regularized(entering, [value for _, value in terms], eps)


def _regularized(entering: list, values: list, eps: flat.Const) -> flat.Expr:
    """MLS 15.2's sum(positiveMax(x_j)*h_j)/sum(positiveMax(x_j)) with positiveMax(x) =
    alpha*x + (1 - alpha)*eps, written with alpha once in numerator and denominator:
    (alpha*sum(x_j*h_j) + (1 - alpha)*eps*sum(h_j)) / (alpha*s + (1 - alpha)*eps*n), where
    s = sum(x_j) and alpha goes from 0 (s = 0) to 1 (s >= eps) as a C1 cubic of s. Exact
    mixing above eps; the mean of the h_j when nothing enters."""
    total = _sum(entering)
    ratio = flat.Binary("/", total, eps)
    cubic = flat.Binary("*", flat.Binary("*", ratio, ratio),
                        flat.Binary("-", flat.Const(3.0), flat.Binary("*", flat.Const(2.0),
                                                                        ratio)))
    alpha = flat.Call("smooth", (flat.Const(1), flat.IfExpr(
        flat.Binary(">", total, eps), flat.Const(1.0),
        flat.IfExpr(flat.Binary(">", total, flat.Const(0.0)), cubic, flat.Const(0.0)))))
    rest = flat.Binary("*", flat.Binary("-", flat.Const(1.0), alpha), eps)
    weighted = _sum([flat.Binary("*", x, h) for x, h in zip(entering, values)])
    numerator = flat.Binary("+", flat.Binary("*", alpha, weighted),
                            flat.Binary("*", rest, _sum(values)))
    denominator = flat.Binary("+", flat.Binary("*", alpha, total),
                              flat.Binary("*", rest, flat.Const(float(len(values)))))
    return flat.Binary("/", numerator, denominator)


def _max0(expr: flat.Expr) -> flat.Expr:
    return flat.Call("max", (expr, flat.Const(0.0)))


def _sum(items: list) -> flat.Expr:
    total = items[0]
    for item in items[1:]:
        total = flat.Binary("+", total, item)
    return total
