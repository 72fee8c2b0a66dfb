"""cosim: an SSP 2.0 co-simulation master for FMI 3.0 and 2.0 FMUs.

``cosim.compile("model.mo", model="Pkg.Model")`` (or a ``cosim.build`` class),
``cosim.check(model)`` (the DAE classification report), ``cosim.diagram(target, kind)``,
``cosim.run(path, stop_time=..., step_size=..., parameters={...})``,
``cosim.sweep(path, parameters=["comp.var=1:2:5"], workers=2)``, ``cosim.info(path)``,
``cosim.validate(path)``, ``cosim.pack(path, "out.ssp")`` and ``cosim.plot(results,
"out.png")`` are the functions behind the ``cosim`` command (see ``cosim.api``).
"""

__version__ = "0.1.0"
__all__ = ["compile", "run", "sweep", "info", "validate", "pack", "plot", "check", "flatten",
           "diagram"]


def __getattr__(name: str):
    # loaded on first use, so that `import cosim` stays cheap for the CLI's other verbs
    if name in __all__:
        from cosim import api

        return getattr(api, name)
    raise AttributeError(f"module 'cosim' has no attribute '{name}'")
