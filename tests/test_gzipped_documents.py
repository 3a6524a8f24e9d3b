"""A document's gzip member: the pool's start compressed once, each node's end joined to it per request."""

import gzip
import os
import zlib

import pytest

from agents import gzipped


@pytest.mark.parametrize(("start", "end"), [(b"", b"}"), (b"{" * 100_000, b"x" * 70_000), (os.urandom(50_000), b"tail"),
                                            (b'{"tenants":[],', os.urandom(40_000))])  # fmt: skip
def test_the_start_and_end_make_one_gzip_member_of_both(start, end):
    data = gzipped.member(gzipped.start(start), end)
    unpacker = zlib.decompressobj(31)
    assert unpacker.decompress(data) == start + end
    assert unpacker.eof and unpacker.unused_data == b""  # one member: clients that read only one get all
    assert gzip.decompress(data) == start + end


def test_one_start_serves_many_ends_and_is_not_changed_by_them():
    head = gzipped.start(b"shared " * 10_000)
    for node in ("a", "b" * 5000, ""):
        assert gzip.decompress(gzipped.member(head, node.encode())) == b"shared " * 10_000 + node.encode()
