"""`python -m reprobe` (and the `reprobe` script) run the command-line interface."""

import logging
import os
import sys

from reprobe.cli import main


def run() -> None:
    """Run one command and end the process at once, skipping the interpreter's teardown."""
    status = main()
    # Every output is complete and renamed into place before `main` returns (reprobe.io), and
    # no step leaves work to atexit. Tearing down torch, transformers and pandas took about a
    # second of CPU per job (benchmarks/default_run.py): a run has hundreds of jobs.
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    run()
