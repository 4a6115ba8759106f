"""docs/rules/pop.md is self-contained and names only golden logs that exist (issue 16)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rules" / "pop.md").read_text("utf-8")
GOLDEN = {p.name[:-len(".log.json")] for p in (ROOT / "tests" / "golden" / "pop").glob("*.log.json")}


def test_no_file_outside_the_repository_is_cited():
    assert not re.search(r"spec/|shared/|/work/", DOC)
    # relative links (the French page, ../fr/rules/pop.md) stay inside the repository
    for target in re.findall(r"\]\(([^)#]+)", DOC):
        if "://" not in target:
            assert (ROOT / "docs" / "rules" / target).resolve().is_relative_to(ROOT), target
    assert not re.search(r"\.\./(?!fr/rules/pop\.md\))", DOC)  # no other ../ path cited


def test_the_colour_rule_is_stated_with_how_to_check_it():
    assert "Colour = number mod 5" in DOC
    assert "Check it against your deck" in DOC
    assert "1 or 6 (colour 1)" in DOC


def test_every_golden_log_named_exists():
    named = set(re.findall(r"`((?:battle|violation|claims|solo|coop|puzzle)-[a-z0-9-]+)`", DOC))
    assert named  # the page names its golden logs
    for name in named:
        if name.endswith("-*") or name.endswith("-"):
            continue
        assert name in GOLDEN or any(g.startswith(name) for g in GOLDEN), name
