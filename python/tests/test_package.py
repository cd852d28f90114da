"""Whether the package is installed: the one test left when it is not."""

from conftest import MISSING, need


def test_the_package_is_installed():
    if MISSING:
        need(MISSING)
    import endodoi
    assert endodoi.Rules().start().legal_moves() == list(range(1, 9))
