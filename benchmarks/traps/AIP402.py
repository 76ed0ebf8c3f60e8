"""AIP402: 32 requests to a local server that answers in 20 ms: a sequential loop vs 16 threads."""

import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from _timing import compare, report


class Slow(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the http.server API names it so
        time.sleep(0.02)  # the remote end's latency
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args: object) -> None:
        pass


ThreadingHTTPServer.request_queue_size = 64  # the default backlog of 5 would drop concurrent connects
server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
threading.Thread(target=server.serve_forever, daemon=True).start()
urls = [f"http://127.0.0.1:{server.server_port}/item/{i}" for i in range(32)]


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read()


def sequential() -> list:
    return [fetch(u) for u in urls]


def threaded() -> list:
    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(fetch, urls))


slow, fast = compare(sequential, threaded, repeat=3)
report("AIP402", "32 requests of 20 ms latency", "sequential loop", "16 threads", slow, fast)
server.shutdown()
