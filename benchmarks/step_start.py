"""What a step costs before its work: `python -m reprobe … --help` beside the interpreter's own
start (`python -c pass`), best of N, wall and CPU seconds (os.wait4).

Every job of a run is one such process, so this is paid a few hundred times a default run. The
target (issue 31): at most 0.3 s beyond the work.

    python benchmarks/step_start.py --repeat 5 --update-readme
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from harness import (
    add_report_options,
    best_of,
    command_line,
    machine,
    markdown_table,
    measure,
    new_parser,
    now,
    provenance,
    round_robin,
    save,
)

SECTION = "step-start"
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "reprobe --help": ["-m", "reprobe", "--help"],
    "reprobe equate score --help": ["-m", "reprobe", "equate", "score", "--help"],
    "reprobe wikipse probe --help": ["-m", "reprobe", "wikipse", "probe", "--help"],
    "reprobe numersense score --help": ["-m", "reprobe", "numersense", "score", "--help"],
}


def main(argv: list[str] | None = None) -> int:
    """Time each command's start and report it beside the interpreter's."""
    parser = new_parser(__doc__)
    add_report_options(parser, noun="command", keeps="the least wall and CPU seconds",
                       json_help="write the figures as JSON", section=SECTION)
    args = parser.parse_args(argv)
    host, date = machine(), now()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "out.log"
        runs = round_robin(list(COMMANDS), args.repeat,
                           lambda name: measure([sys.executable, *COMMANDS[name]], log),
                           lambda run: f"{run.wall_s:.3f} s wall, {run.cpu_s:.3f} s CPU")
    best = {name: best_of(measured) for name, measured in runs.items()}
    floor = best["python -c pass"].wall_s
    rows = [[f"`{name}`", f"{run.wall_s:.3f}", f"{run.cpu_s:.3f}",
             f"{run.wall_s - floor:+.3f}"] for name, run in best.items()]
    block = "\n".join([*provenance(command_line("benchmarks/step_start.py", argv), date, host),
                       "", markdown_table(["command", "wall s", "CPU s",
                                           "wall s beyond `python -c pass`"], rows), ""]) + "\n"
    print(block)
    save(args, SECTION, block, {"machine": host, "date": date,
                                **{name: vars(run) for name, run in best.items()}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
