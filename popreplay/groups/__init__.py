"""Groups (docs/groups.md): a club's members, games, tokens, ratings and statistics, one module
per use case, each a function given its session and what it acts on, returning values:

* :mod:`~popreplay.groups.access`: creating a group, its capabilities (admin token, invite key,
  API tokens with scopes) and what a request may do with them (:class:`Access`).
* :mod:`~popreplay.groups.members`: members, their aliases, renaming and merging.
* :mod:`~popreplay.groups.games`: a game joining a group, its names mapped to members.
* :mod:`~popreplay.groups.ratings`: OpenSkill (Plackett–Luce) ratings in played order,
  recomputed from the changed point.
* :mod:`~popreplay.groups.stats`: leaderboards, a member's statistics, head-to-head, streaks.

Nothing here imports the HTTP layer; refusals are :class:`~popreplay.groups.errors.Refused`
values (a code, a sentence and a JSON Pointer) that the API and the pages turn into answers.
"""
