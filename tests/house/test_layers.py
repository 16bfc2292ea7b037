"""The house's floors: which part may import which (../shared/DESIGN.md), read from the source.

Each part names the parts it may import; a module belongs to the longest part its name starts with, and the
appliance's other modules (the table, the commands, the main loop) may import everything. Besides: each command
is a shell over the library (none imports another), and pygame is used only where the display is opened
(hardware) and where the screens are drawn (appliance/screens)."""

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECT = ("appliance", "vision", "hardware", "calibration")

MAY_IMPORT = {  # part: the parts it may import (besides the standard library and third-party packages)
    "appliance.base": ("appliance.base",),
    "appliance.games": ("appliance.games", "appliance.base"),
    "appliance.strategy": ("appliance.strategy", "appliance.games", "appliance.base"),
    "appliance.screens": (
        "appliance.screens",
        "appliance.screen_model",
        "appliance.base",
        "hardware",
        "calibration.wizard",
    ),  # the wizard's screen model
    "hardware": ("hardware", "appliance.base"),
    "vision": ("vision.", "appliance.base"),  # the runtime: never its lab (below)
    "vision.lab": ("vision", "appliance.base"),
    "calibration": ("calibration", "hardware", "vision.", "appliance.base"),
    "appliance": PROJECT,
}
NEVER = {"vision": ("vision.lab",), "calibration": ("vision.lab",)}  # within what a part may import


def inside(name: str, part: str) -> bool:
    return name == part or name.startswith(part.rstrip(".") + ".") or part.endswith(".") and name == part[:-1]


def part_of(module: str) -> str:
    return max((p for p in MAY_IMPORT if inside(module, p)), key=len)


def modules():
    for top in PROJECT:
        for path in (REPO / top).rglob("*.py"):
            parts = path.relative_to(REPO).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def imported(path: Path, package: tuple[str, ...] | None = None) -> set[str]:
    """The modules a file imports, relative imports resolved against its package (by default, where it lies)."""
    package = path.relative_to(REPO).with_suffix("").parts[:-1] if package is None else package
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):  # `from . import x` in a package: level 1, that package
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(filter(None, (base, node.module)))
            names |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    return names


def arrows_up(module: str, path: Path, package: tuple[str, ...] | None = None) -> list[str]:
    part = part_of(module)
    wrong = []
    for name in sorted(imported(path, package)):
        if name.split(".")[0] not in PROJECT or name in PROJECT:  # a bare `appliance` is its empty __init__
            continue
        allowed = any(inside(name, p) for p in MAY_IMPORT[part])
        if not allowed or any(inside(name, p) for p in NEVER.get(part, ())):
            wrong.append(f"{module} -> {name}")
    return wrong


def test_every_import_points_down():
    assert [arrow for module, path in modules() for arrow in arrows_up(module, path)] == []


@pytest.mark.parametrize(
    "module, source, arrow",
    [
        ("appliance.games.x", "from appliance.table import Table", "appliance.games.x -> appliance.table"),
        ("vision.x", "from vision.lab.scoring import match", "vision.x -> vision.lab.scoring"),
        ("hardware.x", "import vision.reader", "hardware.x -> vision.reader"),
        (
            "appliance.screens.x",
            "from appliance.games.sheet import Sheet",
            "appliance.screens.x -> appliance.games.sheet",
        ),
        ("calibration.x", "from appliance.settings import load", "calibration.x -> appliance.settings"),
    ],
)
def test_an_import_up_is_found(tmp_path, module, source, arrow):
    """The test above can fail: each of these imports is an arrow up."""
    (tmp_path / "x.py").write_text(source + "\n")
    assert arrow in arrows_up(module, tmp_path / "x.py", tuple(module.split(".")[:-1]))


def test_no_command_imports_another():
    commands = {p.stem for p in (REPO / "appliance" / "commands").glob("*.py")} - {"__init__"}
    for path in (REPO / "appliance" / "commands").glob("*.py"):
        others = {f"appliance.commands.{c}" for c in commands - {path.stem}}
        assert not imported(path) & others, f"{path.name} imports another command"


def test_pygame_only_in_the_screens_and_the_hardware():
    """And in the lab's glyph atlas builder: pygame drew the d10 numerals once (vision/lab/render/glyphs.py)."""
    drawing = [REPO / "appliance" / "screens", REPO / "hardware", REPO / "vision" / "lab" / "render" / "glyphs.py"]
    users = sorted(
        str(p.relative_to(REPO))
        for folder in ("appliance", "calibration", "vision")
        for p in (REPO / folder).rglob("*.py")
        if not any(p.is_relative_to(d) for d in drawing) and any(name.split(".")[0] == "pygame" for name in imported(p))
    )
    assert users == []


def test_the_rules_find_imports_of_pygame_and_of_commands():
    """The two tests above can fail: their reader sees the imports they look for."""
    assert "pygame" in imported(REPO / "appliance" / "screens" / "draw.py")
    assert "appliance.commands.user_path" in imported(REPO / "appliance" / "commands" / "history.py")
    assert "appliance.commands.output_folder" in imported(REPO / "appliance" / "commands" / "demo.py")  # from . import
