#!/usr/bin/env python3
"""Does a warmed WAN connection forget over idle periods? (docs/transport.md, "WAN warm-up at the job's start")

One TCP connection with the congestion control CC set on the socket (TCP_CONGESTION): times 1 B, a fresh 64 KB,
a warm-up flight of WARM bytes and 64 KB right after it, then after each idle period 64 KB and 1 MiB; each timing
is from the send until the receiver's 1-byte reply, so a warm 64 KB costs one round trip. Run on gridbed with two
sites (a spec `sites = a b`, `hosts = 1`, a matrix `a,b,220`), as root:

  ./gridbed exec gb-b-0 python3 idle-forget.py serve 10.250.1.10 &          # one client at a time
  ./gridbed exec gb-a-0 python3 idle-forget.py run 10.250.1.10 bbr 2097152 0.5,2,5,15,40
  ./gridbed exec gb-a-0 python3 idle-forget.py run 10.250.1.10 cubic 2097152 0.5,2,5,15,40
  ip netns exec gb-a-0 sysctl -w net.ipv4.tcp_slow_start_after_idle=0      # then cubic again

Usage: idle-forget.py serve ADDR | idle-forget.py run ADDR CC WARM IDLE_S,IDLE_S,...
"""
import socket, struct, sys, time

PORT = 7777

def recv_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(min(1 << 20, n - len(buf)))
        if not chunk:
            raise EOFError
        buf += chunk
    return buf

def serve(addr):
    ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); ls.bind((addr, PORT)); ls.listen(8)
    while True:
        c, _ = ls.accept()
        try:
            while True:
                n = struct.unpack("!Q", recv_exact(c, 8))[0]
                recv_exact(c, n)
                c.sendall(b"k")
        except EOFError:
            c.close()

def timed(s, n):
    t = time.monotonic()
    s.sendall(struct.pack("!Q", n) + bytes(n))
    recv_exact(s, 1)
    return (time.monotonic() - t) * 1000

def run(addr, cc, warm, idles):
    s = socket.create_connection((addr, PORT))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, cc.encode())
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    rtt = timed(s, 1)
    print(f"{cc}: 1 B round trip {rtt:.1f} ms")
    print(f"{cc}: fresh 64 KB {timed(s, 65536):.1f} ms")
    print(f"{cc}: warm-up {warm} B {timed(s, warm):.1f} ms")
    print(f"{cc}: 64 KB right after {timed(s, 65536):.1f} ms")
    for idle in idles:
        time.sleep(idle)
        a = timed(s, 65536)
        b = timed(s, 1 << 20)
        print(f"{cc}: after {idle:5.1f} s idle: 64 KB {a:.1f} ms, then 1 MiB {b:.1f} ms")
    s.close()

if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3], int(sys.argv[4]), [float(x) for x in sys.argv[5].split(",")])
