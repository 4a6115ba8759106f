"""The pages' language (web/lang.py, docs/i18n.md): ?lang=, then the cookie, then
Accept-Language, then English; the cookie is set by ?lang=; pages vary on what chose them."""

from __future__ import annotations

from typing import Any

import pytest

from popreplay.web.lang import negotiate

from .test_pages import example_bytes, store_log


@pytest.mark.parametrize(("query", "accept", "cookie", "lang"), [
    (None, None, None, "en"),
    ("fr", None, None, "fr"),
    ("FR", None, None, "fr"),
    ("de", None, None, "en"),
    ("de", "fr-CA,fr;q=0.9", None, "fr"),  # an unknown ?lang= is ignored, not a choice
    (None, "fr-FR,fr;q=0.9,en;q=0.8", None, "fr"),
    (None, "en-GB,en;q=0.9,fr;q=0.8", None, "en"),
    (None, "de-DE,de;q=0.9,fr;q=0.5", None, "fr"),
    (None, "fr;q=0,en", None, "en"),
    (None, "fr;q=0.3,en;q=0.7", None, "en"),
    (None, "garbage;;q=x,,", None, "en"),
    (None, "fr-FR", "en", "en"),  # the cookie beats the browser
    ("fr", "en", "en", "fr"),  # the address beats the cookie
    (None, None, "fr", "fr"),
    (None, None, "xx", "en"),
])
def test_negotiate(query: str | None, accept: str | None, cookie: str | None, lang: str) -> None:
    assert negotiate(query, accept, cookie) == lang


def test_pages_follow_the_choice_and_remember_it(client: Any) -> None:
    english = client.get("/")
    assert '<html lang="en">' in english.get_data(as_text=True)
    assert {"Cookie", "Accept-Language"} <= set(english.vary)
    french = client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    html = french.get_data(as_text=True)
    assert '<html lang="fr">' in html and "Réglez la question" in html
    assert "Set-Cookie" not in french.headers  # only an explicit ?lang= is remembered

    chosen = client.get("/?lang=fr")
    assert "lang=fr" in chosen.headers["Set-Cookie"]
    assert "SameSite=Lax" in chosen.headers["Set-Cookie"]
    again = client.get("/r/nothing-here")  # the test client keeps the cookie
    assert again.status_code == 404
    assert "Aucune partie ici" in again.get_data(as_text=True)
    back = client.get("/?lang=en", headers={"Accept-Language": "fr"})
    assert '<html lang="en">' in back.get_data(as_text=True)
    assert "lang=en" in back.headers["Set-Cookie"]


def test_the_switch_links_keep_the_path_and_the_query(client: Any) -> None:
    html = client.get("/record?from=abc&step=4&lang=fr").get_data(as_text=True)
    assert 'href="/record?from=abc&amp;step=4&amp;lang=en"' in html
    assert 'href="/record?from=abc&amp;step=4&amp;lang=fr"' in html
    assert 'aria-current="true" data-lang="fr"' in html


def test_a_french_replay_page(client: Any) -> None:
    stored = store_log(client, example_bytes("battle"))
    html = client.get(f"/r/{stored['slug']}?lang=fr").get_data(as_text=True)
    assert "3 joueurs\u00a0: Alice, Bruno, Chloé" in html
    assert "POP! · compétitif ·" in html
    # the link preview a chat shows for a French share link
    assert '<meta property="og:description" content="POP! compétitif · ' in html
    assert "· 3 joueurs · " in html
    assert f'content="http://localhost/r/{stored["slug"]}?lang=fr"' in html  # og:url
    assert "/assets/i18n/fr.js?v=" in html
    assert '<span class="badge status-complete">complète</span>' in html
    script = client.get("/assets/i18n/fr.js").get_data(as_text=True)
    assert '"Where the points came from": "D\'où viennent les points"' in script


