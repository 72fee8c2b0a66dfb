model Jacket "Cooling jacket: water flowing through, heated by the reactor"
  parameter Real C_j(unit = "J/K") = 2e6 "Heat capacity of the jacket and its water";
  parameter Real G(unit = "W/K") = 1e5 "Heat capacity rate of the cooling water flow";
  parameter Real T_in(unit = "K") = 295 "Cooling water inlet temperature";
  input Real Q(unit = "W") "Heat flow from the reactor";
  output Real T_j(unit = "K", start = 300, fixed = true) "Jacket (outlet) temperature";
equation
  C_j*der(T_j) = Q + G*(T_in - T_j);
end Jacket;
