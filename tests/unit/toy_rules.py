"""A ruleset written in a test, loaded from a file of the test's temporary folder (a ruleset
is always read from a .rules file: its messages name it)."""
from __future__ import annotations

import textwrap

import regnum


def load(tmp_path, text: str, name: str = "toy.rules") -> regnum.Ruleset:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return regnum.load(path)


def load_switched(tmp_path, text: str | None, name: str, switches: list) -> regnum.Ruleset:
    """The ruleset `text` (or, when None, the bundled ruleset `name`) loaded without the disk
    cache while each (module, switch, value) of `switches` holds: a compiler's choice made
    one way or the other, for tests that compare the two (what it compiles keeps it)."""
    import pytest
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REGNUM_CACHE_DIR", "off")
        for module, switch, value in switches:
            patch.setattr(module, switch, value)
        return load(tmp_path, text, name) if text is not None else regnum.load(name)


def sources_written(run) -> str:
    """Every source the code generator compiles while `run()` runs (a load, and a game that
    lists and plays: some code is written at its first use), joined by newlines."""
    import pytest
    from regnum.compiler import codegen
    sources = []
    compiled = codegen.CodeGen.compiled

    def keep(self, source, *args, **kwargs):
        sources.append(source)
        return compiled(self, source, *args, **kwargs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(codegen.CodeGen, "compiled", keep)
        run()
    return "\n".join(sources)
