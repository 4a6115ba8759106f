"""The pages in French (issue 17) in Debian's Chromium against the real server: no English left
on a French page (its visible text is compared with the catalogue's English msgids), the language
switch keeps ``#step=N``, a French page's share links carry ``lang=fr``, and the French replay and
recorder fit a 390×844 phone. Screenshots in docs/img/ with POPREPLAY_SCREENSHOTS=1."""

from __future__ import annotations

import importlib.util
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import pytest
from babel.messages.pofile import read_po

from .conftest import SCREENSHOTS, screenshots_wanted, watched_page

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "popreplay" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
PHONE = {"width": 390, "height": 844}
SPLIT = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>|[«»“”()\[\]:;.,!?—–→←⇄·|/…✓✗]")
# Engine text (step notes, rule messages): English until popreplay.i18n renders it in French
# (every game's, cube's included), in the recorder's live notes too (/api/v1/record/check).
ENGINE_TEXT = "#step-note .text, .violation-message, .errors li, .step-error, .rp-notes, .bl-notes"
I18N = importlib.util.find_spec("popreplay.i18n") is not None


@lru_cache(maxsize=None)
def english_phrases() -> tuple[str, ...]:
    """Every run of two words or more of the catalogue's English msgids (split at placeholders,
    tags and punctuation) that its French translation does not contain."""
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    phrases = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        french = " ".join(message.string if isinstance(message.string, (list, tuple))
                          else (message.string,))
        for text in ids:
            for part in SPLIT.split(text):
                part = part.strip(" '’")
                words = re.findall(r"[A-Za-z][A-Za-z'’-]*", part)
                if len(words) >= 2 and part not in french and re.search(r"[a-z]{3}", part):
                    phrases.add(part)
    return tuple(sorted(phrases, key=len, reverse=True))


def english_left(text: str) -> list[str]:
    found = []
    for phrase in english_phrases():
        if re.search(r"(?<![\w'’])" + re.escape(phrase) + r"(?![\w'’])", text):
            found.append(phrase)
    return found


def visible_text(page: Any, selector: str = "body", skip: str | None = None) -> str:
    """The page's text as read (innerText) plus its labels and titles, engine text left out
    until the rendering layer is there (and ``skip``)."""
    return page.evaluate("""([selector, skip]) => {
        const root = document.querySelector(selector).cloneNode(true);
        if (skip) root.querySelectorAll(skip).forEach(e => e.remove());
        root.querySelectorAll('script, style, noscript').forEach(e => e.remove());
        const host = document.createElement('div');
        host.style.cssText = 'position:absolute;left:-99999px;width:1200px';
        host.appendChild(root); document.body.appendChild(host);
        const text = [root.innerText];
        root.querySelectorAll('[aria-label],[title]').forEach(e => {
            text.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
        });
        host.remove();
        return [document.title].concat(text).join('\\n');
    }""", [selector, ", ".join(s for s in (None if I18N else ENGINE_TEXT, skip) if s) or None])


def assert_french(page: Any, where: str, selector: str = "body", skip: str | None = None) -> None:
    assert page.evaluate("document.documentElement.lang") == "fr", where
    left = english_left(visible_text(page, selector, skip))
    assert not left, f"English on the French page {where}: {left}"


@pytest.fixture
def fr_page(browser: Any) -> Iterator[Any]:
    """A page whose browser asks for French (Accept-Language), failing on any script error."""
    with watched_page(browser, viewport={"width": 1280, "height": 900}, locale="fr-FR") as tab:
        yield tab


def shot(page: Any, name: str) -> Path:
    folder = SCREENSHOTS if screenshots_wanted() else Path(tempfile.gettempdir())
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    return path


def no_horizontal_scroll(page: Any) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide}px"


def test_the_phrase_list_is_real() -> None:
    phrases = english_phrases()
    assert "Where the points came from" in phrases
    assert "Settle the score" in phrases
    assert "Where the points came from" in english_left("Bruno — Where the points came from")
    assert english_left("D'où viennent les points") == []


def test_home_not_found_and_api_docs_in_french(fr_page: Any, server: Any, stored: Any) -> None:
    fr_page.goto(server.url + "/")  # Accept-Language: fr-FR
    assert fr_page.locator("h1").inner_text() == ("Réglez la question\u00a0: rejouez une partie, "
                                                  "coup par coup")
    # The recent games' titles are the players' own words (other tests store English ones).
    assert_french(fr_page, "/", skip=".user-title")
    assert fr_page.locator("#recent-games").count() == 1
    fr_page.click("#validate-button")
    fr_page.wait_for_selector("#upload-result p")
    assert "Le formulaire est vide" in fr_page.locator("#upload-result").inner_text()
    fr_page.click("[data-example=battle] [data-load-example]")
    fr_page.wait_for_function("() => document.getElementById('log-text').value.length > 100")
    fr_page.click("#validate-button")
    fr_page.wait_for_selector("#check-status")
    assert fr_page.locator("#check-status").inner_text() == "complète"
    assert_french(fr_page, "/ after a check", skip=".user-title")

    fr_page.goto(server.url + "/r/no-such-game")
    assert fr_page.locator("h1").inner_text() == "Aucune partie ici"
    assert_french(fr_page, "/r/no-such-game")

    fr_page.goto(server.url + "/api/v1/docs")
    assert fr_page.locator("h2").first.inner_text() == "Opérations"
    assert_french(fr_page, "/api/v1/docs", "h2, th, h4, .lang-switch, p:nth-of-type(2)")


