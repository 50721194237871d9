"""What each `gpu-stacks` command's exit status means: one table, shown by every `--help`."""

from __future__ import annotations

import textwrap

HELP_WIDTH = 100  # an epilog line's most characters: the help's own text wraps to the terminal, the epilog is raw

INPUT = (
    "the input cannot be evaluated: bad flags, project, stack file, a file a flag names, or a program that raises; "
    "one line on stderr"
)
# Several stacks: each is planned whatever another's fate, and the command exits with the worst code.
NOT_PLANNED = f"{INPUT}; with several stacks, any stack that could not be planned (the others are still reported)"
INTERRUPTED = "interrupted (Ctrl-C)"
PIPE_CLOSED = "the reader of the output went away (`| head`, a closed pipe); nothing more is written"
PLAN_PROBLEMS = (
    "Azure would refuse a resource (a size unavailable or retired; a quota shortfall or a size not offered, "
    "with --usage/--aml-usage/--skus; a bad name or reference), a mandatory policy fails, "
    "or the program logged an error"
)

COMMAND_EXIT_CODES: dict[str, tuple[tuple[int, str], ...]] = {
    "plan": ((0, "planned clean"), (1, PLAN_PROBLEMS), (2, INPUT), (130, INTERRUPTED), (141, PIPE_CLOSED)),
    "check": (
        (0, "every stack clean (with --fail-level none: every stack planned, whatever it found)"),
        (1, f"any stack: {PLAN_PROBLEMS} (with --fail-level advisory, an advisory note too)"),
        (2, NOT_PLANNED),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "merge": (
        (0, "every stack of the shards clean (with --fail-level none: every stack planned, whatever it found)"),
        (1, f"any stack: {PLAN_PROBLEMS} (with --fail-level advisory, an advisory note too)"),
        (
            2,
            "a shard file is missing, unreadable, not a shard, or of another run, or a record in it disagrees with "
            "itself; the shards are not all N; bad flags; or a stack of the shards could not be planned",
        ),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "cost": (
        (
            0,
            "priced, and no cost policy (limit-stack-cost, warn-incoherent-budgets) fails at --fail-level "
            "(with --fail-level none: every stack priced, whatever it costs)",
        ),
        (
            1,
            "any stack: a mandatory cost policy fails (its total above maxMonthlyUsd, its full-scale cost reaching "
            "its budget's thresholds with withinBudgetThresholds, a budget that cannot work); with --fail-level "
            "advisory, an advisory one too",
        ),
        (2, NOT_PLANNED),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "quota": (
        (0, "the free quota covers the stack at full scale"),
        (1, "quota is short (a family or the regional total needs more vCPUs than are free) or a size is not offered"),
        (2, INPUT),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "diff": (
        (0, "the change introduces no problem"),
        (
            1,
            "the change introduces a problem: a new refusal or violation, more quota, "
            "an unacknowledged replacement of a GPU pool or cluster",
        ),
        (2, INPUT),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "export-arm": ((0, "written"), (2, INPUT), (130, INTERRUPTED), (141, PIPE_CLOSED)),
    "preflight": (
        (0, "Azure accepted the template (Validate, and What-If with --what-if)"),
        (1, "Azure refused the template: each error is listed with its resource"),
        (2, f"{INPUT}; the `azure` extra is not installed; Azure sign-in failed"),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "stacks": ((0, "listed"), (2, INPUT), (130, INTERRUPTED), (141, PIPE_CLOSED)),
    "policy-pack": (
        (0, "done"),
        (2, "bad flags, or DIR exists and is not empty"),
        (130, INTERRUPTED),
        (141, PIPE_CLOSED),
    ),
    "completion": ((0, "printed"), (2, "a shell other than bash or zsh"), (141, PIPE_CLOSED)),
}


def epilog(command: str) -> str:
    rows = (
        textwrap.fill(meaning, HELP_WIDTH, initial_indent=f"  {code:<3}  ", subsequent_indent=" " * 7)
        for code, meaning in COMMAND_EXIT_CODES[command]
    )
    return "exit codes:\n" + "\n".join(rows)
