"""Which way data flows on a connection, from the kinds of the connectors at its ends.

Input: a ``System`` and ``Endpoint``s. Output: the connectors they name and their roles.
SSP: an output (or calculated parameter) feeds an input (or parameter); a system's own input
connector feeds the elements inside it, and its output connector is fed by them.
"""
from __future__ import annotations

from typing import Literal

from cosim.ssp.model import Connector, Endpoint, System

Role = Literal["source", "sink", "either"]

SOURCE_KINDS = ("output", "calculatedParameter", "constant", "local")
SINK_KINDS = ("input", "parameter", "structuralParameter")
EITHER_KINDS = ("inout", "unspecified")
PARAMETER_KINDS = ("parameter", "calculatedParameter", "structuralParameter", "constant")


def find_connector(system: System, endpoint: Endpoint) -> Connector | None:
    """The connector ``endpoint`` names in ``system`` (its own or an element's), or None."""
    if endpoint.element is None:
        owner = system
    else:
        owner = system.element(endpoint.element)
        if owner is None:
            return None
    return next((c for c in owner.connectors if c.name == endpoint.connector), None)


def role(connector: Connector | None, own: bool) -> Role | None:
    """What ``connector`` does on a connection; ``own`` for the system's own connectors."""
    if connector is None:
        return None
    if connector.kind in EITHER_KINDS:
        return "either"
    if connector.kind in SOURCE_KINDS:
        return "sink" if own else "source"
    if connector.kind in SINK_KINDS:
        return "source" if own else "sink"
    return None


def flows_reversed(start: Connector | None, start_own: bool,
                   end: Connector | None, end_own: bool) -> bool:
    """True when the kinds say data flows from the end to the start of a connection."""
    start_role, end_role = role(start, start_own), role(end, end_own)
    return (start_role == "sink" and end_role != "sink") or \
        (end_role == "source" and start_role != "source")
