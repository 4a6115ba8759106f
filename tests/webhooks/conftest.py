import gc
import warnings
from typing import Iterator

import pytest

from popreplay.webhooks import delivery
from tests.queue.helpers import queue_env  # noqa: F401  (the broker leg's fixture)
from tests.webhooks.receiver import receiver  # noqa: F401  (the fixture)


@pytest.fixture(autouse=True)
def deliveries_stopped() -> Iterator[None]:
    """After each test (its app disposed by then): no delivery thread or retry timer left, and
    the connections such a thread opened after the app's pool was disposed collected now, not
    in whichever later test the garbage collector happens to run (a ResourceWarning there)."""
    yield
    delivery.stop()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
