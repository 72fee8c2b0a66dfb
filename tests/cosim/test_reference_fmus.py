"""The Modelica Reference FMUs (v0.0.41) in every interface they offer: 9 FMI 3.0 and 6 FMI 2.0
FMUs, built from the source tree ``COSIM_REFERENCE_FMUS`` names (cmake), against their
``_out.csv`` files, their exact solutions and fmpy (tools/reference_fmus.py says what a match
is). Skipped without the source tree.
"""
from __future__ import annotations

import shutil

import pytest

from tests.conftest import need
from tools import reference_fmus

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("reference-fmus")]


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    source = need("reference-fmus")
    if shutil.which("cmake") is None:
        pytest.skip("cmake is needed to build the Reference FMUs")
    return reference_fmus.build(source.resolve(), tmp_path_factory.mktemp("reference-fmus"))


@pytest.mark.parametrize("version, model, interface", reference_fmus.cases(),
                         ids=[f"fmi{v}-{m}-{i}" for v, m, i in reference_fmus.cases()])
def test_reference_fmu(build, tmp_path, version, model, interface):
    outcome = reference_fmus.check(build, version, model, interface, tmp_path)
    assert outcome.matches, outcome.line()
    if interface == "me" and outcome.reference is not None:
        # Model Exchange through our Radau is more accurate than the FMU's own fixed step
        assert outcome.ours < outcome.reference
    if outcome.fmpy is not None:
        assert outcome.ours <= outcome.fmpy  # and than fmpy's CVode at its default tolerance


def test_fifteen_fmus_in_all_their_interfaces():
    cases = reference_fmus.cases()
    assert len({(v, m) for v, m, _ in cases}) == 15
    assert len(cases) == 29  # Clocks: Scheduled Execution; the others: CS and ME
