"""Card effects: the framework (``base``) and one module per card or card family.

Importing this package registers every card script.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Final

from .base import SCRIPTS, Effect, Script, effects_of, register, script_of

_SKIP: Final = {"api", "base", "choices", "common"}

for _mod in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    if _mod not in _SKIP:
        importlib.import_module(f"{__name__}.{_mod}")

__all__ = ["SCRIPTS", "Effect", "Script", "effects_of", "register", "script_of"]
