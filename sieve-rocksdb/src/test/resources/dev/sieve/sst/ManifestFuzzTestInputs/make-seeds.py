# Writes the crafted seeds of ManifestFuzzTestInputs/fuzz with an encoder independent of the Java
# reader (its own CRC32C, log framing and VersionEdit tags): python3 make-seeds.py fuzz
# (ManifestTest.readsLogsWrittenByAnIndependentEncoder replays two of them.)
import struct, sys
POLY=0x82F63B78
T=[]
for i in range(256):
    c=i
    for _ in range(8):
        c = (c>>1)^POLY if c&1 else c>>1
    T.append(c)
def crc32c(b, crc=0):
    crc ^= 0xffffffff
    for x in b:
        crc = T[(crc ^ x) & 0xff] ^ (crc >> 8)
    return crc ^ 0xffffffff
def mask(c): return ((((c>>15)|(c<<17)) & 0xffffffff) + 0xa282ead8) & 0xffffffff
def varint(v):
    out=bytearray()
    while v>=0x80:
        out.append((v&0x7f)|0x80); v>>=7
    out.append(v); return bytes(out)
def lp(b): return varint(len(b))+b
def ikey(u, seq): return u + struct.pack('<Q', (seq<<8)|1)
class Log:
    def __init__(s, recyclable=False, num=7):
        s.out=bytearray(); s.rec=recyclable; s.num=num
    def add(s, p):
        h=11 if s.rec else 7
        pos=0; begin=True
        while True:
            left=32768-len(s.out)%32768
            if left<h:
                s.out+=bytes(left); left=32768
            n=min(left-h, len(p)-pos); end=pos+n==len(p)
            t=1 if begin and end else 2 if begin else 4 if end else 3
            if s.rec: t+=4
            hdr=bytearray(h); hdr[4]=n&0xff; hdr[5]=n>>8; hdr[6]=t
            if s.rec: hdr[7:11]=struct.pack('<I', s.num)
            c=crc32c(bytes(hdr[6:h])+p[pos:pos+n])
            hdr[0:4]=struct.pack('<I', mask(c))
            s.out+=hdr+p[pos:pos+n]; pos+=n; begin=False
            if pos>=len(p): break
        return s
def nf4(level, num, size, a, b, epoch):
    return varint(103)+varint(level)+varint(num)+varint(size)+lp(ikey(a,10))+lp(ikey(b,20))+varint(10)+varint(20)+varint(13)+lp(varint(epoch))+varint(1)
cmp=varint(1)+lp(b'leveldb.BytewiseComparator')
# the entries RocksDB requires somewhere in a MANIFEST: log number (2), last sequence (4)
req=varint(2)+varint(4)+varint(4)+varint(99)
# 1: spanning blocks
big=b''.join(nf4(1+i%3, 100+i, 5000, b'k%05d'%i, b'k%05da'%i, i) for i in range(1500))
open(sys.argv[1]+'/spanning-blocks','wb').write(bytes(Log().add(cmp+req+varint(3)+varint(2000)).add(big).out))
# 2: recyclable, cf add/drop, delete, ignorable tags
l=Log(True, 42)
l.add(cmp+req+varint(3)+varint(10))
l.add(varint(200)+varint(1)+varint(201)+lp(b'users')+cmp)
l.add(varint(200)+varint(1)+nf4(0,5,100,b'a',b'z',1)+nf4(2,6,100,b'a',b'm',2))
l.add(varint(200)+varint(1)+varint(6)+varint(0)+varint(5)+nf4(1,5,100,b'a',b'z',1))
l.add(varint(8193)+lp(b'db-id-123')+varint(8192+77)+lp(b'xyz')+nf4(3,9,1,b'b',b'c',3))
l.add(varint(200)+varint(2)+varint(201)+lp(b'gone'))
l.add(varint(200)+varint(2)+varint(202))
open(sys.argv[1]+'/recyclable-cf-add-drop','wb').write(bytes(l.out))
# 3: framed mode seed (first byte odd): raw edits separated by FF FE
edits=[cmp+req+varint(3)+varint(50), varint(200)+varint(1)+varint(201)+lp(b'users')+cmp,
       nf4(0,5,100,b'a',b'z',1)+nf4(2,6,100,b'a',b'm',2)+varint(200)+varint(1),
       varint(6)+varint(0)+varint(5)+nf4(1,5,100,b'a',b'z',1)+varint(200)+varint(1),
       varint(400)+varint(9)+varint(1)+varint(2)+lp(b'')+lp(b'')+varint(1)+varint(8196)+varint(3)+varint(2)+varint(10)+varint(1)]
open(sys.argv[1]+'/framed-edits','wb').write(bytes([1])+b'\xff\xfe'.join(edits))
