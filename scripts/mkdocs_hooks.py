"""MkDocs hook: links from the docs to the repository's other files.

The docs link raw outputs (``../benchmarks/results/...``), examples, tests and the README, files
outside ``docs/`` that the site does not hold, so MkDocs cannot check them and would warn about
each one. This hook checks them itself and rewrites them, and leaves every link between doc
pages to MkDocs' own validation (``mkdocs build --strict`` fails on a broken one):

* a link whose target lies outside ``docs/`` must name a file or folder of the repository;
  otherwise it is a warning, so ``--strict`` fails on it as on a broken link between pages;
* it is rewritten (after MkDocs has checked the page) to the file in the repository:
  ``repo_url`` + ``blob/HEAD/PATH`` when ``mkdocs.yml`` sets ``repo_url``, else the path from
  the built page to the checkout (built in ``site/`` at the repository root, the site opens
  the file from disk).
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.plugins.searchlab_links")

LINK = re.compile(r"(\]\()([^)\s]+)(\))")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


SCHEME = "searchlab-repo:"  # a placeholder MkDocs leaves alone; on_page_content resolves it


def _outside(target: str, page_src: Path, docs: Path, root: Path) -> str | None:
    """``PATH#anchor`` (relative to the repository) of a link leaving ``docs/``, or None for a
    link left to MkDocs. A target outside the repository, or missing, is a warning."""
    if re.match(r"[a-zA-Z][a-zA-Z+.-]*:", target) or target.startswith(("#", "/")):
        return None
    path, hash_, anchor = target.partition("#")
    resolved = (page_src.parent / path).resolve()
    if resolved.is_relative_to(docs):
        return None
    if not resolved.is_relative_to(root) or not resolved.exists():
        log.warning(
            "%s links %r: no such file in the repository", page_src.relative_to(root), target
        )
        return None
    kind = "tree" if resolved.is_dir() else "blob"
    return f"{kind}/{resolved.relative_to(root).as_posix()}{hash_}{anchor}"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Check the page's links to files outside ``docs/`` and mark them (code blocks untouched)."""
    docs = Path(config["docs_dir"]).resolve()
    root = Path(config["config_file_path"]).resolve().parent
    page_src = Path(page.file.abs_src_path)

    def fix(match: re.Match[str]) -> str:
        new = _outside(match.group(2), page_src, docs, root)
        return match.group(0) if new is None else f"{match.group(1)}{SCHEME}{new}{match.group(3)}"

    pieces, last = [], 0
    for fence in FENCE.finditer(markdown):
        pieces.append(LINK.sub(fix, markdown[last : fence.start()]))
        pieces.append(fence.group(0))
        last = fence.end()
    pieces.append(LINK.sub(fix, markdown[last:]))
    return "".join(pieces)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """The marked links, now: to ``repo_url`` when set, else to the checkout from the page."""
    root = Path(config["config_file_path"]).resolve().parent
    repo_url = config.get("repo_url")
    page_dir = Path(config["site_dir"]).resolve() / page.url

    def target(match: re.Match[str]) -> str:
        kind, _, rest = match.group(1).partition("/")
        if repo_url:
            return f'href="{repo_url.rstrip("/")}/{kind}/HEAD/{rest}"'
        return f'href="{posixpath.relpath(root.as_posix(), page_dir.as_posix())}/{rest}"'

    return re.sub(r'href="' + re.escape(SCHEME) + r'([^"]*)"', target, html)
