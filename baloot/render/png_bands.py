"""PNG encoding in horizontal bands, each compressed once and kept (issue 9: the table picture's cost).

A picture of the table differs from the one before it in a few places (a card
played, the plate of the seat to play), so most of its rows are the rows of an
earlier picture. :class:`BandedPng` cuts an image's rows into bands of
:data:`BAND_ROWS`; the caller names each band by a key (what is drawn across
its rows), and a band not seen lately is filtered (type 0, "None", on every
row, as Pillow writes palette images) and compressed on its own: a raw deflate
stream ending on a byte boundary (``Z_FULL_FLUSH``), the last band's with the
final block. Such streams follow one another into one zlib stream (RFC 1950,
1951), whose Adler-32 is combined from the bands' own (:func:`adler32_combine`,
zlib's). A band met again costs a dictionary look-up instead of its share of
the compression, about 0.85 ms per picture in all.

The file is what Pillow writes for an 8-bit palette image: ``IHDR``, ``PLTE``,
one ``IDAT``, ``IEND``.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Final

BAND_ROWS: Final = 30
"""Rows per band: a card in the trick spans four bands, a name plate three."""
LEVEL: Final = 3  # zlib's level, as Pillow's compress_level=3
SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE: Final = 65521


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's and the second's length (zlib's
    ``adler32_combine``)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC-32 of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


class BandedPng:
    """Encodes ``width`` × ``height`` images of palette indices in ``palette`` (RGB triplets), keeping the
    latest ``keep`` compressed bands (2048: about 2 MB; 100 tables' pictures find half their bands kept,
    ``scripts/bench_pictures.py --tables 100``). Thread-safe."""

    def __init__(self, width: int, height: int, palette: bytes, keep: int = 2048) -> None:
        if not 0 < len(palette) <= 768 or len(palette) % 3:
            raise ValueError("a PNG palette holds 1 to 256 RGB colours")
        self.width, self.height, self.keep = width, height, keep
        self.bands = (height + BAND_ROWS - 1) // BAND_ROWS
        self._head = SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)) + chunk(
            b"PLTE", palette)
        self._kept: OrderedDict[Hashable, tuple[bytes, int, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def rows(self, band: int) -> range:
        """The rows band ``band`` holds."""
        return range(band * BAND_ROWS, min((band + 1) * BAND_ROWS, self.height))

    def encode(self, keys: Sequence[Hashable], pixels: Callable[[], bytes]) -> bytes:
        """The PNG of the image whose band ``i`` is named ``keys[i]``: band ``i`` under the same key again must
        be the same rows (a key names a band's content at its place; other bands may use it for theirs).

        ``pixels()`` gives the whole image, one byte per pixel, row after row; it is called once if any band
        is not kept, else not at all.
        """
        if len(keys) != self.bands:
            raise ValueError(f"{len(keys)} band keys for {self.bands} bands")
        image: bytes | None = None
        parts = [b"\x78\x5e"]  # zlib's header: deflate, 32 KiB window, a fast level
        adler = 1
        for band, key in enumerate(keys):
            last = band == self.bands - 1
            with self._lock:
                kept = self._kept.get((band, key))
                if kept is not None:
                    self._kept.move_to_end((band, key))
                    self.hits += 1
            if kept is None:
                if image is None:
                    image = pixels()
                    if len(image) != self.width * self.height:
                        raise ValueError("pixels() must give width × height bytes")
                kept = self._compress(image, band, last)
                with self._lock:
                    self.misses += 1
                    self._kept[(band, key)] = kept
                    if len(self._kept) > self.keep:
                        self._kept.popitem(last=False)
            deflated, band_adler, length = kept
            parts.append(deflated)
            adler = band_adler if band == 0 else adler32_combine(adler, band_adler, length)
        parts.append(struct.pack(">I", adler))
        return self._head + chunk(b"IDAT", b"".join(parts)) + chunk(b"IEND", b"")

    def _compress(self, image: bytes, band: int, last: bool) -> tuple[bytes, int, int]:
        """Band ``band``'s rows, each after its filter byte (0), as raw deflate; its Adler-32 and length."""
        width = self.width
        filtered = b"".join(b"\x00" + image[row * width:(row + 1) * width] for row in self.rows(band))
        deflate = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        deflated = deflate.compress(filtered) + deflate.flush(zlib.Z_FINISH if last else zlib.Z_FULL_FLUSH)
        return deflated, zlib.adler32(filtered), len(filtered)

    def size(self) -> int:
        """How many compressed bands are kept."""
        return len(self._kept)

    def clear(self) -> None:
        """Forget every kept band."""
        with self._lock:
            self._kept.clear()
