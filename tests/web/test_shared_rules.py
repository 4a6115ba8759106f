"""The apps of one process share their URL builders (``popreplay.app.SharedRule``): every rule of
a second app builds exactly the URLs werkzeug's own rule builds, and takes the first app's
compiled builder instead of compiling its own."""

from __future__ import annotations

from typing import Any

from werkzeug.routing import AnyConverter, Map, PathConverter, Rule
from werkzeug.routing.converters import NumberConverter

from popreplay.app import SharedRule
from tests.conftest import made_app


def _config(tmp_path: Any, name: str) -> dict[str, Any]:
    return {"DATABASE_URL": f"sqlite:///{tmp_path / name}", "TESTING": True,
            "SECRET_KEY": "test", "PUBLIC_BASE_URL": None}


def _values(rule: Rule) -> dict[str, Any]:
    """A value each of the rule's converters takes, quoted where it can be."""
    values: dict[str, Any] = {}
    for name, converter in rule._converters.items():
        if isinstance(converter, NumberConverter):
            values[name] = 7
        elif isinstance(converter, PathConverter):
            values[name] = "a/b c"
        elif isinstance(converter, AnyConverter):
            values[name] = converter.items[0]
        else:
            values[name] = "x y/é"
    return values


def test_a_second_app_builds_every_url_as_werkzeug_does_with_the_first_apps_builders(tmp_path):
    with made_app(_config(tmp_path, "one.sqlite")) as first, \
            made_app(_config(tmp_path, "two.sqlite")) as second:
        assert second.url_rule_class is SharedRule
        earlier = {(rule.rule, rule.endpoint): rule for rule in first.url_map.iter_rules()}
        plain_map = Map(converters=dict(second.url_map.converters))
        rules = list(second.url_map.iter_rules())
        assert len(rules) > 50
        shared = 0
        for rule in rules:
            plain = Rule(rule.rule, endpoint=rule.endpoint, defaults=rule.defaults,
                         methods=rule.methods, subdomain=rule.subdomain, host=rule.host)
            plain_map.add(plain)
            values = _values(rule)
            for append_unknown in (False, True):
                extra = {"q": "1 2", "lang": "fr"} if append_unknown else {}
                assert rule.build({**values, **extra}, append_unknown) == \
                    plain.build({**values, **extra}, append_unknown), rule.rule
            before = earlier[(rule.rule, rule.endpoint)]
            if before._build.__func__ is rule._build.__func__:
                shared += 1
            else:  # compiled for itself only when a variable has a default
                assert any(name in (rule.defaults or {}) for name in rule._converters)
        assert shared >= len(rules) - 2


def test_rules_with_other_parts_never_share_a_builder():
    url_map = Map()
    a = SharedRule("/games/<slug>/replay", endpoint="a")
    b = SharedRule("/games/<slug>/log", endpoint="b")
    c = SharedRule("/games/<int:slug>/replay", endpoint="c")
    for rule in (a, b, c):
        url_map.add(rule)
    assert a.build({"slug": "x"}) == ("", "/games/x/replay")
    assert b.build({"slug": "x"}) == ("", "/games/x/log")
    assert c.build({"slug": 3}) == ("", "/games/3/replay")
    assert len({a._build.__func__, b._build.__func__, c._build.__func__}) == 3
    again = SharedRule("/games/<int:slug>/replay", endpoint="c")
    Map().add(again)
    assert again._build.__func__ is c._build.__func__
    assert again.build({"slug": 12}) == ("", "/games/12/replay")
