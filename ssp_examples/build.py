"""Build the example systems of ssp_examples/ from the C models in models.py.

feedback.ssp: a first-order plant (Lag: der(x) = -x + u, x in mm) under proportional control
(Gain: u = k (r - x) with r = 1 m, x converted from mm to m on the connection), so that
x settles at k / (1 + k) m. Run it with ``cosim run ssp_examples/feedback.ssp``.

    python ssp_examples/build.py [--output ssp_examples/feedback.ssp]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE.parent / "src")]
from cosim.ssp import pack_ssp, structure_from_description  # noqa: E402
from ssp_examples.models import build  # noqa: E402

FEEDBACK = {
    "name": "feedback", "version": "1.0", "start_time": 0.0, "stop_time": 5.0,
    "step_size": 0.01, "tolerance": 1e-8,
    "units": {"m": {"m": 1}, "mm": {"m": 1, "factor": 1e-3}},
    "components": {
        "Plant": {"source": "resources/Lag.fmu",
                  "connectors": {"u": "input Real m", "x": "output Real mm"},
                  "parameters": {"a": -1.0, "b": 1000.0}},  # der(x) = -x + u, u in m, x in mm
        "Controller": {"source": "resources/Gain.fmu",
                       "connectors": {"w": "input Real m", "y": "output Real m"},
                       "parameters": {"k": 0.0, "c": -4.0, "b": 4.0}}},  # y = 4 (1 - w)
    "connections": ["Plant.x -> Controller.w", "Controller.y -> Plant.u"],
}


def build_feedback(output: Path) -> Path:
    with tempfile.TemporaryDirectory(prefix="ssp-examples-") as folder:
        resources = {f"resources/{name}.fmu": build(name, folder) for name in ("Lag", "Gain")}
        return pack_ssp(output, structure_from_description(FEEDBACK), resources)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=HERE / "feedback.ssp")
    print(build_feedback(parser.parse_args().output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
