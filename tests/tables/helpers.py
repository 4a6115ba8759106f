"""Driving a table through the API as its phones would (Flask test client)."""

from __future__ import annotations

import itertools
from typing import Any

from tests.conftest import simulated

API = "/api/v1/tables"
_ids = itertools.count(1)


def game_log(seed: int = 1) -> dict[str, Any]:
    """A simulated 3-player POP! battle with hands: the cards each phone enters."""
    log = simulated("battle", 3, seed=seed)
    assert all("hands" in r for r in log["rounds"])
    return log


def start_of(log: dict[str, Any]) -> dict[str, Any]:
    return {k: log[k] for k in ("format", "game", "mode", "players")} | {"rounds": []}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    def __init__(self, client: Any, log: dict[str, Any], *, hands: bool = True) -> None:
        self.client, self.log = client, log
        made = client.post(API, json={"log": start_of(log), "record_hands": hands})
        assert made.status_code == 201, made.get_json()
        self.created = made.get_json()
        self.id = self.created["table"]
        self.host = self.created["host_token"]
        self.key = self.created["join_key"]
        self.seats: dict[str, str] = {}
        self.seen: dict[str, int] = {}

    def join(self, player: str) -> Any:
        answer = self.client.post(f"{API}/{self.id}/seats", json={"player": player},
                                  headers=bearer(self.key))
        if answer.status_code == 201:
            self.seats[player] = answer.get_json()["seat_token"]
        return answer

    def token(self, who: str) -> str:
        return self.host if who == "host" else self.seats[who]

    def view(self, who: str) -> dict[str, Any]:
        token = self.key if who == "watch" else self.token(who)
        return self.client.get(f"{API}/{self.id}", headers=bearer(token)).get_json()

    def send(self, who: str, entry: dict[str, Any], *, seen: int | None = None,
             entry_id: str | None = None) -> Any:
        if seen is None:
            seen = self.view(who)["seq"]
        return self.client.post(f"{API}/{self.id}/entries", headers=bearer(self.token(who)),
                                json={"id": entry_id or f"e{next(_ids)}", "seen": seen,
                                      "entry": entry})

    def part(self, who: str, kind: str, slots: dict[int, list[Any]], **kw: Any) -> Any:
        return self.send(who, {"type": "part", "entry": kind,
                               "slots": {str(k): v for k, v in slots.items()}}, **kw)

    def deal(self, index: int) -> list[Any]:
        """Round ``index``: the host enters the layout, each seat its own hand."""
        rnd = self.log["rounds"][index]
        names = self.log["players"]
        answers = [self.part("host", "round", {r: row for r, row in
                                               enumerate(rnd["layout"])})]
        rows = len(rnd["layout"])
        for k, name in enumerate(names):
            answers.append(self.part(name, "round", {rows + k: rnd["hands"][name]}))
        return answers

    def turn(self, round_index: int, turn_index: int) -> list[Any]:
        turn = self.log["rounds"][round_index]["turns"][turn_index]
        names = self.log["players"]
        answers = [self.part(name, "turn", {k: turn["plays"][name]})
                   for k, name in enumerate(names)]
        if "chief" in turn:
            answers.append(self.part("host", "turn", {len(names): turn["chief"]}))
        return answers
