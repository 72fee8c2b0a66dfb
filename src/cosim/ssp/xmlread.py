"""Safe XML parsing of SSP files and typed attribute access with located messages.

Input: the bytes of an ``.ssd``/``.ssv``/``.ssm``/``.ssb`` file. Output: an lxml root element,
repaired where other tools write undeclared prefixes or misspelled namespace URIs (each repair
is reported as a problem), wrapped in ``Doc`` which turns attributes into typed values.
"""
from __future__ import annotations

import re

from lxml import etree

from cosim.ssp.errors import Findings, refuse
from cosim.ssp.model import Location

SSD = "http://ssp-standard.org/SSP1/SystemStructureDescription"
SSC = "http://ssp-standard.org/SSP1/SystemStructureCommon"
SSV = "http://ssp-standard.org/SSP1/SystemStructureParameterValues"
SSM = "http://ssp-standard.org/SSP1/SystemStructureParameterMapping"
SSB = "http://ssp-standard.org/SSP1/SystemStructureSignalDictionary"
OSP = "http://opensimulationplatform.com/SSP/OSPAnnotations"
OMS = "https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd"
SSP1_PREFIX = "http://ssp-standard.org/SSP1/"

PREFIXES = {"ssd": SSD, "ssc": SSC, "ssv": SSV, "ssm": SSM, "ssb": SSB, "osp": OSP, "oms": OMS}
NAMESPACE_PREFIXES = {uri: prefix for prefix, uri in PREFIXES.items()}
# The namespace each kind of SSP document has its root element in.
ROOT_NAMESPACES = {
    "SystemStructureDescription": SSD,
    "ParameterSet": SSV,
    "ParameterMapping": SSM,
    "SignalDictionary": SSB,
}
_TRUE = {"true": True, "1": True, "false": False, "0": False}


def _parser(recover: bool) -> etree.XMLParser:
    # No entity expansion, no DTD loading, no network: SSP files come from untrusted archives.
    return etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True,
                           remove_comments=True, remove_pis=True, recover=recover)


def parse_xml(data: bytes, file: str, findings: Findings) -> etree._Element:
    """Parse ``data``; refuse what is not well-formed, repair undeclared SSP prefixes."""
    try:
        root = etree.fromstring(data, _parser(recover=False))
    except etree.XMLSyntaxError as error:
        root = _recover_undeclared_prefixes(data, file, error, findings)
    if root is None:
        raise refuse("not an XML document", file)
    _repair_root_namespace(root, file, findings)
    return root


def _recover_undeclared_prefixes(data, file, error, findings) -> etree._Element:
    parser = _parser(recover=True)
    try:
        root = etree.fromstring(data, parser) if data.strip() else None
    except etree.XMLSyntaxError:  # beyond repair (a NUL byte before the declaration)
        raise refuse(f"not well-formed XML: {error.msg}", Location(file, error.lineno)) \
            from None
    entries = list(parser.error_log)
    fatal = [e for e in entries if e.type_name != "NS_ERR_UNDEFINED_NAMESPACE"]
    if root is None or fatal or not entries:
        first = fatal[0] if fatal else None
        line = first.line if first else error.lineno
        message = first.message if first else error.msg
        raise refuse(f"not well-formed XML: {message}", Location(file, line))
    reported = set()
    for element in root.iter():
        if not is_element(element) or element.tag.startswith("{") or ":" not in element.tag:
            continue
        prefix, local = element.tag.split(":", 1)
        if prefix in PREFIXES:
            element.tag = f"{{{PREFIXES[prefix]}}}{local}"
        if prefix not in reported:
            reported.add(prefix)
            known = f"; read as {PREFIXES[prefix]}" if prefix in PREFIXES else ""
            findings.error(f"namespace prefix '{prefix}' is not declared{known}",
                           Location(file, element.sourceline))
    if not reported:  # an undeclared prefix on an attribute
        findings.error(f"not namespace-well-formed: {entries[0].message}",
                       Location(file, entries[0].line))
    return root


def _repair_root_namespace(root, file, findings) -> None:
    """Read a root in a misspelled ``http://ssp-standard.org/SSP1/...`` namespace as the SSP one."""
    qname = etree.QName(root)
    expected = ROOT_NAMESPACES.get(qname.localname)
    wrong = qname.namespace
    if not expected or wrong == expected or not (wrong or "").startswith(SSP1_PREFIX):
        return
    findings.error(f"namespace '{wrong}' of {qname.localname} is not an SSP namespace; "
                   f"read as {expected}", Location(file, root.sourceline))
    for element in root.iter():
        if isinstance(element.tag, str) and etree.QName(element).namespace == wrong:
            element.tag = f"{{{expected}}}{etree.QName(element).localname}"


def pretty_name(tag: str) -> str:
    """``{ssd-namespace}Connection`` -> ``ssd:Connection`` for messages."""
    return re.sub(r"\{([^}]*)\}", lambda m: NAMESPACE_PREFIXES.get(m.group(1), m.group(0)) + ":",
                  tag)


class Doc:
    """One file being read: its display name, its findings and typed attribute getters.

    ``member`` is the file's path inside its package, against which relative URIs resolve.
    """

    def __init__(self, file: str, findings: Findings, member: str = ""):
        self.file = file
        self.findings = findings
        self.member = member or file

    def loc(self, element) -> Location:
        return Location(self.file, element.sourceline)

    def error(self, element, message: str) -> None:
        self.findings.error(message, self.loc(element))

    def warning(self, element, message: str) -> None:
        self.findings.warning(message, self.loc(element))

    def _typed(self, element, name: str, default, what: str, convert, noun: str):
        text = element.get(name)
        if text is None:
            return default
        try:
            return convert(text.strip())
        except ValueError:
            self.error(element, f"{what or local_name(element)}: {name}='{text}' is not {noun}")
            return default

    def float(self, element, name: str, default: float | None = None, what: str = ""):
        """An ``xs:double`` attribute (``INF``, ``-INF`` and ``NaN`` included), or ``default``."""
        return self._typed(element, name, default, what, float, "a number")

    def int(self, element, name: str, default: int | None = None, what: str = ""):
        return self._typed(element, name, default, what, int, "an integer")

    def bool(self, element, name: str, default: bool = False, what: str = "") -> bool:
        return self._typed(element, name, default, what, parse_bool, "a boolean")


def parse_bool(text: str) -> bool:
    """An ``xs:boolean``: true, false, 1 or 0; ``ValueError`` otherwise."""
    if text.strip() in _TRUE:
        return _TRUE[text.strip()]
    raise ValueError(text)


def local_name(element) -> str:
    return etree.QName(element).localname


def is_element(node) -> bool:
    return isinstance(node.tag, str)


def in_namespace(node, namespace: str) -> bool:
    return is_element(node) and node.tag.startswith(f"{{{namespace}}}")


def children(element, namespace: str, name: str) -> list:
    tag = f"{{{namespace}}}{name}"
    return [c for c in element if c.tag == tag]


def child(element, namespace: str, name: str):
    tag = f"{{{namespace}}}{name}"
    return next((c for c in element if c.tag == tag), None)


def grandchildren(element, namespace: str, outer: str, inner: str) -> list:
    """``<outer><inner/>...</outer>`` below ``element``: all ``inner`` elements."""
    return [g for c in children(element, namespace, outer) for g in children(c, namespace, inner)]
