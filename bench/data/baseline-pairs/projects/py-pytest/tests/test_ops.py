import pytest

from calc.ops import add, divide
from calc.config import load


def test_add():
    assert add(2, 3) == 5


def test_divide():
    assert divide(6, 3) == 2


def test_divide_by_zero():
    with pytest.raises(ValueError):
        divide(1, 0)


def test_config():
    assert load('{"precision": 3}') == {"precision": 3}
