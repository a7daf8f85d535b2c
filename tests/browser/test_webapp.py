"""server/process/webapp.py: the built client at /, with the right types and caching,
nothing outside web/dist, and websockets still accepted on any path."""

from __future__ import annotations

import http.client
from pathlib import Path

from browser_env import LiveServer

from protocol.messages import ListMatches, MatchList
from server.clients.client import DuelClient
from server.process.webapp import resolve, static_response, web_root


def get(server: LiveServer, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def test_the_client_is_served_at_the_root(live_server: LiveServer) -> None:
    status, headers, body = get(live_server, "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b'<div id="app">' in body and b"app.js" in body
    assert b"http://" not in body and b"https://" not in body  # nothing from elsewhere
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, body = get(live_server, "/app.js")
    assert status == 200 and headers["content-type"] == "text/javascript; charset=utf-8"
    assert int(headers["content-length"]) == len(body) > 1000
    status, headers, _ = get(live_server, "/style.css?v=2")
    assert status == 200 and headers["content-type"] == "text/css; charset=utf-8"
    # revalidation: the same ETag gets 304 and no body
    etag = headers["etag"]
    status, _, body = get(live_server, "/style.css", {"If-None-Match": etag})
    assert status == 304 and body == b""


def test_nothing_outside_the_build_folder_is_served(live_server: LiveServer) -> None:
    for path in (
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/..%2fpyproject.toml",
        "/%2e%2e%2f%2e%2e%2fetc/passwd",
        "//etc/passwd",
        "/.gitignore",
        "/..\\pyproject.toml",
        "/app.js%00.html",
        "/no-such-file.js",
    ):
        status, _, body = get(live_server, path)
        assert status == 404, (path, status)
        assert b"[project]" not in body and b"root:" not in body
    assert get(live_server, "/healthz")[0] == 200
    assert get(live_server, "/metrics")[0] == 200


def test_resolve_stays_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "dist"
    root.mkdir()
    (root / "index.html").write_text("<p>hi</p>")
    (root / "a.js").write_text("1")
    (tmp_path / "secret.txt").write_text("no")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert resolve("/", root) == (root / "index.html").resolve()
    assert resolve("/a.js", root) == (root / "a.js").resolve()
    assert resolve("/link.txt", root) is None  # a symlink out of the root
    assert resolve("/../secret.txt", root) is None
    assert resolve("/%2E%2E/secret.txt", root) is None
    assert resolve(str(tmp_path / "secret.txt"), root) is None
    missing = static_response("/", None, tmp_path / "not-built")
    assert missing is not None and missing.status_code == 503 and b"make run" in missing.body
    assert static_response("/a.js", None, tmp_path / "not-built") is None
    assert web_root().name == "dist"


def test_a_websocket_upgrade_works_on_any_path(live_server: LiveServer) -> None:
    async def body() -> None:
        for path in ("/", "/index.html", "/some/deep/path", "/app.js"):
            c = await DuelClient.connect(live_server.ws + path, "ws-any-path")
            await c.send(ListMatches())
            await c.expect(MatchList)
            await c.close()

    live_server.call(body())
