// An assert whose message calls a function, followed by one whose condition calls the same
// function with the same arguments: the message's call is made inside the first assert's
// failure branch, so the second must make its own.
model AssertMessages
  function clipped
    input Real x;
    output Real y;
  algorithm
    y := min(max(x, -10), 10);
  end clipped;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  assert(x > -1, "x = " + String(clipped(x)) + " is below -1");
  assert(clipped(x) <= 1, "x is above 1");
end AssertMessages;
