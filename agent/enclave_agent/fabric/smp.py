"""Read many ports' P_Key tables in one process through libibmad (the library smpquery uses).

`smpquery pkeys` costs a process per port: 55 ms each on a 4,000-port simulated fabric, minutes
for the whole fabric. This module opens the local port once and sends the same SMPs (NodeInfo for
the table's size, then PKeyTable blocks) for every LID named on stdin, as `lid port` lines, and
prints {"lid:port": [entries]} (JSON). Run as `python -m enclave_agent.fabric.smp [--ca C] [--port P]`.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import sys

IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS = 0x01, 0x81, 0x03
IB_ATTR_NODE_INFO, IB_ATTR_PORT_INFO, IB_ATTR_PKEY_TBL = 0x11, 0x15, 0x16
CAPABILITY_MASK, IS_SM = 20, 0x2  # PortInfo offset of CapabilityMask (big-endian 32 bits); its IsSM bit
SMP_DATA = 64  # bytes of attribute data in an SMP: 32 table entries
PORTID_SIZE = 256  # ib_portid_t is ~116 bytes; zeroed, with the LID (its first int) set: LID routed
PARTITION_CAP = 28  # NodeInfo offset of PartitionCap (big-endian 16 bits)
MAX_BLOCKS = 2048  # a port's table is at most 65,536 entries


class SmpError(RuntimeError):
    """libibmad is missing or the local port cannot be opened."""


class Reader:
    """One open management port; `table(lid, port)` sends SMPs through it."""

    def __init__(self, ca: str | None = None, port: int = 0):
        try:
            self.lib = ctypes.CDLL("libibmad.so.5")
        except OSError as exc:
            raise SmpError(f"libibmad: {exc}") from None
        self.lib.mad_rpc_open_port.restype = ctypes.c_void_p
        self.lib.smp_query_via.restype = ctypes.c_void_p
        self.lib.smp_query_via.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint,
                                           ctypes.c_uint, ctypes.c_void_p]  # fmt: skip
        classes = (ctypes.c_int * 3)(IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS)
        self.port = self.lib.mad_rpc_open_port(ca.encode() if ca else None, port, classes, 3)
        if not self.port:
            raise SmpError("cannot open the local InfiniBand port for SMPs")

    def _query(self, lid: int, attr: int, mod: int) -> bytes | None:
        portid = ctypes.create_string_buffer(PORTID_SIZE)
        ctypes.c_int.from_buffer(portid).value = lid
        data = ctypes.create_string_buffer(SMP_DATA)
        if not self.lib.smp_query_via(data, portid, attr, mod, 0, ctypes.c_void_p(self.port)):
            return None
        return data.raw

    def is_sm(self, lid: int, port: int) -> bool | None:
        """Whether the port says an SM runs behind it (PortInfo CapabilityMask.IsSM), None on failure."""
        info = self._query(lid, IB_ATTR_PORT_INFO, port)
        if info is None:
            return None
        return bool(int.from_bytes(info[CAPABILITY_MASK : CAPABILITY_MASK + 4], "big") & IS_SM)

    def table(self, lid: int, port: int) -> list[int] | None:
        """The port's P_Key table (every entry, zeros included), or None when a query failed."""
        info = self._query(lid, IB_ATTR_NODE_INFO, 0)
        if info is None:
            return None
        size = int.from_bytes(info[PARTITION_CAP : PARTITION_CAP + 2], "big")
        entries: list[int] = []
        for block in range(min((size + 31) // 32, MAX_BLOCKS)):
            data = self._query(lid, IB_ATTR_PKEY_TBL, block | (port << 16))
            if data is None:
                return None
            entries += [int.from_bytes(data[i : i + 2], "big") for i in range(0, SMP_DATA, 2)]
        return entries[:size]


def main() -> int:
    """Tables for the `lid port` lines on stdin, as one JSON object."""
    ap = argparse.ArgumentParser(prog="enclave-fabric-smp")
    ap.add_argument("-C", "--ca")
    ap.add_argument("-P", "--port", type=int, default=0)
    args = ap.parse_args()
    try:
        reader = Reader(args.ca, args.port)
    except SmpError as exc:
        print(f"enclave-fabric-smp: {exc}", file=sys.stderr)
        return 2
    out = {}
    for line in sys.stdin:
        lid, port = (int(word) for word in line.split())
        out[f"{lid}:{port}"] = {"pkeys": reader.table(lid, port), "sm": reader.is_sm(lid, port)}
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
