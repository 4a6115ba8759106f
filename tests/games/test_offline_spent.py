"""The choices answer's ``spent`` (issue 24, docs/recorder.md "How drafts are kept"): what the page
takes out of the engine's last offers for the entries made offline. Its size is bounded, and it is
sound: over simulated games, what the last answer loses when it is narrowed by the next one or two
entries (as static/record.js narrows it, mirrored below) is never a card or value the engine itself
offers after those entries in the same list (narrowing never hides a possible entry)."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterator

import pytest

from popreplay.engine.games.bloops import BLOOPS
from popreplay.engine.games.bloops.choices import choices as bloops_choices
from popreplay.engine.games.cube import CUBE
from popreplay.engine.games.cube.choices import choices as cube_choices
from popreplay.engine.games.slap import SLAP
from popreplay.engine.games.slap.choices import choices as slap_choices

# the bound on `spent` in a JSON answer (bytes, compact; docs/recorder.md gives the figures)
CAPS = {"slap": 100, "cube": 300, "bloops": 340}


def visit(node: Any, tokens: list[str], fn: Callable[..., None], parent: Any = None,
          key: Any = None, wild: Any = None) -> None:
    if node is None:
        return
    if not tokens:
        fn(node, parent, key, wild)
        return
    head, rest = tokens[0], tokens[1:]
    if head != "*":
        inner = node[int(head)] if isinstance(node, list) else node.get(head)
        visit(inner, rest, fn, node, head if isinstance(node, dict) else int(head), wild)
        return
    keys = range(len(node)) if isinstance(node, list) else list(node)
    for k in keys:
        visit(node[k], rest, fn, node, k, (node, k))


def tokens(pointer: str) -> list[str]:
    return pointer[1:].split("/") if pointer else []


def counted(log: dict[str, Any], by: list[dict[str, Any]]) -> dict[str, int]:
    n: dict[str, int] = {}

    def take(item: Any, *_: Any) -> None:
        where = by_place.get("where") or {}
        if any(not isinstance(item, dict) or item.get(k) not in v for k, v in where.items()):
            return
        value = item.get(by_place["key"]) if by_place.get("key") else item
        for v in value if isinstance(value, list) else [value]:
            if v is not None and not isinstance(v, (dict, list)):
                n[str(v)] = n.get(str(v), 0) + 1
    for by_place in by:
        visit(log, tokens(by_place["at"]), take)
    return n


def narrowed(answer: dict[str, Any], before: dict[str, Any], draft: dict[str, Any]) -> dict[str, Any]:
    out = json.loads(json.dumps(answer))
    for rule in answer.get("spent") or []:
        was, now = counted(before, rule["by"]), counted(draft, rule["by"])
        left = rule.get("left") or {}
        gone = {v for v, k in now.items() if k - was.get(v, 0) >= left.get(v, 1)}

        def cut(lst: Any, parent: Any, key: Any, wild: Any) -> None:
            if not isinstance(lst, list):
                return
            kept = [v for v in lst if str(v) not in gone]
            if not kept and wild:
                del wild[0][wild[1]]
            else:
                parent[key] = kept
        visit(out, tokens(rule["offer"]), cut)
    return out


def lists(answer: dict[str, Any], pointer: str) -> dict[tuple[Any, ...], list[Any]]:
    found: dict[tuple[Any, ...], list[Any]] = {}

    def keep(lst: Any, parent: Any, key: Any, wild: Any) -> None:
        if isinstance(lst, list):
            found[(wild[1] if wild else None, key)] = lst
    visit(answer, tokens(pointer), keep)
    return found


def slap_drafts() -> Iterator[tuple[dict[str, Any], str]]:
    for seed in range(1, 3):
        full = SLAP.simulate(mode="timed", players=3, seed=seed, options={"deal": "none"})
        full.pop("claimed", None)
        for k in range(len(full["events"]) + 1):
            yield {**full, "events": full["events"][:k]}, "events"


def bloops_drafts() -> Iterator[tuple[dict[str, Any], str]]:
    for seed in range(1, 3):
        log = BLOOPS.simulate(mode="classic", players=3, seed=seed, options={})
        base = {k: v for k, v in log.items() if k not in ("claimed", "reveal")}
        for k in range(len(log["events"]) + 1):
            yield {**base, "events": log["events"][:k]}, "events"


GAMES = {"slap": (slap_choices, slap_drafts), "bloops": (bloops_choices, bloops_drafts)}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("ahead", [1, 2])
def test_the_narrowed_offers_keep_every_card_or_value_the_engine_offers_after(game, ahead):
    choices, drafts = GAMES[game]
    logs = list(drafts())
    compared = 0
    for before, after in zip(logs, logs[ahead:]):
        if len(after[0]["events"]) != len(before[0]["events"]) + ahead:
            continue  # another game
        answer, later = choices(before[0]), choices(after[0])
        if "spent" not in answer or "error" in later:
            continue
        if game == "slap" and (later["next"].get("flip") or {}).get("player") != answer["next"]["flip"]["player"]:
            continue  # another flipper's pile: other cards (the same pile is compared)
        last = lambda pointer: lists(answer, pointer)  # noqa: E731
        size = len(json.dumps(answer["spent"], separators=(",", ":")))
        assert size <= CAPS[game]
        mine = narrowed(answer, before[0], after[0])
        for rule in answer["spent"]:
            offered, truth = lists(mine, rule["offer"]), lists(later, rule["offer"])
            # what narrowing took out of the last offers is not offered by the engine after these
            # entries (the last offers themselves may miss a card a later place can take: docs)
            for where, values in truth.items():
                if where in offered:
                    hidden = set(last(rule["offer"])[where]) - set(offered[where])
                    assert not hidden & set(values), (game, where, hidden & set(values))
                    compared += 1
        if game == "slap" and "flip" in answer["next"]:  # the cards flipped since are gone
            flipped = {e["card"] for e in after[0]["events"][len(before[0]["events"]):] if "card" in e}
            assert not flipped & set(mine["next"]["flip"]["cards"])
    assert compared > 50


def test_cube_the_hand_offered_loses_the_cards_played_and_keeps_what_the_engine_offers():
    compared = 0
    for seed in range(1, 3):
        log = CUBE.simulate(mode="standard", players=3, seed=seed, options={})
        log.pop("claimed", None)
        for j, turn in enumerate(log["turns"]):
            events = turn.get("events") or []
            for k in range(len(events) - 1):
                head = {k2: v for k2, v in turn.items() if k2 != "events"}
                before = {**log, "turns": log["turns"][:j] + [{**head, "events": events[:k]}]}
                after = {**log, "turns": log["turns"][:j] + [{**head, "events": events[:k + 2]}]}
                answer, later = cube_choices(before), cube_choices(after)
                if "error" in later or "play" not in answer["next"] or "play" not in later["next"]:
                    continue
                assert len(json.dumps(answer["spent"], separators=(",", ":"))) <= CAPS["cube"]
                mine = narrowed(answer, before, after)["next"]["play"]["cards"]
                offered = {c for option in mine.values() for c in option["cards"]}
                truth = {c for option in later["next"]["play"]["cards"].values() for c in option["cards"]}
                held = {c for option in answer["next"]["play"]["cards"].values() for c in option["cards"]}
                assert truth & held <= offered  # what stays playable from the old hand stays offered
                gone = {e.get("play") for e in events[k:k + 2]}
                assert not gone & offered
                compared += 1
    assert compared > 10
