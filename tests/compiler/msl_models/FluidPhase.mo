package FluidPhase "Integer results of functions inside algebraic loops (issue 14)"
  record State "a medium's state: an Integer phase beside Real properties"
    Integer phase "1: one phase, 2: two phases";
    Real h "specific enthalpy";
    Real d "density";
  end State;

  function setState "the state at enthalpy h; two phases for 1 <= h <= 2"
    input Real h;
    output State state;
  algorithm
    state.phase := if h < 1 or h > 2 then 1 else 2;
    state.h := h;
    state.d := 1/(1 + 0.5*h);
  end setState;

  function viscosity "continuous in h, but computed in a way that depends on the phase"
    input State state;
    output Real eta;
  algorithm
    eta := 1 + 0.1*state.h;
    if state.phase == 2 then
      eta := eta + (state.h - 1)*(2 - state.h);
    end if;
  end viscosity;

  model PhaseLoop "the enthalpy depends on the flow, the flow on the phase's viscosity"
    Real x(start = 0, fixed = true);
    State s;
    Real m "flow";
    Real eta = viscosity(s);
    Integer phase = s.phase;
  equation
    der(x) = 1;
    // the stream-like argument: a relation without events, as regStep and inStream give
    s = setState(x + 0.1*noEvent(if m > 0 then m else -m));
    m = s.d/eta;
  end PhaseLoop;

  model PhaseLoopDirect "the same loop, its argument without a relation"
    Real x(start = 0, fixed = true);
    State s;
    Real m;
  equation
    der(x) = 1;
    s = setState(x + 0.1*m);
    m = s.d/viscosity(s);
  end PhaseLoopDirect;

  model ComparedPhase "a discrete value compares the phase outside a function: refused"
    Real x(start = 0, fixed = true);
    State s;
    Real m;
    Integer k;
  equation
    der(x) = 1;
    s = setState(x + 0.1*m);
    k = if s.phase == 2 then 1 else 0;
    m = s.d/(1 + k);
  end ComparedPhase;

  model NoEventInteger "an Integer from a relation without events in a loop: refused"
    Real x(start = 0, fixed = true);
    Integer k;
    Real h;
  equation
    der(x) = 1;
    k = if noEvent(h > 1.5) then 2 else 1;
    h = x + 0.1/(1 + 0.1*k*h);
  end NoEventInteger;

  model RedundantStart "a pressure fixed by its boundary and by an initial equation as well"
    parameter Real p_boundary = 2;
    parameter Real p_start = 2;
    Real p;
    Real m(start = 1, fixed = true);
  initial equation
    p = p_start;
  equation
    p = p_boundary;
    der(m) = p - m;
  end RedundantStart;

  function loopSum "a protected i beside a loop over i, never read itself (as IF97's viscosity)"
    input Real x;
    output Real y;
  protected
    Integer i "unused: the loop has its own i";
  algorithm
    y := 0;
    for i in 1:3 loop
      y := y + i*x;
    end for;
  end loopSum;

  function loopSumAfter "the protected i read after a loop over i"
    input Real x;
    output Real y;
  protected
    Integer i = 10;
  algorithm
    y := 0;
    for i in 1:3 loop
      y := y + i*x;
    end for;
    y := y + i;
  end loopSumAfter;

  model ShadowedIndex
    Real a = loopSum(time);
    Real b = loopSumAfter(time);
  end ShadowedIndex;
end FluidPhase;
