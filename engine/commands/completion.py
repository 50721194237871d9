"""`gpu-stacks completion bash|zsh`: a shell completion script, written from the argument parser itself.

The script completes the commands, each command's options, the choices of an option that has them
(`--format`, `--fail-level`, ...) and, where a command takes stacks (STACK arguments, `-s/--stack`), the
project's stack names as `gpu-stacks stacks` lists them at the moment of completing. Anything else falls
back to the shell's own file completion (`complete -o default`). zsh reads the same script through its
`bashcompinit` layer (zsh manual, "Completion System": `bashcompinit` "provides a function `complete`
with the same syntax as bash's"; observed 2026-11-27), so one script serves both.
"""

from __future__ import annotations

import argparse
import shlex

from .options import STACK_FLAG
from .said import Said

NAME = "completion"
HELP = "print a shell completion script (bash or zsh)"
DESCRIPTION = (
    "Print a completion script for gpu-stacks. bash: `source <(gpu-stacks completion bash)`, or save it as\n"
    "~/.local/share/bash-completion/completions/gpu-stacks. zsh: `source <(gpu-stacks completion zsh)` in ~/.zshrc."
)
SHELLS = ("bash", "zsh")
STACK_DESTS = ("stacks", "stack")  # the positional STACK arguments of the commands that take stacks (options.py)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("shell", choices=SHELLS, help="the shell the script is for")


def _options(p: argparse.ArgumentParser) -> list[str]:
    """Every option string `--help` shows for `p`, in its order."""
    return [o for a in p._actions if a.help != argparse.SUPPRESS for o in a.option_strings]


def _command_case(name: str, p: argparse.ArgumentParser) -> list[str]:
    """This command's lines of the script: its options, the choices each option takes, whether it takes stacks."""
    options = _options(p)
    lines = [f"        {shlex.quote(name)}) options={shlex.quote(' '.join(options))}"]
    takes_stacks = any(not a.option_strings and a.dest in STACK_DESTS for a in p._actions)
    lines.append(f"            takes_stacks={int(takes_stacks)}")
    lines.append('            case "$prev" in')
    own_values = []  # options whose value is a path, a number or a day: the shell's file completion
    for action in p._actions:
        if not action.option_strings or action.nargs == 0:
            continue
        pattern = "|".join(action.option_strings)
        if action.choices:
            words = " ".join(str(choice) for choice in action.choices)
            lines.append(f"                {pattern}) _gpu_stacks_reply {shlex.quote(words)}; return ;;")
        elif action.dest == STACK_FLAG:
            lines.append(f'                {pattern}) _gpu_stacks_reply "$(_gpu_stacks_stacks)"; return ;;')
        else:
            own_values.append(pattern)
    if own_values:
        lines.append(f"                {'|'.join(own_values)}) return ;;")
    lines += ["            esac ;;"]
    return lines


def script(top: argparse.ArgumentParser, shell: str) -> str:
    from .parser import subcommands

    commands = dict(subcommands(top))
    top_options = _options(top)
    lines = [
        f"# {shell} completion for gpu-stacks, written by `gpu-stacks completion {shell}` from its own parser",
        *(["autoload -U +X bashcompinit && bashcompinit"] if shell == "zsh" else []),
        "_gpu_stacks_stacks() {",
        "    gpu-stacks stacks 2>/dev/null",
        "}",
        "_gpu_stacks_reply() {",
        '    COMPREPLY=($(compgen -W "$1" -- "${COMP_WORDS[COMP_CWORD]}"))',
        "}",
        "_gpu_stacks() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" options takes_stacks',
        "    COMPREPLY=()",
        '    if [ "$COMP_CWORD" -eq 1 ]; then',
        f"        _gpu_stacks_reply {shlex.quote(' '.join([*commands, *top_options]))}; return",
        "    fi",
        '    case "${COMP_WORDS[1]}" in',
    ]
    for name, p in commands.items():
        lines += _command_case(name, p)
    lines += [
        "        *) return ;;",
        "    esac",
        '    if [[ "$cur" == -* ]]; then',
        '        _gpu_stacks_reply "$options"',
        '    elif [ "$takes_stacks" = 1 ]; then',
        '        _gpu_stacks_reply "$(_gpu_stacks_stacks)"',
        "    fi",
        "}",
        "complete -o default -F _gpu_stacks gpu-stacks",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> Said:
    from .parser import parser  # the parser is built from the command table, this module among them

    said = Said()
    said.text(script(parser(version=""), args.shell))  # the version's text is not completed, only the option
    return said
