"""The documentation's relative links resolve: every Markdown link to a file or anchor of the repository exists."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# The component READMEs link into docs/ too (clients/python/README.md into automation.md).
COMPONENT_READMES = ("agent", "clients/python", "terraform/provider", "tools/nsxsim")
DOCS = sorted([ROOT / "README.md", ROOT / "SECURITY.md", ROOT / "DEVELOPERS.md", *(ROOT / "docs").glob("*.md"),
               *(ROOT / folder / "README.md" for folder in COMPONENT_READMES)])  # fmt: skip
LINK = re.compile(r"(?<!\!)\[[^\]\n]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```")
EXTERNAL = ("http://", "https://", "mailto:")


def _prose(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks (links in code are examples, not links)."""
    lines, fenced = [], False
    for line in path.read_text().splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but - and _ dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file, numbered as GitHub numbers repeated ones."""
    seen: dict[str, int] = {}
    anchors = set()
    for line in _prose(path):
        heading = re.fullmatch(r"#{1,6}\s+(.*?)\s*#*\s*", line)
        if not heading:
            continue
        slug = _slug(heading.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(path: Path):
    """(target path, anchor) of every relative link in the file's prose."""
    for line in _prose(path):
        for target in LINK.findall(line):
            if target.startswith(EXTERNAL):
                continue
            file_part, _, anchor = target.partition("#")
            yield (path.parent / file_part).resolve() if file_part else path, anchor


def test_the_documents_checked_include_the_readme_and_every_doc():
    names = {path.relative_to(ROOT).as_posix() for path in DOCS}
    assert {"README.md", "SECURITY.md", "DEVELOPERS.md", "docs/architecture.md", "docs/user-guide.md"} <= names


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_names_an_existing_file_and_anchor(doc):
    broken = []
    for target, anchor in _links(doc):
        if not target.exists():
            broken.append(f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}: no such file")
        elif anchor and target.suffix == ".md" and anchor not in _anchors(target):
            broken.append(f"{target.relative_to(ROOT)}#{anchor}: no such heading")
    assert not broken, broken


def test_the_readme_fits_on_two_screens():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 100


def test_the_readme_maps_every_document_in_docs():
    readme = (ROOT / "README.md").read_text()
    missing = [path.name for path in (ROOT / "docs").glob("*.md") if f"(docs/{path.name})" not in readme]
    assert not missing, missing
