"""Connections: potential and flow variables, arrays of connectors, hierarchy, causal blocks."""
from __future__ import annotations

from compiler import api


def _flatten_file(models_dir, name: str, model: str):
    return api.flatten_model(models_dir / name, model, environ={})


def test_rc_circuit(models_dir, flatten):
    model = _flatten_file(models_dir, "Electrical.mo", "Electrical.RCCircuit")
    assert len(model.variables) == 23
    assert [var.name for var in model.variables if var.variability == "parameter"] == [
        "source.V", "resistor.R", "capacitor.C"]
    assert model.variable("capacitor.v").start is not None
    assert flatten.equations(model.equations) == [
        "source.v = source.p.v - source.n.v;", "0 = source.p.i + source.n.i;",
        "source.i = source.p.i;", "source.v = source.V;",
        "resistor.v = resistor.p.v - resistor.n.v;", "0 = resistor.p.i + resistor.n.i;",
        "resistor.i = resistor.p.i;", "resistor.v = resistor.R * resistor.i;",
        "capacitor.v = capacitor.p.v - capacitor.n.v;", "0 = capacitor.p.i + capacitor.n.i;",
        "capacitor.i = capacitor.p.i;", "capacitor.i = capacitor.C * der(capacitor.v);",
        "ground.p.v = 0;",
        "source.p.v = resistor.p.v;", "source.p.i + resistor.p.i = 0.0;",
        "resistor.n.v = capacitor.p.v;", "resistor.n.i + capacitor.p.i = 0.0;",
        "capacitor.n.v = source.n.v;", "capacitor.n.v = ground.p.v;",
        "capacitor.n.i + source.n.i + ground.p.i = 0.0;"]
    assert model.experiment.stop_time == 0.5


def test_mass_spring_damper(models_dir, flatten):
    model = _flatten_file(models_dir, "Mechanics.mo", "Mechanics.MassSpringDamper")
    assert flatten.variables(model)[:3] == [
        'Real mass.flange_a.s(unit = "m") "Absolute position";',
        'Real mass.flange_a.f(unit = "N") "Cut force into the component";',
        'Real mass.flange_b.s(unit = "m") "Absolute position";']
    assert flatten.equations(model.equations)[-7:] == [
        "fixed.flange.s = spring.flange_a.s;", "fixed.flange.s = damper.flange_a.s;",
        "fixed.flange.f + spring.flange_a.f + damper.flange_a.f = 0.0;",
        "spring.flange_b.s = mass.flange_a.s;", "spring.flange_b.s = damper.flange_b.s;",
        "spring.flange_b.f + mass.flange_a.f + damper.flange_b.f = 0.0;",
        "mass.flange_b.f = 0.0;"]
    assert model.variable("mass.s").state_select == "prefer"
    assert len(model.equations) == 20


def test_chain_of_masses_built_with_arrays_and_for_loops(models_dir, flatten):
    model = _flatten_file(models_dir, "Mechanics.mo", "Mechanics.Chain")
    lines = flatten.equations(model.equations)
    assert "spring[4].flange_b.f + mass[4].flange_a.f = 0.0;" in lines
    assert "mass[3].flange_b.s = spring[4].flange_a.s;" in lines
    assert lines[-1] == "mass[4].flange_b.f = 0.0;"
    starts = {var.name: var.start.value for var in model.variables if var.name.endswith("].s")}
    assert starts == {"mass[1].s": 0.1, "mass[2].s": 0.0, "mass[3].s": 0.0, "mass[4].s": 0.0}
    from compiler.flat_text import variable_line
    assert variable_line(model.variable("mass[1].s")) == (
        'Real mass[1].s(start = 0.1, fixed = true, unit = "m", stateSelect = StateSelect.prefer)'
        ' "Position";')
    unknowns = [var for var in model.variables if var.variability == "continuous"]
    assert len(unknowns) == len(model.equations) == 4 * 12 + 2


def test_connectors_in_arrays(flatten):
    model = flatten("""
connector Port
  Real e;
  flow Real f;
end Port;
model Node
  Port ports[2];
equation
  ports[1].e - ports[2].e = ports[1].f;
  ports[1].f + ports[2].f = 0;
end Node;
model Source
  Port p;
equation
  p.e = 1;
end Source;
model Line
  Source source;
  Node nodes[3];
equation
  connect(source.p, nodes[1].ports[1]);
  connect(nodes[1:2].ports[2], nodes[2:3].ports[1]);
end Line;
""")
    lines = flatten.equations(model.equations)
    assert lines[7:] == [
        "source.p.e = nodes[1].ports[1].e;", "source.p.f + nodes[1].ports[1].f = 0.0;",
        "nodes[1].ports[2].e = nodes[2].ports[1].e;",
        "nodes[1].ports[2].f + nodes[2].ports[1].f = 0.0;",
        "nodes[2].ports[2].e = nodes[3].ports[1].e;",
        "nodes[2].ports[2].f + nodes[3].ports[1].f = 0.0;",
        "nodes[3].ports[2].f = 0.0;"]


