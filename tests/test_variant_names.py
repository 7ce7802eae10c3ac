"""No module outside a variant's own names that variant: everything else asks the variant object
(issue 17). Scanned: games/, records/, accounts/, rummy_site/ (Python), templates/ and static/js.

Not scanned, on purpose: each variant's own module (``games/engine/variants/<name>.py``) and help
page (its ``help_template``); migrations, which are history (0001 lists the games of its day);
Python docstrings and comments, which cite the rule book (a rule of Frayzy is "F4"); and
hyphenated words in templates (``frayzy-actions``): CSS class and test hooks, shared with
static/css. Quick Rummy (tests/quick_rummy.py), which lives in the tests alone, is scanned for too.

A module names a variant when it holds its title (``"Frayzy"``, ``"Wild Rummy"``) outside a
docstring or comment, or its name (slug) as a variant: compared with, listed in a set, list or
tuple, passed as a keyword value or parameter default, or as one of two or more variant keys of a
dict; or an identifier made with it (``is_frayzy``, ``FRUSTRATION_RULES``, ``help_frayzy``), in
code or as a string (a context key, a URL name).
"wild" is also a card (0.3) and "standard" the 52-card deck (``standard_deck``), so identifiers
name those two games only as ``..._wild_game``, ``..._wild_rummy`` or ``help_wild``. The registry
(``games/engine/variants/__init__.py``) names every built-in variant: that is its one job.
"""
from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import pytest

from games.engine.variants import VARIANTS
from tests.quick_rummy import QuickRummy

ROOT = Path(__file__).resolve().parent.parent
PYTHON_DIRS = ("games", "records", "accounts", "rummy_site")
TEXT_DIRS = (("templates", "*.html"), ("static/js", "*.js"))
CARD_WORDS = frozenset({"wild", "standard"})
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
GAMES = {**VARIANTS, QuickRummy.name: QuickRummy}


REGISTRY = ROOT / "games/engine/variants/__init__.py"
COMMENTS = {".js": re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL),
            ".html": re.compile(r"\{#.*?#\}|<!--.*?-->", re.DOTALL)}


def _own_files(name: str) -> set[Path]:
    if name == QuickRummy.name:
        return set()
    variant = GAMES[name]
    return {ROOT / "games/engine/variants" / f"{name}.py", ROOT / "templates" / variant.help_template, REGISTRY}


def _identifier_names(identifier: str, slug: str) -> bool:
    words = identifier.lower().split("_")
    if slug not in CARD_WORDS:
        return slug in words
    pairs = set(pairwise(words))
    return bool(pairs & {(slug, "game"), (slug, "rummy"), ("help", slug)})


def _title_pattern(title: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(title)}(?![\w-])")


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            found |= {id(stmt.value) for stmt in node.body
                      if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                      and isinstance(stmt.value.value, str)}
    return found


def _slug_constants(tree: ast.AST, slugs: set[str]) -> list[tuple[int, str]]:
    """Slug constants used as a variant: compared, listed, a keyword value or default, a dict key
    among other slugs."""
    found = []

    def slug_of(node) -> str | None:
        return node.value if isinstance(node, ast.Constant) and node.value in slugs else None

    for node in ast.walk(tree):
        candidates = []
        if isinstance(node, ast.Compare):
            candidates = [node.left, *node.comparators]
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            candidates = node.elts
        elif isinstance(node, ast.keyword):
            candidates = [node.value]
        elif isinstance(node, ast.arguments):
            candidates = [*node.defaults, *node.kw_defaults]
        elif isinstance(node, ast.Dict):
            keys = [slug_of(key) for key in node.keys if key is not None]
            if sum(1 for key in keys if key) >= 2:
                candidates = [key for key in node.keys if key is not None]
        found += [(getattr(c, "lineno", 0), slug_of(c)) for c in candidates if slug_of(c)]
    return found


