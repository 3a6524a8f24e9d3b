"""A WSGI application that answers at once: tests/test_web_server.py runs it under the production gunicorn settings."""


def application(environ, start_response):
    """Answer 200 'ok' to anything."""
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
