"""Batch play: seeds spawned per game, the same results whatever the jobs, summaries."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import warbench.sim.play as sim_play
from warbench.core import registry
from warbench.core.game import GameOver
from warbench.sim.play import GameResult, Matchup, play, playout, spawn_seeds
from warbench.sim.report import summarise, write_csv
from warbench.sim.runner import batch_size, run

AGENTS = (("red", "ai"), ("blue", "random"))


def _matchup() -> Matchup:
    ttt = registry.get("ttt")
    return Matchup("ttt", ttt.load_scenario("cap-the-capn"), AGENTS)


def test_game_seeds_depend_only_on_the_run_seed_and_the_game() -> None:
    assert spawn_seeds(7, 5)[:3] == spawn_seeds(7, 3)
    assert spawn_seeds(7, 3) != spawn_seeds(8, 3)
    assert len({s.dice for s in spawn_seeds(7, 50)}) == 50
    assert all(0 <= s.dice < 2**63 for s in spawn_seeds(7, 50))


def test_batches_last_at_least_a_tenth_of_a_second() -> None:
    assert batch_size(0.5) == 1
    assert batch_size(0.01) == 10
    assert batch_size(0.0) >= 1


def test_a_process_freezes_what_lives_on_once_after_its_first_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The freeze is counted by its calls: the frozen count itself falls whenever a frozen
    object dies (a cache another test filled evicting), whatever `settle` does."""
    gc.unfreeze()  # another test of this worker process may have played first
    monkeypatch.setattr(sim_play, "_settled", False)
    freezes: list[int] = []
    freeze = gc.freeze

    def counted() -> None:
        freeze()
        freezes.append(gc.get_freeze_count())

    monkeypatch.setattr(gc, "freeze", counted)
    try:
        seeds = spawn_seeds(3, 2)
        play(_matchup(), seeds[0])
        assert len(freezes) == 1 and freezes[0] > 0
        play(_matchup(), seeds[1])
        assert len(freezes) == 1  # later games are left to the collector
    finally:
        gc.unfreeze()


def test_results_are_the_same_with_one_or_two_jobs() -> None:
    one = run(_matchup(), 12, seed=11, jobs=1)
    two = run(_matchup(), 12, seed=11, jobs=2)
    assert one == two
    assert [r.index for r in one] == list(range(12))
    assert len({r.seed for r in one}) == 12


def test_swapped_runs_seat_each_agent_on_both_sides_and_time_its_decisions() -> None:
    ttt = registry.get("ttt")
    matchup = Matchup("ttt", ttt.load_scenario("cap-the-capn"), AGENTS, swap=True)
    results = run(matchup, 4, seed=5, jobs=1)
    assert [r.seating for r in results] == [AGENTS, (("red", "random"), ("blue", "ai"))] * 2
    assert all(r.thinking[p][1] > 0 for r in results for p in ("red", "blue"))
    lines = {line.agent: line for line in summarise(results, ttt.players).agents}
    assert set(lines) == {"ai", "random"}
    assert lines["ai"].score.games == lines["random"].score.games == 4
    assert lines["ai"].score.count + lines["random"].score.count == 4
    assert lines["ai"].decisions == sum(
        r.thinking[s][1] for r in results for s, a in r.seating if a == "ai"
    )
    assert lines["ai"].per_decision >= 0.0


def test_a_run_played_in_parts_plays_the_same_games() -> None:
    whole = run(_matchup(), 5, seed=9, jobs=1)
    parts = run(_matchup(), 2, seed=9, jobs=1) + run(_matchup(), 3, seed=9, jobs=1, first=2)
    assert parts == whole
    assert [r.index for r in parts] == list(range(5))


def test_bad_jobs_and_backend_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        run(_matchup(), 2, seed=0, jobs=0)
    with pytest.raises(ValueError, match="allowed: local, ray"):
        run(_matchup(), 2, seed=0, backend="spark")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="first game's number"):
        run(_matchup(), 2, seed=0, first=-1)


def _result(index: int, winner: str | None, red_left: int) -> GameResult:
    census = {"red": {"Recon": (2, red_left)}, "blue": {"Guard": (1, 1)}}
    return GameResult(index, index, winner, "test", 10 + index, census)


def test_summary_counts_outcomes_losses_and_contribution(tmp_path: Path) -> None:
    results = [
        _result(0, "red", 2),
        _result(1, "red", 1),
        _result(2, "blue", 0),
        _result(3, None, 1),
    ]
    summary = summarise(results, ("red", "blue"))
    assert summary.outcomes["red"].count == 2
    assert summary.outcomes["draw"].count == 1
    assert summary.score("red").count == 2.5
    assert summary.length == {"mean": 11.5, "median": 11.5, "min": 10.0, "max": 13.0}
    recon = next(u for u in summary.units if u.unit == "Recon")
    assert (recon.fielded, recon.lost, recon.lost_share) == (2.0, 1.0, 0.5)
    assert recon.contribution is not None and recon.contribution > 0.8
    guard = next(u for u in summary.units if u.unit == "Guard")
    assert guard.contribution is None  # never lost: nothing to correlate
    path = tmp_path / "games.csv"
    write_csv(results, path)
    lines = path.read_text().splitlines()
    assert lines[0].startswith("game,seed,winner,reason,steps,blue:Guard:fielded")
    assert lines[4].startswith("3,3,draw,test,13,")


def test_a_benchmark_playout_ends_the_game_and_repeats_with_its_seed() -> None:
    """`playout` (what benchmarks/ time): both sides played by one agent to the end, the
    same game again from the same seed, another from another."""
    rs = registry.get("ttt")
    data = rs.load_scenario("besiege-the-bunker")
    games = [playout(rs, data, "random", seed) for seed in (3, 3, 4)]
    assert all(isinstance(g.pending, GameOver) for g in games)
    steps = [[(s.player, str(s.action)) for s in g.steps] for g in games]
    assert steps[0] == steps[1] != steps[2]
