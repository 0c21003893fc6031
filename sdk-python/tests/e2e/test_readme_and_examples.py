"""The README's quick start, verbatim, and the examples, run against the live sandbox with its demo account."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sandbox_kit import Sandbox

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from readme_blocks import python_blocks  # noqa: E402

PACKAGE_ROOT = Path(__file__).resolve().parents[2]


def run(sandbox: Sandbox, code_or_file: list[str]) -> subprocess.CompletedProcess[str]:
    demo = sandbox.demo()
    env = {
        **os.environ,
        "PYTHONPATH": str(PACKAGE_ROOT),
        "PIX_BASE_URL": sandbox.base_url,
        "PIX_CLIENT_ID": demo.client_id,
        "PIX_CLIENT_SECRET": demo.client_secret,
        "PIX_CERT_FILE": demo.cert_path,
    }
    return subprocess.run([sys.executable, *code_or_file], env=env, capture_output=True, text=True, timeout=180, cwd="/")


def test_the_quick_start_runs_as_written(sandbox: Sandbox) -> None:
    quick_start = python_blocks()[0]
    assert "PixClient(" in quick_start
    done = run(sandbox, ["-c", quick_start])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "available: 10000.00"
    assert lines[1].endswith(" PENDING")
    assert lines[2].startswith("000201")
    payout_id = lines[1].split()[0]
    assert any(line.startswith(f"{payout_id} ") and line.endswith(" 10.50") for line in lines[3:-1]), lines
    assert lines[-1].startswith("404 ")


def test_the_examples_run(sandbox: Sandbox) -> None:
    paid = run(sandbox, [str(PACKAGE_ROOT / "examples" / "cash_out.py"), "joao@example.com", "3.25"])
    assert paid.returncode == 0, paid.stdout + paid.stderr
    assert " CONFIRMED " in paid.stdout
    report = run(sandbox, [str(PACKAGE_ROOT / "examples" / "async_report.py")])
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("available ") and "confirmed total " in report.stdout
