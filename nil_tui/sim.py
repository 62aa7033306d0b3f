"""Headless bot-only games (the ``simulate`` command). Placeholder until implemented."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default="easy,easy,easy,easy")


def run(args: argparse.Namespace) -> int:
    raise NotImplementedError
