"""modelDescription.xml and sources/buildDescription.xml, built with lxml and checked
against the FMI 3.0 schema that fmpy ships."""
from __future__ import annotations

import functools

from lxml import etree

from compiler.errors import PackageError
from compiler.fmu.interface import ModelInterface, Variable, effective_initial
from compiler.fmu.layout import Layout
from compiler.fmu.runtime_files import fmi_schema, log_categories
from compiler.units import UnitError, parse_unit

GENERATION_TOOL = "cosim"
CAPABILITIES = {
    "canGetAndSetFMUState": "true",
    "canSerializeFMUState": "true",
    "providesDirectionalDerivatives": "true",
}


def _number(value: float) -> str:
    return repr(float(value))


def _start_text(variable: Variable) -> str:
    if variable.type == "Boolean":
        return "true" if variable.start else "false"
    if variable.type == "Float64":
        return _number(variable.start)
    return str(int(variable.start))


def fmi_name(name: str) -> str:
    """The name under FMI's structured naming convention: a higher derivative
    ``der(der(x))`` is ``der(x,2)``."""
    inner, order = name, 0
    while inner.startswith("der(") and inner.endswith(")"):
        inner, order = inner[4:-1], order + 1
    return f"der({inner},{order})" if order > 1 else name


def _variable_element(variable: Variable, layout: Layout) -> etree._Element:
    attributes = {"name": fmi_name(variable.name), "valueReference": str(layout.value_reference[variable.name])}
    if variable.description:
        attributes["description"] = variable.description
    attributes["causality"] = variable.causality
    attributes["variability"] = variable.variability
    if variable.initial is not None:
        attributes["initial"] = variable.initial
    if variable.type == "Float64":
        if variable.unit:
            attributes["unit"] = variable.unit
        for key in ("min", "max", "nominal"):
            if getattr(variable, key) is not None:
                attributes[key] = _number(getattr(variable, key))
    elif variable.type in ("Int32", "Int64"):
        for key in ("min", "max"):
            if getattr(variable, key) is not None:
                attributes[key] = str(int(getattr(variable, key)))
    has_start = variable.start is not None and (
        variable.causality == "input" or effective_initial(variable) in ("exact", "approx"))
    if has_start and variable.type != "String":
        attributes["start"] = _start_text(variable)
    if variable.derivative_of:
        attributes["derivative"] = str(layout.value_reference[variable.derivative_of])
    element = etree.Element(variable.type, attributes)
    if has_start and variable.type == "String":
        etree.SubElement(element, "Start", value=str(variable.start))
    return element


def _as_array(element: etree._Element, group, interface: ModelInterface) -> None:
    """The element of an array's first scalar made the FMI 3.0 array variable."""
    if group is None:
        return
    element.set("name", group.name)
    element.set("variability", group.variability)
    by_name = {v.name: v for v in interface.variables}
    if "start" in element.attrib:
        element.set("start", " ".join(_start_text(by_name[name]) for name in group.elements))
    for size in group.shape:
        etree.SubElement(element, "Dimension", start=str(size))


def _unit_definitions(interface: ModelInterface) -> etree._Element | None:
    units = sorted({v.unit for v in interface.variables if v.unit})
    if not units:
        return None
    root = etree.Element("UnitDefinitions")
    for name in units:
        unit = etree.SubElement(root, "Unit", name=name)
        try:
            si = parse_unit(name)
        except UnitError:
            continue  # a label the unit grammar does not know: declared, without base units
        base = {key: str(exponent) for key, exponent in si.exponents}
        if si.factor != 1.0:
            base["factor"] = _number(si.factor)
        if si.offset != 0.0:
            base["offset"] = _number(si.offset)
        etree.SubElement(unit, "BaseUnit", base)
    return root


class _Dependencies:
    """What each output and derivative depends on, computed once for all of them."""

    def __init__(self, interface: ModelInterface, layout: Layout):
        self.layout = layout
        self.listed = dict(interface.dependencies)
        self.has_inputs = any(v.causality == "input" for v in interface.variables)
        self.columns: dict[int, set[int]] = {}
        for row, column in interface.jacobian:
            self.columns.setdefault(row, set()).add(column)
        self.states = [state for state, _ in layout.states]

    def of(self, name: str, state_index: int | None) -> str | None:
        """Space-separated value references `name` depends on, or None for 'everything'."""
        group = self.layout.array_of(name)
        if group is None:
            return self._scalar(name, state_index)
        found = [self._scalar(element, state_index) for element in group.elements]
        if None in found:  # an array depends on what any of its elements does
            return None
        return " ".join(sorted({r for text in found for r in text.split()}, key=int))

    def _scalar(self, name: str, state_index: int | None) -> str | None:
        vr = self.layout.value_reference
        if name in self.listed:
            return " ".join(sorted({str(vr[n]) for n in self.listed[name]}, key=int))
        if state_index is None or self.has_inputs:
            return None
        columns = sorted(self.columns.get(state_index, ()))
        return " ".join(str(vr[self.states[c].name]) for c in columns)


def _unknown(tag: str, vr: int, dependencies: str | None = None) -> etree._Element:
    attributes = {"valueReference": str(vr)}
    if dependencies is not None:  # "" is a real answer: depends on nothing
        attributes["dependencies"] = dependencies
    return etree.Element(tag, attributes)


