"""``python -m pr_review``: the same entry point as the ``pr-review`` console script."""

from pr_review.cli import main

raise SystemExit(main())
