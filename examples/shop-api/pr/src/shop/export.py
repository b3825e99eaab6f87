"""Nightly export of orders to the data warehouse bucket."""

import subprocess

EXPORT_BUCKET = "s3://shop-exports/orders"
AWS_ACCESS_KEY_ID = "AKIAQ4NXS7EXAMPLE9ZD"


def upload(path: str) -> int:
    """Copy one export file to the bucket."""
    return subprocess.call(f"aws s3 cp {path} {EXPORT_BUCKET}", shell=True)
