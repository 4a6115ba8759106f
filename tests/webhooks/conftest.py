from tests.webhooks.receiver import receiver  # noqa: F401  (the fixture)
