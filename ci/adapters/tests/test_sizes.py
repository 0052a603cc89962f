"""Every Python adapter stays readable: no file over 1 200 lines, no
function over 100 (issue 31: the phase.rs adapter was one file of 4 041
lines, with a function of 325)."""

import ast
import unittest

from . import ADAPTERS

MAX_FILE_LINES = 1200
MAX_FUNCTION_LINES = 100


def sources():
    """The Python files of ci/adapters/, virtualenvs aside."""
    return sorted(p for p in ADAPTERS.rglob("*.py")
                  if not any(part.startswith(".venv") for part in p.relative_to(ADAPTERS).parts))


def functions(path):
    """(name, first line, lines) of each function and method of a file,
    decorators included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            yield node.name, first, node.end_lineno - first + 1


class Sizes(unittest.TestCase):
    def test_the_adapters_are_measured(self):
        names = {p.relative_to(ADAPTERS).as_posix() for p in sources()}
        for expected in ("ptoracle_adapter.py", "phase/adapter.py",
                         "phase/phase_adapter/refusals.py", "python-mtg/adapter.py",
                         "python-example/adapter.py"):
            self.assertIn(expected, names)

    def test_no_file_over_the_limit(self):
        for path in sources():
            lines = len(path.read_text(encoding="utf-8").splitlines())
            with self.subTest(path=path.relative_to(ADAPTERS).as_posix()):
                self.assertLessEqual(lines, MAX_FILE_LINES)

    def test_no_function_over_the_limit(self):
        for path in sources():
            for name, first, lines in functions(path):
                with self.subTest(function=f"{path.relative_to(ADAPTERS).as_posix()}:{first} "
                                           f"{name}"):
                    self.assertLessEqual(lines, MAX_FUNCTION_LINES)


if __name__ == "__main__":
    unittest.main()
