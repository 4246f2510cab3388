# Builds one Zip archive of each oddity hpio tolerates (issue 20) with Python's zipfile, then changes bytes:
# a trailer after the end record, an entry name holding the Zip64 locator signature, bytes after the end of
# Deflate streams, a self-extractor's stub before the archive. For each archive X.zip, X.expected/<i> holds entry i's contents. Usage: python3 THIS OUT_DIR
import os, random, struct, sys, zipfile, zlib
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rnd = random.Random(20)
def text(n, seed):
    r = random.Random(seed)
    words = [b"alpha", b"beta", b"gamma", b"delta", b"zip", b"stream", b"\n"]
    b = bytearray()
    while len(b) < n:
        b += r.choice(words) + b" "
    return bytes(b[:n])
def expect(name, files):
    d = os.path.join(out, name + ".expected")
    os.makedirs(d, exist_ok=True)
    for i, data in enumerate(files):
        open(os.path.join(d, str(i)), "wb").write(data)

# 1. a trailer after the end of central directory record
files = [text(40000, 1), rnd.randbytes(5000)]
with zipfile.ZipFile(os.path.join(out, "trailer.zip"), "w") as z:
    z.writestr("a/one.txt", files[0], zipfile.ZIP_DEFLATED)
    z.writestr("a/two.bin", files[1], zipfile.ZIP_STORED)
with open(os.path.join(out, "trailer.zip"), "ab") as f:
    f.write(b"TRAILER-" * 40)
expect("trailer", files)

# 2. an entry name ending in the Zip64 locator signature, its comment the locator's 16 other bytes (all zero),
#    so that 20 bytes before the end record read as a locator pointing at offset 0
files = [text(3000, 2), text(7000, 3)]
with zipfile.ZipFile(os.path.join(out, "locator-name.zip"), "w") as z:
    z.writestr("first.txt", files[0], zipfile.ZIP_DEFLATED)
    info = zipfile.ZipInfo("names/PK\x06\x07")
    info.compress_type = zipfile.ZIP_DEFLATED
    info.comment = bytes(16)
    z.writestr(info, files[1])
expect("locator-name", files)

# 3. bytes after the end of each Deflate stream, inside the compressed size: written stored, then made Deflate
files = [text(2000, 4), text(900000, 5)]
junk = [b"\x00\x01\x02", b"JUNK" * 4]
path = os.path.join(out, "deflate-tail.zip")
with zipfile.ZipFile(path, "w") as z:
    for i, data in enumerate(files):
        c = zlib.compressobj(6, zlib.DEFLATED, -15)
        z.writestr("tail/%d.txt" % i, c.compress(data) + c.flush() + junk[i], zipfile.ZIP_STORED)
b = bytearray(open(path, "rb").read())
with zipfile.ZipFile(path) as z:
    infos = z.infolist()
end = b.rindex(b"PK\x05\x06")
directory = struct.unpack_from("<I", b, end + 16)[0]
p = directory
for i, info in enumerate(infos):
    local = info.header_offset
    crc, size = zlib.crc32(files[i]), len(files[i])
    struct.pack_into("<H", b, local + 8, 8)
    struct.pack_into("<II", b, local + 14, crc, struct.unpack_from("<I", b, local + 18)[0])
    struct.pack_into("<I", b, local + 22, size)
    struct.pack_into("<H", b, p + 10, 8)
    struct.pack_into("<I", b, p + 16, crc)
    struct.pack_into("<I", b, p + 24, size)
    p += 46 + sum(struct.unpack_from("<HHH", b, p + 28))
open(path, "wb").write(b)
expect("deflate-tail", files)

# 4. bytes before the archive (a self-extractor's stub), its offsets counting from where the archive starts
files = [text(5000, 6), rnd.randbytes(3000), text(12000, 7)]
with zipfile.ZipFile(os.path.join(out, "prefix.tmp"), "w") as z:
    z.writestr("sfx/one.txt", files[0], zipfile.ZIP_DEFLATED)
    z.writestr("sfx/two.bin", files[1], zipfile.ZIP_STORED)
    z.writestr("sfx/three.txt", files[2], zipfile.ZIP_DEFLATED)
stub = b"#!/bin/sh\necho 'a self-extractor would unpack itself here'\nexit 0\n" + bytes(100)
with open(os.path.join(out, "prefix.zip"), "wb") as f:
    f.write(stub + open(os.path.join(out, "prefix.tmp"), "rb").read())
os.remove(os.path.join(out, "prefix.tmp"))
expect("prefix", files)
