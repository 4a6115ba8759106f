"""The replay's formats (``docs/log-format.md``, *Replay formats*): how the steps of a replay
carry the table after each step.

- **Format 1** (the engine's, ``popreplay replay --json``, ``?format=1`` of the API): every step
  has its whole ``state``. A long game repeats its whole table at every step (a 1,842-event slap
  game: 9 MB).
- **Format 2** (the API's and the replay page's default): the first step has its whole ``state``,
  every later one a ``state_patch``, the JSON Patch (RFC 6902: ``add``, ``remove``, ``replace``)
  that turns the step before's state into its own. Its size follows what changed, so a replay
  grows with the game, not faster. The result object says ``"replay_format": 2``.

Game-agnostic: any state of JSON values. :func:`state_patch` keeps object keys in order (a key
an ``add`` appends goes last, as in JavaScript and Python) and changes a list element by element
when few elements changed (a card off the top of a pile is one ``remove``), else as a whole;
:func:`with_states` and the page's ``withStates`` (``web/static/replay.js``) rebuild every step's
``state`` from them, byte for byte format 1 (``tests/test_replayformat.py``). Standard library only.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMATS", "LATEST", "apply_patch", "in_format", "is_latest", "state_patch",
           "with_states"]

FORMATS = (1, 2)
LATEST = 2


def in_format(result: dict[str, Any], replay_format: int) -> dict[str, Any]:
    """A replay (a result object with ``steps`` in format 1, as the engine gives it) in
    ``replay_format``: format 2 replaces each later step's ``state`` by its ``state_patch`` (the
    step's last key; the steps are changed in place) and says ``replay_format`` first (so that
    the first bytes of a stored replay say its format: :func:`is_latest`)."""
    if replay_format == 1:
        return result
    steps = result.get("steps")
    if isinstance(steps, list):
        previous: Any = None
        for number, step in enumerate(steps):
            state = step.get("state")
            if number:
                del step["state"]  # a step's last key: its patch takes its place
                step["state_patch"] = state_patch(previous, state)
            previous = state
    return {"replay_format": replay_format, **result}


LATEST_PREFIX = b'{"replay_format":%d,' % LATEST


def is_latest(encoded: bytes) -> bool:
    """Whether a replay encoded as compact JSON (:func:`in_format`, then ``jsonout.compact``) is
    in the latest format: what it starts with."""
    return encoded.startswith(LATEST_PREFIX)


def state_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """The JSON Patch operations that turn ``before`` into ``after`` (both JSON values)."""
    ops: list[dict[str, Any]] = []
    _diff(before, after, "", ops)
    return ops


def _diff(a: Any, b: Any, path: str, ops: list[dict[str, Any]]) -> None:
    if a is b:
        return
    if type(a) is dict and type(b) is dict:
        _diff_dict(a, b, path, ops)
    elif type(a) is list and type(b) is list:
        _diff_list(a, b, path, ops)
    elif type(a) is not type(b) or a != b:
        ops.append({"op": "replace", "path": path, "value": b})


def _diff_dict(a: dict[str, Any], b: dict[str, Any], path: str,
               ops: list[dict[str, Any]]) -> None:
    keys = list(b)
    if keys != list(a):
        kept = [key for key in a if key in b]
        added = [key for key in b if key not in a]
        if kept + added != keys:  # a key moves: only a whole object keeps the order
            ops.append({"op": "replace", "path": path, "value": b})
            return
        for key in a:
            if key not in b:
                ops.append({"op": "remove", "path": f"{path}/{_token(key)}"})
        for key in added:
            ops.append({"op": "add", "path": f"{path}/{_token(key)}", "value": b[key]})
        keys = kept
    # (what ``_diff`` does for each value, written out: most values are the same object)
    for key in keys:
        x, y = a[key], b[key]
        if x is y:
            continue
        kind = type(x)
        if kind is not type(y):
            ops.append({"op": "replace", "path": f"{path}/{_token(key)}", "value": y})
        elif kind is dict:
            _diff_dict(x, y, f"{path}/{_token(key)}", ops)
        elif kind is list:
            _diff_list(x, y, f"{path}/{_token(key)}", ops)
        elif x != y:
            ops.append({"op": "replace", "path": f"{path}/{_token(key)}", "value": y})


def _diff_list(a: list[Any], b: list[Any], path: str, ops: list[dict[str, Any]]) -> None:
    """A list changed in one stretch (what is before and after it is the same): the elements
    of that stretch removed and added one by one when they are fewer than half of ``b``, else
    the whole list replaced.

    Where the stretch is, is found at once (slices compared in C) when one list is the other with
    elements added or removed at one end (a card off the top of a pile, cards won under it), else
    narrowed from both ends."""
    length_a, length_b = len(a), len(b)
    start, end_a, end_b = 0, length_a, length_b
    if length_a == length_b:
        if _equal(a, b):
            return
    else:
        shorter, longer = (a, b) if length_a < length_b else (b, a)
        common = len(shorter)
        extra = len(longer) - common
        if _equal(longer[extra:], shorter):  # the extra elements are in front
            end_a, end_b = length_a - common, length_b - common
        elif _equal(longer[:common], shorter):  # at the end
            start = common
    # the loops narrow the stretch element by element: the same object, or equal and of one type
    # (written out: a function call per element was a third of a long slap game's patches)
    while start < end_a and start < end_b:
        x, y = a[start], b[start]
        if x is not y and (type(x) is not type(y) or x != y):
            break
        start += 1
    while end_a > start and end_b > start:
        x, y = a[end_a - 1], b[end_b - 1]
        if x is not y and (type(x) is not type(y) or x != y):
            break
        end_a -= 1
        end_b -= 1
    changes = (end_a - start) + (end_b - start)
    if changes * 2 > length_b:
        ops.append({"op": "replace", "path": path, "value": b})
        return
    for index in range(end_a - 1, start - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{index}"})
    for index in range(start, end_b):
        ops.append({"op": "add", "path": f"{path}/{index}", "value": b[index]})


def _equal(x: list[Any], y: list[Any]) -> bool:
    """Equal lists, as JSON too: Python's ``True == 1 == 1.0`` is told apart by the elements'
    types, compared for every element (a list of strings may hold a number further on); both
    in C, element by identity first."""
    return x == y and list(map(type, x)) == list(map(type, y))


def _token(key: str) -> str:
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def _keys(path: str) -> list[str]:
    return [part.replace("~1", "/").replace("~0", "~") for part in path.split("/")[1:]]


def apply_patch(state: Any, ops: list[dict[str, Any]]) -> Any:
    """``state`` after the operations of :func:`state_patch`, as a new value that shares with
    ``state`` every object and list the operations do not change (``state`` is not changed)."""
    fresh: set[int] = set()

    def own(node: Any) -> Any:
        if id(node) in fresh:
            return node
        copy = list(node) if type(node) is list else dict(node)
        fresh.add(id(copy))
        return copy

    for op in ops:
        keys = _keys(op["path"])
        if not keys:
            state = op["value"]
            continue
        state = own(state)
        node = state
        for key in keys[:-1]:
            index: Any = int(key) if type(node) is list else key
            node[index] = own(node[index])
            node = node[index]
        last = keys[-1]
        if type(node) is list:
            if op["op"] == "remove":
                del node[int(last)]
            elif op["op"] == "add":
                node.insert(len(node) if last == "-" else int(last), op["value"])
            else:
                node[int(last)] = op["value"]
        elif op["op"] == "remove":
            del node[last]
        else:
            node[last] = op["value"]
    return state


def with_states(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Format 2's steps back in format 1 (every step its whole ``state``), changed in place."""
    previous: Any = None
    for step in steps:
        if "state_patch" in step:
            state = apply_patch(previous, step["state_patch"])
            items = list(step.items())
            step.clear()
            for key, value in items:
                if key == "state_patch":
                    step["state"] = state
                else:
                    step[key] = value
        previous = step.get("state")
    return steps
