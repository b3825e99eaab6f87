"""The local git source: a pull request read from a repository on disk.

The PR is ``base...head`` as GitHub shows it: the diff runs from the merge base of ``base`` and
``head`` to ``head``, and its commits are ``base..head``. Every git command goes through
:func:`git`, which calls :func:`pr_review.process.run` (argv list, timeout, a value back).
Repository configuration must not change what we read, so diffs pin the options a user's
config could otherwise flip (prefixes, renames, external diff drivers, textconv, colour,
submodule format, quoting).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from pr_review import process
from pr_review.errors import SourceError
from pr_review.process import ProcessResult
from pr_review.sources.diff import Diff, DiffReader, FileStatus
from pr_review.sources.model import Commit, PullRequest
from pr_review.sources.text import decode_blob
from pr_review.sources.trailers import parse_trailers

Runner = Callable[..., ProcessResult]
"""The signature of :func:`pr_review.process.run` (argv, cwd=, timeout_s=)."""

GIT_TIMEOUT_S = 120.0
DIFF_OPTIONS = (
    "--no-ext-diff",
    "--no-textconv",
    "--no-color",
    "-M",
    "--submodule=short",
    "--ignore-submodules=none",
    "--no-relative",
    "--src-prefix=a/",
    "--dst-prefix=b/",
)
"""Options of every ``git diff`` we run (explicit, so user config cannot change the patch)."""
_FIELD = "\x1f"
_LOG_FORMAT = "%H%x1f%an%x1f%ae%x1f%cn%x1f%B"


def git(
    repo: Path,
    *args: str,
    run: Runner = process.run,
    stdin: bytes | None = None,
    stdout_sink: Callable[[bytes], None] | None = None,
) -> ProcessResult:
    """Run ``git args`` in ``repo``; raise :class:`SourceError` only when git itself is unusable.

    A non-zero exit is returned for the caller to interpret. ``stdout_sink`` streams the
    output (see :func:`pr_review.process.run`).
    """
    result = run(
        ["git", "-c", "core.quotePath=false", *args],
        cwd=repo,
        timeout_s=GIT_TIMEOUT_S,
        stdin=stdin,
        stdout_sink=stdout_sink,
    )
    if result.start_error is not None:
        raise SourceError(
            f"cannot run git ({result.start_error}): install git and make sure it is on PATH"
        )
    if result.timed_out:
        raise SourceError(
            f"{result.describe()}: the repository may be very large or locked; try again"
        )
    return result


def git_ok(
    repo: Path,
    *args: str,
    run: Runner = process.run,
    stdout_sink: Callable[[bytes], None] | None = None,
) -> bytes:
    """Standard output of ``git args``; a failure is a :class:`SourceError` naming the command.

    With ``stdout_sink`` the output streams to it and what is returned is only what a runner
    that does not stream (a test's fake) gave back whole.
    """
    result = git(repo, *args, run=run, stdout_sink=stdout_sink)
    if not result.ok:
        raise SourceError(f"{result.describe()}: check that {repo} is a healthy git repository")
    return result.stdout


def read_local_pr(
    repo: Path,
    base: str,
    head: str = "HEAD",
    *,
    title: str | None,
    body: str,
    run: Runner = process.run,
) -> PullRequest:
    """Read the pull request ``base...head`` from the repository at ``repo``.

    ``title`` defaults to the head commit's subject. ``base_sha`` is the merge base (where the
    diff starts, and the revision ``base_tree`` reads); ``author`` is the author of the first
    commit of the range (the head commit's when the range is empty).
    """
    _check_repository(repo, run)
    base_sha = _resolve(repo, base, run)
    head_sha = _resolve(repo, head, run)
    merge_base = _merge_base(repo, (base, head), (base_sha, head_sha), run)
    diff = read_diff(repo, merge_base, head_sha, run=run)
    commits = read_commits(repo, f"{base_sha}..{head_sha}", run=run)
    head_commit = commits[-1] if commits else _head_commit(repo, head_sha, run)
    base_tree, head_tree = pr_trees(repo, diff, merge_base, head_sha, run=run)
    return PullRequest(
        title=title if title is not None else _subject(head_commit.message),
        body=body,
        diff=diff,
        commits=commits,
        base_tree=base_tree,
        head_tree=head_tree,
        author=(commits[0] if commits else head_commit).author_name or None,
        base_ref=base,
        head_ref=head,
        base_sha=merge_base,
        head_sha=head_sha,
    )


def read_diff(repo: Path, base_sha: str, head_sha: str, *, run: Runner = process.run) -> Diff:
    """The parsed ``git diff base_sha head_sha``, parsed file by file as git writes it."""
    reader = DiffReader()
    argv = ("diff", *DIFF_OPTIONS, base_sha, head_sha, "--")
    reader.feed(git_ok(repo, *argv, run=run, stdout_sink=reader.feed))
    return reader.finish()


def pr_trees(
    repo: Path, diff: Diff, base_sha: str, head_sha: str, *, run: Runner = process.run
) -> tuple[GitTree, GitTree]:
    """Base and head trees that prefetch the text files ``diff`` touched on their side."""
    texts = [f for f in diff.files if not (f.binary or f.submodule)]
    base = [f.old_path or f.path for f in texts if f.status is not FileStatus.ADDED]
    head = [f.path for f in texts if f.status is not FileStatus.DELETED]
    return (
        GitTree(repo, base_sha, run=run, prefetch=base),
        GitTree(repo, head_sha, run=run, prefetch=head),
    )


def read_commits(repo: Path, *revisions: str, run: Runner = process.run) -> tuple[Commit, ...]:
    """Commits ``git log revisions`` lists, oldest first, with their trailers."""
    out = git_ok(
        repo,
        "log",
        "--reverse",
        "--no-color",
        "--no-show-signature",
        "-z",
        f"--format={_LOG_FORMAT}",
        *revisions,
        "--",
        run=run,
    )
    return _parse_log(out.decode("utf-8", errors="replace"))


def _parse_log(text: str) -> tuple[Commit, ...]:
    """Commits from ``git log -z`` output in :data:`_LOG_FORMAT`."""
    commits: list[Commit] = []
    for record in text.split("\0"):
        parts = record.split(_FIELD, 4)
        if len(parts) == 5 and _is_sha(parts[0]):
            sha, name, email, committer, message = parts
            message = message.rstrip("\n")
            commits.append(
                Commit(
                    sha=sha,
                    author_name=name,
                    author_email=email,
                    message=message,
                    trailers=parse_trailers(message),
                    committer_name=committer,
                )
            )
    return tuple(commits)


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


def _subject(message: str) -> str:
    return message.split("\n", 1)[0].strip()


def _check_repository(repo: Path, run: Runner) -> None:
    if not repo.is_dir():
        raise SourceError(f"{repo} is not a directory: pass --repo pointing at a git checkout")
    checked = git(repo, "rev-parse", "--git-dir", run=run)
    if not checked.ok and "dubious ownership" in checked.error_text():
        raise SourceError(
            f"git refuses to read {repo}: it is owned by another user (\"dubious ownership\"). "
            f"If you trust it, run `git config --global --add safe.directory {repo.resolve()}` "
            "(in a container job, add that step before pr-review)"
        )
    if not checked.ok:
        raise SourceError(
            f"{repo} is not a git repository: pass --repo pointing at a git checkout "
            "(a directory with a .git), or run `git init` there first"
        )


def _resolve(repo: Path, ref: str, run: Runner) -> str:
    """The commit sha ``ref`` names; a name git does not know is a :class:`SourceError`."""
    result = git(
        repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}", run=run
    )
    sha = result.text().strip()
    if not result.ok or not _is_sha(sha):
        kind = git(repo, "cat-file", "-t", "--end-of-options", ref, run=run)
        if kind.ok and kind.text().strip() in ("blob", "tree"):
            raise SourceError(
                f"{ref!r} names a {kind.text().strip()} (a file's or a directory's content), "
                "not a commit: pass a branch, a tag or a commit sha (`git log --oneline`)"
            )
        raise SourceError(
            f"unknown git ref {ref!r} in {repo}: check the name (`git branch -a`, `git tag`) "
            f"or fetch it first (`git fetch origin {ref}`)"
        )
    return sha


def _merge_base(repo: Path, refs: tuple[str, str], shas: tuple[str, str], run: Runner) -> str:
    base, head = refs
    result = git(repo, "merge-base", *shas, run=run)
    sha = result.text().strip()
    if result.returncode == 1 and not sha and _is_shallow(repo, run):
        raise SourceError(
            f"{repo} is a shallow clone, so the history joining {base!r} and {head!r} is "
            "missing: run `git fetch --unshallow` (in a workflow, give actions/checkout "
            "`fetch-depth: 0`)"
        )
    if result.returncode == 1 and not sha:
        raise SourceError(
            f"{base!r} and {head!r} have no common ancestor (unrelated histories): "
            f"pass a --base that {head!r} was branched from"
        )
    if not result.ok or not _is_sha(sha):
        raise SourceError(f"{result.describe()}: cannot find where {head!r} left {base!r}")
    return sha


def _is_shallow(repo: Path, run: Runner) -> bool:
    result = git(repo, "rev-parse", "--is-shallow-repository", run=run)
    return result.ok and result.text().strip() == "true"


def _head_commit(repo: Path, head_sha: str, run: Runner) -> Commit:
    """The head commit alone (for a PR with no commits of its own)."""
    commits = read_commits(repo, "--max-count=1", head_sha, run=run)
    if not commits:
        raise SourceError(f"cannot read commit {head_sha} in {repo}: the repository may be broken")
    return commits[0]


class GitTree:
    """A :class:`~pr_review.sources.model.RepoTree` over one commit, read lazily and cached.

    ``paths`` lists files (blobs, symlinks included; submodule entries excluded) with one
    ``git ls-tree``. ``read`` loads text with ``git cat-file --batch``: the first read of a
    ``prefetch`` path (the files the PR touched, which later stages read one after another)
    loads all of them in one process, any other path is loaded alone. Texts are cached; the
    cache is the only state, and the commit it reads never changes.
    """

    def __init__(
        self, repo: Path, sha: str, *, run: Runner = process.run, prefetch: Iterable[str] = ()
    ) -> None:
        self.repo = repo
        self.sha = sha
        self._run = run
        self._prefetch = frozenset(prefetch)
        self._paths: frozenset[str] | None = None
        self._texts: dict[str, str | None] = {}

    def __repr__(self) -> str:
        return f"GitTree({str(self.repo)!r}, {self.sha!r})"

    def paths(self) -> frozenset[str]:
        """Every file path of the commit, repository-relative."""
        if self._paths is None:
            out = git_ok(self.repo, "ls-tree", "-r", "-z", "--full-tree", self.sha, run=self._run)
            entries = out.decode("utf-8", errors="replace").split("\0")
            self._paths = frozenset(
                path
                for meta, _, path in (entry.partition("\t") for entry in entries if entry)
                if meta.split(" ")[1:2] == ["blob"]
            )
        return self._paths

    def read(self, path: str) -> str | None:
        """The file's text (undecodable bytes replaced); None when the commit has no such file."""
        if path not in self._texts:
            batch = (
                {p for p in self._prefetch if p not in self._texts}
                if path in self._prefetch
                else set()
            )
            self._load(batch | {path})
        return self._texts[path]

    def read_many(self, paths: Iterable[str]) -> dict[str, str | None]:
        """:meth:`read` for many paths at once: the ones not cached yet load in one git process."""
        wanted = list(paths)
        self._load({p for p in wanted if p not in self._texts})
        return {p: self._texts[p] for p in wanted}

    def _load(self, wanted: set[str]) -> None:
        """Read ``wanted`` paths in one ``git cat-file --batch``; absent ones become None."""
        # A name with a newline cannot be asked for on cat-file's line-based input.
        present = sorted(p for p in wanted if p in self.paths() and "\n" not in p)
        texts: dict[str, str | None] = dict.fromkeys(wanted)
        if present:  # (nothing to run for an empty or all-absent request)
            stdin = "".join(f"{self.sha}:{p}\n" for p in present).encode("utf-8")
            result = git(self.repo, "cat-file", "--batch", run=self._run, stdin=stdin)
            if result.ok:
                texts.update(_batch_texts(result.stdout, present))
        self._texts.update(texts)


def _batch_texts(out: bytes, names: list[str]) -> dict[str, str | None]:
    """Split ``git cat-file --batch`` output (``<sha> <type> <size>\\n<bytes>\\n`` per name)."""
    texts: dict[str, str | None] = {}
    pos = 0
    for name in names:
        eol = out.find(b"\n", pos)
        if eol == -1:
            break
        header = out[pos:eol].split(b" ")
        pos = eol + 1
        if len(header) == 3 and header[1] == b"blob" and header[2].isdigit():
            size = int(header[2])
            texts[name] = decode_blob(out[pos : pos + size])
            pos += size + 1
        else:  # "<name> missing" or "ambiguous": no content follows
            texts[name] = None
    return texts


class GitHistory:
    """Commit questions about a local repository (incremental re-review)."""

    def __init__(self, repo: Path, *, run: Runner = process.run) -> None:
        """Ask git in ``repo``."""
        self._repo = repo
        self._run = run

    def changed_since(self, old: str, new: str) -> frozenset[str] | None:
        """``git diff --name-only old new`` when ``old`` is an ancestor of ``new``, else None.

        Without rename detection: a file renamed since ``old`` counts under both names, so
        findings on the old name are never carried over to a path that is gone.
        """
        if not (_is_sha(old) and _is_sha(new)):
            return None
        ancestor = git(self._repo, "merge-base", "--is-ancestor", old, new, run=self._run)
        if not ancestor.ok:
            return None
        names = git(
            self._repo, "diff", "--name-only", "--no-renames", "-z", old, new, run=self._run
        )
        if not names.ok:
            return None
        return frozenset(p for p in names.stdout.decode("utf-8", "replace").split("\0") if p)
