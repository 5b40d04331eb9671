"""splendor-rules: a data-driven rules compiler and variant toolkit for Splendor.

The pipeline, one module per pass: source (YAML with positions) -> schema -> overlay
(a variant onto its base) -> expr (Lark -> typed AST) -> check (names, types, sense;
builds the model) -> lower / emit_engine, sheets, diff. :mod:`compiler.pipeline` is the
thin driver (check_spec, compile_spec); :mod:`compiler.codes` defines every diagnostic code;
:mod:`compiler.cli` is the only module that prints or exits, and the only one that imports
playtest (which imports the driver): the imports go one way.
"""
__version__ = "0.1.0"
