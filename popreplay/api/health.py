"""``/healthz`` (the process answers) and ``/readyz`` (the database answers), at the root and
under ``/api/v1``."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask_smorest import Blueprint
from sqlalchemy.exc import SQLAlchemyError

from ..db.session import get_database
from ..engine import ENGINE_VERSION
from .errors import RETRY_AFTER_SECONDS, error_response
from .schemas import HealthSchema, ReadySchema

bp = Blueprint("health", __name__, url_prefix="/api/v1", description="Liveness and readiness.")


def healthz() -> Any:
    return {"status": "ok", "engine": ENGINE_VERSION}


def readyz() -> Any:
    try:
        get_database().ping()
    except SQLAlchemyError:
        return error_response(503, "The database does not answer.",
                              headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
                              ready=False, database="unreachable")
    return {"ready": True, "database": "ok"}


@bp.route("/healthz")
@bp.response(200, HealthSchema)
def api_healthz() -> Any:
    """The process answers"""
    return healthz()


@bp.route("/readyz")
@bp.response(200, ReadySchema)
@bp.alt_response(503, description="The database does not answer: `ready` is false.")
def api_readyz() -> Any:
    """The database answers"""
    return readyz()


def init_root(app: Flask) -> None:
    app.add_url_rule("/healthz", "healthz", healthz)
    app.add_url_rule("/readyz", "readyz", readyz)

