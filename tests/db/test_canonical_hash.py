"""``canonical_hash`` walks the log to make its strings NFC only when that changes something
(issue 35): whatever the log, the hash is the one of the log made NFC everywhere."""

from __future__ import annotations

import hashlib
import json
import random

from popreplay.store.tokens import canonical, canonical_hash

PIECES = ["e", "\u0301", "\u00e9", "A\u030a", "\u212b", "Chlo\u00e9", "Chloe\u0301", "\ufb01", "~",
          "/", "\"", "\\", "\u0000", "\ud800", "Ω", "\u1e9b\u0323", "한", "\u1100\u1161", " "]


def reference(data: object) -> str:
    text = json.dumps(canonical(data), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 5)))


def value(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return text(rng)
    if kind == 1:
        return rng.choice([0, 1, 2.5, True, None])
    if kind == 2:
        return rng.randrange(100)
    if kind == 3:
        return [value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {text(rng): value(rng, depth + 1) for _ in range(rng.randrange(4))}


def test_the_hash_is_the_hash_of_the_nfc_log():
    rng = random.Random(35)
    for _ in range(3000):
        data = {"players": [text(rng) for _ in range(3)], "meta": value(rng)}
        assert canonical_hash(data) == reference(data)


def test_two_spellings_of_one_name_are_one_game():
    assert canonical_hash({"name": "Chlo\u00e9"}) == canonical_hash({"name": "Chloe\u0301"})
    assert canonical_hash({"Chloe\u0301": 1}) == canonical_hash({"Chlo\u00e9": 1})
    assert canonical_hash({"name": "Chloe"}) != canonical_hash({"name": "Chlo\u00e9"})
