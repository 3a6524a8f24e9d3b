"""One gzip member made of a long start compressed once and a short end compressed per request.

Every node of a pool gets the same 3 MB start (its tenants and ruleset) and its own few hundred
bytes after it. The start's deflate blocks end in a sync flush (byte-aligned, not final), so the
end's blocks, compressed on their own, follow them in one valid deflate stream, and the CRC-32
continues from the start's. One member, not two concatenated: curl 7.88 stops after the first.
"""

import struct
import zlib
from dataclasses import dataclass

LEVEL = 6  # zlib's default: 3 MB of ruleset JSON to 150 KB in about 30 ms, once per pool change
_RAW = -15  # deflate blocks without zlib's own header and trailer
_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # RFC 1952: deflate, no name, no time, unknown OS


@dataclass(frozen=True)
class Start:
    """The compressed start: its deflate blocks, the CRC-32 and the length of its plain bytes."""

    blocks: bytes
    crc: int
    size: int


def start(data: bytes, level: int = LEVEL) -> Start:
    """Compress the shared start once; its blocks stay open for an end to follow."""
    packer = zlib.compressobj(level, zlib.DEFLATED, _RAW)
    return Start(packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH), zlib.crc32(data), len(data))


def member(head: Start, end: bytes, level: int = LEVEL) -> bytes:
    """The gzip member of head's bytes followed by `end`; only `end` is compressed here."""
    packer = zlib.compressobj(level, zlib.DEFLATED, _RAW)
    blocks = packer.compress(end) + packer.flush()
    trailer = struct.pack("<II", zlib.crc32(end, head.crc), (head.size + len(end)) & 0xFFFFFFFF)
    return _HEADER + head.blocks + blocks + trailer
