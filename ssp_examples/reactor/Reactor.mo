model Reactor "Stirred batch reactor with Robertson's stiff kinetics, temperature-dependent rates"
  parameter Real k1_ref(unit = "1/s") = 0.04 "A -> B at T_ref";
  parameter Real k2_ref(unit = "l/(mol.s)") = 3e7 "B + B -> C + B at T_ref";
  parameter Real k3_ref(unit = "l/(mol.s)") = 1e4 "B + C -> A + C at T_ref";
  parameter Real E1(unit = "K") = 6000 "Activation temperature of A -> B";
  parameter Real E3(unit = "K") = 3000 "Activation temperature of B + C -> A + C";
  parameter Real T_ref(unit = "K") = 300 "Temperature of the reference rates";
  parameter Real dH1(unit = "J/mol") = -1e5 "Reaction enthalpy of A -> B (exothermic)";
  parameter Real V(unit = "m3") = 1 "Volume";
  parameter Real rho_cp(unit = "J/(m3.K)") = 4e6 "Volumetric heat capacity of the contents";
  parameter Real UA(unit = "W/K") = 2e5 "Heat transfer to the jacket";
  input Real T_j(unit = "K") "Jacket temperature";
  output Real A(unit = "mol/l", start = 1, fixed = true) "Concentration of A";
  output Real B(unit = "mol/l", start = 0, fixed = true, nominal = 1e-5) "Concentration of B";
  output Real C(unit = "mol/l", start = 0, fixed = true) "Concentration of C";
  output Real T(unit = "K", start = 300, fixed = true) "Temperature";
  output Real Q(unit = "W") "Heat flow into the jacket";
  Real k1(unit = "1/s");
  Real k3(unit = "l/(mol.s)");
  Real r1(unit = "mol/(l.s)");
  Real r2(unit = "mol/(l.s)");
  Real r3(unit = "mol/(l.s)");
equation
  k1 = k1_ref*exp(-E1*(1/T - 1/T_ref));
  k3 = k3_ref*exp(-E3*(1/T - 1/T_ref));
  r1 = k1*A;
  r2 = k2_ref*B^2;
  r3 = k3*B*C;
  der(A) = -r1 + r3;
  der(B) = r1 - r2 - r3;
  der(C) = r2;
  Q = UA*(T - T_j);
  // 1000 l per m3: the rates are per litre
  rho_cp*V*der(T) = -dH1*1000*V*(r1 - r3) - Q;
end Reactor;
