"""Debian root file systems for the image test: the base built once, a build root per run.

``debootstrap --variant=minbase`` gives the packages of Debian's official ``*-slim`` images;
:func:`slimify` then removes what the slim images remove (documentation, manual pages, locales)
and leaves the same ``dpkg`` exclusions, so packages a Dockerfile step installs stay as slim as
they would on the official base. The machine's own certificate authorities are added to the
build root (the package mirror and the package index are reached through this machine's
network, which may inspect TLS); they are not part of what the Dockerfile adds and are left
out of every size.

Everything here needs root (debootstrap, chroot, mount) and is run by ``make image-test`` only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SUITES = {"debian:bookworm-slim": "bookworm"}
"""Base images the test can reproduce, and the Debian suite each is built from."""
MIRROR = "http://deb.debian.org/debian"
SOURCES = """\
Types: deb
URIs: http://deb.debian.org/debian
Suites: {suite} {suite}-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: {suite}-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
"""
"""The official images' apt sources (deb822), written in place of debootstrap's one line."""
DPKG_EXCLUDES = """\
# As in Debian's official slim images: no documentation, manual pages or locales.
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/lintian/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
"""
_SLIM_REMOVE = (
    "usr/share/man",
    "usr/share/groff",
    "usr/share/info",
    "usr/share/lintian",
    "usr/share/linda",
)
MACHINE_CAS = Path("/usr/local/share/ca-certificates")
LEFT_OUT = (
    "proc",
    "sys",
    "dev",
    "tmp",
    "run",
    "etc/resolv.conf",
    "usr/local/share/ca-certificates",
    "etc/ssl/certs",
    "var/cache/apt",
    "var/lib/apt/lists",
    "var/log",
    "root/.cache",
)
"""Paths never counted in a size: mounts, the machine's trust and DNS, apt's own caches and logs
(the official image build removes them too)."""


class RootfsError(RuntimeError):
    """A step of building or running the root failed; the message says which and why."""


def run(argv: Sequence[str], *, timeout: float, env: Mapping[str, str] | None = None) -> str:
    """Run a host command; its output on success, :class:`RootfsError` with its tail otherwise."""
    done = subprocess.run(
        list(argv), capture_output=True, text=True, timeout=timeout, check=False, env=env
    )
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-15:]
        raise RootfsError(f"{' '.join(argv[:3])}... exited {done.returncode}:\n" + "\n".join(tail))
    return done.stdout


def base_root(cache: Path, image: str) -> Path:
    """The slim Debian root for ``image``, built once into ``cache`` and reused."""
    suite = SUITES.get(image)
    if suite is None:
        raise RootfsError(
            f"FROM {image}: the image test can build {', '.join(SUITES)} only "
            "(a Debian suite it debootstraps); teach image/rootfs.py the new base first"
        )
    root = cache / f"{suite}-slim"
    done = root / ".pr-review-base-complete"
    if done.is_file():
        return root
    if root.exists():
        shutil.rmtree(root)
    cache.mkdir(parents=True, exist_ok=True)
    run(["debootstrap", "--variant=minbase", suite, str(root), MIRROR], timeout=1200)
    slimify(root, suite)
    done.write_text(image + "\n", encoding="utf-8")
    return root


def slimify(root: Path, suite: str) -> None:
    """Make a debootstrapped root look like the official slim image of ``suite``."""
    (root / "etc/apt/sources.list").unlink(missing_ok=True)
    (root / "etc/apt/sources.list.d/debian.sources").write_text(
        SOURCES.format(suite=suite), encoding="utf-8"
    )
    (root / "etc/dpkg/dpkg.cfg.d").mkdir(parents=True, exist_ok=True)
    (root / "etc/dpkg/dpkg.cfg.d/docker").write_text(DPKG_EXCLUDES, encoding="utf-8")
    for rel in _SLIM_REMOVE:
        shutil.rmtree(root / rel, ignore_errors=True)
    docs = root / "usr/share/doc"
    for entry in docs.iterdir() if docs.is_dir() else ():
        for item in entry.iterdir() if entry.is_dir() else ():
            if item.name != "copyright":
                _remove(item)
    locales = root / "usr/share/locale"
    for entry in locales.iterdir() if locales.is_dir() else ():
        if entry.name != "locale.alias":
            _remove(entry)
    for rel in ("var/cache/apt", "var/lib/apt/lists"):
        for item in (root / rel).glob("*"):
            if item.is_file():
                item.unlink()
    shutil.rmtree(root / "var/cache/apt/archives", ignore_errors=True)
    (root / "var/cache/apt/archives/partial").mkdir(parents=True, exist_ok=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def fresh_build_root(base: Path, work: Path) -> Path:
    """A copy of ``base`` to build in (hard links would let steps change the cached base)."""
    root = work / "root"
    if root.exists():
        shutil.rmtree(root)
    work.mkdir(parents=True, exist_ok=True)
    run(["cp", "-a", f"{base}/.", str(root)], timeout=600)
    (root / ".pr-review-base-complete").unlink(missing_ok=True)
    return root


def trust_machine(root: Path) -> None:
    """The machine's certificate authorities and DNS, so the root reaches what the host reaches."""
    target = root / "usr/local/share/ca-certificates"
    target.mkdir(parents=True, exist_ok=True)
    for cert in sorted(MACHINE_CAS.glob("*.crt")) if MACHINE_CAS.is_dir() else ():
        shutil.copy2(cert, target / cert.name)
    resolv = root / "etc/resolv.conf"
    resolv.unlink(missing_ok=True)
    shutil.copy2("/etc/resolv.conf", resolv)


