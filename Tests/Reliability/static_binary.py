"""A push-relay with the Swift runtime linked in, as docs/operations.md's from-source build
(`swift build -c release --static-swift-stdlib`) makes it, and a way to run a program with the
Swift toolchain out of sight.

The documented release build costs about 18 CPU-minutes, too much for every CI run, and asking
SwiftPM to link the debug build statically recompiles only some modules and then fails or not
depending on what was built before. So the debug build's own objects are linked again, outside
SwiftPM: SwiftPM's link command for push-relay (from its build manifest, .build/debug.yaml) with
`-static-stdlib` and the libraries the static runtime's modules name. The objects were compiled
against the shared runtime's modules, whose link entries leave out what static Foundation needs
besides itself (CoreFoundation, _FoundationICU, …); a probe importing the same modules, compiled
for the static runtime, gives that list from the toolchain itself. The result links the same
objects and the same static runtime libraries as the release build, unoptimized.
`PUSH_RELAY_STATIC_BINARY` names a binary to use instead (the release build itself)."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from cluster import RELAY_BIN, ROOT

# What a binary that needs the toolchain resolves (as scripts/package-deb.sh judges it).
TOOLCHAIN_LIBRARIES = re.compile(r"/(swift|swift_static)/|libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime")
PROBE = "import Foundation\nimport Dispatch\nimport Synchronization\nprint(Date())\n"


def static_binary(workdir: Path) -> Path:
    """The binary to install: `PUSH_RELAY_STATIC_BINARY`, or the debug build linked again into
    `workdir` with the static Swift runtime."""
    given = os.environ.get("PUSH_RELAY_STATIC_BINARY")
    if given:
        return Path(given).resolve()
    manifest = RELAY_BIN.resolve().parent.parent.parent / "debug.yaml"
    if not manifest.exists():
        manifest = ROOT / ".build" / "debug.yaml"
    text = manifest.read_text()
    match = re.search(r'^\s+args: (\[[^\n]*"-o","[^"]*/push-relay",[^\n]*\])$', text, re.M)
    assert match, f"no link command for push-relay in {manifest} (has SwiftPM's build manifest changed?)"
    arguments = json.loads(match.group(1))
    output = workdir / "push-relay"
    arguments[arguments.index("-o") + 1] = str(output)
    arguments[1:1] = ["-static-stdlib", *static_runtime_libraries(arguments[0], workdir)]
    result = subprocess.run(arguments, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"linking the debug build statically failed:\n{result.stderr[-4000:]}"
    return output


def static_runtime_libraries(swiftc: str, workdir: Path) -> list:
    """The -l options a module importing Foundation gets for the static runtime and not for the
    shared one."""
    probe = workdir / "probe.swift"
    probe.write_text(PROBE)

    def libraries(*flags):
        ir = workdir / "probe.ll"
        subprocess.run([swiftc, *flags, "-emit-ir", str(probe), "-o", str(ir)], check=True, capture_output=True, timeout=120)
        entries = re.search(r'@_swift1_autolink_entries = .*? c"([^"]*)"', ir.read_text())
        assert entries, "the probe's IR has no autolink entries (has swiftc's output changed?)"
        return re.findall(r"-l([A-Za-z0-9_]+)", entries.group(1))

    shared = set(libraries())
    return [f"-l{name}" for name in dict.fromkeys(libraries("-static-stdlib")) if name not in shared]


def toolchain_dependencies(binary: Path) -> list:
    """The lines of `ldd` and `readelf -d` (RUNPATH, RPATH) that point into a Swift toolchain."""
    ldd = subprocess.run(["ldd", str(binary)], capture_output=True, text=True, timeout=60).stdout
    dynamic = subprocess.run(["readelf", "-d", str(binary)], capture_output=True, text=True, timeout=60).stdout
    runpaths = [line for line in dynamic.splitlines() if "RUNPATH" in line or "RPATH" in line]
    return ([line.strip() for line in ldd.splitlines() if TOOLCHAIN_LIBRARIES.search(line)]
            + [line.strip() for line in runpaths if any(str(d) in line for d in toolchain_directories()) or "/swift" in line])


def toolchain_directories() -> list:
    """What to hide: the root of the toolchain that built the binaries, or, when that is the
    system's own /usr, the directory of its shared Swift runtime."""
    swiftc = Path(os.path.realpath(shutil.which("swiftc") or "/nonexistent/usr/bin/swiftc"))
    root = swiftc.parent.parent.parent
    hidden = swiftc.parent.parent / "lib" / "swift" / "linux" if str(root) in ("/", "/usr") else root
    return [hidden] if hidden.exists() else []


def hiding_toolchain(command: list, environment: dict = None):
    """`command` run with the toolchain covered by an empty tmpfs in a mount namespace of its own
    (as root, or else in a user namespace), in an environment holding only a system `PATH` and
    `environment`. None when this machine allows neither namespace."""
    directories = toolchain_directories()
    if not directories:
        return None
    mounts = " && ".join(f"mount -t tmpfs none '{d}'" for d in directories)
    empty = " && ".join(f'[ -z "$(ls -A \'{d}\')" ]' for d in directories)
    variables = [f"{name}={value}" for name, value in {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", **(environment or {})}.items()]
    for unshare in (["unshare", "--mount"], ["unshare", "--map-root-user", "--mount"]):
        trial = subprocess.run([*unshare, "sh", "-c", f"{mounts} && {empty}"], capture_output=True, timeout=60)
        if trial.returncode == 0:
            return [*unshare, "sh", "-c", f'{mounts} && exec env -i "$@"', "sh", *variables, *command]
    return None
