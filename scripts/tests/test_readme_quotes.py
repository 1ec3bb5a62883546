"""The pages' quoted files: every fenced block of README.md or a page under
docs/ that follows a line `<!-- quoted from PATH -->` must be PATH's text,
byte for byte, so that the example a page shows is the one a test builds
(tests/consumer/main.cc in docs/builds.md, built by tests/install_test.sh)."""

from __future__ import annotations

import re
import unittest
from pathlib import Path

from support import REPO

ROOT = REPO
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
QUOTE = re.compile(r"^<!-- quoted from (\S+) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)


def quotes() -> list[tuple[Path, str, str]]:
    """(page, quoted path, quoted text) for every quote of every page."""
    return [(page, path, text) for page in PAGES
            for path, text in QUOTE.findall(page.read_text())]


class ReadmeQuotes(unittest.TestCase):
    def test_quoted_files_are_the_files(self):
        found = quotes()
        self.assertIn(("docs/builds.md", "tests/consumer/main.cc"),
                      [(page.relative_to(ROOT).as_posix(), path) for page, path, _ in found])
        for page, path, text in found:
            with self.subTest(page=page.name, path=path):
                self.assertEqual(text, (ROOT / path).read_text(),
                                 f"{page.name} quotes {path} as it no longer is")

    def test_a_changed_file_is_caught(self):
        text = (ROOT / "docs/builds.md").read_text().replace("int main() {", "int main(void) {", 1)
        path, quoted = QUOTE.findall(text)[0]
        self.assertNotEqual(quoted, (ROOT / path).read_text())


if __name__ == "__main__":
    unittest.main()
