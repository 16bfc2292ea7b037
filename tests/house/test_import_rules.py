"""Where things may be imported: each command is a shell over the library (none imports another), and pygame is
used only where the display is opened (hardware) and where the screens are drawn (appliance/screens)."""

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    """The modules a file imports, relative imports resolved against its package."""
    package = path.relative_to(REPO).with_suffix("").parts[:-1]
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):  # `from . import x` in a package: level 1, that package
            base = ".".join(package[: len(package) - node.level + 1]) if node.level else ""
            module = ".".join(filter(None, (base, node.module)))
            names |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    return names


def test_no_command_imports_another():
    commands = {p.stem for p in (REPO / "appliance" / "commands").glob("*.py")} - {"__init__"}
    for path in (REPO / "appliance" / "commands").glob("*.py"):
        others = {f"appliance.commands.{c}" for c in commands - {path.stem}}
        assert not imported(path) & others, f"{path.name} imports another command"


def test_pygame_only_in_the_screens_and_the_hardware():
    drawing = [REPO / "appliance" / "screens", REPO / "hardware"]
    users = sorted(
        str(p.relative_to(REPO))
        for folder in ("appliance", "calibration")
        for p in (REPO / folder).rglob("*.py")
        if not any(p.is_relative_to(d) for d in drawing) and any(name.split(".")[0] == "pygame" for name in imported(p))
    )
    assert users == []


def test_the_rules_find_imports_of_pygame_and_of_commands():
    """The two tests above can fail: their reader sees the imports they look for."""
    assert "pygame" in imported(REPO / "appliance" / "screens" / "draw.py")
    assert "appliance.commands.user_path" in imported(REPO / "appliance" / "commands" / "history.py")
    assert "appliance.commands.output_folder" in imported(REPO / "appliance" / "commands" / "demo.py")  # from . import
