"""A gff game from an uploaded Army Forge export (docs/server.md, "Army lists"): the list is
imported and checked like a scenario file's, every problem is named, and a refused upload
creates no game."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from httpx2 import Response

from tests.server.play import state

DATA = Path(__file__).parents[1] / "rulesets" / "gff" / "data"


def create(client: TestClient, ruleset: str, name: str, text: str, side: str = "blue") -> Response:
    """POST /api/games with an army list for `side`; the raw reply."""
    body = {
        "ruleset": ruleset,
        "scenario": "skirmish" if ruleset == "gff" else None,
        "seats": {"red": "human", "blue": "ai"},
        "army_list": {"side": side, "name": name, "text": text},
    }
    return client.post("/api/games", json=body)


def test_an_army_forge_export_fields_a_side(client: TestClient) -> None:
    valid = (DATA / "army_forge_valid.json").read_text()
    reply = create(client, "gff", "army_forge_valid.json", valid)
    assert reply.status_code == 201, reply.text
    game = reply.json()["id"]
    record = client.get(f"/api/games/{game}/record")  # gff hides nothing: exportable now
    assert record.json()["scenario"]["armies"]["blue"]["army"]["name"] == "Starhold Raiders"
    units = record.json()["scenario"]["armies"]["blue"]["army"]["units"]
    assert json.dumps(units[0]["name"]) in json.dumps(state(client, game, None)["view"])


def test_every_problem_is_named_and_no_game_is_made(client: TestClient) -> None:
    before = len(client.get("/api/games").json()["games"])
    problems = (DATA / "army_forge_problems.json").read_text()
    reply = create(client, "gff", "army_forge_problems.json", problems)
    assert reply.status_code == 400
    detail = reply.json()["detail"]
    assert "9 problems, nothing imported" in detail
    assert "unknown special rule 'Shielded'" in detail and "missing field 'quality'" in detail
    assert len(client.get("/api/games").json()["games"]) == before


def test_bad_uploads_get_clear_errors(client: TestClient) -> None:
    valid = (DATA / "army_forge_valid.json").read_text()
    cases = [
        (create(client, "gff", "list.json", "{not json"), "not valid JSON"),
        (create(client, "gff", "list.json", valid, side="green"), "side 'green'"),
        (create(client, "ttt", "list.json", valid), "takes no uploaded army lists"),
    ]
    for reply, words in cases:
        assert reply.status_code == 400, reply.text
        assert words in reply.json()["detail"]
    assert client.get("/api/games").json()["games"] == []
