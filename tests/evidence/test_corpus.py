"""Corpus cases become real git repositories that the local source reads back."""

from __future__ import annotations

import json
from pathlib import Path

from pr_review.config import Config
from pr_review.corpus import BASE_BRANCH, PR_BRANCH, materialize_case
from pr_review.evidence.build import build_pack
from pr_review.sources.git import read_local_pr

DIFF = """\
diff --git a/src/store/keys.py b/src/store/keys.py
index 1111111..2222222 100644
--- a/src/store/keys.py
+++ b/src/store/keys.py
@@ -1,2 +1,3 @@
 def get(r, key):
-    return r.get(key)
+    value = r.get(key)
+    return value
"""


def test_materialize_case_keeps_trailers_and_applies_the_diff(tmp_path: Path) -> None:
    base = tmp_path / "corpus" / "repos" / "demo" / "base" / "src" / "store"
    base.mkdir(parents=True)
    (base / "keys.py").write_text("def get(r, key):\n    return r.get(key)\n")
    case = tmp_path / "corpus" / "cases" / "demo-1"
    case.mkdir(parents=True)
    (case / "pr.diff").write_text(DIFF)
    message = "refactor: name the value\n\nCo-authored-by: Claude <noreply@anthropic.com>"
    (case / "case.json").write_text(
        json.dumps(
            {
                "id": "demo-1",
                "repo": "demo",
                "title": "Name the value",
                "body": "",
                "commits": [{"message": message, "author": "Dev <dev@x.io>"}],
            }
        )
    )
    repo = materialize_case(case, tmp_path / "corpus" / "repos", tmp_path / "work" / "demo-1")
    pr = read_local_pr(repo, BASE_BRANCH, PR_BRANCH, title="Name the value", body="")
    assert [f.path for f in pr.diff.files] == ["src/store/keys.py"]
    pack = build_pack(pr, Config())
    assert pack.authorship.ai_tools == ("Claude",)
    assert pack.diff.stats.insertions == 2
    assert any(a.artifact.startswith("PR description") for a in pack.missing_artifacts)
