"""Fixtures for the server tests: an app over a fresh store with fixed seeds."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from warbench.server.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A fresh store file."""
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    """A running app (lifespan entered) whose games get seeds 1001, 1002, ..."""
    seeds = itertools.count(1001)
    with TestClient(create_app(db, seeds=lambda: next(seeds))) as c:
        yield c
