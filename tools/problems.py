"""The closing lines the workspace checks (tools/layers.py,
tools/fnlength.py) share: each problem on its own line, then a summary with
their count, and the exit status."""


def report(problems, summary):
    """Prints each of `problems`, then `summary` followed by their count
    ("..., 1 problem" or "..., N problems"); returns the exit status: 1 if
    there is any problem, else 0."""
    for p in problems:
        print(p)
    noun = "problem" if len(problems) == 1 else "problems"
    print(f"{summary}, {len(problems)} {noun}")
    return 1 if problems else 0
