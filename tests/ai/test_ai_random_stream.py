"""The deal sampler's own ``randbelow``/``shuffle`` draw exactly what ``random.Random`` would.

The compiled sampler calls ``getrandbits`` directly instead of ``randrange``/``shuffle``/``choice``
(interpreted methods of ``random.Random``); a seeded search must sample the same deals either way.
"""

from __future__ import annotations

import random

import pytest

from baloot.ai.deal_sampler import randbelow, shuffle


@pytest.mark.parametrize("seed", range(20))
def test_randbelow_is_randrange(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in [1, 2, 3, 5, 7, 8, 9, 31, 32, 33, 100, 2**40 + 3] * 20:
        assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.random() == theirs.random()  # the streams are still in step


@pytest.mark.parametrize("seed", range(20))
def test_shuffle_is_random_shuffle(seed: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    for size in range(0, 33):
        a = list(range(size))
        b = list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b


def test_choice_by_randbelow_is_random_choice() -> None:
    ours, theirs = random.Random(7), random.Random(7)
    seq = [3, 1, 4, 1, 5, 9, 2, 6]
    assert [seq[randbelow(ours, len(seq))] for _ in range(200)] == [theirs.choice(seq) for _ in range(200)]


class _Counting(random.Random):
    """A generator subclass: the sampler asks its own ``randrange``."""

    calls = 0

    def randrange(self, *args: object, **kwargs: object) -> int:
        self.calls += 1
        return super().randrange(*args, **kwargs)  # type: ignore[arg-type]


def test_other_generator_classes_use_their_randrange() -> None:
    rng = _Counting(1)
    assert 0 <= randbelow(rng, 10) < 10
    assert rng.calls == 1
