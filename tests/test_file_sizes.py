"""No source file grows past what a newcomer can hold (DESIGN.md; issue 10: "no engine
file over 600 lines"; the same for netplay and tui)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 600


def test_no_source_file_is_over_600_lines():
    big = [f"{p.relative_to(ROOT)} ({n} lines)"
           for folder in ("engine", "netplay", "tui")
           for p in sorted((ROOT / folder).rglob("*.py"))
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT]
    assert big == [], "split by concern: " + ", ".join(big)
