"""Tiny TCP/UDP listener and VXLAN injector for namespace tests; SO_BINDTODEVICE = `ip vrf exec`.

Clients are socat (topo.Topology.connect).
"""

import argparse
import socket
import struct
import sys


def _sock(udp: bool, dev: str) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM if udp else socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if dev:  # what the VRF cgroup program does for every socket of a session
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, dev.encode())
    return s


def listen(args) -> int:
    """Echo one TCP connection, or print every UDP datagram until idle."""
    s = _sock(args.udp, args.dev)
    s.bind((args.addr, args.port))
    if not args.udp:
        s.listen(8)
    print("READY", flush=True)
    s.settimeout(args.timeout)
    try:
        while True:
            if args.udp:
                data, peer = s.recvfrom(65535)
                print(f"GOT {data!r} from {peer[0]}", flush=True)
                continue
            conn, peer = s.accept()
            data = conn.recv(1024)
            conn.sendall(b"echo:" + data + f":from={peer[0]}".encode())
            conn.close()
            return 0  # one-shot, so the port is free for the next test
    except TimeoutError:
        return 0


def inject(args) -> int:
    """Send a UDP datagram carrying a VXLAN header with another tenant's VNI (attack)."""
    s = _sock(True, args.dev)
    vxlan = struct.pack("!II", 0x08000000, args.vni << 8)
    dst_mac = bytes.fromhex(args.inner_mac.replace(":", ""))
    inner_udp_payload = b"INJECTED"
    udp = struct.pack("!HHHH", 40000, args.inner_port, 8 + len(inner_udp_payload), 0)
    src, dst = socket.inet_aton(args.inner_src), socket.inet_aton(args.inner_dst)
    total = 20 + len(udp) + len(inner_udp_payload)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 1, 0, 64, 17, 0, src, dst)
    csum = sum(struct.unpack("!10H", hdr))
    csum = (csum & 0xFFFF) + (csum >> 16)
    hdr = hdr[:10] + struct.pack("!H", ~csum & 0xFFFF) + hdr[12:]
    frame = dst_mac + bytes.fromhex("020000000001") + b"\x08\x00" + hdr + udp
    for _ in range(args.count):
        s.sendto(vxlan + frame + inner_udp_payload, (args.host, args.port))
    return 0


def main() -> int:
    """CLI."""
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("listen")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--addr", default="0.0.0.0")  # noqa: S104 - test listener in a netns
    p.add_argument("--dev", default="")
    p.add_argument("--udp", action="store_true")
    p.add_argument("--timeout", type=float, default=120)
    p = sub.add_parser("inject")
    p.add_argument("host")
    p.add_argument("port", type=int)
    p.add_argument("--dev", default="")
    p.add_argument("--vni", type=int, required=True)
    p.add_argument("--inner-mac", required=True)
    p.add_argument("--inner-src", required=True)
    p.add_argument("--inner-dst", required=True)
    p.add_argument("--inner-port", type=int, required=True)
    p.add_argument("--count", type=int, default=3)
    args = ap.parse_args()
    return {"listen": listen, "inject": inject}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
