"""The README's quoted files: every fenced block that follows a line
`<!-- quoted from PATH -->` must be PATH's text, byte for byte, so that the
example the README shows is the one a test builds (tests/consumer/main.cc,
built by tests/install_test.sh)."""

from __future__ import annotations

import re
import unittest
from pathlib import Path

from support import REPO

ROOT = REPO
README = ROOT / "README.md"
QUOTE = re.compile(r"^<!-- quoted from (\S+) -->\n```[a-z]*\n(.*?)^```$", re.M | re.S)


class ReadmeQuotes(unittest.TestCase):
    def test_quoted_files_are_the_files(self):
        quotes = QUOTE.findall(README.read_text())
        self.assertIn("tests/consumer/main.cc", [path for path, _ in quotes])
        for path, text in quotes:
            with self.subTest(path=path):
                self.assertEqual(text, (ROOT / path).read_text(),
                                 f"README.md quotes {path} as it no longer is")

    def test_a_changed_file_is_caught(self):
        text = README.read_text().replace("int main() {", "int main(void) {", 1)
        path, quoted = QUOTE.findall(text)[0]
        self.assertNotEqual(quoted, (ROOT / path).read_text())


if __name__ == "__main__":
    unittest.main()
