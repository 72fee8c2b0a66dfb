"""The legality rules of the Modelica Language Specification 3.6 that flattening enforces.

Each module checks the rules of one chapter where the information is at hand (a class as it
is expanded, a component as it is instantiated, a name as it is looked up, a connection as it
is made) and raises a located ``FlattenError`` whose message names the rule (``MLS 4.7``):

- ``restrictions``: what the specialized classes may contain and extend (MLS 4.7, 7.1.3,
  4.5.1), enumerations and the reserved names of the predefined types (MLS 4.9).
- ``prefixes``: type prefixes and their conflicts, variability of declarations (MLS 4.4-4.5).
- ``visibility``: protected elements used or modified from outside (MLS 5.3, 7.1.2).
"""
