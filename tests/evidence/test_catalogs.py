"""gettext catalogs compared by message: references, order and wrapping change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pr_review.config import Config
from pr_review.evidence.build import build_pack
from pr_review.evidence.catalogs import CATALOG_EXAMPLES, read_catalog, same_catalog
from pr_review.schema.enums import Lane
from tests.evidence.helpers import file_diff, pull_request


@pytest.mark.parametrize(("old", "new", "same"), CATALOG_EXAMPLES)
def test_catalog_examples(old: str, new: str, same: bool) -> None:
    assert same_catalog(old, new) is same


def test_a_path_is_never_read_as_a_catalog(tmp_path: Path) -> None:
    catalog = tmp_path / "django.po"
    catalog.write_text('msgid "Yes"\nmsgstr "Oui"\n', encoding="utf-8")
    assert read_catalog(str(catalog)) is None  # content only: polib would open a path


def test_a_translation_pr_that_only_rewraps_its_catalog_is_green() -> None:
    old, new, _ = CATALOG_EXAMPLES[0]
    path = "app/locale/fr/LC_MESSAGES/django.po"
    pr = pull_request(
        [file_diff(path, new.splitlines(), old.splitlines())],
        base={path: old},
        head={path: new},
    )
    assert build_pack(pr, Config()).risk.lane is Lane.GREEN
    before, after, _ = CATALOG_EXAMPLES[2]  # a translation changed
    pr = pull_request(
        [file_diff(path, after.splitlines(), before.splitlines())],
        base={path: before},
        head={path: after},
    )
    assert build_pack(pr, Config()).risk.lane is Lane.YELLOW
