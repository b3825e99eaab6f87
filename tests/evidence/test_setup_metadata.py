"""A ``setup.py`` whose only change is the project's description on its index page is
behaviour-neutral; dependencies, packages and entry points still count."""

from __future__ import annotations

import pytest

from pr_review.schema.enums import Lane
from tests.evidence.helpers import file_diff, lane_and_factors

_BASE = (
    "from setuptools import setup, find_packages\n"
    "setup(\n"
    "    name='h2',\n"
    "    url='https://github.com/python-hyper/hyper-h2',\n"
    "    author='Cory Benfield',\n"
    "    classifiers=['Programming Language :: Python :: 3.8'],\n"
    "    packages=find_packages(where='src'),\n"
    "    install_requires=['hyperframe>=6.0,<7', 'hpack>=4.0,<5'],\n"
    ")\n"
)


@pytest.mark.parametrize(
    ("head", "neutral"),
    [
        # h2's project URL renamed with its repository (holdout69), a classifier added
        (_BASE.replace("hyper-h2'", "h2'"), True),
        (_BASE.replace("3.8'", "3.8', 'Programming Language :: Python :: 3.9'"), True),
        # what an installation reads
        (_BASE.replace("<7'", "<8'"), False),
        (_BASE.replace("where='src'", "where='lib'"), False),
        (_BASE.replace("name='h2',\n", "name='h2',\n    python_requires='>=3.9',\n"), False),
    ],
)
def test_setup_metadata_only_is_neutral(head: str, neutral: bool) -> None:
    lane, factors = lane_and_factors(
        files=[file_diff("setup.py", head.splitlines(), _BASE.splitlines())],
        base={"setup.py": _BASE},
        head={"setup.py": head},
    )
    assert ("dependency-manifest:moderate" in factors) is not neutral
    assert (lane is Lane.GREEN) is neutral
