"""Reader of signal dictionaries (``.ssb`` files and inline ``ssb:SignalDictionary``).

Input: an ``ssb:SignalDictionary`` element. Output: its entries, units and enumerations,
returned as a ``SignalDictionary`` that the SSD reader names after its declaration.
"""
from __future__ import annotations

from cosim.ssp.common import read_dimensions, read_enumerations, read_signal_type, read_units
from cosim.ssp.model import DictionaryEntry, SignalDictionary
from cosim.ssp.xmlread import SSB, Doc, children


def read_signal_dictionary(doc: Doc, root, name: str = "") -> SignalDictionary:
    entries = []
    for element in children(root, SSB, "DictionaryEntry"):
        entry_name = element.get("name", "")
        what = f"dictionary entry '{entry_name}'"
        signal_type = read_signal_type(doc, element, what)
        if signal_type is None:
            doc.error(element, f"{what}: no type")
        entries.append(DictionaryEntry(
            entry_name, signal_type, read_dimensions(doc, element, what),
            description=element.get("description"), location=doc.loc(element)))
    return SignalDictionary(name, tuple(entries), units=read_units(doc, root, SSB),
                            enumerations=read_enumerations(doc, root, SSB),
                            version=root.get("version", "1.0"), location=doc.loc(root))
