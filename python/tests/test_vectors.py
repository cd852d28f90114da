"""Every row of the rule vectors (RULES.md, "Test vectors") through the package."""

import csv

import endodoi


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_every_vector_row(vectors_path):
    rows = read_rows(vectors_path)
    assert len(rows) > 50
    for number, row in enumerate(rows, start=2):
        # The vectors are not bound by a ply limit.
        rules = endodoi.Rules(int(row["holes"]), int(row["seeds"]), max_plies=10**9)
        pos = rules.start()
        for hole in map(int, row["moves"].split()):
            pos, _ = pos.play(hole)
        where = "vectors line %d: %s" % (number, row["moves"])
        assert pos.ring == [int(x) for x in row["board"].split()], where
        assert pos.captured == (int(row["south_seeds"]), int(row["north_seeds"])), where
        assert pos.to_move == row["to_move"], where
        assert (pos.outcome.termination if pos.outcome else "") == row["ended"], where
        assert pos.legal_moves() == [int(x) for x in row["legal"].split()], where
        # The turn line and the text format carry the position whole.
        if not pos.is_over:
            assert endodoi.Position.from_turn(pos.to_turn(), rules, pos.to_move) == pos, where
        assert endodoi.Position.parse(str(pos), rules).ring == pos.ring, where
