"""The production web server configuration (portal/gunicorn_conf.py), run as gunicorn itself."""

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server():
    port = _free_port()
    env = dict(os.environ, ENCLAVE_BIND=f"127.0.0.1:{port}", ENCLAVE_WEB_WORKERS="1", ENCLAVE_WEB_THREADS="20")
    argv = [str(GUNICORN), "-c", "portal/gunicorn_conf.py", "tests.web_server_app:application"]
    process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield port
    process.terminate()
    process.wait(timeout=30)


def _get(port: int, close: bool) -> tuple[socket.socket, bytes]:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    header = "Connection: close\r\n" if close else ""
    sock.sendall(f"GET / HTTP/1.1\r\nHost: enclave\r\n{header}\r\n".encode())
    answer = b""
    while not answer.endswith(b"ok"):
        answer += sock.recv(4096)
    return sock, answer


def test_clients_that_read_their_answer_and_keep_the_socket_open_do_not_stall_other_requests(server):
    holders = []

    def hold():
        sock, answer = _get(server, close=True)
        holders.append(answer)
        time.sleep(3)  # a slow node agent, or a hostile client: the server's lingering close waits for it
        sock.close()

    threads = [threading.Thread(target=hold) for _ in range(5)]
    for thread in threads:
        thread.start()
    while len(holders) < 5:
        time.sleep(0.01)
    took = []
    for _ in range(5):
        start = time.perf_counter()
        sock, answer = _get(server, close=False)
        sock.close()
        took.append(time.perf_counter() - start)
        assert answer.startswith(b"HTTP/1.1 200")
    for thread in threads:
        thread.join()
    assert max(took) < 0.5, took  # gunicorn 27's own gthread worker: ~3 s each (the event loop lingers)


def test_a_connection_the_client_asked_to_close_is_closed_by_the_server_after_its_answer(server):
    sock, answer = _get(server, close=True)
    assert b"Connection: close" in answer or b"connection: close" in answer.lower()
    sock.settimeout(5)
    assert sock.recv(4096) == b""  # FIN from the server: the answer is complete and the socket is done
    sock.close()


def test_a_web_process_imports_every_view_before_its_first_request():
    script = ("import django, runpy, sys; django.setup()\n"
              "before = 'netpolicy.views' in sys.modules\n"
              "runpy.run_path('portal/gunicorn_conf.py')['post_worker_init'](None)\n"
              "print(before, 'netpolicy.views' in sys.modules)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
