"""The bank's digests of many keys at once: BLAKE2b with a 16-byte digest, compiled.

A class is indexed by the 128-bit BLAKE2b digest of its key
(:func:`sudokit.bank.rows.digest_of`, through ``hashlib``). A big add needs
one for every record, and ``hashlib`` costs an object and a call each;
:func:`digests` computes those of a whole block of keys of one length in one
compiled call, the same bytes (``tests/bank/test_digest.py`` compares them
with ``hashlib`` on keys of many lengths). The algorithm is RFC 7693's: no
key, no salt, digest length 16.
"""

from __future__ import annotations

import numpy as np

from ..engine.compiling import load_numba

load_numba()
from numba import njit  # noqa: E402

__all__ = ["digests", "warm"]

#: The initial chaining values (those of SHA-512).
_IV = np.array([0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
                0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179], dtype=np.uint64)
#: The message schedule of each round (rounds 10 and 11 repeat the first two).
_SIGMA = np.array([
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
], dtype=np.int64)
#: The digest's length in bytes.
SIZE = 16


@njit(cache=True, nogil=True, inline="always")
def _rotr(x, n):  # type: ignore[no-untyped-def]
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@njit(cache=True, nogil=True, inline="always")
def _g(a, b, c, d, x, y):  # type: ignore[no-untyped-def]
    """The mixing function G on four words of the state."""
    a = a + b + x
    d = _rotr(d ^ a, 32)
    c = c + d
    b = _rotr(b ^ c, 24)
    a = a + b + y
    d = _rotr(d ^ a, 16)
    c = c + d
    b = _rotr(b ^ c, 63)
    return a, b, c, d


@njit(cache=True, nogil=True)
def _compress(h, m, count, last, iv, sigma):  # type: ignore[no-untyped-def]
    """Mix the message block ``m`` (16 words) into the state ``h``; ``count`` bytes so far."""
    v0, v1, v2, v3, v4, v5, v6, v7 = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    v8, v9, v10, v11 = iv[0], iv[1], iv[2], iv[3]
    v12 = iv[4] ^ np.uint64(count)
    v13 = iv[5]
    v14 = ~iv[6] if last else iv[6]
    v15 = iv[7]
    for r in range(12):
        s = sigma[r % 10]
        v0, v4, v8, v12 = _g(v0, v4, v8, v12, m[s[0]], m[s[1]])
        v1, v5, v9, v13 = _g(v1, v5, v9, v13, m[s[2]], m[s[3]])
        v2, v6, v10, v14 = _g(v2, v6, v10, v14, m[s[4]], m[s[5]])
        v3, v7, v11, v15 = _g(v3, v7, v11, v15, m[s[6]], m[s[7]])
        v0, v5, v10, v15 = _g(v0, v5, v10, v15, m[s[8]], m[s[9]])
        v1, v6, v11, v12 = _g(v1, v6, v11, v12, m[s[10]], m[s[11]])
        v2, v7, v8, v13 = _g(v2, v7, v8, v13, m[s[12]], m[s[13]])
        v3, v4, v9, v14 = _g(v3, v4, v9, v14, m[s[14]], m[s[15]])
    h[0] ^= v0 ^ v8
    h[1] ^= v1 ^ v9
    h[2] ^= v2 ^ v10
    h[3] ^= v3 ^ v11
    h[4] ^= v4 ^ v12
    h[5] ^= v5 ^ v13
    h[6] ^= v6 ^ v14
    h[7] ^= v7 ^ v15


@njit(cache=True, nogil=True)
def blake2b16(words, length, out, iv, sigma):  # type: ignore[no-untyped-def]
    """``out[i]`` (16 bytes) the BLAKE2b digest of key ``i``: ``length`` bytes, given as the
    little-endian words of ``words[i]`` (the key padded with zeros to whole blocks of 128 bytes)."""
    h = np.empty(8, np.uint64)
    blocks = max(1, (length + 127) // 128)
    for i in range(words.shape[0]):
        for j in range(8):
            h[j] = iv[j]
        h[0] ^= np.uint64(0x01010000 | SIZE)
        for k in range(blocks):
            last = k == blocks - 1
            _compress(h, words[i, 16 * k:16 * k + 16], length if last else 128 * (k + 1), last, iv, sigma)
        for j in range(SIZE):
            out[i, j] = (h[j // 8] >> np.uint64(8 * (j % 8))) & np.uint64(255)


def digests(keys: "bytes | np.ndarray", length: int) -> tuple[bytes, np.ndarray]:
    """The 16-byte BLAKE2b digests of ``keys`` (keys of ``length`` bytes one after another,
    as bytes or an array of rows), one after another in one bytes object, and as an
    array of rows."""
    rows = np.frombuffer(keys, np.uint8) if isinstance(keys, (bytes, bytearray, memoryview)) else keys
    rows = np.asarray(rows, dtype=np.uint8).reshape(-1, length)
    padded = np.zeros((len(rows), max(1, -(-length // 128)) * 128), np.uint8)
    padded[:, :length] = rows
    out = np.empty((len(rows), SIZE), np.uint8)
    if len(rows):
        blake2b16(padded.view("<u8").astype(np.uint64, copy=False), length, out, _IV, _SIGMA)
    return out.tobytes(), out


def warm() -> None:
    """Compile (or load) the kernel."""
    digests(b"0" * 81, 81)
