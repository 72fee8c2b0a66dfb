"""The Rust backend: a causalized ``System`` -> one Rust source file with its own runtime.

``emit_rust(system)`` returns the interface and the text of ``<identifier>.rs``; ``build``
turns it into a program, an FMU's binary or a WebAssembly module with rustc alone.
"""
from compiler.rust.emit import RUST_EMITTER_VERSION, RustModel, emit_rust

__all__ = ["RUST_EMITTER_VERSION", "RustModel", "emit_rust"]
