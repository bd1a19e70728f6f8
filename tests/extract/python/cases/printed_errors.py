# Fixture for the Python extractor, kept as written: not linted or formatted.
# ruff: noqa
# fmt: off
# mypy: ignore-errors
# Errors printed, not raised: each is a site of its own kind. The shapes are
# those of real code: warnings.warn as in the stdlib and pydantic, sys.exit
# as in pip's and black's entry points, parser.error as argparse users write
# it, click.echo(err=True) + ctx.exit as click apps do, logger.error + exit.
import logging
import sys
import warnings
from argparse import ArgumentParser

import click

logger = logging.getLogger(__name__)


def old_api(x):
    warnings.warn("old_api() is deprecated, use new_api()", DeprecationWarning, stacklevel=2)
    warnings.warn(f"{x!r} will be ignored")
    warnings.warn("a category keyword", category=FutureWarning)
    # redis-py's `watch`: the warning built in the call, its class the category
    warnings.warn(DeprecationWarning("Call WATCH from a Pipeline object"))


def main(argv):
    parser = ArgumentParser()
    args = parser.parse_args(argv)
    if not args.files:
        parser.error("at least one file is needed")
    if args.config is None:
        sys.exit("no configuration found; run `tool init` first")
    sys.exit(2)  # a status, not a message


class StrictParser(ArgumentParser):
    def check(self, value):
        if value < 0:
            self.error("value must not be negative: %d" % value)


@click.command()
@click.pass_context
def cli(ctx, path):
    if not path.exists():
        click.echo(f"Error: {path} does not exist", err=True)
        ctx.exit(1)
    click.echo("Done.", err=True)  # printed, but the command goes on


def run(path):
    try:
        data = open(path).read()
    except OSError as e:
        logger.error("cannot read %s: %s", path, e)
        sys.exit(1)
    if not data:
        print("empty input", file=sys.stderr)
        raise SystemExit(1)
    logging.error("this one is only logged")
    return data
