"""The rules engine (``games/engine``) is pure Python: it must never import Django.

Two checks: a static one that parses every module with ``ast`` and inspects each import, and a
dynamic one that imports every module in a fresh interpreter and looks for Django in
``sys.modules``.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
ENGINE = PROJECT_ROOT / "games" / "engine"
ENGINE_PACKAGE = "games.engine"


def engine_modules() -> list[Path]:
    """Every ``.py`` file of the engine package, sorted."""
    return sorted(ENGINE.rglob("*.py"))


def module_name(path: Path) -> str:
    """Dotted module name of an engine file, e.g. ``games.engine.variants.standard``."""
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    """The package a relative import in ``path`` starts from, e.g. ``games.engine.variants``."""
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_in(source: str, package: str) -> list[str]:
    """Absolute names of the modules ``source`` imports, relative imports resolved from ``package``.

    ``from a import b`` yields both ``a`` and ``a.b``. Also counts ``importlib.import_module("x")``
    and ``__import__("x")`` called with a literal name.
    """
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.append(prefix)
            names += [f"{prefix}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names.append(node.args[0].value)
    return names


def imported_names(path: Path) -> list[str]:
    """``imports_in`` for the engine file ``path``."""
    return imports_in(path.read_text(encoding="utf-8"), package_of(path))


def is_django(name: str) -> bool:
    """True for ``django`` and its submodules (``django.db``), not for e.g. ``django_like``."""
    return name == "django" or name.startswith("django.")


def test_the_engine_package_has_modules_to_check():
    names = {module_name(p) for p in engine_modules()}
    assert {"games.engine.state", "games.engine.melds", "games.engine.variants.standard"} <= names


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_no_engine_module_imports_django(path):
    django_imports = [name for name in imported_names(path) if is_django(name)]
    assert django_imports == [], f"{path.relative_to(PROJECT_ROOT)} imports {django_imports}"


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_relative_imports_stay_inside_the_engine(path):
    outside = [name for name in imported_names(path)
               if name.startswith("games") and not name.startswith(ENGINE_PACKAGE)]
    assert outside == [], f"{path.relative_to(PROJECT_ROOT)} reaches outside the engine: {outside}"


def test_importing_every_engine_module_loads_no_django():
    modules = [module_name(p) for p in engine_modules()]
    script = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(PROJECT_ROOT)}
    done = subprocess.run([sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_static_check_finds_planted_django_imports():
    """Guard against a checker that cannot fail: planted imports of every form are found."""
    source = ("import os, django\n"
              "from django.conf import settings\n"
              "import importlib\n"
              "importlib.import_module('django.db')\n"
              "__import__('django.apps')\n"
              "from ..cards import Card\n")
    names = imports_in(source, "games.engine.variants")
    assert [n for n in names if is_django(n)] == [
        "django", "django.conf", "django.conf.settings", "django.db", "django.apps"]
    assert "games.engine.cards.Card" in names
    assert not is_django("django_like") and is_django("django.db.models")
