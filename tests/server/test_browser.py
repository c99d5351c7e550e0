"""The browser client in Debian's chromium, headless (Playwright): a person plays by clicking.

`make test` installs chromium when it is missing. Each page talks to a real `warbench serve`
on a loopback port.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.server.serve import Server

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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`warbench serve` on a free loopback port, over a fresh store."""
    running = Server(tmp_path_factory.mktemp("web") / "games.sqlite")
    yield running
    running.kill9()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless chromium from Debian (installed by `make test`)."""
    if not CHROMIUM.exists():
        pytest.fail("no /usr/bin/chromium: `make test` installs it (apt-get install chromium)")
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def create_game(page: Page, server: Server, blue: str, scenario: str) -> dict[str, str]:
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


def send_and_wait(page: Page) -> None:
    """Click Send and wait for the server's push of the next version."""
    assert page.locator("#action").input_value() != ""
    version = page.locator("#title").inner_text()
    page.click("#send")
    page.wait_for_function(
        "v => document.querySelector('#title').textContent !== v", arg=version, timeout=60_000
    )


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
            page.locator("rect.target").first.click()
            verb = "move"
        turn["moved"] = 1
    elif "end" in texts and turn["attacks"] < 3 and pieces.count():
        pieces.first.click()
        rings = page.locator("circle.target.ring")
        if rings.count():
            target = str(rings.first.get_attribute("data-text")).split()[-1]
            page.locator(f"g.piece[data-id='{target}']").click()
            verb = "attack"
        turn["attacks"] += 1
    if verb == "end" or page.locator("#action").input_value() == "":
        verb = "pass" if "pass" in texts else "end"
        groups.nth(texts.index(verb)).click()
    if verb == "end":
        turn.update(moved=0, attacks=0)
    send_and_wait(page)
    return verb


def test_a_person_plays_a_whole_game_against_the_ai_by_clicking(
    browser: Browser, server: Server
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
    assert {"place", "move"} <= set(played), played
    page.click("#replay")
    page.wait_for_function("document.querySelector('#step-count').textContent !== '0'")
    count = int(page.inner_text("#step-count"))
    page.locator("#slider").fill(str(count // 2))
    assert page.inner_text("#step-number") == str(count // 2)
    page.screenshot(path=str(SHOTS / "ttt-replay.png"))
    page.close()


def test_two_people_play_in_two_browsers(browser: Browser, server: Server) -> None:
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
    for _ in range(16):
        seat = "red" if pages["red"].locator(".banner.mine").count() else "blue"
        if not my_turn(pages[seat]):
            break
        click_one_action(pages[seat], turns[seat])
    versions = {s: p.locator("#title").inner_text() for s, p in pages.items()}
    pages["blue"].wait_for_function(
        "v => document.querySelector('#title').textContent === v", arg=versions["red"]
    )
    assert "version 16" in pages["red"].locator("#title").inner_text()
    pages["blue"].screenshot(path=str(SHOTS / "ttt-two-seats-blue.png"))
    for page in pages.values():
        page.context.close()


@pytest.mark.parametrize(
    ("ruleset", "scenario"),
    [
        ("tftww2", "building-assault"),
        ("gff", "skirmish"),
        ("fft3", "meeting-engagement"),
        ("fftt", "marines-vs-machina"),
    ],
)
def test_a_person_acts_on_a_continuous_table_by_clicking(
    browser: Browser, server: Server, ruleset: str, scenario: str
) -> None:
    created = server.call(
        "POST",
        "/api/games",
        {"ruleset": ruleset, "scenario": scenario, "seats": {"red": "human", "blue": "ai"}},
    )
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.goto(f"{server.url}{created['seats']['red']['link']}")
    assert my_turn(page)
    for _ in range(3):  # three actions, each by clicking the table
        pieces = page.locator("g.piece.can-act")
        if pieces.count():  # a piece: select it, then click a spot an inch or so ahead of it
            pieces.first.click()
            box = pieces.first.bounding_box()
            assert box is not None
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] - 12)
        else:  # an option of the decision: pick it, then click one of its highlighted places
            page.locator("button.group").first.click()
            if page.locator("circle.target").count():
                page.locator("circle.target").first.click()
            elif page.locator("#action").input_value() == "":  # no place to click: a choice
                page.locator("button.choice").first.click()
        action = page.locator("#action").input_value()
        assert action.split()[0] in page.inner_text("#groups") + page.inner_text("#choices")
        send_and_wait(page)
        if not my_turn(page):
            break
    page.screenshot(path=str(SHOTS / f"{ruleset}-play.png"))
    assert "version 0" not in page.inner_text("#title")
    page.close()
