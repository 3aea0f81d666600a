"""The reference for AUREUS's Python import graph: Python's own import machinery.

Usage: python3 scripts/reference/python-import-edges.py REPO ROOT...

Prints, as JSON, every edge [importing file, imported file] between the `.py` files of REPO
(paths relative to it, `/`-separated, sorted), found with CPython's own parts rather than
AUREUS's rules: `ast` reads every `import` and `from … import` statement (at any depth: in
functions, under `if TYPE_CHECKING:`), `importlib.util.resolve_name` turns a relative import
into an absolute name from the file's package, and `importlib.machinery.PathFinder` finds each
name, part by part, as `import` does (a package's submodules in its `__path__`).

The search path is what AUREUS derives from the project's configuration, given here as ROOTs
(relative to REPO, in order; `.` is REPO itself), preceded for each file by its own folder when
that folder is no regular package (what `python script.py` and pytest's default import mode put
first on `sys.path`). A relative import is found through the ROOTs alone.

What an edge is (the reading AUREUS follows): the module the statement names. `import a.b.c`
leads to `a/b/c.py` alone, not to `a/__init__.py` or `a/b/__init__.py`, which are already
initialising when `a.b.c` runs; `from a.b import c` leads to the submodule `a.b.c` when there is
one, else to `a.b`. A namespace package (no file) and what lies outside REPO give no edge.
"""

import ast
import importlib.machinery
import importlib.util
import json
import os
import sys


def find(name, entries):
    """The spec `import name` finds with these sys.path entries, or None."""
    path = entries
    spec = None
    parts = name.split(".")
    for depth in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: depth + 1]), path)
        if spec is None:
            return None
        path = spec.submodule_search_locations
        if path is None and depth < len(parts) - 1:
            return None
    return spec


def module_name(relative, roots):
    """The file's dotted name under the longest root holding it."""
    holding = [r for r in roots if r == "" or relative.startswith(r + "/")]
    root = max(holding, key=len)
    parts = (relative[len(root) + 1 :] if root else relative)[: -len(".py")].split("/")
    return parts[:-1] if parts[-1] == "__init__" else parts


def edges_of(repo, relative, roots, files):
    path = os.path.join(repo, relative)
    folder = os.path.dirname(path)
    root_entries = [os.path.join(repo, r) for r in roots]
    script = [] if os.path.isfile(os.path.join(folder, "__init__.py")) else [folder]
    entries = list(dict.fromkeys(script + root_entries))
    module = module_name(relative, roots)
    package = ".".join(module if relative.endswith("__init__.py") else module[:-1])
    with open(path, "rb") as source:
        tree = ast.parse(source.read(), filename=relative)

    def target(name, search):
        spec = find(name, search)
        if spec is None or spec.origin is None or not spec.has_location:
            return None
        rel = os.path.relpath(spec.origin, repo).replace(os.sep, "/")
        return rel if rel in files else None

    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [(alias.name, entries) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                continue
            search = entries
            base = node.module or ""
            if node.level > 0:
                try:
                    base = importlib.util.resolve_name("." * node.level + base, package)
                except (ImportError, ValueError):
                    continue
                search = root_entries
            names = []
            for alias in node.names:
                sub = f"{base}.{alias.name}" if alias.name != "*" else None
                if sub is not None and find(sub, search) is not None:
                    names.append((sub, search))
                else:
                    names.append((base, search))
        else:
            continue
        for name, search in names:
            to = target(name, search)
            if to is not None:
                found.add((relative, to))
    return found


def main():
    repo = os.path.realpath(sys.argv[1])
    roots = [os.path.normpath(r).replace(os.sep, "/").strip(".") for r in sys.argv[2:]]
    files = set()
    for folder, _, names in os.walk(repo):
        if ".git" in folder.split(os.sep):
            continue
        for name in names:
            if name.endswith(".py"):
                files.add(os.path.relpath(os.path.join(folder, name), repo).replace(os.sep, "/"))
    edges = set()
    for relative in sorted(files):
        edges |= edges_of(repo, relative, roots, files)
    json.dump(sorted([list(edge) for edge in edges]), sys.stdout)


if __name__ == "__main__":
    main()
