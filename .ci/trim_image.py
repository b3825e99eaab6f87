"""Trim the Action image's virtual environment to what the review runs (run by the Dockerfile,
in the same step that installs, so the layer never holds what is removed).

- tree-sitter-language-pack ships ~170 grammars (184 MB); the review parses only the languages
  of ``pr_review.evidence.grammars.LANGUAGES`` (read from the installed package, so the list
  cannot drift from the code), and every other grammar is removed.
- pip, setuptools and wheel install nothing at run time.
- mypyc (the compiler mypy's wheel ships beside the compiled mypy; running mypy never imports
  it) and mypy's own test suite.

Usage: python trim_image.py VENV
"""

from __future__ import annotations

import shutil
import sys
import sysconfig
from pathlib import Path


def main(argv: list[str]) -> int:
    """Remove what the review never loads; print what was freed."""
    if len(argv) != 2:
        print("usage: trim_image.py VENV", file=sys.stderr)
        return 2
    venv = Path(argv[1])
    site = Path(sysconfig.get_paths()["purelib"])
    if not site.is_relative_to(venv):
        print(f"trim_image.py: run it with {venv}/bin/python", file=sys.stderr)
        return 2
    from pr_review.evidence.grammars import LANGUAGES

    keep = set(LANGUAGES.values())
    freed = 0
    bindings = site / "tree_sitter_language_pack" / "bindings"
    for lib in sorted(bindings.glob("*.so")):
        if lib.name.split(".")[0] not in keep:
            freed += lib.stat().st_size
            lib.unlink()
    missing = sorted(n for n in keep if n != "csharp" and not list(bindings.glob(f"{n}.*so")))
    if missing:
        print(f"trim_image.py: grammars the review uses are missing: {missing}", file=sys.stderr)
        return 1
    for name in ("pip", "setuptools", "_distutils_hack", "wheel", "mypyc", "mypy/test"):
        for path in [site / name, *site.glob(f"{name}-*.dist-info")]:
            if path.exists():
                freed += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
                shutil.rmtree(path)
    for script in ("pip", "pip3", f"pip3.{sys.version_info.minor}", "mypyc"):
        (venv / "bin" / script).unlink(missing_ok=True)
    print(f"trim_image.py: freed {freed / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
