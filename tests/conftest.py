"""Fixtures for every test folder."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def module_fmu_cache(tmp_path_factory):
    """Compiled FMUs are cached for the module only (not in the user's cache): a module
    enables it with ``pytestmark = pytest.mark.usefixtures("module_fmu_cache")``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COSIM_CACHE_DIR", str(tmp_path_factory.mktemp("fmu-cache")))
        yield
