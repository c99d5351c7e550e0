"""Before a seat confirms (docs/server.md, "Before you confirm"): a piece's reach with its
cost, range bands and sight lines, and the exact odds of a proposed action, worked out from
the seat's own view; only for the seat whose decision it is, and nothing changes."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from tests.server.play import act, new_game, state
from warbench.core import registry

Json = dict[str, Any]


def ask(client: TestClient, game: str, seat: str, token: str, version: int, **what: str) -> Any:
    """POST /preview; the raw reply."""
    body = {"seat": seat, "token": token, "version": version} | what
    return client.post(f"/api/games/{game}/preview", json=body)


def play_until(
    client: TestClient, game: str, tokens: dict[str, str], verb: str, seed: int = 0
) -> tuple[str, Json]:
    """Play seeded random actions (both seats) until a seat may take an action `verb`."""
    rng = random.Random(seed)
    for _ in range(400):
        now = state(client, game)
        assert not now["result"], "the game ended first"
        seat = now["pending"]["player"]
        mine = state(client, game, seat, tokens[seat])
        if any(a.split()[0] == verb for a in mine["legal"]):
            return seat, mine
        moves = [a for a in mine["legal"] if a.split()[0] not in ("end", "pass", "surrender")]
        choice = rng.choice(moves or mine["legal"])
        assert act(client, game, seat, tokens[seat], mine["version"], choice).status_code == 200
    raise AssertionError(f"no '{verb}' came up")


def test_ttt_reach_is_every_legal_square_with_its_cost(client: TestClient) -> None:
    game, tokens = new_game(client)
    seat, now = play_until(client, game, tokens, "move")
    piece = next(a.split()[1] for a in now["legal"] if a.startswith("move "))
    reply = ask(client, game, seat, tokens[seat], now["version"], piece=piece)
    assert reply.status_code == 200, reply.text
    (reach,) = reply.json()["reach"]
    squares = {a.split()[2] for a in now["legal"] if a.startswith(f"move {piece} ")}
    assert {name for name, _ in reach["squares"]} == squares
    assert all(1 <= cost <= reach["allowance"] for _, cost in reach["squares"])
    assert reply.json()["ranges"][0][0].startswith("Range ")
    assert state(client, game)["version"] == now["version"]  # nothing changed


def test_ttt_odds_are_the_rulesets_own_for_that_attack(client: TestClient) -> None:
    game, tokens = new_game(client)
    seat, now = play_until(client, game, tokens, "attack")
    action = next(a for a in now["legal"] if a.startswith("attack "))
    reply = ask(client, game, seat, tokens[seat], now["version"], action=action)
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["confirm"] and data["action"] == action
    rows = data["odds"]["outcomes"]["outcome"]
    assert sum(Fraction(r["probability"]) for r in rows) == 1
    _, attacker, target = action.split()
    pieces = now["view"]["state"]["pieces"]
    hit = sum(Fraction(r["probability"]) for r in rows if f"{target} removed" in r["outcome"])
    theirs = registry.get("ttt").odds(  # the same attack through `warbench odds ttt`
        {
            "operation": "besiege-the-bunker",
            "attacker": pieces[attacker]["kind"],
            "target": pieces[target]["kind"],
            "at": pieces[target]["square"],
            "from": pieces[attacker]["square"],
            "aimed": "yes" if pieces[attacker]["aim"] == target else "no",
        }
    )
    assert hit == theirs.probability("attack", "hit: target bagged")


@pytest.mark.parametrize(
    ("ruleset", "scenario", "verb"),
    [("gff", "skirmish", "fire"), ("fft3", "meeting-engagement", "fire")],
)
def test_odds_of_fire_on_a_continuous_table(
    client: TestClient, ruleset: str, scenario: str, verb: str
) -> None:
    game, tokens = new_game(client, ruleset, scenario)
    seat, now = play_until(client, game, tokens, verb, seed=3)
    action = next(a for a in now["legal"] if a.split()[0] == verb)
    data = ask(client, game, seat, tokens[seat], now["version"], action=action).json()
    assert data["confirm"], data
    assert data["odds"]["rolls"] and data["odds"]["situation"]["as seen by"] == seat
    rows = data["odds"]["outcomes"]["outcome"]
    assert sum(Fraction(r["probability"]) for r in rows) == 1
    if ruleset == "fft3":  # declared fire is carried out by resolving it
        assert data["odds"]["situation"]["carried out by"] == f"resolve {action.split()[-1]}"
    piece = action.split()[1]
    shown = ask(client, game, seat, tokens[seat], now["version"], piece=piece).json()
    assert shown["ranges"] and all(d > 0 for _, d in shown["ranges"])
    target = action.split()[-1]
    (line,) = [s for s in shown["sight"] if s["target"] == target]
    assert action in line["actions"] and line["distance"] >= 0
    assert state(client, game)["version"] == now["version"]


def test_continuous_reach_is_a_region_and_a_point_in_it_costs_its_move(
    client: TestClient,
) -> None:
    """The reply draws the region of legal end points; asking the cost of a move to a
    point inside it gives the rules' cost within the allowance, and the move is then
    accepted; a point far outside is priced and refused with the rules' reason."""
    game, tokens = new_game(client, "gff", "skirmish")
    seat, now = play_until(client, game, tokens, "advance", seed=3)
    piece = next(a.split()[1] for a in now["legal"] if a.startswith("advance "))
    reach = ask(client, game, seat, tokens[seat], now["version"], piece=piece).json()["reach"]
    advance = next(r for r in reach if r["verb"] == "advance")
    shape = unary_union([Polygon(rings[0], rings[1:]) for rings in advance["area"]])
    inner = shape.buffer(-4 * advance["cell"]).representative_point()
    move = f"advance {piece} {round(inner.x, 2)},{round(inner.y, 2)}"
    priced = ask(client, game, seat, tokens[seat], now["version"], path=move).json()
    assert priced["reason"] is None and priced["action"] == move
    assert priced["path"]["unit"] == "inch" and 0 < priced["path"]["cost"] <= 6
    ox, oy = advance["origin"]
    far = f"advance {piece} {round(ox, 2)},{round(oy + 30, 2)}"
    refused = ask(client, game, seat, tokens[seat], now["version"], path=far).json()
    assert refused["reason"] and refused["path"]["cost"] > refused["path"]["allowance"]
    assert state(client, game)["version"] == now["version"]  # asking changes nothing
    assert act(client, game, seat, tokens[seat], now["version"], move).status_code == 200


