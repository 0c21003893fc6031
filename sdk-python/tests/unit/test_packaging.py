"""The package as integrators get it: a wheel built without network that installs into a fresh
virtual environment, and the README's code blocks type-checked like the examples."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from readme_blocks import python_blocks  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def test_a_wheel_built_offline_installs_into_a_fresh_venv_and_works(tmp_path: Path) -> None:
    source = tmp_path / "source"
    # A copy, so the build leaves nothing in the repository.
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("tests", "__pycache__", ".mypy_cache", "dist", "build"))
    built = subprocess.run(
        [PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("pix_account_service-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for module in ("__init__.py", "models.py", "_resources.py", "_async_resources.py", "_clients.py", "_base.py", "_core.py", "webhooks.py", "py.typed"):
        assert f"pix_account_service/{module}" in names
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Requires-Dist: httpx>=0.23" in metadata

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    installed = subprocess.run(
        [PYTHON, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-deps", str(wheel)]
        if _pip_has_python_option()
        else [PYTHON, "-m", "pip", "install", "--no-index", "--no-deps", "--target", str(_site_packages(python)), str(wheel)],
        capture_output=True, text=True, timeout=300,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    check = (
        "import pix_account_service as p, httpx, json\n"
        "assert '/venv/' in p.__file__, p.__file__\n"
        "def handle(request):\n"
        "    if request.url.path == '/api/auth/token':\n"
        "        return httpx.Response(201, json={'access_token': 't', 'expires_in': 1800})\n"
        "    return httpx.Response(200, json={'grossBalance': 1, 'blockedBalance': 0, 'netBalance': 1.5, 'consultedAt': 'now'})\n"
        "c = p.PixClient('http://x', 'id', 'secret', certificate_pem='pem', transport=httpx.MockTransport(handle))\n"
        "print(p.__version__, c.balance.get().net_balance)\n"
    )
    ran = subprocess.run([str(python), "-c", check], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "0.1.0 1.50"


def _pip_has_python_option() -> bool:
    return subprocess.run([PYTHON, "-m", "pip", "install", "--help"], capture_output=True, text=True).stdout.count("--python") > 0 or (
        "--python" in subprocess.run([PYTHON, "-m", "pip", "--help"], capture_output=True, text=True).stdout
    )


def _site_packages(python: Path) -> Path:
    out = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def test_the_readme_code_type_checks_under_mypy_strict(tmp_path: Path) -> None:
    blocks = python_blocks()
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        (tmp_path / f"readme_block_{i}.py").write_text(block)
    mypy = shutil.which("mypy", path="/usr/bin") or shutil.which("mypy")
    assert mypy, "mypy is required (Debian: apt-get install mypy)"
    checked = subprocess.run(
        [mypy, "--strict", "--no-incremental", *sorted(str(p) for p in tmp_path.glob("*.py"))],
        capture_output=True, text=True, timeout=300, env={"MYPYPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
