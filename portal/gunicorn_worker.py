"""gunicorn's gthread worker with the lingering close of a finished connection on the request's thread.

gunicorn 27 closes a connection that is not kept alive with util.close_graceful (RFC 9112 section
9.6: send FIN, then read until the client closes, up to 2 s) on the worker's event-loop thread.
While it waits, that process accepts and dispatches nothing: a few clients that read their answer
and keep the socket open (slow node agents, or anyone on purpose) stall every request of the
process for seconds (tests/test_web_server.py). Here the request's own thread does that wait,
bounded the same way, and the event loop only counts the connection as gone.
"""

from gunicorn import util
from gunicorn.workers import gthread


def _already_closed(graceful=False):
    """Stands in for TConn.close once the request's thread has closed the socket."""


class ThreadWorker(gthread.ThreadWorker):
    """gthread, except that a connection's lingering close never runs on the event loop."""

    def handle(self, conn):
        keepalive = super().handle(conn)
        if keepalive is False:  # not kept alive (and not deferred): finish_request would close it
            util.close_graceful(conn.sock)
            conn.close = _already_closed
        return keepalive
