package ConformSemantics "Small models of Modelica-Compliance cases that computed wrong values or were refused (self-written)"
  package Modifiers "Which modification reaches an element, and where its expressions are read"
    model Ramp
      constant Real k = 2;
      parameter Real g = 3;
      Real y;
    equation
      y = g*time;
    end Ramp;
    model ShortClassScope "a short class's modifier is read where the short class is written (MLS 4.5.1)"
      constant Real k = 5;
      model Scaled = Ramp(g = k);
      Scaled s;
      annotation(experiment(StopTime = 1));
    end ShortClassScope;
    model Narrow
      Real x = 1;
    end Narrow;
    model Wide
      Real x = 1;
      Real z = 4;
    end Wide;
    model Holder "the constraining clause's modifiers apply to the declaration (MLS 7.3.2)"
      replaceable Wide w constrainedby Narrow(x = 2*time);
      annotation(experiment(StopTime = 1));
    end Holder;
    model ModifiedHolder "a modification of the element over its constraining clause's"
      extends Holder(w(z = 5*time));
      annotation(experiment(StopTime = 1));
    end ModifiedHolder;
    model Retyped "a redeclaration with a constraining clause of its own: its modifiers now"
      extends Holder(replaceable Wide w constrainedby Wide(z = 3*time));
      annotation(experiment(StopTime = 1));
    end Retyped;
    model RetypedRedeclared "a later redeclaration keeps the latest constraining clause's modifiers"
      extends Retyped(redeclare Wide w);
      annotation(experiment(StopTime = 1));
    end RetypedRedeclared;
    model WithNested
    protected
      model Inner
        Real x = 1;
      end Inner;
    public
      Inner i;
    end WithNested;
    model NestedClassModified "extends A(B(x = ...)) modifies A's nested class B"
      extends WithNested(Inner(x = 4*time));
      annotation(experiment(StopTime = 1));
    end NestedClassModified;
  end Modifiers;
  package Packages "Constants of packages given by the modifiers of extends and short classes"
    partial package Base
      constant Real c = 1;
    end Base;
    package Doubled
      extends Base(c = 2);
    end Doubled;
    package Tripled = Doubled(c = 3);
    model UsesPackage
      replaceable package P = Base;
      Real y = P.c*time;
    end UsesPackage;
    model Passes "hands its own (redeclared) package on"
      replaceable package P = Base;
      UsesPackage u(redeclare package P = P);
    end Passes;
    model Constants
      UsesPackage a(redeclare package P = Doubled);
      UsesPackage b(redeclare package P = Tripled);
      Passes p(redeclare package P = Tripled);
      annotation(experiment(StopTime = 1));
    end Constants;
  end Packages;
  package Events "When-clauses at initialization and their priorities"
    function same
      input Boolean b;
      output Boolean c;
    algorithm
      c := b;
      annotation(Inline = false);
    end same;
    model InitialThroughFunction "only 'when initial()' (or {..., initial(), ...}) is active at initialization (MLS 8.6)"
      discrete Real a(start = 0, fixed = true);
      discrete Real b(start = 0, fixed = true);
      discrete Real c(start = 0, fixed = true);
      parameter Real pa(fixed = false);
      parameter Real pb(fixed = false);
      parameter Real pc(fixed = false);
    equation
      when same(initial()) then
        a = 2;
      end when;
      when initial() then
        b = 3;
      end when;
      when {time > 0.5, initial()} then
        c = 4 + time;
      end when;
    initial equation
      pa = a;
      pb = b;
      pc = c;
      annotation(experiment(StopTime = 1));
    end InitialThroughFunction;
    model AlgorithmPriority "an assertion in an algorithm sees the when-statements' result, not a pass before it"
      discrete Real x(start = 3, fixed = true);
      Boolean high(start = false, fixed = true);
      Integer count(start = 0, fixed = true);
    algorithm
      when not initial() then
        x := 6;
      end when;
      when x >= 5 then
        high := true;
        count := pre(count) + 1;
      elsewhen x >= 4 then
        high := false;
        count := pre(count) + 10;
      end when;
      if not initial() then
        assert(high, "the first branch has priority");
      end if;
      annotation(experiment(StopTime = 1));
    end AlgorithmPriority;
  end Events;
  package Initialization "What determines the initial values"
    model FixedWithoutStart "fixed = true without a start value: the default start value 0"
      Real r(fixed = true);
      discrete Real i(start = 1, fixed = true);
    equation
      der(r) = i;
      when time >= 0.5 then
        i = -2;
      end when;
      annotation(experiment(StopTime = 1));
    end FixedWithoutStart;
  end Initialization;
  package OperatorRecords "Operators of operator records (MLS 14)"
    operator record Count
      Integer n;
      encapsulated operator function 'String'
        import ConformSemantics.OperatorRecords.Count;
        input Count c;
        output String s;
      algorithm
        s := String(2*c.n);
      end 'String';
    end Count;
    model StringOfRecord "String(record) calls the record's operator 'String'"
      Count c = Count(3);
      Boolean matches = String(c) == "6";
      Boolean differs = String(c) == "3";
      annotation(experiment(StopTime = 1));
    end StringOfRecord;
  end OperatorRecords;
end ConformSemantics;
