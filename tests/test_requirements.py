"""The lock files pin every package, transitive ones included, and agree with requirements*.txt and
with what is installed (regenerate them with ``make lock``)."""
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pins(name: str) -> dict[str, str]:
    """{canonical package name: pinned version} of a requirements or lock file (``-r``/``-c``
    lines and comments skipped); every requirement must be pinned with ``==``."""
    found = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        requirement = Requirement(line)
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"{name}: {line} is not pinned with =="
        found[canonicalize_name(requirement.name)] = specifier.version
    return found


@pytest.mark.parametrize(("wanted", "lock"), [
    ("requirements.txt", "requirements.lock"),
    ("requirements.txt", "requirements-dev.lock"),
    ("requirements-dev.txt", "requirements-dev.lock"),
    ("requirements.lock", "requirements-dev.lock"),
])
def test_lock_holds_every_pin_at_its_version(wanted, lock):
    locked = pins(lock)
    differing = {name: (pin, locked.get(name)) for name, pin in pins(wanted).items() if locked.get(name) != pin}
    assert differing == {}, f"{lock} is out of date with {wanted} (run make lock): {differing}"


def test_installed_packages_match_the_development_lock():
    def installed(name):
        try:
            return version(name)
        except PackageNotFoundError:
            return None

    differing = {name: (pin, installed(name)) for name, pin in pins("requirements-dev.lock").items()
                 if installed(name) != pin}
    assert differing == {}, f"installed packages differ from requirements-dev.lock (run make venv): {differing}"
