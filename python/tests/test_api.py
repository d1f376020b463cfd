"""The package's surface: names, docstrings, stubs, typing marker."""

from __future__ import annotations

import ast
import inspect
import pathlib

import tempo

PACKAGE = pathlib.Path(tempo.__file__).parent


def _public(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def test_every_public_name_has_a_docstring():
    missing = []
    for name in tempo.__all__:
        obj = getattr(tempo, name)
        if inspect.isclass(obj) or callable(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(name)
        if inspect.isclass(obj):
            for member in _public(obj):
                if member in ("count", "index"):
                    continue
                attr = inspect.getattr_static(obj, member)
                if not (getattr(attr, "__doc__", None) or "").strip():
                    missing.append(f"{name}.{member}")
    assert missing == []


def test_the_stubs_name_what_the_module_has():
    tree = ast.parse((PACKAGE / "_tempo.pyi").read_text())
    stubbed = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            members = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    members.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    members.add(item.target.id)
            stubbed[node.name] = members
        elif isinstance(node, ast.FunctionDef):
            stubbed[node.name] = None
        elif isinstance(node, ast.AnnAssign):
            stubbed[node.target.id] = None
    for name in tempo.__all__:
        if name in tempo.__dict__ and not hasattr(tempo._tempo, name):
            continue  # written in Python, typed inline
        obj = getattr(tempo, name)
        if inspect.isclass(obj) or name in ("VARIANTS", "__version__", "analyse_pdn"):
            assert name in stubbed, name
        if inspect.isclass(obj):
            assert set(_public(obj)) <= stubbed[name], (name, set(_public(obj)) - stubbed[name])
    assert (PACKAGE / "py.typed").exists()


def test_version_and_variants():
    assert tempo.__version__.count(".") == 2
    assert "international" in tempo.VARIANTS and len(tempo.VARIANTS) == 12
