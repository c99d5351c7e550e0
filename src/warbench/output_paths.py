"""Files a command will write, checked before any work so a long run or a game is not lost
to a path that cannot be written (`--save`, `--json`, `--csv`, `--plot`, `-o`)."""

from __future__ import annotations

import os
from pathlib import Path

import typer


def problem(path: Path) -> str | None:
    """Why `path` cannot be written as a file, or None."""
    folder = path.parent
    if path.is_dir():
        return f"'{path}' is a folder; give a file name"
    if not folder.is_dir():
        return f"cannot write '{path}': there is no folder '{folder}'"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot write '{path}': permission denied"
    return None


def check_writable(path: Path | None, option: str) -> None:
    """Refuse `option` (typer.BadParameter) when `path` cannot be written."""
    reason = None if path is None else problem(path)
    if reason is not None:
        raise typer.BadParameter(reason, param_hint=option)
