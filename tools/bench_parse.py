"""Parser throughput: generate a 20,000-line Modelica package, parse it, print lines/s.

Usage: python3 tools/bench_parse.py [--lines N] [--repeat R]
The target (issue 3) is 50,000 lines/s or better; the best of R runs is reported, measured in
CPU time of this process (other processes on a busy machine do not count against it) and,
for reference, in wall-clock time.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from compiler.lang import parse  # noqa: E402
from compiler.lang.lexer import tokenize  # noqa: E402

TARGET_LINES_PER_SECOND = 50_000

# One generated component, laid out like a Modelica Standard Library class (compare
# Modelica/Electrical/Analog/Basic/Resistor.mo): declarations with descriptions, blank lines
# and comments, equations, HTML documentation, and icon graphics one argument a line. That
# gives about 6.5 tokens a line, as MSL source has; the token rate is printed as well.
_MODEL = '''  model Block{n} "Generated component number {n}"
    parameter SI.Resistance R(start=1) = {n}.5
      "Resistance at temperature T_ref";
    parameter SI.Temperature T_ref=300.15 "Reference temperature";
    parameter SI.LinearTemperatureCoefficient alpha=0
      "Temperature coefficient of resistance (R_actual = R*(1 + alpha*(T - T_ref)))";
    parameter Integer n = {m} "Number of internal states";

    extends Interfaces.OnePort;
    extends Interfaces.ConditionalHeatPort(T=T_ref);
    SI.Resistance R_actual
      "Actual resistance = R*(1 + alpha*(T - T_ref))";
    SI.Voltage x[n](each start=0) "Internal states";
    Boolean on(start=false) "Switch state";

  equation
    assert((1 + alpha*(T_heatPort - T_ref)) >= Modelica.Constants.eps,
      "Temperature outside scope of model!");
    // the resistance follows the temperature
    R_actual = R*(1 + alpha*(T_heatPort - T_ref));
    v = R_actual*i;
    LossPower = v*i;
    der(x[1]) = (v - x[1])/R;
    for k in 2:n loop
      der(x[k]) = (x[k - 1] - x[k])/R;
    end for;
    when sample(0, 0.1) then
      on = not pre(on);
    end when;
    annotation (
      Documentation(info="<html>
<p>The generated component connects the branch voltage <em>v</em> with the branch current
<em>i</em> by <em>i*R = v</em>. The Resistance <em>R</em> is allowed to be positive, zero,
or negative.</p>
</html>",
          revisions="<html>
<ul>
<li><em>2024</em>
       generated for the parser benchmark<br>
       </li>
</ul>
</html>"),
      Icon(coordinateSystem(preserveAspectRatio=true, extent={{{{-100,-100}},{{100,
              100}}}}), graphics={{
          Rectangle(
            extent={{{{-70,30}},{{70,-30}}}},
            lineColor={{0,0,255}},
            fillColor={{255,255,255}},
            fillPattern=FillPattern.Solid),
          Line(points={{{{-90,0}},{{-70,0}}}}, color={{0,0,255}}),
          Line(points={{{{70,0}},{{90,0}}}}, color={{0,0,255}}),
          Text(
            extent={{{{-150,-40}},{{150,-80}}}},
            textString="R=%R"),
          Text(
            extent={{{{-150,90}},{{150,50}}}},
            textString="%name",
            textColor={{0,0,255}})}}));
  end Block{n};

'''


def generate(lines: int) -> str:
    """A package of generated blocks with about ``lines`` lines."""
    parts = ["package Generated \"benchmark package\""]
    n = 0
    per_model = _MODEL.count("\n")
    while (n + 1) * per_model + 2 < lines:
        parts.append(_MODEL.format(n=n, m=2 + n % 5))
        n += 1
    parts.append("end Generated;\n")
    return "\n".join(parts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    text = generate(args.lines)
    line_count = text.count("\n")
    best_cpu = best_wall = float("inf")
    for _ in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        tree = parse(text, "Generated.mo")
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
        del tree  # freeing the tree is not parsing: keep it out of the timed region
    rate = line_count / best_cpu
    tokens = len(tokenize(text).kinds)
    print(f"parsed {line_count} lines ({tokens} tokens) in {best_cpu:.3f} s CPU "
          f"({best_wall:.3f} s wall): {rate:,.0f} lines/s, {tokens / best_cpu:,.0f} tokens/s "
          f"(wall clock {line_count / best_wall:,.0f} lines/s; target "
          f"{TARGET_LINES_PER_SECOND:,} lines/s; ratio {rate / TARGET_LINES_PER_SECOND:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
