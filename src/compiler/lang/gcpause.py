"""Pausing Python's cyclic garbage collector while a stage builds a large value.

Input: nothing. Output: ``paused_gc()``, a context manager. Parsing and flattening allocate
hundreds of thousands of small objects that all stay alive; collections triggered by the
allocation counts would traverse them again and again. While paused, no collection runs; on
exit the new objects are moved straight to the oldest generation (``gc.freeze()`` then
``gc.unfreeze()``: two list splices) instead of being traversed by a young collection, and
the collector is enabled again if it was. Nothing is leaked: the objects stay collectable.
"""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def paused_gc():
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()
