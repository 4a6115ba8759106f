"""Service commands (serve, db, import, export, revalidate), attached to the main group."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add the service commands to ``group``."""
