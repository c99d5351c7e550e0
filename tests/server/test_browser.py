"""The browser client in Debian's chromium, headless (Playwright): a person plays by clicking.

`make test` installs chromium when it is missing. Each page talks to a real `warbench serve`
on a loopback port.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, sync_playwright

from tests.server.serve import SeededServer
from warbench.core import registry

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path("out/screenshots")
ARMY_FORGE = Path(__file__).parents[1] / "rulesets" / "gff" / "data"


SEED = 20261123  # every game's dice and AI seats: the same games on every run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SeededServer]:
    """The app on a free loopback port over a fresh store, every game seeded `SEED`."""
    running = SeededServer(tmp_path_factory.mktemp("web") / "games.sqlite", SEED)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless chromium from Debian (installed by `make test`)."""
    if not CHROMIUM.exists():
        pytest.fail("no /usr/bin/chromium: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def create_game(page: Page, server: SeededServer, blue: str, scenario: str) -> dict[str, str]:
    """Fill the lobby's form and create a game; each human seat's private link."""
    page.goto(f"{server.url}/")
    page.select_option("#ruleset", "ttt")
    page.select_option("#scenario", scenario)
    page.select_option("#seat-red", "human")
    page.select_option("#seat-blue", blue)
    page.click("#create-button")
    page.wait_for_selector("a.play-link")
    links = page.locator("a.play-link")
    return {
        str(links.nth(i).get_attribute("data-seat")): str(links.nth(i).get_attribute("href"))
        for i in range(links.count())
    }


def my_turn(page: Page) -> bool:
    """Wait until the page shows this seat's decision (True) or the game's end (False)."""
    page.wait_for_selector(".banner.mine, .banner.over", timeout=60_000)
    return page.locator(".banner.mine").count() == 1


def send_and_wait(page: Page) -> str:
    """Click Send; if the page asks to confirm an action that rolls dice, check that it shows
    the exact odds (percentages adding up to 100) and confirm; then wait for the server's push
    of the next version. Returns "sent", "confirmed", or the error the page showed."""
    assert page.locator("#action").input_value() != ""
    version = page.locator("#title").inner_text()
    page.click("#send")
    page.wait_for_function(SENT, arg=version, timeout=60_000)
    confirmed = False
    if page.locator("#confirm:not([hidden])").count():
        shot = SHOTS / f"{version.split()[0]}-odds.png"
        if not shot.exists():
            page.screenshot(path=str(shot))
        percents = page.locator(".odds-table td.percent").all_inner_texts()
        assert percents or page.inner_text("#odds"), "a confirm box without odds or a reason"
        if percents:
            assert abs(sum(float(p.split()[0]) for p in percents) - 100) < 0.5, percents
        page.click("#confirm-send")
        page.wait_for_function(SENT, arg=version, timeout=60_000)
        confirmed = True
    error = page.inner_text("#error")
    if page.locator("#title").inner_text() == version and error:
        return error
    return "confirmed" if confirmed else "sent"


SENT = """v => document.querySelector('#title').textContent !== v
  || !document.querySelector('#confirm').hidden
  || document.querySelector('#error').textContent !== ''"""


def click_one_action(page: Page, turn: dict[str, int]) -> str:
    """Play one ttt action by clicking as a person would: place a piece on a highlighted
    square; move one piece a turn to a highlighted square; attack by clicking the attacker
    and then the enemy; else pass or end. Returns the verb played."""
    groups = page.locator("button.group")
    texts = [groups.nth(i).inner_text() for i in range(groups.count())]
    pieces = page.locator("g.piece.can-act")
    verb = "end"
    if any(t.startswith("place ") for t in texts):
        groups.nth(next(i for i, t in enumerate(texts) if t.startswith("place "))).click()
        if page.locator("#action").input_value() == "":  # several squares: click one
            page.locator("rect.target").first.click()
        verb = "place"
    elif "pass" in texts and not turn["moved"] and pieces.count():
        pieces.first.click()
        if page.locator("rect.target").count():
            # the reach: every square the piece may move to, each with its cost in squares
            page.wait_for_selector("#table text.cost", state="attached")
            assert page.locator("rect.reach").count() == page.locator("rect.target").count()
            if not (SHOTS / "ttt-reach.png").exists():
                page.screenshot(path=str(SHOTS / "ttt-reach.png"))
            page.locator("rect.target").first.click()
            verb = "move"
        turn["moved"] = 1
    elif "end" in texts and turn["attacks"] < 3 and pieces.count():
        pieces.first.click()
        rings = page.locator("circle.target.ring")
        if rings.count():
            page.wait_for_selector("#table line.sight", state="attached")  # sight lines
            target = str(rings.first.get_attribute("data-text")).split()[-1]
            page.locator(f"g.piece[data-id='{target}']").click()
            verb = "attack"
        turn["attacks"] += 1
    if verb == "end" or page.locator("#action").input_value() == "":
        verb = "pass" if "pass" in texts else "end"
        groups.nth(texts.index(verb)).click()
    if verb == "end":
        turn.update(moved=0, attacks=0)
    sent = send_and_wait(page)
    assert sent in ("sent", "confirmed"), sent
    return f"{verb} (confirmed)" if sent == "confirmed" else verb


def test_a_person_plays_a_whole_game_against_the_ai_by_clicking(
    browser: Browser, server: SeededServer
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    links = create_game(page, server, "ai", "cap-the-capn")
    assert list(links) == ["red"]
    page.click("a.play-link")
    page.wait_for_selector("#table .piece, .banner.mine")
    SHOTS.mkdir(parents=True, exist_ok=True)
    turn = {"moved": 0, "attacks": 0}
    played: list[str] = []
    for _ in range(400):
        if not my_turn(page):
            break
        played.append(click_one_action(page, turn))
        if len(played) == 8:
            page.screenshot(path=str(SHOTS / "ttt-play.png"))
    assert page.locator(".banner.over").count() == 1
    page.wait_for_selector("#over:not([hidden])")
    assert "✓ matches the hash shown at the start" in page.inner_text("#seed-verdict")
    assert page.inner_text("#result").startswith("result: ")
    page.screenshot(path=str(SHOTS / "ttt-over.png"))
    assert {"place", "move", "attack (confirmed)"} <= set(played), played
    page.click("#replay")
    page.wait_for_function("document.querySelector('#step-count').textContent !== '0'")
    count = int(page.inner_text("#step-count"))
    page.locator("#slider").fill(str(count // 2))
    assert page.inner_text("#step-number") == str(count // 2)
    page.screenshot(path=str(SHOTS / "ttt-replay.png"))
    page.close()


def test_two_people_play_in_two_browsers(browser: Browser, server: SeededServer) -> None:
    lobby = browser.new_page()
    links = create_game(lobby, server, "human", "besiege-the-bunker")
    pages = {}
    for seat, link in links.items():
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        pages[seat] = context.new_page()
        pages[seat].goto(f"{server.url}{link}")
    for page in pages.values():
        page.wait_for_selector(".banner.mine, .banner.waiting")
    turns = {seat: {"moved": 0, "attacks": 0} for seat in pages}
    seat = "red" if pages["red"].locator(".banner.mine").count() else "blue"
    for _ in range(16):
        if not my_turn(pages[seat]):
            break
        click_one_action(pages[seat], turns[seat])
        # The acting page has shown the new version; the other may not have yet, so the
        # next seat is read from the acting page's banner, and my_turn waits for the other.
        if not pages[seat].locator(".banner.mine").count():
            seat = "blue" if seat == "red" else "red"
    versions = {s: p.locator("#title").inner_text() for s, p in pages.items()}
    pages["blue"].wait_for_function(
        "v => document.querySelector('#title').textContent === v", arg=versions["red"]
    )
    assert "version 16" in pages["red"].locator("#title").inner_text()
    pages["blue"].screenshot(path=str(SHOTS / "ttt-two-seats-blue.png"))
    for page in pages.values():
        page.context.close()


FINISH = ("end", "done", "pass", "wait", "hold", "idle", "no-strike-back", "no-riposte")
ATTACKS = ("fire", "attack", "charge", "shoot", "gun", "mg", "strike")
TURN = re.compile(r"\b(?:turn|round) (\d+)")


def finish_button(page: Page) -> Locator | None:
    """A button that ends this seat's part of the decision (end, done, pass, hold, ...)."""
    for kind in ("button.group", "button.choice"):
        buttons = page.locator(kind)
        for i in range(buttons.count()):
            if buttons.nth(i).inner_text().split()[0] in FINISH:
                return buttons.nth(i)
    return None


def click_into_reach(page: Page) -> bool:
    """Hover a point well inside the selected piece's drawn reach region, read the cost the
    page shows for a move there (the rules' own, within the allowance), click it and read the
    cost of the chosen destination; False if no region is drawn or no such point is free."""
    if not page.locator("path.reach-area").count():
        return False
    spot = page.evaluate(INSIDE)
    if spot is None:
        return False
    page.mouse.move(spot["x"], spot["y"])
    page.wait_for_function(ANSWERED, arg="#measure")
    hovered = page.locator("#measure")
    assert "allowed" in hovered.inner_text(), hovered.inner_text()
    found = re.search(r"costs ([\d.]+) of ([\d.]+)", hovered.inner_text())
    assert found, hovered.inner_text()
    assert 0 <= float(found.group(1)) <= float(found.group(2))
    page.mouse.click(spot["x"], spot["y"])
    page.wait_for_function(ANSWERED, arg="#path-cost")
    chosen = page.inner_text("#path-cost")
    assert chosen.startswith("chosen: ") and "allowed" in chosen, chosen
    if not (SHOTS / "path-cost.png").exists():
        page.screenshot(path=str(SHOTS / "path-cost.png"))
    return True


ANSWERED = """sel => { const line = document.querySelector(sel);
  return line.dataset.asked !== undefined && line.dataset.asked === line.dataset.answered; }"""

# A point half way from the selected piece to the edge of its first drawn reach region,
# along the first of 16 bearings where that point is inside the region and not on a piece.
INSIDE = """() => {
  const svg = document.querySelector('#table');
  const area = document.querySelector('path.reach-area');
  const box = document.querySelector('g.piece.selected polygon').getBBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  const p = svg.createSVGPoint();
  const at = (a, d) => { p.x = cx + d * Math.sin(a); p.y = cy - d * Math.cos(a); return p; };
  for (const k of [0, 4, 8, 12, 2, 6, 10, 14, 1, 3, 5, 7, 9, 11, 13, 15]) {
    const a = (k * Math.PI) / 8;
    let most = 0;
    for (let d = 0.1; d < 100; d += 0.1) if (area.isPointInFill(at(a, d))) most = d;
    if (!most || !area.isPointInFill(at(a, most / 2))) continue;
    const s = at(a, most / 2).matrixTransform(svg.getScreenCTM());
    const hit = document.elementFromPoint(s.x, s.y);
    if (hit && hit.closest('#table') && !hit.closest('.piece')) return { x: s.x, y: s.y };
  }
  return null;
}"""


def click_a_turn_action(page: Page, tries: int) -> str:
    """One action by clicking, as a person playing a turn would: for the first two actions
    of a kind of decision, select a piece and attack the piece at the end of one of its
    sight lines, or move it into its reach, or click one of its highlighted places; later
    (or when nothing of the kind is possible), end this part with end/done/pass/hold. Returns
    the verb sent, with "(confirmed)" when the odds were shown and confirmed first."""
    pieces = page.locator("g.piece.can-act")
    if tries <= 2 and pieces.count():
        # first a piece with a sight line to a target if there is one, then a move
        for i in [*range(min(pieces.count(), 6) if tries == 1 else 0), 0]:
            piece = pieces.nth(i)
            piece.click()
            page.wait_for_selector(f"#table[data-preview='{piece.get_attribute('data-id')}']")
            if page.locator("circle.target.ring").count():
                break
        rings = page.locator("circle.target.ring")
        if tries == 2 and click_into_reach(page):
            pass
        elif rings.count():
            target = str(rings.first.get_attribute("data-text")).split()[-1]
            page.locator(f"g.piece[data-id='{target}']").first.click()
            if page.locator("#action").input_value() == "":
                page.locator("button.choice").first.click()
        elif not click_into_reach(page) and page.locator("circle.target").count():
            page.locator("circle.target").first.click(force=True)  # targets may overlap
    if tries > 2 or page.locator("#action").input_value() == "":
        button = finish_button(page)
        if button is None and pieces.count():
            pieces.first.click()
            button = finish_button(page)
        if button is not None:
            button.click()
        else:  # nothing to end: an option of the decision and one of its places
            page.locator("button.group").first.click()
            if page.locator("circle.target").count():
                page.locator("circle.target").first.click(force=True)  # targets may overlap
            elif page.locator("#action").input_value() == "":
                page.locator("button.choice").first.click()
    verb = page.locator("#action").input_value().split()[0]
    sent = send_and_wait(page)
    if sent not in ("sent", "confirmed"):  # a spot the rules refuse: end this part instead
        button = finish_button(page) or page.locator("button.choice").first
        button.click()
        verb = page.locator("#action").input_value().split()[0]
        sent = send_and_wait(page)
        assert sent in ("sent", "confirmed"), sent
    return f"{verb} (confirmed)" if sent == "confirmed" else verb


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [
        ("fft3", "meeting-engagement"),
        ("gff", "skirmish"),
        ("tftww2", "patrol"),
        ("fftt", "marines-vs-machina"),
    ],
)
def test_a_person_plays_a_full_turn_by_clicking(
    browser: Browser, server: SeededServer, ruleset: str, scenario: str
) -> None:
    """From the set-up to the start of turn (round) 2 against the AI, every action of the
    person by clicking: pieces moved into their drawn reach, every attack confirmed after its
    odds, and each part of the turn ended with its button."""
    created = server.call(
        "POST",
        "/api/games",
        {"ruleset": ruleset, "scenario": scenario, "seats": {"red": "human", "blue": "ai"}},
    )
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(f"{server.url}{created['seats']['red']['link']}")
    odds = not registry.get(ruleset).hidden_information  # fftt offers no odds in play
    tries: Counter[str] = Counter()
    played: list[str] = []
    highest = 0
    for _ in range(300):
        if not my_turn(page):
            break
        banner = page.inner_text("#banner")
        number = TURN.search(banner)
        highest = max(highest, int(number.group(1)) if number else 0)
        if highest >= 2:
            break
        kind = re.sub(r"\d+", "N", banner)  # the kind of decision, whichever unit or count
        tries[kind] += 1
        played.append(click_a_turn_action(page, tries[kind]))
        if len(played) == 3:
            page.screenshot(path=str(SHOTS / f"{ruleset}-play.png"))
    page.screenshot(path=str(SHOTS / f"{ruleset}-turn-2.png"))
    (SHOTS / f"{ruleset}-played.txt").write_text("\n".join(played) + "\n")
    assert highest >= 2, (highest, played)
    moved = [v for v in played if v in ("move", "advance", "rush", "walk", "strategic")]
    assert moved, " ".join(played)
    attacks = [v for v in played if v.split()[0] in ATTACKS]
    assert attacks or ruleset == "fft3", " ".join(played)  # fft3's forces start out of range
    if odds:  # every attack went through the confirm box with its odds
        assert all(v.endswith("(confirmed)") for v in attacks), " ".join(played)
    page.close()


def test_a_gff_game_from_an_army_forge_file_uploaded_in_the_lobby(
    browser: Browser, server: SeededServer
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(f"{server.url}/")
    page.select_option("#ruleset", "gff")
    page.select_option("#scenario", "skirmish")
    page.select_option("#seat-blue", "human")
    page.select_option("#upload-side", "blue")
    page.set_input_files("#army-file", str(ARMY_FORGE / "army_forge_problems.json"))
    page.click("#create-button")
    page.wait_for_selector("#error li")
    problems = page.locator("#error li").all_inner_texts()
    assert len(problems) == 9 and any("unknown special rule 'Shielded'" in p for p in problems)
    assert page.locator("#created").is_hidden()
    page.screenshot(path=str(SHOTS / "gff-upload-refused.png"))
    page.set_input_files("#army-file", str(ARMY_FORGE / "army_forge_valid.json"))
    page.click("#create-button")
    page.wait_for_selector("a.play-link")
    assert page.inner_text("#error") == ""
    page.click("a.play-link[data-seat='blue']")
    page.wait_for_selector(".banner.mine, .banner.waiting")
    page.close()
