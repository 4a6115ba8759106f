from tests.queue.helpers import queue_env  # noqa: F401  (the broker leg's fixture)
from tests.webhooks.receiver import receiver  # noqa: F401  (the fixture)
