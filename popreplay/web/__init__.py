"""The replay viewer and the upload page: server-rendered pages plus a little plain JavaScript.

``bp`` serves ``/`` (recent public games, the upload form, the examples), ``/r/<slug>`` (a stored
game's annotated replay) and ``/examples/<mode>`` (the shipped example games). The pages read
games through :mod:`popreplay.store` and upload through the JSON API. See ``docs/viewer.md``.
"""

from .views import bp

__all__ = ["bp"]
