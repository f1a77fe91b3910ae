"""Type stub of the C module engine/solver/_native.c (the fixpoint, probe, dead-end test)."""

class Tables:
    """A search's constant arrays: each instance's card, row and other copy."""

def tables(card: list[int], row_of: list[int], partner: list[int], /) -> Tables: ...
def fixpoint(
    tables: object,
    cnt: list[int],
    home: list[bool],
    sp: list[int],
    mis: list[list[int]],
    deals: int,
    arrive: list[int],
    seqs: list[list[int]],
    last: int,
    fill_by: list[int],
    after: dict[int, int],
    hold: int,
    until: int,
    base: list[int] | None,
    late: int,
    trace: list[int] | None,
    /,
) -> list[int] | None: ...
def can_end_phase(
    tables: object,
    cnt: list[int],
    home: list[bool],
    sp: list[int],
    res: list[list[int]],
    mis: list[list[int]],
    soon: list[int],
    deals: int,
    waiting: bytes,
    due: bytes,
    /,
) -> bool: ...
def probe(
    tables: object,
    cnt: list[int],
    home: list[bool],
    sp: list[int],
    mis: list[list[int]],
    deals: int,
    arrive: list[int],
    seqs: list[list[int]],
    last: int,
    fill_by: list[int],
    after: dict[int, int],
    pairs: list[int],
    joined: list[int],
    trace: list[int],
    /,
) -> tuple[list[int], dict[int, int]] | None: ...
