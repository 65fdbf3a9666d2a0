"""Swiss pairings: each round, players of similar score meet, no pair twice while another
pairing is possible, and with an odd number of players one bye, rare and fair.

The rules, each before the next:

1. **The bye** (odd number of players) goes to a player with the fewest byes so far, so
   nobody has a second bye while another player has had none.
2. **No rematch** while a pairing of the round without one exists; past that, the pairs that
   met fewest times (``met`` may count the meetings).
3. **Similar scores**: the smallest sum of squared score differences over the pairs; the
   bye to the lowest score among those who may have it.
4. **Ties** are broken by ``seed``: one seed, one pairing.

The rules are weights of one maximum-weight perfect matching (networkx's blossom
algorithm), each rule's weight larger than everything the later rules can add up to.

**What a bye is worth**: :data:`BYE_SHARE` of the pairing's points (half: as if every
game were drawn) in the score that pairs the next rounds, shown apart from the points the
games earned; it is not a game, so the ratings never see it.

>>> pair_round(["a", "b", "c"], {"a": 2, "b": 1, "c": 0}, met=set(), byes={}, seed=1)
([('a', 'b')], 'c')
>>> pair_round(["a", "b", "c"], {"a": 2, "b": 1, "c": 0}, met={frozenset("ab")},
...            byes={"c": 1}, seed=1)
([('a', 'c')], 'b')
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence

import networkx as nx

__all__ = ["pair_round", "BYE_SHARE"]

BYE_SHARE = 0.5  # of the pairing's points, in the score that pairs the next rounds
_BYE = object()


def pair_round(players: Sequence[str], scores: Mapping[str, float],
               met: Collection[frozenset[str]] | Mapping[frozenset[str], int],
               byes: Mapping[str, int], *,
               seed: int | str) -> tuple[list[tuple[str, str]], str | None]:
    """One round: the pairs (higher score first) and the player with the bye (None for an
    even number of players). ``scores`` are the pairing scores so far (points, byes
    included), ``met`` the pairs that have played (or how many times each), ``byes`` how
    many byes each player has had (missing: none)."""
    if len(set(players)) != len(players):
        raise ValueError("pair_round: a player is named twice")
    missing = [p for p in players if p not in scores]
    if missing:
        raise ValueError(f"pair_round: no score for {missing[0]!r}")
    if len(players) < 2:
        return [], (players[0] if players else None)
    times = met if isinstance(met, Mapping) else dict.fromkeys(met, 1)
    most = max(times.values(), default=0) + 1  # a pair that never met: most fresh
    rng = random.Random(seed)
    order = list(players)
    rng.shuffle(order)
    nodes: list[object] = [*order, _BYE] if len(order) % 2 else list(order)
    half = {p: round(2 * scores[p]) for p in order}  # scores count in halves
    fewest = min(byes.get(p, 0) for p in order)
    low = min(half.values())
    spread = max(half.values()) - low
    c_max = (spread * spread + 1)
    jitter = 1000  # ties: a random amount below one unit of a score difference
    unit = jitter * len(nodes)
    fresh = (len(nodes) // 2 + 1) * c_max * unit + 1
    fair = (len(nodes) // 2 + 1) * (most * fresh + c_max * unit) + 1
    graph = nx.Graph()
    for n, a in enumerate(nodes):
        for m in range(n + 1, len(nodes)):
            b = nodes[m]
            if b is _BYE:
                assert isinstance(a, str)
                cost = (half[a] - low) ** 2
                bonus = fair * (byes.get(a, 0) == fewest) + fresh
            else:
                assert isinstance(a, str) and isinstance(b, str)
                cost = (half[a] - half[b]) ** 2
                bonus = fresh * (most - times.get(frozenset((a, b)), 0))
            weight = bonus + (c_max - cost) * unit + rng.randrange(jitter)
            graph.add_edge(n, m, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    place = {p: (-scores[p], n) for n, p in enumerate(players)}
    pairs, bye = [], None
    for i, j in matching:
        a, b = nodes[i], nodes[j]
        if a is _BYE or b is _BYE:
            bye = b if a is _BYE else a
            continue
        assert isinstance(a, str) and isinstance(b, str)
        pairs.append((a, b) if place[a] < place[b] else (b, a))
    pairs.sort(key=lambda ab: place[ab[0]])
    assert bye is None or isinstance(bye, str)
    return pairs, bye