def _model_structure(interface: ModelInterface, layout: Layout) -> etree._Element:
    root = etree.Element("ModelStructure")
    dependencies = _Dependencies(interface, layout)
    seen: set[int] = set()
    for variable in layout.variables:
        vr = layout.value_reference[variable.name]
        if variable.causality == "output" and vr not in seen:
            seen.add(vr)
            root.append(_unknown("Output", vr, dependencies.of(variable.name, None)))
    for index, (_, derivative) in enumerate(layout.states):
        vr = layout.value_reference[derivative.name]
        root.append(_unknown("ContinuousStateDerivative", vr, dependencies.of(derivative.name, index)))
    initial_unknowns: dict[int, None] = {}   # ordered, with fast membership
    state_names = {state.name for state, _ in layout.states}
    derivative_names = {derivative.name for _, derivative in layout.states}
    for variable in layout.variables:
        vr = layout.value_reference[variable.name]
        calculated = effective_initial(variable) in ("approx", "calculated")
        if vr in initial_unknowns or variable.alias_of:
            continue
        if (variable.causality == "output" and calculated) or variable.causality == "calculatedParameter" \
                or variable.name in derivative_names or (variable.name in state_names and calculated):
            initial_unknowns[vr] = None
    root.extend(_unknown("InitialUnknown", vr) for vr in initial_unknowns)
    for variable in layout.indicator_variables:
        root.append(_unknown("EventIndicator", layout.value_reference[variable.name]))
    return root


def model_description(interface: ModelInterface, layout: Layout, token: str,
                      capabilities: dict[str, str] = CAPABILITIES) -> bytes:
    """The XML text of modelDescription.xml; raises PackageError if it violates the schema.
    ``capabilities``: the optional FMI functions the binary provides (the C runtime's all)."""
    root = etree.Element("fmiModelDescription", {
        "fmiVersion": "3.0", "modelName": interface.name, "instantiationToken": token,
        **({"description": interface.description} if interface.description else {}),
        "generationTool": GENERATION_TOOL, "variableNamingConvention": "structured",
    })
    # delay() and spatialDistribution() record at each completed step (fmu_templates/delays.h)
    completed_steps = "true" if interface.delays or interface.spatials else "false"
    etree.SubElement(root, "ModelExchange", {"modelIdentifier": interface.identifier, **capabilities,
                                             "needsCompletedIntegratorStep": completed_steps})
    etree.SubElement(root, "CoSimulation", {"modelIdentifier": interface.identifier, **capabilities,
                                            "canHandleVariableCommunicationStepSize": "true",
                                            "mightReturnEarlyFromDoStep": "true", "hasEventMode": "false"})
    units = _unit_definitions(interface)
    if units is not None:
        root.append(units)
    categories = etree.SubElement(root, "LogCategories")
    for name, description in log_categories():
        etree.SubElement(categories, "Category", name=name, description=description)
    if interface.experiment:
        experiment = interface.experiment
        attributes = {"startTime": _number(experiment.start_time)}
        for key, value in (("stopTime", experiment.stop_time), ("tolerance", experiment.tolerance),
                           ("stepSize", experiment.step_size)):
            if value is not None:
                attributes[key] = _number(value)
        etree.SubElement(root, "DefaultExperiment", attributes)
    variables = etree.SubElement(root, "ModelVariables")
    etree.SubElement(variables, "Float64", name="time", valueReference="0", causality="independent",
                     variability="continuous", description="Simulation time")
    aliases: dict[str, list[Variable]] = {}
    for variable in layout.variables:
        if variable.alias_of:
            aliases.setdefault(variable.alias_of, []).append(variable)
    grouped = {name for group in interface.arrays for name in group.elements[1:]}
    for variable in layout.variables:
        if variable.alias_of or variable.name in grouped:
            continue
        element = _variable_element(variable, layout)
        _as_array(element, layout.array_of(variable.name), interface)  # its first element
        for alias in aliases.get(variable.name, ()):
            # FMI 3.0: an alias is another name of the same variable, an <Alias> child
            attributes = {"name": fmi_name(alias.name)}
            if alias.description:
                attributes["description"] = alias.description
            etree.SubElement(element, "Alias", attributes)
        variables.append(element)
    root.append(_model_structure(interface, layout))
    validate(root, "fmi3ModelDescription.xsd", "modelDescription.xml")
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8")


def build_description(identifier: str, sources: tuple[str, ...], definitions=()) -> bytes:
    """sources/buildDescription.xml, which lets other tools rebuild the binary: one file set
    (importers such as fmpy read the first only), with the ``definitions`` (name, value)
    the C code of external functions' libraries needs."""
    root = etree.Element("fmiBuildDescription", fmiVersion="3.0")
    configuration = etree.SubElement(root, "BuildConfiguration", modelIdentifier=identifier)
    file_set = etree.SubElement(configuration, "SourceFileSet", language="C99")
    for name in sources:
        etree.SubElement(file_set, "SourceFile", name=name)
    for name, value in definitions:
        etree.SubElement(file_set, "PreprocessorDefinition", name=name, value=value)
    validate(root, "fmi3BuildDescription.xsd", "buildDescription.xml")
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8")


@functools.lru_cache(maxsize=None)
def _schema(name: str) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(fmi_schema(name))))


def validate(root: etree._Element, schema_name: str, what: str) -> None:
    schema = _schema(schema_name)
    if not schema.validate(root):
        error = schema.error_log.last_error
        raise PackageError(f"{what}: violates the FMI 3.0 schema: {error.message}")