def test_only_the_deciding_seat_asks_at_the_current_version(client: TestClient) -> None:
    game, tokens = new_game(client)
    seat, now = play_until(client, game, tokens, "move")
    other = "blue" if seat == "red" else "red"
    piece = next(a.split()[1] for a in now["legal"] if a.startswith("move "))
    version = now["version"]
    refusals = [
        (ask(client, game, seat, "forged", version, piece=piece), 403),
        (ask(client, game, other, tokens[other], version, piece=piece), 403),
        (ask(client, game, seat, tokens[seat], version + 1, piece=piece), 409),
        (ask(client, game, seat, tokens[seat], version), 400),
        (ask(client, game, seat, tokens[seat], version, piece=piece, action="pass"), 400),
        (ask(client, game, seat, tokens[seat], version, action="pass", path="pass"), 400),
        (ask(client, game, seat, tokens[seat], version + 1, path=f"move {piece} A1"), 409),
        (ask(client, game, seat, tokens[seat], version, action="fly r1 Z99"), 400),
        (ask(client, game, seat, tokens[seat], version, piece="nobody"), 400),
        (ask(client, "no-such-game", seat, tokens[seat], version, piece=piece), 404),
    ]
    for reply, status in refusals:
        assert reply.status_code == status, reply.text
        assert reply.json()["detail"]
    assert state(client, game)["version"] == version


def test_a_hidden_ruleset_answers_from_its_determinised_copy(client: TestClient) -> None:
    """fftt hides its flanking forces: the odds, the reach and a move's cost come from the
    seat's determinised copy (`Ruleset.determinise`, which never reads what the view
    hides); a move that rolls no dice changes nothing on that copy."""
    game, tokens = new_game(client, "fftt", "marines-vs-machina")
    seat, now = play_until(client, game, tokens, "move", seed=1)
    action = next(a for a in now["legal"] if a.startswith("move "))
    data = ask(client, game, seat, tokens[seat], now["version"], action=action).json()
    assert data["odds"]["situation"]["as seen by"] == seat
    (outcome,) = data["odds"]["outcomes"]["outcome"]
    assert outcome["probability"] == "1" and not data["confirm"]
    piece = action.split()[1]
    (reach,) = ask(client, game, seat, tokens[seat], now["version"], piece=piece).json()["reach"]
    shape = unary_union([Polygon(rings[0], rings[1:]) for rings in reach["area"]])
    x, y = action.split()[2].split(",")
    assert shape.buffer(reach["cell"]).contains(Point(float(x), float(y)))  # a legal move
    priced = ask(client, game, seat, tokens[seat], now["version"], path=action).json()
    assert priced["reason"] is None and priced["path"]["unit"] == "cm"
