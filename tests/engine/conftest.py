"""Engine test setup: make ``games.engine`` and the ``builders`` helper importable, without Django.

The rules engine is pure Python (see test_engine_is_pure.py), so these tests need only the project
root (for ``games.engine``) and this folder (for ``builders``) on ``sys.path``, whatever import mode
pytest runs in (the project uses ``--import-mode=importlib``, which adds neither).
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parents[1]
for folder in (PROJECT_ROOT, HERE):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
