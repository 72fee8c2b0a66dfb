"""Verbs on SSP system structures: ``info`` and ``validate``."""
from __future__ import annotations

import argparse

from cosim import api


def register(subparsers: argparse._SubParsersAction) -> None:
    target_help = "an .ssp archive, an unpacked SSP folder, or an .ssd/.ssv/.ssm/.ssb file"

    info = subparsers.add_parser(
        "info", help="show components, connectors, connections, parameters and experiment")
    info.add_argument("target", help=target_help)
    info.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    info.add_argument("--strict", action="store_true", help="refuse on the first problem")
    info.set_defaults(handler=_info)

    validate = subparsers.add_parser(
        "validate", help="check against the SSP schemas, the semantics and the FMUs")
    validate.add_argument("target", help=target_help)
    validate.add_argument("--variant", help="variant .ssd beside SystemStructure.ssd")
    validate.add_argument("--strict", action="store_true", help="refuse on the first problem")
    validate.add_argument("--schema-dir", help="folder of SSP XSDs (default: fmpy's SSP 1.0)")
    validate.set_defaults(handler=_validate)


def _info(args: argparse.Namespace) -> int:
    print(api.info(args.target, variant=args.variant, strict=args.strict).text())
    return 0


def _validate(args: argparse.Namespace) -> int:
    report = api.validate(args.target, variant=args.variant, strict=args.strict,
                          schema_dir=args.schema_dir)
    print(report.text())
    return 0 if report.ok else 1