def test_nested_connectors(flatten):
    model = flatten("""
connector Pin
  Real v;
  flow Real i;
end Pin;
connector Plug
  Pin phase[2];
  Pin neutral;
end Plug;
model Load
  Plug plug;
equation
  for k in 1:2 loop
    plug.phase[k].v - plug.neutral.v = plug.phase[k].i;
  end for;
  plug.neutral.i = -sum(plug.phase.i);
end Load;
model Mains
  Plug plug;
equation
  plug.phase[1].v = 1;
  plug.phase[2].v = -1;
  plug.neutral.v = 0;
end Mains;
model House
  Mains mains;
  Load load;
equation
  connect(mains.plug, load.plug);
end House;
""")
    lines = flatten.equations(model.equations)
    assert lines[5] == "load.plug.neutral.i = -(load.plug.phase[1].i + load.plug.phase[2].i);"
    assert lines[6:] == [
        "mains.plug.phase[1].v = load.plug.phase[1].v;",
        "mains.plug.phase[1].i + load.plug.phase[1].i = 0.0;",
        "mains.plug.phase[2].v = load.plug.phase[2].v;",
        "mains.plug.phase[2].i + load.plug.phase[2].i = 0.0;",
        "mains.plug.neutral.v = load.plug.neutral.v;",
        "mains.plug.neutral.i + load.plug.neutral.i = 0.0;"]


_BLOCKS = """
connector RealInput = input Real;
connector RealOutput = output Real;
block Gain
  parameter Real k = 1;
  RealInput u;
  RealOutput y;
equation
  y = k*u;
end Gain;
block Integrator
  RealInput u;
  RealOutput y(start = 0);
equation
  der(y) = u;
end Integrator;
"""


def test_causal_blocks_connected(flatten):
    model = flatten(_BLOCKS + """
block Loop
  RealInput reference;
  RealOutput y;
  Gain feedback(k = -2);
  Integrator integrator;
equation
  connect(feedback.y, integrator.u);
  connect(integrator.y, feedback.u);
  connect(integrator.y, y);
end Loop;
""")
    causality = {var.name: var.causality for var in model.variables}
    assert causality["reference"] == "input" and causality["y"] == "output"
    assert causality["feedback.u"] == "local" and causality["integrator.y"] == "local"
    assert flatten.equations(model.equations)[2:] == [
        "feedback.y = integrator.u;", "integrator.y = feedback.u;", "integrator.y = y;"]


def test_connections_across_hierarchy_levels(flatten):
    model = flatten("""
connector Pin
  Real v;
  flow Real i;
end Pin;
model Resistor
  parameter Real R = 1;
  Pin p, n;
equation
  p.v - n.v = R*p.i;
  p.i + n.i = 0;
end Resistor;
model Divider "two resistors in series behind two outside pins"
  Pin p, n;
  Resistor r1, r2;
equation
  connect(p, r1.p);
  connect(r1.n, r2.p);
  connect(r2.n, n);
end Divider;
model Battery
  Pin p, n;
equation
  p.v - n.v = 10;
  p.i + n.i = 0;
end Battery;
model Ground
  Pin p;
equation
  p.v = 0;
end Ground;
model Circuit
  Battery battery;
  Divider d;
  Ground ground;
equation
  connect(battery.p, d.p);
  connect(d.n, ground.p);
  connect(battery.n, ground.p);
end Circuit;
""")
    lines = flatten.equations(model.equations)
    assert lines[7:] == [
        "battery.p.v = d.p.v;", "battery.p.i + d.p.i = 0.0;",
        "d.n.v = ground.p.v;", "d.n.v = battery.n.v;", "d.n.i + ground.p.i + battery.n.i = 0.0;",
        "d.p.v = d.r1.p.v;", "-d.p.i + d.r1.p.i = 0.0;",
        "d.r1.n.v = d.r2.p.v;", "d.r1.n.i + d.r2.p.i = 0.0;",
        "d.r2.n.v = d.n.v;", "d.r2.n.i - d.n.i = 0.0;"]
    unknowns = [var for var in model.variables if var.variability == "continuous"]
    assert len(unknowns) == len(lines)
