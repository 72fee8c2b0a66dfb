"""Verbs on single models: building the runtime's example FMUs."""
from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Model verbs (``check``, ``flatten``, ``compile``) are added as the compiler grows."""
