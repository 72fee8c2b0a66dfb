"""CLI verbs, one module per group; each module has ``register(subparsers)``.

A verb parses its arguments, calls one public API function, prints, and returns an
exit code. It holds no logic of its own.
"""

# Modules whose verbs make up the ``cosim`` command, in help order.
COMMAND_MODULES = (
    "cosim.commands.model",
    "cosim.commands.system",
    "cosim.commands.sweep",
    "cosim.commands.pack",
    "cosim.commands.plot",
    "cosim.commands.diagram",
)