def test_the_dictionary_is_cached_by_its_version(client: Any) -> None:
    html = client.get("/?lang=fr").get_data(as_text=True)
    src = html.split('<link rel="modulepreload" href="', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert src.startswith("/assets/i18n/fr.js?v=")
    versioned = client.get(src)
    assert versioned.status_code == 200
    assert "immutable" in versioned.headers["Cache-Control"]
    assert versioned.mimetype == "text/javascript"
    plain = client.get("/assets/i18n/fr.js")
    assert "no-cache" in plain.headers["Cache-Control"]
    assert client.get("/assets/i18n/de.js").status_code == 404
    english = client.get("/assets/i18n/en.js").get_data(as_text=True)
    assert '"messages": {}' in english


def test_api_docs_chrome_in_french(client: Any) -> None:
    html = client.get("/api/v1/docs?lang=fr").get_data(as_text=True)
    assert "<html lang=fr>" in html
    assert "<h2>Opérations</h2>" in html and "<h2>Schémas</h2>" in html
    assert "<th>paramètre</th>" in html
    assert "<html lang=en>" in client.get("/api/v1/docs?lang=en").get_data(as_text=True)


def test_the_replay_page_links_the_rules_in_the_readers_language(db_url: str) -> None:
    from popreplay import create_app
    from popreplay.db.session import get_database
    from tests.conftest import migrated_app

    apps = migrated_app(db_url)
    app = next(apps)
    client = app.test_client()
    stored = store_log(client, example_bytes("battle"))
    served = any(r.rule.startswith("/rules/<") for r in app.url_map.iter_rules())
    html = client.get(f"/r/{stored['slug']}?lang=fr").get_data(as_text=True)
    assert ("rules-link" in html) == served  # no rules pages served: no dead link
    other = create_app({"DATABASE_URL": db_url, "TESTING": True, "SECRET_KEY": "test",
                        "PUBLIC_BASE_URL": None})
    if not served:
        other.add_url_rule("/rules/<game>", "rules_stand_in", lambda game: game)
    client = other.test_client()
    html = client.get(f"/r/{stored['slug']}?lang=fr").get_data(as_text=True)
    assert '<a href="/fr/rules/pop" class="rules-link">les règles appliquées</a>' in html
    html = client.get(f"/r/{stored['slug']}?lang=en").get_data(as_text=True)
    assert '<a href="/rules/pop" class="rules-link">the rules as applied</a>' in html
    get_database(other).dispose()
    next(apps, None)


def test_replays_are_rendered_through_the_i18n_layer_once_per_game_and_language(
        client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay page hands what it embeds to ``popreplay.i18n.localize`` (a stand-in here,
    counting its calls) in French, keeps the rendered replay, and leaves English alone."""
    import json

    from popreplay.caching import BoundedCache
    from popreplay.web import views

    calls: list[bool] = []

    def fake_localize(result: dict[str, Any], lang: str) -> dict[str, Any]:
        calls.append("steps" in result)
        out = json.loads(json.dumps(result))
        for step in out.get("steps") or []:
            step["note"] = f"[{lang}] " + step["note"]
        return out

    monkeypatch.setattr(views, "_localize", fake_localize)
    monkeypatch.setattr(views, "_localized_texts",
                        BoundedCache(max_bytes=views.LOCALIZED_CACHE_BYTES))
    stored = store_log(client, example_bytes("battle"))

    def embedded(lang: str) -> dict[str, Any]:
        html = client.get(f"/r/{stored['slug']}?lang={lang}").get_data(as_text=True)
        data = html.split('<script type="application/json" id="replay-data">', 1)[1]
        return json.loads(data.split("</script>", 1)[0])

    first = embedded("fr")
    assert first["result"]["steps"][1]["note"].startswith("[fr] ")
    assert calls.count(True) == 1  # the replay with its steps, once
    second = embedded("fr")
    assert second == first and calls.count(True) == 1  # kept: not rendered again
    english = embedded("en")
    assert not english["result"]["steps"][1]["note"].startswith("[")
    assert calls.count(True) == 1
    example = client.get("/examples/coop?lang=fr").get_data(as_text=True)
    assert "[fr] " in example
