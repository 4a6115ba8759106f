"""A group's webhooks (docs/webhooks.md): when a game of the group is stored, corrected, signed
off, disputed or removed, a small signed JSON event is posted to each of the group's URLs.

* :mod:`~popreplay.webhooks.signing`: the signature header (HMAC-SHA256 of timestamp and body)
  and how a receiver checks it.
* :mod:`~popreplay.webhooks.hooks`: making, listing and deleting a group's hooks (checked URLs,
  a bounded count, the secret shown once), their delivery logs, a test event.
* :mod:`~popreplay.webhooks.delivery`: :func:`~popreplay.webhooks.delivery.emit`, the one way an
  event goes out, and one attempt of a delivery, retried with exponential backoff on the task
  queue when a broker is set, in threads of this process otherwise (the same function).

Nothing here imports the HTTP layer, the store or the groups' use cases: they call ``emit``.
"""
