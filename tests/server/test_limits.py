"""Which address a connection counts against, and the per-address budgets (pure)."""

from __future__ import annotations

from websockets.datastructures import Headers

from server.runtime.limits import AddressLimits, client_address, forwarded_for


def test_a_trusted_proxy_names_the_client_and_nobody_else_can() -> None:
    proxy = ("10.1.2.3", 5555)
    assert client_address(proxy, "203.0.113.7", ("10.0.0.0/8",)) == "203.0.113.7"
    assert client_address(proxy, "spoofed, 198.51.100.2", ("10.0.0.0/8",)) == "198.51.100.2"  # the proxy's own hop
    assert client_address(("198.51.100.9", 1), "203.0.113.7", ("10.0.0.0/8",)) == "198.51.100.9"  # not trusted
    assert client_address(proxy, "203.0.113.7", ()) == "10.1.2.3"
    assert client_address(proxy, None, ("10.0.0.0/8",)) == "10.1.2.3"


def test_connections_and_frames_are_counted_per_address() -> None:
    limits = AddressLimits(rate=1, max_connections=2)
    for _ in range(2):
        assert not limits.full("a")
        limits.enter("a")
    assert limits.full("a") and not limits.full("b")
    assert limits.take("a") and limits.take("a") and not limits.take("a")  # a burst of 2, then empty
    limits.leave("a")
    assert not limits.full("a")


def test_a_header_sent_twice_is_one_list_and_its_last_hop_counts() -> None:
    """Two X-Forwarded-For lines are one comma-joined list (RFC 9110 5.3): the proxy's own hop is
    the last of the last line. ``Headers.get`` raised on them, failing the handshake."""
    twice = Headers([("X-Forwarded-For", "spoofed"), ("X-Forwarded-For", "203.0.113.7")])
    assert forwarded_for(twice) == "spoofed, 203.0.113.7"
    assert client_address(("10.1.2.3", 1), forwarded_for(twice), ("10.0.0.0/8",)) == "203.0.113.7"
    assert forwarded_for(Headers()) is None and forwarded_for(None) is None
