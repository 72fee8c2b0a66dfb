// Constructs the MSL uses that flattening once refused (self-written, not MSL text).
package FlattenGaps
  operator record Cx "a complex number, as an operator record"
    Real re;
    Real im;
    operator function '*'
      input Cx a;
      input Cx b;
      output Cx c;
    algorithm
      c := Cx(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
    end '*';
  end Cx;

  function realPart
    input Cx c;
    output Real r;
  algorithm
    r := c.re;
    annotation(Inline = true);
  end realPart;

  function conj
    input Cx c;
    output Cx d;
  algorithm
    d := Cx(c.re, -c.im);
    annotation(Inline = true);
  end conj;

  function activePower "a scalar-record function applied to a comprehension of records"
    input Cx v[:];
    input Cx i[size(v, 1)];
    output Real p;
  algorithm
    p := sum(realPart({v[k]*conj(i[k]) for k in 1:size(v, 1)}));
    annotation(Inline = true);
  end activePower;

  model Phasors
    Cx v[3] = {Cx(1, 2), Cx(3, time), Cx(0, 1)};
    Cx i[3] = {Cx(2, 0), Cx(1, 1), Cx(time, 2)};
    Real p = activePower(v, i) "= 7 + time";
  end Phasors;

  record Material "final fields computed from the others"
    parameter Real a = 1;
    parameter Real b = 2;
    final parameter Real c = a*(1 + b);
  end Material;

  record Magnet
    extends Material(a = 3, b = 4);
  end Magnet;

  function cOf
    input Material m;
    output Real c;
  algorithm
    c := m.c;
  end cOf;

  model UsesMaterial
    parameter Material data = Material();
    Real y = data.c*time;
  end UsesMaterial;

  model Materials
    UsesMaterial magnet(data = Magnet()) "c = 15";
    UsesMaterial plain "c = 3";
    UsesMaterial changed(data = Material(a = 2)) "c = 6";
    Real k = cOf(Magnet()) "the constructor's own final field: 15";
  end Materials;

  type Logic = enumeration('U', 'X', '0', '1');

  package Tables
    constant Logic strength[Logic] = {Logic.'X', Logic.'X', Logic.'0', Logic.'1'};
    constant Integer weights[4] = {1, 2, 4, 8};
  end Tables;

  function word "a package constant table indexed by the function's variables"
    input Logic bits[:];
    output Integer w;
  protected
    Logic b;
  algorithm
    w := 0;
    for j in 1:size(bits, 1) loop
      b := Tables.strength[bits[j]];
      if b == Logic.'1' then
        w := w + Tables.weights[j];
      end if;
    end for;
  end word;

  model Word
    Logic x[3] = {Logic.'1', if time > 0.5 then Logic.'1' else Logic.'0', Logic.'U'};
    Integer w = word(x) "1 before 0.5, 3 after";
  end Word;

  model Supply "an if-equation on a parameter the initialization computes"
    parameter Real limit = 2;
    parameter Boolean clipped(fixed = false);
    Real u = 3*time;
    Real y;
  initial algorithm
    clipped := limit < 3;
  equation
    if clipped then
      y = min(u, limit);
    else
      y = u;
    end if;
  end Supply;

  expandable connector CellBus
    Real soc;
    Real v "declared, never connected: removed";
  end CellBus;

  expandable connector StackBus
    parameter Integer n = 1;
    CellBus cellBus[n];
  end StackBus;

  connector RealOutput = output Real;
  connector RealInput = input Real;

  block Cell
    parameter Real k = 1;
    CellBus cellBus;
    RealOutput y;
  equation
    y = k*time;
    connect(y, cellBus.soc);
  end Cell;

  block Gain
    RealInput u;
    RealOutput y;
  equation
    y = 2*u;
  end Gain;

  model Stack "arrays of buses connected as a whole, members read through them"
    parameter Integer n = 2;
    Cell cell[n](k = {1, 2});
    StackBus stackBus(n = n);
    Real total = sum(stackBus.cellBus.soc);
  equation
    connect(cell.cellBus, stackBus.cellBus);
  end Stack;

  model Transcription
    parameter Integer n = 2;
    StackBus stackBus(n = n);
    Gain gain[n];
  equation
    connect(gain.u, stackBus.cellBus.soc);
  end Transcription;

  model Buses
    Stack stack;
    Transcription t;
  equation
    connect(stack.stackBus, t.stackBus);
  end Buses;
end FlattenGaps;