def _python_findings(path: Path) -> list[tuple[str, int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    docstrings = _docstrings(tree)
    findings = [(slug, line, f"the name {slug!r} as a variant") for line, slug in _slug_constants(tree, set(GAMES))]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            findings += [(name, node.lineno, f"the title {v.title!r}") for name, v in GAMES.items()
                         if _title_pattern(v.title).search(node.value)]
        identifiers = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and IDENTIFIER.fullmatch(node.value):
            identifiers = [node.value]
        elif isinstance(node, ast.Name):
            identifiers = [node.id]
        elif isinstance(node, ast.Attribute):
            identifiers = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            identifiers = [node.name]
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            identifiers = [node.arg]
        elif isinstance(node, ast.alias):
            identifiers = [node.asname or node.name.rpartition(".")[2]]
        findings += [(name, getattr(node, "lineno", 0), f"the identifier {identifier!r}")
                     for identifier in identifiers for name in GAMES if _identifier_names(identifier, name)]
    return findings


WORD = re.compile(r"(?<![\w-])[A-Za-z_]\w*(?![\w-])")


def _text_findings(path: Path) -> list[tuple[str, int, str]]:
    findings = []
    text = COMMENTS[path.suffix].sub(lambda match: "\n" * match.group(0).count("\n"), path.read_text())
    for number, line in enumerate(text.splitlines(), start=1):
        for name, variant in GAMES.items():
            if _title_pattern(variant.title).search(line):
                findings.append((name, number, f"the title {variant.title!r}"))
            if re.search(rf"""["']{re.escape(name)}["']""", line):
                findings.append((name, number, f"the name {name!r}"))
            findings += [(name, number, f"the identifier {word!r}") for word in WORD.findall(line)
                         if _identifier_names(word, name)]
    return findings


def _scanned() -> list[Path]:
    paths = [path for folder in PYTHON_DIRS for path in (ROOT / folder).rglob("*.py") if "migrations" not in path.parts]
    return paths + [path for folder, pattern in TEXT_DIRS for path in (ROOT / folder).rglob(pattern)]


def test_no_module_outside_a_variant_names_it():
    problems = []
    for path in _scanned():
        findings = _python_findings(path) if path.suffix == ".py" else _text_findings(path)
        problems += [f"{path.relative_to(ROOT)}:{line}: {what} names {name}"
                     for name, line, what in findings if path not in _own_files(name)]
    assert not problems, "\n".join(sorted(set(problems)))


@pytest.mark.parametrize("source, expected", [
    ('if game.variant == "frayzy":\n    pass\n', 1),
    ('WORDS = {"standard": "Hand", "wild": "Deal"}\n', 2),
    ('ONLY = frozenset({"wild"})\n', 1),
    ('def f(variant="frustration"):\n    """Frustration Rummy\'s contracts (R4)."""\n', 1),
    ('label = "Wild Rummy: 13 deals"\n', 1),
    ('is_frayzy = True\nFRUSTRATION_RULES = None\n', 2),
    ('data = {"wild": key}\nrules.is_wild(card)\nstandard_deck()\n', 0),
    ('if is_wild_game:\n    pass\n', 1),
    ('context.get("is_frustration")\nreverse("help_wild")\n', 2),
    ('"""Frayzy (F1): docstrings cite the rule book."""\n# Wild Rummy in a comment\n', 0),
])
def test_the_scan_sees_what_names_a_variant(tmp_path, source, expected):
    path = tmp_path / "module.py"
    path.write_text(source)
    assert len({(name, line) for name, line, _ in _python_findings(path)}) == expected


def test_the_scan_sees_a_template_that_names_a_variant(tmp_path):
    path = tmp_path / "page.html"
    path.write_text('{% if is_frayzy %}<a href="{% url \'help_wild\' %}">Wild Rummy</a>{% endif %}\n'
                    '<div class="frayzy-actions">{{ rules.score_label }}</div>\n')
    assert sorted(what for _, _, what in _text_findings(path)) == [
        "the identifier 'help_wild'", "the identifier 'is_frayzy'", "the title 'Wild Rummy'"]
