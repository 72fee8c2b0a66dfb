"""Example systems for ``cosim run`` and the small C models their FMUs are built from."""
