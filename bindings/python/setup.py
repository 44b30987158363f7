"""Builds the C library into the package, so that ``pip install bindings/python`` (or of the
source distribution) gives a package that loads it with no environment variable.

Where the library comes from, first match wins:
- ``CHESSCORE_BUILD_LIB``: the path of a library already built (a test, or a packager, that has
  one), copied as it is;
- cargo: ``cargo build --release --lib -p chesscore`` over the Rust sources, those of the
  checkout this directory belongs to (two levels up, with the checkout's target directory and its
  cache) or those the source distribution carries in ``rust/``. ``CARGO`` names the cargo binary,
  ``CARGO_TARGET_DIR`` and ``CARGO_PROFILE_RELEASE_*`` work as for cargo itself.

The wheel holds a native library, so it is tagged for the platform it was built on
(``py3-none-<platform>``: ctypes loads it, any Python 3 can use it); scripts/build-wheels.sh
builds the library against an old glibc and has auditwheel retag the wheel manylinux.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools before 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = Path(__file__).resolve().parent
# What cargo needs to build the library, relative to the workspace root (the root crate, the core
# and the workspace's other member, which cargo insists on finding).
RUST_SOURCES = ["Cargo.toml", "Cargo.lock", "build.rs", "cbindgen.toml", "LICENSE-MIT", "LICENSE-APACHE", "src", "core", "cli"]
RUST_SKIP = shutil.ignore_patterns("tests", "target", "*.rs.bk")


def library_file_name():
    if sys.platform == "win32":
        return "chesscore.dll"
    if sys.platform == "darwin":
        return "libchesscore.dylib"
    return "libchesscore.so"


def rust_root():
    """The workspace the library is built from: the sdist's copy, else the checkout's."""
    for root in (HERE / "rust", HERE.parent.parent):
        if (root / "Cargo.toml").is_file() and (root / "core" / "Cargo.toml").is_file():
            return root
    raise SystemExit(
        "chesscore: no Rust sources to build the library from (neither rust/ nor ../../); "
        "set CHESSCORE_BUILD_LIB to the path of a built libchesscore"
    )


def built_library(temp_dir):
    prebuilt = os.environ.get("CHESSCORE_BUILD_LIB")
    if prebuilt:
        path = Path(prebuilt)
        if not path.is_file():
            raise SystemExit(f"chesscore: CHESSCORE_BUILD_LIB={prebuilt} is not a file")
        return path
    root = rust_root()
    # A checkout keeps cargo's cache in its own target directory; an unpacked sdist builds in
    # setuptools' temporary directory.
    default_target = root / "target" if root == HERE.parent.parent else Path(temp_dir) / "cargo-target"
    target = Path(os.environ.get("CARGO_TARGET_DIR", default_target))
    cargo = os.environ.get("CARGO", "cargo")
    command = [cargo, "build", "--release", "--lib", "-p", "chesscore", "--manifest-path", str(root / "Cargo.toml")]
    print("chesscore: " + " ".join(command), file=sys.stderr)
    try:
        subprocess.run(command, check=True, env={**os.environ, "CARGO_TARGET_DIR": str(target)})
    except FileNotFoundError:
        raise SystemExit("chesscore: building the library needs Rust's cargo (https://rustup.rs)") from None
    return target / "release" / library_file_name()


class BuildPyWithLibrary(build_py):
    """Copies the library into the built package, beside ``_native.py`` which looks there."""

    def run(self):
        super().run()
        if self.dry_run:
            return
        library = built_library(self.get_finalized_command("build").build_temp)
        destination = Path(self.build_lib) / "chesscore" / library_file_name()
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(library, destination)


class SdistWithRustSources(sdist):
    """A source distribution that can build the library: the Rust workspace goes into rust/."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        root = rust_root()
        for name in RUST_SOURCES:
            source, copy = root / name, Path(base_dir) / "rust" / name
            if source.is_dir():
                shutil.copytree(source, copy, ignore=RUST_SKIP)
            else:
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, copy)


class PlatformWheel(bdist_wheel):
    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(
    cmdclass={"build_py": BuildPyWithLibrary, "sdist": SdistWithRustSources, "bdist_wheel": PlatformWheel},
    distclass=BinaryDistribution,
)