@pytest.mark.parametrize("name", ["battle", "coop", "solo", "puzzle", "cube", "slap", "bloops",
                                  "illegal"])
def test_replay_pages_in_french_at_every_kind_of_step(fr_page: Any, server: Any, stored: Any,
                                                     name: str) -> None:
    fr_page.goto(f"{server.url}/r/{stored[name]['slug']}?lang=fr")
    fr_page.wait_for_selector("#result-status")
    last = int(fr_page.get_attribute("#step-slider", "max"))
    kinds_seen = set()
    for index in sorted({0, 1, 2, last // 3, last // 2, (2 * last) // 3, last - 1, last}):
        if index < 0:
            continue
        fr_page.evaluate("n => { window.location.hash = 'step=' + n; }", index)
        fr_page.wait_for_function("n => document.getElementById('viewer')?.dataset.step === n",
                                  arg=str(index))
        for button in fr_page.locator(".hand-toggle").all()[:2]:
            button.click()
        kinds_seen.add(fr_page.get_attribute("#step-note .kind", "data-kind"))
        assert fr_page.locator("#step-count").inner_text().startswith(f"Coup {index} / {last}")
        assert_french(fr_page, f"{name} step {index}")
    assert fr_page.locator("#result-panel h2").inner_text() == "Résultat"
    assert len(kinds_seen) >= 2


def test_recorder_in_french(fr_page: Any, server: Any) -> None:
    fr_page.set_viewport_size(PHONE)
    fr_page.goto(server.url + "/record?lang=fr")
    fr_page.wait_for_selector("#rec-game")
    assert fr_page.locator("[data-act=start]").inner_text() == "Commencer la saisie"
    assert_french(fr_page, "/record (setup)")
    for game, players in (("pop", ["Ana", "Ben"]), ("slap", ["Ana", "Ben"]),
                          ("bloops", ["Ana", "Ben"]), ("cube", ["Ana", "Ben"])):
        fr_page.evaluate("() => { localStorage.clear(); }")
        fr_page.goto(server.url + "/record")
        fr_page.select_option("#rec-game", game)
        for i, name in enumerate(players, start=1):
            fr_page.fill(f"#rec-player-{i}", name)
        fr_page.click("[data-act=start]")
        fr_page.wait_for_selector("#recorder[data-checked='1']")
        fr_page.wait_for_selector(".rp-panel .rp-box")
        assert_french(fr_page, f"/record ({game} entry)")
        no_horizontal_scroll(fr_page)
        if game == "pop":
            shot(fr_page, "recorder-fr.png")


def test_the_switch_keeps_the_step_and_the_share_links_keep_french(
        browser: Any, server: Any, stored: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    slug = stored["battle"]["slug"]
    page.goto(f"{server.url}/r/{slug}#step=7")
    page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '7'")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#step-count").inner_text().startswith("Step 7 /")
    with page.expect_navigation():  # the switch loads the page again, in the other language
        page.click(".lang-switch a[data-lang=fr]")
    page.wait_for_function("() => document.documentElement?.lang === 'fr'")
    page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '7'")
    assert page.locator("#step-count").inner_text().startswith("Coup 7 /")
    assert "lang=fr" in page.url and page.url.endswith("#step=7")
    page.evaluate("() => document.querySelector('[data-action=next]').click()")
    page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '8'")
    # the address people copy to share this moment keeps the language
    assert re.search(r"[?&]lang=fr(&|#)", page.url) and page.url.endswith("#step=8")
    assert "?lang=fr" in page.get_attribute("meta[property='og:url']", "content")
    whatif = page.locator("[data-act=whatif]")
    whatif.hover()
    assert "lang=fr" in whatif.get_attribute("href")
    # the cookie remembers French: the plain share link opens in French
    page.goto(f"{server.url}/r/{slug}#step=3")
    page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '3'")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert "lang=fr" in page.url  # added to the address, so a copy of it is French too
    # and back to English, still at the step
    with page.expect_navigation():  # the switch loads the page again, in the other language
        page.click(".lang-switch a[data-lang=en]")
    page.wait_for_function("() => document.documentElement?.lang === 'en'")
    page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '3'")
    assert page.locator("#step-count").inner_text().startswith("Step 3 /")
    assert "lang=fr" not in page.url
    context.close()


def test_french_replay_fits_a_phone(browser: Any, server: Any, stored: Any) -> None:
    context = browser.new_context(viewport=PHONE, locale="fr-FR", is_mobile=True, has_touch=True)
    page = context.new_page()
    for name in ("battle", "bloops", "slap", "cube"):
        page.goto(f"{server.url}/r/{stored[name]['slug']}#step=5")
        page.wait_for_function("() => document.getElementById('viewer')?.dataset.step === '5'")
        no_horizontal_scroll(page)
        if name == "battle":
            shot(page, "replay-fr-phone.png")
    context.close()


def test_storing_from_a_french_home_page_opens_a_french_share_link(fr_page: Any, server: Any) -> None:
    fr_page.goto(server.url + "/?lang=fr")
    fr_page.click("[data-example=solo] [data-load-example]")
    fr_page.wait_for_function("() => document.getElementById('log-text').value.length > 100")
    fr_page.click("#store-button")
    fr_page.wait_for_url(re.compile(r"/r/[^/?#]+\?lang=fr"))
    fr_page.wait_for_selector("#result-status")
    assert fr_page.locator("#result-status").inner_text() == "complète"
    assert_french(fr_page, "the stored game's page")
