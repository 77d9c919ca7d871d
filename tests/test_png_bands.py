"""PNG encoding by kept bands (issue 9, baloot/render/png_bands.py): a valid PNG of exactly the given pixels,
whichever bands were kept from earlier images, with the compression done once per band."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from baloot.render.png_bands import BAND_ROWS, SIGNATURE, BandedPng, adler32_combine

PALETTE = bytes(range(256)) * 3  # 256 colours


@given(st.binary(max_size=3000), st.binary(max_size=3000))
def test_adler32_combine_is_zlibs(first: bytes, second: bytes) -> None:
    assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks, each CRC checked."""
    assert png.startswith(SIGNATURE)
    out, at = [], len(SIGNATURE)
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        out.append((kind, data))
        at += 12 + length
    return out


def image_of(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def check(png: bytes, pixels: bytes, width: int, height: int, palette: bytes) -> None:
    """``png`` is a well-formed 8-bit palette PNG of exactly ``pixels``: as zlib and as Pillow read it."""
    kinds = chunks(png)
    assert [k for k, _ in kinds] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert kinds[0][1] == struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0) and kinds[1][1] == palette
    raw = zlib.decompress(kinds[2][1])  # checks the combined Adler-32 too
    assert raw == b"".join(b"\x00" + pixels[r * width:(r + 1) * width] for r in range(height))
    image = image_of(png)
    assert image.mode == "P" and image.size == (width, height) and image.tobytes() == pixels
    assert bytes(image.getpalette() or []) == palette


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 5 * BAND_ROWS + 7), st.integers(0, 2**32))
def test_any_image_is_encoded_exactly(width: int, height: int, seed: int) -> None:
    rng = random.Random(seed)
    pixels = bytes(rng.randrange(256) if rng.random() < 0.3 else 7 for _ in range(width * height))
    encoder = BandedPng(width, height, PALETTE)
    check(encoder.encode([("k", band) for band in range(encoder.bands)], lambda: pixels), pixels, width, height,
          PALETTE)


def test_kept_bands_are_reused_and_only_the_changed_ones_compressed() -> None:
    """The bot's case: an image whose bands mostly repeat an earlier one's. Kept bands are not recomputed -
    pixels() is not even called when every band is kept - and the file is still exactly the new image."""
    width, height = 64, 4 * BAND_ROWS
    encoder = BandedPng(width, height, PALETTE[:48])
    rng = random.Random(5)
    first = bytearray(rng.randrange(16) for _ in range(width * height))
    keys = ["a", "b", "c", "d"]
    check(encoder.encode(keys, lambda: bytes(first)), bytes(first), width, height, PALETTE[:48])
    assert (encoder.hits, encoder.misses) == (0, 4)

    def no_pixels() -> bytes:
        raise AssertionError("every band is kept")

    assert encoder.encode(keys, no_pixels) == encoder.encode(keys, no_pixels)
    second = bytearray(first)
    second[2 * BAND_ROWS * width + 5] ^= 1  # a pixel of band 2 changes: only its key changes
    calls: list[int] = []

    def pixels() -> bytes:
        calls.append(1)
        return bytes(second)

    png = encoder.encode(["a", "b", "c2", "d"], pixels)
    assert calls == [1] and encoder.misses == 5
    check(png, bytes(second), width, height, PALETTE[:48])
    # a key names a band's content at its own place only: the same key for another band is another entry
    swapped = encoder.encode(["b", "a", "c", "d"], lambda: bytes(first))
    check(swapped, bytes(first), width, height, PALETTE[:48])


def test_only_keep_bands_are_kept_and_wrong_input_is_refused() -> None:
    encoder = BandedPng(8, 2 * BAND_ROWS, PALETTE[:6], keep=3)
    for n in range(4):
        encoder.encode([n, n], lambda: bytes(8 * 2 * BAND_ROWS))
    assert encoder.size() == 3
    with pytest.raises(ValueError, match="band keys"):
        encoder.encode([1], lambda: bytes(8 * 2 * BAND_ROWS))
    with pytest.raises(ValueError, match="width × height"):
        encoder.encode(["x", "y"], lambda: bytes(5))
    for palette in (b"", b"\x00" * 4, b"\x00" * 771):
        with pytest.raises(ValueError, match="palette"):
            BandedPng(8, 8, palette)
    encoder.clear()
    assert encoder.size() == 0
