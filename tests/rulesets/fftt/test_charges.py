"""The AI's charge test in the movement step (`movement.charge_open`, used by
`FFTTGame.figure_options`) against the code it stands for (`_illegal`, `charge_problem`): every
figure free to move and not fighting, against every enemy, in seeded battles."""

from __future__ import annotations

from warbench.core import registry
from warbench.core.game import Decision
from warbench.rulesets.fftt import movement, shooting
from warbench.rulesets.fftt.actions import Charge
from warbench.rulesets.fftt.game import FFTTGame
from warbench.rulesets.fftt.state import other


def test_charge_open_is_charge_problem_in_battles() -> None:
    ruleset = registry.get("fftt")
    answers = {True: 0, False: 0}
    listed = 0
    for scenario in ("marines-vs-machina", "machina-vs-insectoids", "behind-the-screen"):
        g = ruleset.new_game(ruleset.load_scenario(scenario), 3)
        assert isinstance(g, FFTTGame)
        agents = {p: ruleset.agents()["ai"](n) for n, p in enumerate(ruleset.players)}
        while isinstance(g.pending, Decision):
            s = g.state
            if s.stage == "move":
                mine, enemies = s.side_figs(s.player), s.side_figs(other(s.player))
                for fig in mine:
                    if movement.mover_problem(s, fig) or shooting.engaged(s, fig):
                        continue
                    for e in enemies:
                        legal = g._illegal(Charge(fig.id, e.id), s.player) is None
                        assert movement.charge_open(s, fig, e, mine + enemies) == legal
                        answers[legal] += 1
                ids = [f.id for f in mine]
                charges = [a for a in g.legal_actions(s.player) if isinstance(a, Charge)]
                assert g.figure_options(ids, (Charge,)) == charges
                listed += len(charges)
            player = g.pending.player
            g.apply(agents[player].choose(g, player), player)
    assert answers[True] >= 20 and answers[False] >= 1_000 and listed >= 20
