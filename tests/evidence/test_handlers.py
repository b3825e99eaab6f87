"""`error-handling-removed` on Python holds only when a reachable function loses an error path."""

from __future__ import annotations

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.pyast import lost_error_paths
from pr_review.sources.diff import FileStatus
from tests.evidence.helpers import file_diff, pull_request

LOAD = "def load(p):\n    try:\n        return read(p)\n    except OSError:\n        return None\n"

LOST = [
    # the handler goes, the function stays: its callers now see the exception
    (
        "def pay(x):\n    try:\n        charge(x)\n    except PaymentError:\n        refund(x)\n",
        "def pay(x):\n    charge(x)\n",
    ),
    # a guard's raise removed
    (
        "def get(u):\n    if not u.ok:\n        raise Forbidden()\n    return u.data\n",
        "def get(u):\n    return u.data\n",
    ),
]
KEPT = [
    # the try/except moved to a helper in the same file (real refactor shape)
    (
        LOAD,
        LOAD.replace("def load", "def _read") + "\n\ndef load(p):\n    return _read(p)\n",
    ),
    # a try/except ImportError fallback replaced by a plain import: the function is gone
    (
        (
            "try:\n    import simplejson as json\nexcept ImportError:\n    import json\n"
            "def dumps(o):\n    return json.dumps(o)\n"
        ),
        "import json\n\n\ndef dumps(o):\n    return json.dumps(o)\n",
    ),
    # the whole function deleted: removed, not weakened
    ("def old():\n    try:\n        f()\n    except E:\n        g()\n", "x = 1\n"),
    # the handler rewritten with the same exception
    (
        "def f():\n    try:\n        a()\n    except KeyError:\n        b()\n",
        "def f():\n    try:\n        a()\n        c()\n    except KeyError as e:\n        log(e)\n",
    ),
]


@pytest.mark.parametrize(("old", "new"), LOST)
def test_a_reachable_function_losing_an_error_path_is_reported(old: str, new: str) -> None:
    assert lost_error_paths(old, new)


def test_module_level_fallback_replaced_by_a_plain_import_is_not_lost() -> None:
    # The protected statement (``import simplejson``) is gone with its handler: nothing that
    # ran under the handler runs without it now.
    assert lost_error_paths(*KEPT[1]) == []


def test_handler_removed_with_the_code_it_protected_is_not_lost() -> None:
    # Shape of a "remove deprecated code" PR: a deprecated fallback probe deleted outright.
    old = (
        "def dump(o, fp):\n    try:\n        fp.write('')\n    except TypeError:\n"
        "        fp = wrap(fp)\n    write(o, fp)\n"
    )
    assert lost_error_paths(old, "def dump(o, fp):\n    write(o, fp)\n") == []
    # ...but when the protected call stays, the handler is lost.
    kept_call = "def dump(o, fp):\n    fp.write('')\n    write(o, fp)\n"
    assert lost_error_paths(old, kept_call) == [("dump", "except TypeError", 4)]


@pytest.mark.parametrize(("old", "new"), [KEPT[0], KEPT[2], KEPT[3]])
def test_moved_deleted_or_rewritten_handlers_are_not_lost(old: str, new: str) -> None:
    assert lost_error_paths(old, new) == []


def _pack_factors(path: str, old: str, new: str) -> set[str]:
    pr = pull_request(
        [file_diff(path, new.splitlines(), old.splitlines())],
        base={path: old},
        head={path: new},
    )
    return {f.factor for f in build_pack(pr, Config()).risk.factors}


def test_moved_handler_does_not_make_the_pack_red() -> None:
    assert "error-handling-removed" not in _pack_factors("src/io.py", *KEPT[0])


def test_lost_handler_makes_the_pack_red() -> None:
    assert "error-handling-removed" in _pack_factors("src/pay.py", *LOST[0])


def test_handler_moved_to_another_file_of_the_pr_is_not_lost() -> None:
    old_a = LOAD
    new_a = "from b import safe_read\n\n\ndef load(p):\n    return safe_read(p)\n"
    new_b = LOAD.replace("def load", "def safe_read")

    pr = pull_request(
        [
            file_diff("src/a.py", new_a.splitlines(), old_a.splitlines()),
            file_diff("src/b.py", new_b.splitlines(), status=FileStatus.ADDED),
        ],
        base={"src/a.py": old_a},
        head={"src/a.py": new_a, "src/b.py": new_b},
    )
    factors = {f.factor for f in build_pack(pr, Config()).risk.factors}
    assert "error-handling-removed" not in factors
