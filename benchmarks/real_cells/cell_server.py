"""A local stand-in for the remote services the cells call: every answer waits LATENCY ms first.

    python cell_server.py LATENCY_MS        # prints the port on its first line, then serves until killed

Run as its own process, so its threads are not the cell's threads. Paths:
  GET  /item/<k>                 JSON {"id": k, "value": ...}
  GET  /page/<k>?last=<n>        JSON {"items": [...], "next": k + 1 or null}: one page of a cursor API
  GET  /status/<k>               JSON {"done": true once asked k times}: a job to poll
  GET  /weather/<year>/<month>   a month of hourly readings as CSV
  POST /api/chat                 JSON {"message": {"content": "<a score>"}}: a local model server
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

LATENCY_S = float(sys.argv[1]) / 1000 if len(sys.argv) > 1 else 0.01
POLLS: dict[str, int] = {}


def weather_csv(year: int, month: int) -> bytes:
    rows = ["Date/Time,Temp (C),Dew Point Temp (C),Rel Hum (%),Wind Spd (km/h),Weather"]
    for day in range(1, 29):
        for hour in range(24):
            temp = round(-10 + month * 2.5 + (hour % 12) * 0.4 - day * 0.05, 1)
            rows.append(f"{year}-{month:02d}-{day:02d} {hour:02d}:00,{temp},{temp - 4.2},{60 + hour % 30},"
                        f"{(day * hour) % 40},{'Snow' if temp < 0 else 'Clear'}")
    return ("\n".join(rows) + "\n").encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once, not 40 ms apart

    def _send(self, body: bytes, kind: str = "application/json") -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # the http.server API names it so
        time.sleep(LATENCY_S)
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        if parts[:1] == ["weather"] and len(parts) == 3:
            self._send(weather_csv(int(parts[1]), int(parts[2])), "text/csv")
        elif parts[:1] == ["page"] and len(parts) == 2:
            k = int(parts[1])
            last = int(parse_qs(url.query).get("last", ["50"])[0])
            items = [{"id": k * 20 + i, "score": (k * 20 + i) % 97} for i in range(20)]
            self._send(json.dumps({"items": items, "next": k + 1 if k + 1 < last else None}).encode())
        elif parts[:1] == ["blob"] and len(parts) == 2:  # a file to download: <kilobytes> of bytes
            self._send(bytes(range(256)) * (int(parts[1]) * 4), "application/octet-stream")
        elif parts[:1] == ["status"] and len(parts) == 2:
            POLLS[self.path] = POLLS.get(self.path, 0) + 1
            self._send(json.dumps({"done": POLLS[self.path] >= int(parts[1])}).encode())
        else:
            key = parts[-1] if parts else "0"
            self._send(json.dumps({"id": key, "value": sum(map(ord, key)) % 101}).encode())

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        time.sleep(LATENCY_S)
        score = 50 + len(body) % 50
        self._send(json.dumps({"message": {"role": "assistant", "content": str(score)}, "done": True}).encode())

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    ThreadingHTTPServer.request_queue_size = 128
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
