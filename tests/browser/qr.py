"""Read a QR code back from a chromium screenshot (PNG) with zxing-cpp: the test's own small PNG
reader (8-bit RGB/RGBA, not interlaced: what chromium writes) gives zxing-cpp the grey pixels."""
from __future__ import annotations

import struct
import zlib


def _unfilter(raw: bytes, width: int, height: int, bpp: int) -> bytearray:
    stride = width * bpp
    out = bytearray(stride * height)
    pos = 0
    for y in range(height):
        kind = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        above = out[(y - 1) * stride:y * stride] if y else bytearray(stride)
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = above[x]
            corner = above[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + pred) & 0xFF
        out[y * stride:(y + 1) * stride] = line
    return out


def png_grey(png: bytes) -> tuple[bytes, int, int]:
    """The PNG's pixels as one grey byte each, and its width and height."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, [], None
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        data = png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", data)
        elif kind == b"IDAT":
            chunks.append(data)
    width, height, depth, colour, _c, _f, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, header
    bpp = 3 if colour == 2 else 4
    pixels = _unfilter(zlib.decompress(b"".join(chunks)), width, height, bpp)
    grey = bytes((pixels[i] * 299 + pixels[i + 1] * 587 + pixels[i + 2] * 114) // 1000
                 for i in range(0, len(pixels), bpp))
    return grey, width, height


def read_qr(png: bytes) -> str:
    """The text of the QR code in the screenshot ("" when none is found)."""
    import zxingcpp

    grey, width, height = png_grey(png)
    found = zxingcpp.read_barcode(memoryview(grey).cast("B", (height, width)),
                                  formats=zxingcpp.BarcodeFormat.QRCode)
    return found.text if found else ""
