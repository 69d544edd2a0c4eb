"""A standard-library-only PEP 517 build backend for nkra-client.

`pip install ./clients/python` needs a build backend; setuptools without `wheel` (common on
offline machines) cannot build wheels. This in-tree backend (pyproject.toml `backend-path`) needs
nothing to download: it zips the pure-Python package into a py3-none-any wheel with its metadata.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile
from typing import Dict, List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "nkra_client"
NAME = "nkra-client"


def _version() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        match = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.MULTILINE)
    if not match:
        raise RuntimeError("version not found in pyproject.toml")
    return match.group(1)


def _metadata() -> str:
    readme = ""
    path = os.path.join(ROOT, "README.md")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            readme = f.read()
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Client for the Nkra notification API (standard library only)\nLicense: MIT\nRequires-Python: >=3.9\n"
            "Classifier: Programming Language :: Python :: 3\nClassifier: Typing :: Typed\n"
            f"Description-Content-Type: text/markdown\n\n{readme}")


def _package_files() -> List[str]:
    found = []
    for folder, dirs, files in os.walk(os.path.join(ROOT, PACKAGE)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith((".py", ".typed")):
                found.append(os.path.relpath(os.path.join(folder, name), ROOT).replace(os.sep, "/"))
    return sorted(found)


def _dist_info() -> str:
    return f"{PACKAGE}-{_version()}.dist-info"


def _dist_info_files() -> Dict[str, bytes]:
    return {
        "METADATA": _metadata().encode("utf-8"),
        "WHEEL": b"Wheel-Version: 1.0\nGenerator: nkra_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        "top_level.txt": f"{PACKAGE}\n".encode("utf-8"),
    }


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[dict] = None) -> List[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: Optional[dict] = None) -> str:
    target = os.path.join(metadata_directory, _dist_info())
    os.makedirs(target, exist_ok=True)
    for name, content in _dist_info_files().items():
        with open(os.path.join(target, name), "wb") as f:
            f.write(content)
    return _dist_info()


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    filename = f"{PACKAGE}-{_version()}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        def add(arcname: str, content: bytes) -> None:
            wheel.writestr(arcname, content)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode("ascii")
            records.append(f"{arcname},sha256={digest},{len(content)}")
        for path in _package_files():
            with open(os.path.join(ROOT, path), "rb") as f:
                add(path, f.read())
        for name, content in _dist_info_files().items():
            add(f"{_dist_info()}/{name}", content)
        records.append(f"{_dist_info()}/RECORD,,")
        wheel.writestr(f"{_dist_info()}/RECORD", "\n".join(records) + "\n")
    return filename


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    base = f"{PACKAGE}-{_version()}"
    filename = f"{base}.tar.gz"
    files = ["pyproject.toml", "README.md", "_build/nkra_build.py", *_package_files()]
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as sdist:
        for path in files:
            full = os.path.join(ROOT, path)
            if os.path.exists(full):
                sdist.add(full, arcname=f"{base}/{path}")
        info = _metadata().encode("utf-8")
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(info)
        sdist.addfile(entry, io.BytesIO(info))
    return filename
