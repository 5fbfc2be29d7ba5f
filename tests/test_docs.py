"""The documentation: README stays one short page whose links resolve, and the docs/ site
builds strictly (a broken link, a missing page or a page left out of the navigation fails)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from conftest import REPO, missing_tool

README = REPO / "README.md"


def test_readme_is_short_and_its_local_links_resolve():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://")):
            assert (REPO / target).exists(), target


def test_readme_puts_the_two_commands_first():
    sections = re.findall(r"^## (.+)$", README.read_text(encoding="utf-8"), flags=re.M)
    assert sections[0] == "The two commands"


def test_the_documentation_site_builds_strictly(tmp_path):
    if shutil.which("mkdocs") is None:
        missing_tool("mkdocs is not installed (pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(REPO / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for page in ("index.html", "papers/equate/index.html", "bad-input/index.html"):
        assert (tmp_path / "site" / page).is_file(), page


def test_a_broken_link_fails_the_build(tmp_path):
    if shutil.which("mkdocs") is None:
        missing_tool("mkdocs is not installed (pip install -e '.[test]')")
    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    (docs / "missing.md").write_text("# Missing\n\n[gone](no-such-page.md)\n", encoding="utf-8")
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(tmp_path / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode != 0 and "no-such-page.md" in done.stdout + done.stderr
