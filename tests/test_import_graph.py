"""The layers of the product, as the code imports them: engine <- vision.recognize <- vision.table
<- webui <- chratze, with vision.teach beside vision.table, and datasets and vision.training beside them. A module imports only from its
own layer and those it may lean on, every project import is at the top of its module (none inside
a function to step round a circle), and the module graph has no cycle. The command line alone
imports late, each command its own modules when it runs: it is the top layer, which nothing
imports, so a late import there steps round no circle and keeps ``chratze replay`` from loading
OpenCV and Flask."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "datasets", "webui", "chratze")

# layer -> the layers it may import from (its own included)
ALLOWED = {
    "engine": {"engine"},
    "vision.recognize": {"engine", "vision.recognize"},
    "datasets": {"engine", "vision.recognize", "datasets"},
    "vision.table": {"engine", "vision.recognize", "vision.table"},
    "vision.teach": {"engine", "vision.recognize", "vision.teach"},
    "vision.training": {"engine", "vision.recognize", "vision.teach", "datasets", "vision.training"},
    "webui": {"engine", "vision.recognize", "vision.table", "vision.teach", "webui"},
    "chratze": {"engine", "vision.recognize", "vision.table", "vision.teach", "vision.training", "datasets", "webui",
                "chratze"},
}
# Run-time code reaches the scene generator only to render the demo's virtual table.
EXCEPTIONS = {"vision.table.virtual": {"datasets"}}


def modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (root / pkg).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def layer(module: str) -> str:
    for name in ("vision.recognize", "vision.table", "vision.teach", "vision.training"):
        if module == name or module.startswith(name + "."):
            return name
    top = module.split(".")[0]
    return "vision.recognize" if top == "vision" else top


def imports(module: str, path: Path) -> list[tuple[str, int, bool]]:
    """(imported project module, line, at the module's top level) for each import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((a.name, child.lineno, top) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                found.extend((f"{base}.{a.name}", child.lineno, top) for a in child.names)
            visit(child, inner)

    visit(tree, True)
    return [(name, line, top) for name, line, top in found if name.split(".")[0] in PACKAGES]


def resolve(name: str, known: dict[str, Path]) -> str:
    """The project module an import names (``from pkg import submodule`` names the submodule)."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def upward(root: Path = ROOT) -> list[str]:
    """Each import that runs against the layers' flow, as 'file:line (layer) imports name'."""
    known, wrong = modules(root), []
    for module, path in known.items():
        allowed = ALLOWED[layer(module)] | EXCEPTIONS.get(module, set())
        for name, line, _ in imports(module, path):
            if layer(resolve(name, known)) not in allowed:
                wrong.append(f"{path.relative_to(root)}:{line} ({layer(module)}) imports {name}")
    return wrong


LATE_IMPORTS = {"chratze"}  # the layers that may import inside a function


def inside_functions(root: Path = ROOT) -> list[str]:
    known = modules(root)
    return [f"{path.relative_to(root)}:{line} imports {name}"
            for module, path in known.items() if layer(module) not in LATE_IMPORTS
            for name, line, top in imports(module, path) if not top]


def cycle(root: Path = ROOT) -> list[str]:
    """One cycle of the module graph (top-level imports), or [] where there is none."""
    known = modules(root)
    graph = {m: sorted({resolve(n, known) for n, _, _ in imports(m, p)} - {m, ""}) for m, p in known.items()}
    done: set[str] = set()

    def walk(m: str, stack: list[str]) -> list[str]:
        for n in graph[m]:
            if n in stack:
                return stack[stack.index(n):] + [n]
            if n not in done:
                found = walk(n, stack + [n])
                if found:
                    return found
        done.add(m)
        return []

    for m in sorted(graph):
        found = [] if m in done else walk(m, [m])
        if found:
            return found
    return []


def test_every_import_runs_with_the_flow_of_the_layers():
    wrong = upward()
    assert not wrong, "\n".join(wrong)


def test_no_project_import_inside_a_function():
    inside = inside_functions()
    assert not inside, "\n".join(inside)


def test_the_module_graph_has_no_cycle():
    found = cycle()
    assert not found, " -> ".join(found)


def test_the_checks_catch_an_upward_import_a_late_import_and_a_cycle(tmp_path):
    for pkg in PACKAGES:
        (tmp_path / pkg).mkdir()
    (tmp_path / "vision" / "recognize").mkdir()
    (tmp_path / "engine" / "cards.py").write_text("from engine import rules\n")
    (tmp_path / "engine" / "rules.py").write_text("from engine.cards import x\n")
    (tmp_path / "vision" / "recognize" / "reader.py").write_text("def f():\n    import webui.api\n")
    (tmp_path / "webui" / "api.py").write_text("")
    assert upward(tmp_path) == ["vision/recognize/reader.py:2 (vision.recognize) imports webui.api"]
    assert inside_functions(tmp_path) == ["vision/recognize/reader.py:2 imports webui.api"]
    assert cycle(tmp_path) in (["engine.cards", "engine.rules", "engine.cards"],
                               ["engine.rules", "engine.cards", "engine.rules"])
    (tmp_path / "chratze" / "cli.py").write_text("def main():\n    import webui.api\n")
    assert inside_functions(tmp_path) == ["vision/recognize/reader.py:2 imports webui.api"]  # the command line may
