"""The bank's compiled digests against hashlib's BLAKE2b, and the compiled numbering of
distinct strings against a dict."""

from __future__ import annotations

import hashlib
import random

import numpy as np

from sudokit.bank.digest import digests
from sudokit.bank.rows import digest_of
from sudokit.bank.scan import intern


def test_digests_are_hashlibs_blake2b_for_keys_of_any_length():
    rng = random.Random(26)
    for length in (1, 15, 16, 17, 63, 64, 81, 127, 128, 129, 200, 256, 257, 400):
        keys = bytes(rng.randrange(256) for _ in range(length * 7))
        raw, rows = digests(keys, length)
        expected = b"".join(hashlib.blake2b(keys[i:i + length], digest_size=16).digest()
                            for i in range(0, len(keys), length))
        assert raw == expected and rows.tobytes() == expected, length


def test_the_digest_of_a_key_is_the_banks():
    key = ".......12....324.5.25..436.....7.5.....5891.65.62.3....543....11.3....5.26......3"
    assert digests(key.encode(), 81)[0] == digest_of(key)
    assert digests(b"", 81)[0] == b""


def test_intern_numbers_distinct_strings_in_the_order_first_met():
    rng = random.Random(5)
    words = [rng.choice(["a", "bb", "ab", "ba", "", "abc", "b"]) for _ in range(300)]
    absent = {i for i in range(300) if rng.random() < 0.1}
    buf = np.frombuffer("".join(words).encode(), np.uint8)
    ends = np.cumsum([len(w) for w in words]).astype(np.int64)
    starts = ends - [len(w) for w in words]
    starts[sorted(absent)] = -1
    ids, firsts = np.empty(300, np.int64), np.empty(300, np.int64)
    count = intern(buf, starts, ends, ids, firsts)
    order: dict[str, int] = {}
    for i, word in enumerate(words):
        if i not in absent:
            order.setdefault(word, len(order))
    assert count == len(order)
    assert [ids[i] for i in range(300)] == [-1 if i in absent else order[w] for i, w in enumerate(words)]
    assert [words[j] for j in firsts[:count]] == list(order)