@contextmanager
def mounted(root: Path) -> Iterator[None]:
    """/proc, /dev and /dev/pts of the host inside ``root`` while steps run (as Docker provides)."""
    done: list[Path] = []
    try:
        for source, rel, args in (
            ("proc", "proc", ["-t", "proc"]),
            ("/dev", "dev", ["--bind"]),
            ("/dev/pts", "dev/pts", ["--bind"]),
        ):
            target = root / rel
            target.mkdir(parents=True, exist_ok=True)
            run(["mount", *args, source, str(target)], timeout=30)
            done.append(target)
        yield
    finally:
        for target in reversed(done):
            subprocess.run(["umount", "-l", str(target)], check=False, timeout=30)


def chroot_argv(root: Path, argv: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """``argv`` run inside ``root`` with exactly ``env`` (``env -i``: no host variable leaks in)."""
    pairs = [f"{k}={v}" for k, v in env.items()]
    return ["chroot", str(root), "/usr/bin/env", "-i", *pairs, *argv]


@dataclass(frozen=True)
class Snapshot:
    """Every counted file of a root: path -> (size, mtime_ns, inode)."""

    files: Mapping[str, tuple[int, int, int]]

    @property
    def size(self) -> int:
        """Bytes of every counted regular file."""
        return sum(size for size, _, _ in self.files.values())


def snapshot(root: Path) -> Snapshot:
    """The counted files of ``root`` (see :data:`LEFT_OUT`)."""
    files: dict[str, tuple[int, int, int]] = {}
    skip = {root / rel for rel in LEFT_OUT}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        dirnames[:] = [d for d in dirnames if here / d not in skip]
        for name in filenames:
            path = here / name
            if path in skip:
                continue
            st = path.lstat()
            size = st.st_size if not path.is_symlink() else 0
            files[str(path.relative_to(root))] = (size, st.st_mtime_ns, st.st_ino)
    return Snapshot(files)


def layer_bytes(before: Snapshot, after: Snapshot) -> int:
    """What a Docker layer would hold: files new or changed since ``before`` (deletions free
    nothing in a layered image)."""
    return sum(meta[0] for path, meta in after.files.items() if before.files.get(path) != meta)
