"""The web client's files, served over plain HTTP GET on the websocket port.

``static_response(path, headers)`` answers a request path with a file of the
built client (``web/dist/``, or ``$DUEL_WEB_DIR``): ``/`` is ``index.html``.
It returns ``None`` for a path that names no file there, so the caller can
answer 404.  Paths are resolved inside the root only (no ``..``, no absolute
paths, no symlinks out of it, no hidden files); every answer carries an
``ETag`` and ``Cache-Control: no-cache`` (the file names are not hashed, so a
browser revalidates and gets ``304 Not Modified`` while nothing changed).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from urllib.parse import unquote

from websockets.datastructures import Headers
from websockets.http11 import Response

DEFAULT_ROOT = Path(__file__).resolve().parents[2] / "web" / "dist"

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".map": "application/json; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
}

# the page may load only its own files and open a websocket to this host
SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    (
        "Content-Security-Policy",
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
        "style-src 'self'; script-src 'self'; frame-ancestors 'none'",
    ),
)


@dataclass(frozen=True, slots=True)
class _File:
    body: bytes
    etag: str
    mtime_ns: int
    size: int


_cache: dict[Path, _File] = {}


def web_root() -> Path:
    env = os.environ.get("DUEL_WEB_DIR")
    return Path(env).resolve() if env else DEFAULT_ROOT


def resolve(path: str, root: Path | None = None) -> Path | None:
    """The file a request path names inside ``root``; None if it names none
    (or tries to leave the root)."""
    root = (root or web_root()).resolve()
    raw = unquote(path.split("?", 1)[0].split("#", 1)[0])
    if "\x00" in raw or "\\" in raw:
        return None
    parts = [p for p in raw.split("/") if p]
    if any(p in (".", "..") or p.startswith(".") for p in parts):
        return None
    candidate = root.joinpath(*parts) if parts else root / "index.html"
    try:
        real = candidate.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not real.is_relative_to(root) or not real.is_file():
        return None
    return real


def _load(real: Path) -> _File:
    st = real.stat()
    cached = _cache.get(real)
    if cached is not None and cached.mtime_ns == st.st_mtime_ns and cached.size == st.st_size:
        return cached
    body = real.read_bytes()
    f = _File(body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"', st.st_mtime_ns, st.st_size)
    _cache[real] = f
    return f


def static_response(path: str, request_headers: Headers | None = None, root: Path | None = None) -> Response | None:
    """A response for a GET of ``path``, or None when no file of the client matches."""
    root = root or web_root()
    bare = path.split("?", 1)[0]
    if not (root / "index.html").is_file():
        if bare in ("/", "/index.html"):
            body = (
                b"The web client is not built. Run `make run` (it builds web/ with npm), or `make web`, then reload.\n"
            )
            return _response(HTTPStatus.SERVICE_UNAVAILABLE, body, "text/plain; charset=utf-8", None)
        return None
    real = resolve(bare, root)
    if real is None:
        return None
    f = _load(real)
    ctype = CONTENT_TYPES.get(real.suffix.lower(), "application/octet-stream")
    if request_headers is not None and f.etag in request_headers.get("If-None-Match", ""):
        return _response(HTTPStatus.NOT_MODIFIED, b"", None, f.etag)
    return _response(HTTPStatus.OK, f.body, ctype, f.etag)


def _response(status: HTTPStatus, body: bytes, content_type: str | None, etag: str | None) -> Response:
    headers = Headers()
    if content_type is not None:
        headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-cache"
    if etag is not None:
        headers["ETag"] = etag
    for k, v in SECURITY_HEADERS:
        headers[k] = v
    return Response(status.value, status.phrase, headers, body)


__all__ = ["resolve", "static_response", "web_root"]
