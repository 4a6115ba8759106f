from tests.queue.helpers import queue_env  # noqa: F401  (the fixture)
