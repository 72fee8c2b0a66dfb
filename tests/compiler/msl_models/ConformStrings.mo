package ConformStrings "Strings in generated C, as the compliance suite uses them (self-written)"
  model Formatting "String(), concatenation and comparison: each ok_ is 1 when the text is right"
    parameter String unit = "m";
    String joined = "length" + " in " + unit;
    String r1 = String(2.5);
    String r2 = String(3.14159265, significantDigits = 3);
    String r3 = String(1.5, format = "8.3f");
    String r4 = String(12345.678, format = ".2e");
    String i1 = String(-42);
    String i2 = String(7, minimumLength = 4, leftJustified = false);
    String i3 = String(7, minimumLength = 4);
    String b1 = String(true) + String(false);
    Integer ok_joined = if joined == "length in m" then 1 else 0;
    Integer ok_r1 = if r1 == "2.5" then 1 else 0;
    Integer ok_r2 = if r2 == "3.14" then 1 else 0;
    Integer ok_r3 = if r3 == "   1.500" then 1 else 0;
    Integer ok_r4 = if r4 == "1.23e+04" then 1 else 0;
    Integer ok_i1 = if i1 == "-42" then 1 else 0;
    Integer ok_i2 = if i2 == "   7" then 1 else 0;
    Integer ok_i3 = if i3 == "7   " then 1 else 0;
    Integer ok_b1 = if b1 == "truefalse" then 1 else 0;
    Integer ok_order = if "abc" < "abd" and "b" > "abc" and unit <> "s" then 1 else 0;
    annotation(experiment(StopTime = 1));
  end Formatting;
  model Phases "a discrete String set by a when-equation keeps its (pre) value between events"
    discrete String phase(start = "early", fixed = true);
    Integer code = if phase == "late" then 2 else 1;
  equation
    when time > 0.5 then
      phase = "late";
    end when;
    annotation(experiment(StopTime = 1));
  end Phases;
  model Labels "an algorithm over a vector of Strings assigns the matching elements"
    String label[3];
    Integer matched;
  algorithm
    matched := 0;
    for s in {"one", "two", "three"} loop
      if s == "two" then
        label[2] := s;
        matched := matched + 1;
      elseif s == "three" then
        label[3] := s + "!";
        matched := matched + 10;
      else
        label[1] := s;
      end if;
    end for;
    if label[1] == "one" and label[3] == "three!" then
      matched := matched + 100;
    end if;
    annotation(experiment(StopTime = 1));
  end Labels;
  function lateMessage "fails when called: a message is computed only when its assertion fails"
    input Real t;
    output String message;
  algorithm
    assert(t > 100, "the message was computed although the assertion held");
    message := "unreachable";
  end lateMessage;
  function describe
    input Real t;
    output String message;
  algorithm
    message := "too late: t = " + String(t, format = ".2f");
  end describe;
  model LazyMessage "the message function would fail: it must not be called"
    Real x = time;
  equation
    assert(x < 2, lateMessage(x));
    annotation(experiment(StopTime = 1));
  end LazyMessage;
  model FailingMessage "the assertion fails at t = 0.5; its message comes from a function"
    Real x = time;
  equation
    assert(x < 0.5, describe(x));
    annotation(experiment(StopTime = 1));
  end FailingMessage;
end ConformStrings;
